package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"forumgm/game"
	"time"
)

// FlagKind says why a case needs a moderator (the referee's vocabulary).
type FlagKind = game.FlagKind

// Flag kinds.
const (
	FlagUnreadable  = game.FlagUnreadable
	FlagEdited      = game.FlagEdited
	FlagDeleted     = game.FlagDeleted
	FlagNotInRoster = game.FlagNotInRoster
	FlagDispute     = game.FlagDispute
	FlagLate        = game.FlagLate
	FlagClockJump   = game.FlagClockJump
	FlagOther       = game.FlagOther
)

func validFlagKind(k FlagKind) bool {
	switch k {
	case FlagUnreadable, FlagEdited, FlagDeleted, FlagNotInRoster, FlagDispute, FlagLate, FlagClockJump, FlagOther:
		return true
	}
	return false
}

// FlagState is where a flag is in the moderator's queue.
type FlagState string

// Flag states.
const (
	FlagOpen      FlagState = "open"
	FlagAccepted  FlagState = "accepted"
	FlagRejected  FlagState = "rejected"
	FlagDismissed FlagState = "dismissed"
)

// NewFlag is a case to put in the moderator's queue.
type NewFlag struct {
	Game   string // may be left empty inside a Commit (the Commit's game is used)
	Source Source // with PostID: the post the flag is about (it must be recorded); both empty otherwise
	PostID string
	Kind   FlagKind
	Detail string
}

// Flag is a case in the moderator's queue.
type Flag struct {
	ID         int64
	Game       string
	Source     Source // "" when not about a post
	PostID     string
	Kind       FlagKind
	Detail     string
	CreatedAt  time.Time
	State      FlagState
	ResolvedBy string
	ResolvedAt time.Time
	Note       string
}

// Resolution closes an open flag.
type Resolution struct {
	FlagID int64
	State  FlagState // accepted, rejected or dismissed
	By     string    // the moderator
	Note   string
	At     time.Time // zero: the store's clock
}

// OpenFlags lists the open flags of a game ("" for all games) oldest first.
func (s *Store) OpenFlags(ctx context.Context, game string) ([]Flag, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+flagCols+` FROM flags
		WHERE state = 'open' AND (? = '' OR game_id = ?) ORDER BY id`, game, game)
	if err != nil {
		return nil, fmt.Errorf("store: open flags %s: %w", game, err)
	}
	defer rows.Close()
	var out []Flag
	for rows.Next() {
		f, err := scanFlag(rows)
		if err != nil {
			return nil, fmt.Errorf("store: open flags %s: %w", game, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: open flags %s: %w", game, err)
	}
	return out, nil
}

// Flag returns one flag; ErrNotFound if there is none.
func (s *Store) Flag(ctx context.Context, id int64) (Flag, error) {
	f, err := flag(ctx, s.r, id)
	if err != nil {
		return Flag{}, fmt.Errorf("store: flag %d: %w", id, err)
	}
	return f, nil
}

func (f NewFlag) check(game string) error {
	if err := checkGame(game); err != nil {
		return err
	}
	if f.Game != "" && f.Game != game {
		return fmt.Errorf("%w: flag of game %q in a commit of %q", ErrInvalid, f.Game, game)
	}
	if !validFlagKind(f.Kind) {
		return fmt.Errorf("%w: flag kind %q", ErrInvalid, f.Kind)
	}
	if (f.Source == "") != (f.PostID == "") || (f.Source != "" && !validSource(f.Source)) {
		return fmt.Errorf("%w: flag post %q/%q", ErrInvalid, f.Source, f.PostID)
	}
	return nil
}

func (r Resolution) check() error {
	switch r.State {
	case FlagAccepted, FlagRejected, FlagDismissed:
	default:
		return fmt.Errorf("%w: resolution state %q", ErrInvalid, r.State)
	}
	if r.By == "" {
		return fmt.Errorf("%w: resolution without a moderator", ErrInvalid)
	}
	return nil
}

func addFlagFor(ctx context.Context, tx *sql.Tx, game string, f *NewFlag, now time.Time) error {
	if f == nil {
		return nil
	}
	if err := f.check(game); err != nil {
		return err
	}
	_, err := insertFlag(ctx, tx, game, *f, now)
	return err
}

func insertFlag(ctx context.Context, tx *sql.Tx, game string, f NewFlag, now time.Time) (int64, error) {
	var source, postID any
	if f.PostID != "" {
		source, postID = string(f.Source), f.PostID
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO flags (game_id, source, post_id, kind, detail, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, game, source, postID, f.Kind, f.Detail, fmtTime(now)).Scan(&id); err != nil {
		return 0, fmt.Errorf("flag: %w", err)
	}
	return id, nil
}

// resolveFlag closes an open flag and returns it as it was.
func resolveFlag(ctx context.Context, tx *sql.Tx, r Resolution, now time.Time) (Flag, error) {
	f, err := flag(ctx, tx, r.FlagID)
	if err != nil {
		return Flag{}, err
	}
	if f.State != FlagOpen {
		return Flag{}, fmt.Errorf("flag %d is %s: %w", r.FlagID, f.State, ErrFlagNotOpen)
	}
	at := r.At
	if at.IsZero() {
		at = now
	}
	if _, err := tx.ExecContext(ctx, `UPDATE flags SET state = ?, resolved_by = ?, resolved_at = ?, note = ? WHERE id = ?`,
		r.State, r.By, fmtTime(at), r.Note, r.FlagID); err != nil {
		return Flag{}, err
	}
	return f, nil
}

const flagCols = `id, game_id, source, post_id, kind, detail, created_at, state, resolved_by, resolved_at, note`

func flag(ctx context.Context, q queryer, id int64) (Flag, error) {
	f, err := scanFlag(q.QueryRowContext(ctx, `SELECT `+flagCols+` FROM flags WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Flag{}, fmt.Errorf("flag %d: %w", id, ErrNotFound)
	}
	return f, err
}

func scanFlag(sc scanner) (Flag, error) {
	var f Flag
	var source, postID, resolved sql.NullString
	var created string
	if err := sc.Scan(&f.ID, &f.Game, &source, &postID, &f.Kind, &f.Detail, &created, &f.State, &f.ResolvedBy,
		&resolved, &f.Note); err != nil {
		return Flag{}, err
	}
	f.Source, f.PostID = Source(source.String), postID.String
	var err error
	if f.CreatedAt, err = parseTime(created); err != nil {
		return Flag{}, err
	}
	if f.ResolvedAt, err = parseNullTime(resolved); err != nil {
		return Flag{}, err
	}
	return f, nil
}
