//go:build unix

package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"forumgm/forum"
)

const crashEnv = "FORUMGM_STORE_CRASH_DB"

// TestCrashChild is the child process of TestCrashDurability (run only with the environment
// variable set): it commits moves in a loop, printing "committed N" after each Commit returns,
// until it is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		return // not the child: TestCrashDurability runs this test in a child process
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ensureGame(t, s, "g")
	moves, err := s.MovePosts(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second) // a safety net if the parent never kills us
	for i := len(moves) + 1; time.Now().Before(deadline); i++ {
		c := moveCommit("g", strconv.Itoa(i))
		c.Flags = []NewFlag{{Source: SourceThread, PostID: strconv.Itoa(i), Kind: FlagOther}}
		if err := s.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("committed %d\n", i)
	}
}

// TestCrashDurability kills a committing child process with SIGKILL at random points, several
// times over the same file, and checks that every commit the child saw return is there, that no
// commit is there in part, and that the file is sound.
func TestCrashDurability(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	reported := 0
	for round, killAfter := range []int{1, 37, 150} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		seen, killed := 0, false
		for sc.Scan() {
			n, ok := strings.CutPrefix(sc.Text(), "committed ")
			if !ok {
				continue
			}
			i, err := strconv.Atoi(n)
			if err != nil {
				t.Fatal(err)
			}
			if i != reported+1 {
				t.Fatalf("round %d: child committed %d after %d", round, i, reported)
			}
			reported = i
			seen++
			if seen == killAfter && !killed {
				// Mid-loop: the child is already inside its next Commit.
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		err = cmd.Wait()
		if !killed {
			t.Fatalf("round %d: child exited before being killed: %v", round, err)
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child not killed by SIGKILL: %v", round, err)
		}
		// The commit in flight at the kill may have landed; the next child goes on after it.
		reported = checkAfterCrash(t, path, reported)
	}
}

// checkAfterCrash checks the file after a kill and returns how many commits it holds.
func checkAfterCrash(t *testing.T, path string, reported int) int {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	moves, err := s.MovePosts(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	n := len(moves)
	// Everything reported is there; at most the one commit in flight at the kill is there besides.
	if n < reported || n > reported+1 {
		t.Fatalf("%d posts after the crash, child reported %d", n, reported)
	}
	for i, p := range moves {
		if p.ID != strconv.Itoa(i+1) || p.Verdict != VerdictAccepted {
			t.Fatalf("post %d = %+v", i, p)
		}
	}
	evs := checkGapless(t, s, "g")
	out := count(t, s, `SELECT count(*) FROM outbox WHERE game_id = 'g'`)
	flags := count(t, s, `SELECT count(*) FROM flags WHERE game_id = 'g'`)
	if len(evs) != 2*n || out != n || flags != n {
		t.Fatalf("%d posts but %d events, %d outbox items, %d flags: a commit is there in part", n, len(evs), out, flags)
	}
	cur, _, err := s.Cursor(ctx, "g", SourceThread)
	if err != nil || cur != (forum.Cursor{PostID: strconv.Itoa(n)}) {
		t.Fatalf("cursor %+v %v, want post %d", cur, err, n)
	}
	t.Logf("after the crash: %d commits (child reported %d)", n, reported)
	return n
}
