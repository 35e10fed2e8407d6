package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The store notices its file deleted or replaced under it (issue 19 item 6) and writes nothing
// more.
func TestFileDeletedOrReplacedRefusesWrites(t *testing.T) {
	ctx := context.Background()
	for _, replace := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "forumgm.db")
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnsureGame(ctx, "g1", "fake", nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CheckFile(); err != nil {
			t.Fatalf("CheckFile on the file opened: %v", err)
		}
		if replace {
			if err := s.Backup(ctx, filepath.Join(dir, "b.db")); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(dir, "b.db"), path); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		var gone *FileGoneError
		if err := s.CheckFile(); !errors.As(err, &gone) || gone.Replaced != replace {
			t.Errorf("replace %v: CheckFile: %v", replace, err)
		}
		err = s.Commit(ctx, Commit{Game: "g1", At: time.Now(), Cursor: &CursorUpdate{Source: SourceThread}})
		if !errors.Is(err, ErrFileGone) || !strings.Contains(err.Error(), path) {
			t.Errorf("replace %v: a commit after: %v", replace, err)
		}
		s.Close()
	}
}

func TestOwnMarker(t *testing.T) {
	ctx := context.Background()
	a, _ := openTest(t)
	b, _ := openTest(t)
	for _, s := range []*Store{a, b} {
		ensureGame(t, s, "g-1")
		if err := s.Commit(ctx, Commit{Game: "g-1", Outbox: []OutboxItem{{Kind: OutboxReply, Body: "x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	it, err := a.Outbox(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s      *Store
		game   string
		marker string
		want   bool
	}{
		{a, "g-1", it.Marker, true},
		{a, "g-1", it.Marker + "-p2", true},
		{b, "g-1", it.Marker, false}, // another store's key
		{a, "g", it.Marker, false},   // another game's
		{a, "g-1", "fgm-g-1-1-0123456789ab", false},
		{a, "g-1", "not a marker", false},
	} {
		if got, err := c.s.OwnMarker(ctx, c.game, c.marker); err != nil || got != c.want {
			t.Errorf("OwnMarker(%s, %s) = %v, %v; want %v", c.game, c.marker, got, err, c.want)
		}
	}
	if g, n, ok := MarkerOf(it.Marker + "-p3"); g != "g-1" || n != 1 || !ok {
		t.Errorf("MarkerOf: %s %d %v", g, n, ok)
	}
}
