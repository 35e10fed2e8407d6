package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ErrLocked: another process (another daemon) holds the store; see LockedError.
var ErrLocked = errors.New("store: in use by another process")

// LockedError names the holder of a store's lock.
type LockedError struct {
	Path   string // the database
	Holder string // what the holder wrote into the lock file: pid, host, start time, command
}

func (e *LockedError) Error() string {
	h := e.Holder
	if h == "" {
		h = "unknown holder"
	}
	return fmt.Sprintf("store: %s is in use by another forumgm (%s): one daemon per database; stop that one first", e.Path, h)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Shared opens the store without taking its lock, for tools that run beside the daemon (the
// moderator's review command): SQLite's own locking (busy_timeout, BEGIN IMMEDIATE) keeps their
// writes apart, and only one daemon may hold the store.
func Shared() Option {
	return func(s *Store) { s.shared = true }
}

// lockPath is the lock file of a database: the database's path and ".lock", beside it.
func lockPath(abs string) string { return abs + ".lock" }

// lock takes the store's exclusive lock for the life of the Store: an flock(2) on a lock file
// beside the database, held until Close or until the process ends in any way (the kernel drops an
// flock with the process, so a SIGKILL leaves no stale lock behind). The file then says who holds
// it, for the error the next opener gets.
//
// Why not SQLite's locking_mode=EXCLUSIVE: in WAL mode it keeps every other connection out, also
// this process's own readers and the moderator's review command, which must keep working beside
// the daemon; and it takes the lock only at the first write, so two daemons would both start. A
// separate lock says "one daemon per database" and nothing more.
func lock(abs string) (*os.File, error) {
	f, err := os.OpenFile(lockPath(abs), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: abs, Holder: holderOf(f)}
		}
		return nil, fmt.Errorf("store: lock %s: %w", lockPath(abs), err)
	}
	host, _ := os.Hostname()
	holder := fmt.Sprintf("pid %d on %s since %s: %s", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339),
		strings.Join(os.Args, " "))
	if len(holder) > 500 {
		holder = holder[:500]
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(holder+"\n"), 0)
	}
	return f, nil
}

// unlock drops the lock (closing the file drops the flock); the file stays, empty of meaning.
func unlock(f *os.File) error {
	if f == nil {
		return nil
	}
	return f.Close()
}

// checkPath explains, before SQLite tries, why the database cannot be opened for writing: a
// missing folder, a folder or a file that is read-only, a folder where the file should be. A
// missing file is fine: it is created.
func checkPath(abs string) error {
	dir := filepath.Dir(abs)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store: open %s: the folder %s does not exist (create it, or fix store.path in the config)", abs, dir)
	case err != nil:
		return fmt.Errorf("store: open %s: folder: %w", abs, err)
	case !st.IsDir():
		return fmt.Errorf("store: open %s: %s is not a folder", abs, dir)
	}
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
		return fmt.Errorf("store: open %s: the folder %s is read-only (%v): SQLite writes its -wal, -shm and the lock file beside the database", abs, dir, err)
	}
	st, err = os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("store: open %s: %w", abs, err)
	case st.IsDir():
		return fmt.Errorf("store: open %s: that is a folder, not a database file", abs)
	}
	if err := syscall.Access(abs, 2 /* W_OK */); err != nil {
		return fmt.Errorf("store: open %s: the database file is read-only (%v): check its owner and permissions", abs, err)
	}
	return nil
}

// quickCheck runs PRAGMA quick_check (the fast part of integrity_check) at open: a damaged file
// is refused at start-up rather than found by a failing commit later.
func quickCheck(ctx context.Context, s *Store, path string) error {
	rows, err := s.w.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return fmt.Errorf("store: open %s: quick_check: %w", path, err)
	}
	defer rows.Close()
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return fmt.Errorf("store: open %s: quick_check: %w", path, err)
		}
		if len(msgs) < 5 {
			msgs = append(msgs, m)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: open %s: quick_check: %w", path, err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("store: open %s: the database is damaged (quick_check: %s); restore the last backup (forumgm backup)", path, strings.Join(msgs, "; "))
	}
	return nil
}

// Holder tells whether a process holds the lock of the database at path, and what it wrote
// there (pid, host, start time, command), without taking the lock or creating anything.
//
// A PostgreSQL store has no lock (games are leased): Holder says nothing is held.
func Holder(path string) (holder string, held bool, err error) {
	if IsURL(path) {
		return "", false, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false, fmt.Errorf("store: %w", err)
	}
	f, err := os.Open(lockPath(abs))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: lock file: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return "", false, nil
	} else if !errors.Is(err, syscall.EWOULDBLOCK) {
		return "", false, fmt.Errorf("store: lock %s: %w", lockPath(abs), err)
	}
	return holderOf(f), true, nil
}

// holderOf is what the lock's holder wrote into the lock file (its first 512 bytes).
func holderOf(f *os.File) string {
	b := make([]byte, 512)
	n, _ := f.ReadAt(b, 0)
	return strings.TrimSpace(string(b[:n]))
}

// createPrivate creates the database file readable by its owner only (0600, whatever the umask)
// when it does not exist yet: it holds the games' seeds, salts, marker keys and secret orders.
// SQLite gives the -wal and -shm files it creates beside it the database file's own mode.
func createPrivate(abs string) error {
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil
	case err != nil:
		return fmt.Errorf("store: create %s: %w", abs, err)
	}
	if err := f.Chmod(0o600); err != nil { // the umask may have taken bits away, never added any
		f.Close()
		return fmt.Errorf("store: create %s: %w", abs, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("store: create %s: %w", abs, err)
	}
	return nil
}
