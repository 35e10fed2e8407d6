package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestReadersDuringWriter: readers never see part of a commit, and never see the log shrink, while
// a writer commits (WAL snapshots). Run with -race.
func TestReadersDuringWriter(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	const commits = 150
	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for !done.Load() {
				evs, err := s.Events(ctx, "g")
				if err != nil {
					errs <- err
					return
				}
				if len(evs)%2 != 0 || len(evs) < last {
					errs <- fmt.Errorf("reader %d: %d events after %d", r, len(evs), last)
					return
				}
				for i, e := range evs {
					if e.Seq != int64(i+1) {
						errs <- fmt.Errorf("reader %d: event %d has seq %d", r, i, e.Seq)
						return
					}
				}
				last = len(evs)
				if _, err := s.PendingOutbox(ctx, "g"); err != nil {
					errs <- err
					return
				}
				if _, _, err := s.Cursor(ctx, "g", SourceThread); err != nil {
					errs <- err
					return
				}
				reads.Add(1)
			}
		}()
	}
	for i := range commits {
		if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if reads.Load() == 0 {
		t.Error("no reads happened during the writes")
	}
	if evs := checkGapless(t, s, "g"); len(evs) != 2*commits {
		t.Errorf("%d events, want %d", len(evs), 2*commits)
	}
}

// TestTwoStoresWrite: a second Store on the same file (the moderator CLI, say) writes while
// the daemon's Store writes; busy_timeout and BEGIN IMMEDIATE make both succeed, no SQLITE_BUSY.
func TestTwoStoresWrite(t *testing.T) {
	ctx := context.Background()
	a, path := openTest(t)
	b, err := Open(ctx, path, Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ensureGame(t, a, "g1")
	ensureGame(t, b, "g2")
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, w := range []struct {
		s    *Store
		game string
	}{{a, "g1"}, {b, "g2"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				if err := w.s.Commit(ctx, moveCommit(w.game, fmt.Sprint(i))); err != nil {
					errs <- err
					return
				}
				if _, err := w.s.AddFlag(ctx, NewFlag{Game: w.game, Kind: FlagOther}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, g := range []string{"g1", "g2"} {
		if evs := checkGapless(t, a, g); len(evs) != 120 {
			t.Errorf("%s: %d events", g, len(evs))
		}
	}
}
