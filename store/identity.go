package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
)

// ErrFileGone: the database file the store opened was deleted, or another file was put in its
// place (a backup copied back, a mv), while the store had it open. SQLite goes on writing into the
// open (unlinked or replaced) file, so every commit from then on would be lost at the next start:
// the store refuses to write, and the daemon stops (see FileGoneError).
var ErrFileGone = errors.New("store: the database file was deleted or replaced while in use")

// FileGoneError says what happened to the database file.
type FileGoneError struct {
	Path     string
	Replaced bool // another file is at Path now (else there is none)
}

func (e *FileGoneError) Error() string {
	what := "was deleted"
	if e.Replaced {
		what = "was replaced by another file"
	}
	return fmt.Sprintf("store: the database file %s %s while forumgm had it open: nothing more is written to it; "+
		"stop forumgm, put the right database (or its latest backup) in place and start again", e.Path, what)
}

// Is makes errors.Is(err, ErrFileGone) true.
func (e *FileGoneError) Is(target error) bool { return target == ErrFileGone }

// fileIdentity records the database file as opened (its device and inode, through os.SameFile).
func (s *Store) fileIdentity() error {
	fi, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", s.path, err)
	}
	s.file = fi
	return nil
}

// CheckFile reports a *FileGoneError (errors.Is ErrFileGone) when the file at the store's path is
// no longer the one it opened: deleted, or replaced (another device or inode). Every write checks
// it first; the daemon checks it on every poll too.
func (s *Store) CheckFile() error {
	if s.file == nil {
		return nil
	}
	fi, err := os.Stat(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &FileGoneError{Path: s.path}
	case err != nil:
		return fmt.Errorf("store: check %s: %w", s.path, err)
	case !os.SameFile(s.file, fi):
		return &FileGoneError{Path: s.path, Replaced: true}
	}
	return nil
}

// gameMarker is an outbox marker of a game: the item's number, the keyed part and a part's suffix.
var gameMarker = regexp.MustCompile(`^fgm-(.+)-([0-9]+)-([0-9a-f]{12})(?:-p[0-9]+)?$`)

// MarkerOf parses an outbox marker (or a part's) into its game and item number; ok is false for
// anything that is not a marker.
func MarkerOf(marker string) (game string, n int64, ok bool) {
	game, n, _, ok = parseMarker(marker)
	return game, n, ok
}

// parseMarker parses a marker; base is the item's marker (without a part's suffix).
func parseMarker(marker string) (game string, n int64, base string, ok bool) {
	m := gameMarker.FindStringSubmatch(marker)
	if m == nil {
		return "", 0, "", false
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return "", 0, "", false
	}
	return m[1], n, "fgm-" + m[1] + "-" + m[2] + "-" + m[3], true
}

// OwnMarker reports whether marker (or a part's marker) is one this store made for game: made
// under the game's marker key, which never leaves the store. A marker of the game under another
// key is another store's (a store deleted and made anew, another copy running): false.
func (s *Store) OwnMarker(ctx context.Context, game, marker string) (bool, error) {
	g, n, base, ok := parseMarker(marker)
	if !ok || g != game {
		return false, nil
	}
	var key []byte
	err := s.r.QueryRowContext(ctx, `SELECT key FROM marker_keys WHERE game_id = ?`, game).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: game %s: marker key: %w", game, err)
	}
	return Marker(key, game, n) == base, nil
}
