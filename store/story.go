package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Said is one of the bot's replies in a game's thread, posted: what the thread shows of the game
// (accepted moves, refusals, penalties, moderators' decisions, round reports), for the players'
// public page (package public). Private messages are never in it.
type Said struct {
	N           int64 // the outbox's number of the item (1 is the opening post)
	Body        string
	EventSeq    int64 // the game's last event seq when the reply was queued
	ForumPostID string
	PostedAt    time.Time
	CreatedAt   time.Time
}

// Delta is what a game's log and thread gained after a point: its new events and the bot's
// thread replies posted since (Store.Since).
type Delta struct {
	Events []EventRow
	Said   []Said
	// Pending is the number of the game's first item still to post (0: none): a reply numbered
	// from it on may be posted later, so the next read starts before it.
	Pending int64
}

// Since reads, in one read transaction, the game's events after seq afterSeq, its thread replies
// posted with numbers after afterN, and the number of its first item still pending. A caller
// reading again passes min(the highest number it has, Pending-1) as afterN: a reply posted late,
// after later ones, is read then (the caller drops the numbers it has). Each read uses the
// tables' indexes: it costs what is new, not the game's length.
func (s *Store) Since(ctx context.Context, game string, afterSeq, afterN int64) (Delta, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Delta{}, fmt.Errorf("store: since %s: %w", game, err)
	}
	defer tx.Rollback()
	var d Delta
	rows, err := tx.QueryContext(ctx, `SELECT seq, at, kind, data, cause, actor, reason FROM events
		WHERE game_id = ? AND seq > ? ORDER BY seq`, game, afterSeq)
	if err != nil {
		return Delta{}, fmt.Errorf("store: since %s: %w", game, err)
	}
	for rows.Next() {
		e := EventRow{Game: game}
		var at string
		var data []byte
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &data, &e.Cause, &e.Actor, &e.Reason); err != nil {
			rows.Close()
			return Delta{}, fmt.Errorf("store: since %s: %w", game, err)
		}
		e.Data = data
		if e.At, err = parseTime(at); err != nil {
			rows.Close()
			return Delta{}, fmt.Errorf("store: since %s: %w", game, err)
		}
		d.Events = append(d.Events, e)
	}
	if err := rows.Err(); err != nil {
		return Delta{}, fmt.Errorf("store: since %s: %w", game, err)
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `SELECT n, body, event_seq, forum_post_id, posted_at, created_at FROM outbox
		WHERE game_id = ? AND kind = 'reply' AND state = 'posted' AND n > ? ORDER BY n`, game, afterN)
	if err != nil {
		return Delta{}, fmt.Errorf("store: since %s: replies: %w", game, err)
	}
	defer rows.Close()
	for rows.Next() {
		var x Said
		var posted sql.NullString
		var created string
		if err := rows.Scan(&x.N, &x.Body, &x.EventSeq, &x.ForumPostID, &posted, &created); err != nil {
			return Delta{}, fmt.Errorf("store: since %s: replies: %w", game, err)
		}
		if x.PostedAt, err = parseNullTime(posted); err != nil {
			return Delta{}, fmt.Errorf("store: since %s: replies: %w", game, err)
		}
		if x.CreatedAt, err = parseTime(created); err != nil {
			return Delta{}, fmt.Errorf("store: since %s: replies: %w", game, err)
		}
		d.Said = append(d.Said, x)
	}
	if err := rows.Err(); err != nil {
		return Delta{}, fmt.Errorf("store: since %s: replies: %w", game, err)
	}
	rows.Close()
	var pending sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MIN(n) FROM outbox WHERE game_id = ? AND state = 'pending'`, game).Scan(&pending); err != nil {
		return Delta{}, fmt.Errorf("store: since %s: pending: %w", game, err)
	}
	d.Pending = pending.Int64
	return d, nil
}
