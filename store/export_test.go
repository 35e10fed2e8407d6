package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"forumgm/forum"
)

// Test-only conveniences, kept out of the binary: the daemon writes through Commit.

// IntegrityCheck runs PRAGMA integrity_check and foreign_key_check; nil when the file is sound.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.r.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			rows.Close()
			return fmt.Errorf("store: integrity check: %w", err)
		}
		msgs = append(msgs, m)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("store: integrity check: %v", msgs)
	}
	fk, err := s.r.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("store: foreign key check: %w", err)
	}
	defer fk.Close()
	if fk.Next() {
		return fmt.Errorf("store: foreign key check: violations found")
	}
	return fk.Err()
}

// Migration is an applied schema migration.
type Migration struct {
	Version   int
	Name      string
	AppliedAt time.Time
}

// Migrations lists the applied schema migrations in version order.
func (s *Store) Migrations(ctx context.Context) ([]Migration, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	defer rows.Close()
	var out []Migration
	for rows.Next() {
		var m Migration
		var at string
		if err := rows.Scan(&m.Version, &m.Name, &at); err != nil {
			return nil, fmt.Errorf("store: migrations: %w", err)
		}
		if m.AppliedAt, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("store: migrations: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return out, nil
}

// AddFlag puts a case in the moderator's queue and returns its id.
func (s *Store) AddFlag(ctx context.Context, f NewFlag) (int64, error) {
	if err := f.check(f.Game); err != nil {
		return 0, fmt.Errorf("store: add flag: %w", err)
	}
	var id int64
	err := s.write(ctx, "add flag "+f.Game, func(tx *sql.Tx) error {
		var err error
		id, err = insertFlag(ctx, tx, f.Game, f, s.now())
		return err
	})
	return id, err
}

// ResolveFlag closes an open flag; ErrFlagNotOpen if it was already resolved. To resolve a flag
// together with the events and replies of the decision, use Commit.Resolve instead.
func (s *Store) ResolveFlag(ctx context.Context, r Resolution) error {
	if err := r.check(); err != nil {
		return fmt.Errorf("store: resolve flag %d: %w", r.FlagID, err)
	}
	return s.write(ctx, fmt.Sprintf("resolve flag %d", r.FlagID), func(tx *sql.Tx) error {
		_, err := resolveFlag(ctx, tx, r, s.now())
		return err
	})
}

// RecordPost stores a post seen for the first time (verdict pending) and reports whether it was
// new. It returns the stored record either way, so a post seen before can be compared.
func (s *Store) RecordPost(ctx context.Context, game string, source Source, p forum.Post) (PostRecord, bool, error) {
	what := fmt.Sprintf("record post %s/%s/%s", game, source, p.ID)
	if err := checkPost(source, p); err != nil {
		return PostRecord{}, false, fmt.Errorf("store: %s: %w", what, err)
	}
	var rec PostRecord
	var isNew bool
	err := s.write(ctx, what, func(tx *sql.Tx) error {
		var err error
		isNew, err = insertPost(ctx, tx, game, source, p, VerdictPending, time.Time{}, s.now())
		if err != nil {
			return err
		}
		rec, err = post(ctx, tx, game, source, p.ID)
		return err
	})
	if err != nil {
		return PostRecord{}, false, err
	}
	return rec, isNew, nil
}

// SetPaused pauses or resumes a game, recording why and by whom.
func (s *Store) SetPaused(ctx context.Context, id string, paused bool, reason, by string) error {
	return s.write(ctx, "set paused "+id, func(tx *sql.Tx) error {
		return setPaused(ctx, tx, id, PauseUpdate{Paused: paused, Reason: reason, By: by}, s.now())
	})
}
