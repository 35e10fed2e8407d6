package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Progress is a game's long read under way (the cold catch-up of a long thread), as the daemon
// last recorded it (migration 0012).
type Progress struct {
	Game    string
	Done    int           // pages read
	ToGo    int           // pages still to read
	ETA     time.Duration // the estimate of what is left
	Since   time.Time     // when the read began
	Updated time.Time     // when the daemon recorded it
}

// SetProgress records game's long read; toGo 0 (the read done) removes the record.
func (s *Store) SetProgress(ctx context.Context, game string, done, toGo int, eta time.Duration, since time.Time) error {
	return s.write(ctx, "set progress of "+game, func(tx *sql.Tx) error {
		if err := s.fence(ctx, tx, game); err != nil {
			return err
		}
		if toGo <= 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM progress WHERE game_id = ?`, game)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO progress (game_id, pages_done, pages_to_go, eta_seconds, since, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET pages_done = excluded.pages_done, pages_to_go = excluded.pages_to_go,
			eta_seconds = excluded.eta_seconds, since = excluded.since, updated_at = excluded.updated_at`,
			game, done, toGo, int64(eta/time.Second), fmtTime(since), fmtTime(s.now()))
		return err
	})
}

// Progresses are the long reads under way, by game.
func (s *Store) Progresses(ctx context.Context) (map[string]Progress, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, pages_done, pages_to_go, eta_seconds, since, updated_at FROM progress`)
	if err != nil {
		return nil, fmt.Errorf("store: progress: %w", err)
	}
	defer rows.Close()
	out := map[string]Progress{}
	for rows.Next() {
		var p Progress
		var eta int64
		var since, updated string
		if err := rows.Scan(&p.Game, &p.Done, &p.ToGo, &eta, &since, &updated); err != nil {
			return nil, fmt.Errorf("store: progress: %w", err)
		}
		p.ETA = time.Duration(eta) * time.Second
		if p.Since, err = parseTime(since); err != nil {
			return nil, fmt.Errorf("store: progress of %s: %w", p.Game, err)
		}
		if p.Updated, err = parseTime(updated); err != nil {
			return nil, fmt.Errorf("store: progress of %s: %w", p.Game, err)
		}
		out[p.Game] = p
	}
	return out, rows.Err()
}
