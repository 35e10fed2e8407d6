package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"forumgm/forum"
)

// Cursor returns how far the game's reader of source has read, and false if it never has.
func (s *Store) Cursor(ctx context.Context, game string, source Source) (forum.Cursor, bool, error) {
	var raw string
	err := s.r.QueryRowContext(ctx, `SELECT cursor FROM cursors WHERE game_id = ? AND source = ?`, game, source).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return forum.Cursor{}, false, nil
	}
	if err != nil {
		return forum.Cursor{}, false, fmt.Errorf("store: cursor %s/%s: %w", game, source, err)
	}
	var c forum.Cursor
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return forum.Cursor{}, false, fmt.Errorf("store: cursor %s/%s: %w", game, source, err)
	}
	return c, true, nil
}

// SetCursor records how far the game's reader of source has read. A cursor that goes with a
// judged post belongs in that post's Commit instead.
func (s *Store) SetCursor(ctx context.Context, game string, source Source, c forum.Cursor) error {
	what := fmt.Sprintf("set cursor %s/%s", game, source)
	if !validSource(source) {
		return fmt.Errorf("store: %s: %w: source %q", what, ErrInvalid, source)
	}
	return s.write(ctx, what, func(tx *sql.Tx) error {
		if err := s.fence(ctx, tx, game); err != nil {
			return err
		}
		return setCursor(ctx, tx, game, source, c, s.now())
	})
}

func setCursor(ctx context.Context, tx *sql.Tx, game string, source Source, c forum.Cursor, now time.Time) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO cursors (game_id, source, cursor, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, source) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
		game, source, string(b), fmtTime(now))
	if err != nil {
		return fmt.Errorf("cursor: %w", err)
	}
	return nil
}

// Clock returns the time of the last timed rule fired for the game, and false if none has.
// Timers fire through Commit.TimerAt, which only moves the clock forward.
func (s *Store) Clock(ctx context.Context, game string) (time.Time, bool, error) {
	var raw string
	err := s.r.QueryRowContext(ctx, `SELECT last_timer_at FROM clocks WHERE game_id = ?`, game).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: clock %s: %w", game, err)
	}
	t, err := parseTime(raw)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: clock %s: %w", game, err)
	}
	return t, true, nil
}

// advanceClock moves the game's clock to at; ErrTimerFired unless at is after the stored time.
func advanceClock(ctx context.Context, tx *sql.Tx, game string, at time.Time) error {
	var raw string
	err := tx.QueryRowContext(ctx, `SELECT last_timer_at FROM clocks WHERE game_id = ?`, game).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		last, err := parseTime(raw)
		if err != nil {
			return err
		}
		if !at.After(last) {
			return fmt.Errorf("timer at %s, clock at %s: %w", fmtTime(at), raw, ErrTimerFired)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO clocks (game_id, last_timer_at) VALUES (?, ?)
		ON CONFLICT (game_id) DO UPDATE SET last_timer_at = excluded.last_timer_at`, game, fmtTime(at))
	return err
}
