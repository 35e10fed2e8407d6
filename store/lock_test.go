package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// One daemon per store: a second Open of the same database fails, naming the holder, until the
// first Store is closed; a Shared open (the review command) works beside it.
func TestOneOpenerPerStore(t *testing.T) {
	ctx := context.Background()
	a, path := openFileTest(t)
	_, err := Open(ctx, path)
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	for _, want := range []string{path, fmt.Sprintf("pid %d", os.Getpid()), "one daemon per database"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	sh, err := Open(ctx, path, Shared())
	if err != nil {
		t.Fatalf("shared open beside the daemon: %v", err)
	}
	ensureGame(t, sh, "g")
	sh.Close()
	if _, err := Open(ctx, path); !errors.Is(err, ErrLocked) {
		t.Fatalf("closing a shared store dropped the lock: %v", err)
	}
	a.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open after the holder closed: %v", err)
	}
	b.Close()
}

// The lock holds across processes: a child process holding the store keeps this one out.
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv(lockChildEnv) != "" {
		return // the child: see lockChild
	}
	path := filepath.Join(t.TempDir(), "forumgm.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf) // "open" once the child holds the store
	if !strings.Contains(string(buf[:n]), "open") {
		t.Fatalf("child: %q", buf[:n])
	}
	_, err = Open(context.Background(), path)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("open while a child holds the store: %v, want ErrLocked naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL) // the kernel drops the lock with the process
	stdin.Close()
	cmd.Wait()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	s.Close()
}

const lockChildEnv = "FORUMGM_STORE_LOCK_DB"

// TestLockChild is TestLockAcrossProcesses's child: it opens the store, says so, and waits.
func TestLockChild(t *testing.T) {
	path := os.Getenv(lockChildEnv)
	if path == "" {
		return
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fmt.Println("open")
	b := make([]byte, 1)
	os.Stdin.Read(b) // until the parent closes stdin or kills us
}

// Paths that cannot work are refused at open with a message that says what is wrong.
func TestOpenBadPaths(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "db.db"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing", "forumgm.db"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{filepath.Join(dir, "db.db"), "is a folder, not a database file"},
		{filepath.Join(dir, "file", "forumgm.db"), "is not a folder"},
	} {
		_, err := Open(ctx, c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("open %s: %v, want %q", c.path, err, c.want)
		}
	}
}

// A damaged database is refused at open (PRAGMA quick_check), not found by a failing commit.
func TestOpenDamagedDatabase(t *testing.T) {
	ctx := context.Background()
	s, path := openFileTest(t)
	ensureGame(t, s, "g")
	for i := range 300 {
		if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.w.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Scribble over the middle of the last page, a page of the posts or events (the schema and
	// schema_migrations, on the first pages, stay readable, so only the check finds it).
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := []byte(strings.Repeat("\xde\xad\xbe\xef", 256))
	if _, err := f.WriteAt(junk, st.Size()-4096+8); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Open(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "the database is damaged (quick_check") {
		t.Fatalf("open of a damaged file: %v, want it refused as damaged", err)
	}
	t.Logf("refused: %v", err)
}

const readOnlyEnv = "FORUMGM_STORE_RO_DB"

// A read-only database file or folder is refused at open with a message saying which, instead of
// opening and then failing every commit. Root may write anything, so as root the opens run in a
// child process as the user nobody.
func TestOpenReadOnly(t *testing.T) {
	if os.Getenv(readOnlyEnv) != "" {
		return // the child: see TestReadOnlyChild
	}
	top, err := os.MkdirTemp("", "forumgm-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	mk := func(name string, dirMode, fileMode os.FileMode) string {
		dir := filepath.Join(top, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "forumgm.db")
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		ensureGame(t, s, "g")
		s.Close()
		for _, f := range []string{path + "-wal", path + "-shm", path + ".lock"} {
			os.Remove(f)
		}
		if err := errors.Join(os.Chmod(path, fileMode), os.Chmod(dir, dirMode)); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cases := []struct{ path, want string }{
		{mk("file", 0o777, 0o444), "the database file is read-only"},
		{mk("folder", 0o555, 0o666), "is read-only"},
	}
	root := os.Geteuid() == 0
	bin := ""
	if root {
		if err := os.Chmod(top, 0o755); err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(top, "store.test")
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		var msg string
		if root {
			cmd := exec.Command(bin, "-test.run=^TestReadOnlyChild$")
			cmd.Dir = top
			cmd.Env = []string{readOnlyEnv + "=" + c.path}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			out, _ := cmd.CombinedOutput()
			msg = string(out)
		} else if _, err := Open(context.Background(), c.path); err != nil {
			msg = err.Error()
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("open %s: %q, want %q", c.path, msg, c.want)
		}
		t.Logf("%s: %s", filepath.Base(filepath.Dir(c.path)), strings.SplitN(msg, "\n", 2)[0])
	}
}

// TestReadOnlyChild is TestOpenReadOnly's child (as the user nobody): it prints Open's error.
func TestReadOnlyChild(t *testing.T) {
	path := os.Getenv(readOnlyEnv)
	if path == "" {
		return
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		fmt.Println("open error:", err)
		return
	}
	s.Close()
	fmt.Println("opened")
}
