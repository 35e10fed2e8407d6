package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ReserveSlot takes the next request slot of a forum host shared by every daemon of the database
// (migration 0011) and returns when it is: now, or when the requests reserved before it have had
// their interval each; every is one request's interval (1/rate). The caller waits until the slot.
func (s *Store) ReserveSlot(ctx context.Context, host string, every time.Duration) (time.Time, error) {
	now := time.Now
	if s.lease != nil {
		now = s.lease.now
	}
	var slot time.Time
	err := s.write(ctx, "reserve a request slot of "+host, func(tx *sql.Tx) error {
		q := `SELECT next_at FROM rates WHERE host = ?`
		if s.pg {
			q += ` FOR UPDATE`
		}
		slot = now()
		var next string
		switch err := tx.QueryRowContext(ctx, q, host).Scan(&next); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			t, err := parseTime(next)
			if err != nil {
				return err
			}
			if t.After(slot) {
				slot = t
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO rates (host, next_at) VALUES (?, ?)
			ON CONFLICT (host) DO UPDATE SET next_at = excluded.next_at`, host, fmtTime(slot.Add(every)))
		return err
	})
	return slot, err
}
