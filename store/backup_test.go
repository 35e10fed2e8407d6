package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Backups taken while another goroutine commits are whole: each opens (PRAGMA quick_check runs
// at open), passes the integrity check, and holds a gapless prefix of the event log.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	var committed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
				t.Error(err)
				return
			}
			committed.Add(1)
		}
	}()
	dir := t.TempDir()
	var copies []string
	for i := range 5 {
		for committed.Load() < int64(20*(i+1)) {
			time.Sleep(time.Millisecond) // let the writer get ahead
		}
		p := filepath.Join(dir, fmt.Sprintf("backup-%d.db", i))
		if err := s.Backup(ctx, p); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, p)
	}
	// One more onto an existing backup: replaced whole.
	if err := s.Backup(ctx, copies[0]); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if committed.Load() < 100 {
		t.Fatalf("only %d commits ran beside the backups", committed.Load())
	}
	var last int
	for i, p := range copies {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600 (it holds the marker keys)", p, st.Mode().Perm())
		}
		c, err := Open(ctx, p)
		if err != nil {
			t.Fatalf("open the copy %s: %v", p, err)
		}
		if err := c.IntegrityCheck(ctx); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		evs := checkGapless(t, c, "g")
		if len(evs)%2 != 0 {
			t.Errorf("%s holds half a commit: %d events", p, len(evs))
		}
		pending, err := c.PendingOutbox(ctx, "g")
		if err != nil || len(pending) != len(evs)/2 {
			t.Errorf("%s: %d outbox items for %d commits (%v)", p, len(pending), len(evs)/2, err)
		}
		if i > 1 && len(evs) < last { // (the first was replaced by the newest)
			t.Errorf("%s is older than the backup before it", p)
		}
		last = len(evs)
		c.Close()
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	if err := s.Backup(ctx, s.path); !errors.Is(err, ErrInvalid) {
		t.Errorf("backup onto the database itself: %v", err)
	}
}
