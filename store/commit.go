package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"forumgm/forum"
	"forumgm/game"
)

// Commit is everything one judged input changes, written in one transaction by Store.Commit.
type Commit struct {
	Game string
	// At is the game time of the cause (the post's time, the timer's time, the moderator's action);
	// every event of the commit is stored with it. Required when there are events.
	At time.Time
	// Cause names what caused the events: PostCause(source, id), TimerCause or
	// ModeratorCause(name). Defaults to the post's cause with Post, TimerCause with TimerAt.
	Cause  string
	Actor  string // who acted (the player, the moderator); "" for the game itself
	Reason string // free text for the log (a moderator's override, say)

	// Post is the judged post and its verdict, or nil (a timer, a moderator action).
	Post *Judgement
	// Events are appended to the game's log in order, seqs assigned by the store.
	Events []game.Record
	// Outbox items are queued in order, after the events.
	Outbox []OutboxItem
	// Flags are added to the moderator's queue (Game may be left empty).
	Flags []NewFlag
	// Notices, if set, gives the outbox items that tell moderators about Flags once the store
	// has numbered them: it gets the flags' ids in the order of Flags, and its items are queued
	// after Outbox in the same transaction (a notice can name the flag's number).
	Notices func(flagIDs []int64) ([]OutboxItem, error)
	// Cursor, if set, moves a reader's cursor.
	Cursor *CursorUpdate
	// TimerAt, if set, is the timed rule this commit fires: the game clock moves to it, and if the
	// clock is already there or later the commit is refused with ErrTimerFired.
	TimerAt *time.Time
	// Resolve, if set, closes an open flag of the game as part of the decision.
	Resolve *Resolution
	// ExpectSeq, if set, is the game's last event seq the decision was computed on (the events
	// the referee had folded). If the log has moved since (another writer, such as a moderator's
	// command from another process, appended events), the commit is refused with a
	// *LogMovedError (errors.Is ErrLogMoved) and nothing is written: the caller rebuilds its
	// state from the log and decides again. The check and the append are in one transaction, so
	// no event can slip in between.
	ExpectSeq *int64
	// Pause, if set, records the game's paused state (a moderator's pause or resume) with the
	// events that say so.
	Pause *PauseUpdate
	// Link, if set, is the judged post's place in the game's chain (game.Outcome.Link): appended
	// to the chain table, whose last row a restored referee continues from.
	Link *Link
	// Posted, if set, marks an outbox item of the game posted, with the events its posting causes
	// (a reply that starts a side's clock): both or neither. An item posted already with the same
	// forum id is left as it is; with another, the commit is refused (ErrOutboxState).
	Posted *Posted
}

// PauseUpdate is a game paused or resumed, by whom and why.
type PauseUpdate struct {
	Paused     bool
	Reason, By string
}

// LogMovedError is Commit's refusal when the game's log is not at Commit.ExpectSeq.
type LogMovedError struct {
	Game     string
	Expected int64 // Commit.ExpectSeq
	Actual   int64 // the log's last seq at the commit
}

func (e *LogMovedError) Error() string {
	return fmt.Sprintf("game %s: decided on event %d but the log is at %d: %v", e.Game, e.Expected, e.Actual, ErrLogMoved)
}

// Is makes errors.Is(err, ErrLogMoved) true.
func (e *LogMovedError) Is(target error) bool { return target == ErrLogMoved }

// Expect returns a pointer to seq, for Commit.ExpectSeq.
func Expect(seq int64) *int64 { return &seq }

// Judgement is a post's verdict. The post is recorded if it was not yet; if it already has a
// verdict, the commit is refused with ErrAlreadyJudged, except that a post flagged for a moderator
// may be judged again in a commit that resolves its flag (Commit.Resolve).
type Judgement struct {
	Source  Source
	Post    forum.Post
	Verdict Verdict // not pending
}

// CursorUpdate moves a reader's cursor.
type CursorUpdate struct {
	Source Source
	Cursor forum.Cursor
}

func (c *Commit) check() error {
	if err := checkGame(c.Game); err != nil {
		return err
	}
	if c.Post != nil {
		if err := checkPost(c.Post.Source, c.Post.Post); err != nil {
			return err
		}
		if !validVerdict(c.Post.Verdict) || c.Post.Verdict == VerdictPending {
			return fmt.Errorf("%w: verdict %q", ErrInvalid, c.Post.Verdict)
		}
	}
	if c.Cause == "" {
		switch {
		case c.Post != nil:
			c.Cause = PostCause(c.Post.Source, c.Post.Post.ID)
		case c.TimerAt != nil:
			c.Cause = TimerCause
		}
	}
	if len(c.Events) > 0 {
		if c.At.IsZero() {
			return fmt.Errorf("%w: events without a time (Commit.At)", ErrInvalid)
		}
		if c.Cause == "" {
			return fmt.Errorf("%w: events without a cause", ErrInvalid)
		}
	}
	for i, r := range c.Events {
		if r.Kind == "" || !json.Valid(r.Data) {
			return fmt.Errorf("%w: event %d: kind %q, valid JSON %v", ErrInvalid, i, r.Kind, json.Valid(r.Data))
		}
	}
	for i, it := range c.Outbox {
		if err := it.check(); err != nil {
			return fmt.Errorf("outbox item %d: %w", i, err)
		}
	}
	for i, f := range c.Flags {
		if err := f.check(c.Game); err != nil {
			return fmt.Errorf("flag %d: %w", i, err)
		}
	}
	if c.Cursor != nil && !validSource(c.Cursor.Source) {
		return fmt.Errorf("%w: cursor source %q", ErrInvalid, c.Cursor.Source)
	}
	if c.ExpectSeq != nil && *c.ExpectSeq < 0 {
		return fmt.Errorf("%w: expected seq %d", ErrInvalid, *c.ExpectSeq)
	}
	if c.Posted != nil && c.Posted.ID <= 0 {
		return fmt.Errorf("%w: posted item %d", ErrInvalid, c.Posted.ID)
	}
	if c.TimerAt != nil && c.TimerAt.IsZero() {
		return fmt.Errorf("%w: zero timer", ErrInvalid)
	}
	if c.Resolve != nil {
		if err := c.Resolve.check(); err != nil {
			return err
		}
	}
	return nil
}

// Commit writes c in one transaction: all of it or, on any error, nothing. A post that already has
// a verdict gives ErrAlreadyJudged, a timer the clock has passed gives ErrTimerFired, a log that
// moved past c.ExpectSeq gives a *LogMovedError (ErrLogMoved).
func (s *Store) Commit(ctx context.Context, c Commit) error {
	if err := c.check(); err != nil {
		return fmt.Errorf("store: commit %s: %w", c.Game, err)
	}
	now := s.now()
	return s.write(ctx, "commit "+c.Game, func(tx *sql.Tx) error {
		if _, err := gameRow(ctx, tx, c.Game); err != nil {
			return err
		}
		if err := s.fence(ctx, tx, c.Game); err != nil {
			return err
		}
		if c.ExpectSeq != nil {
			var seq int64
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?`, c.Game).Scan(&seq); err != nil {
				return err
			}
			if seq != *c.ExpectSeq {
				return &LogMovedError{Game: c.Game, Expected: *c.ExpectSeq, Actual: seq}
			}
		}
		var resolved Flag
		if c.Resolve != nil {
			var err error
			if resolved, err = resolveFlag(ctx, tx, *c.Resolve, now); err != nil {
				return err
			}
			if resolved.Game != c.Game {
				return fmt.Errorf("%w: flag %d is of game %q", ErrInvalid, resolved.ID, resolved.Game)
			}
		}
		if c.Posted != nil {
			o, err := outboxItem(ctx, tx, c.Posted.ID)
			if err != nil {
				return err
			}
			if o.Game != c.Game {
				return fmt.Errorf("%w: outbox item %d is of game %q", ErrInvalid, o.ID, o.Game)
			}
			if err := markPosted(ctx, tx, *c.Posted, now); err != nil {
				return err
			}
		}
		if c.Post != nil {
			if err := recordVerdict(ctx, tx, c.Game, *c.Post, resolved, now); err != nil {
				return err
			}
		}
		if c.Link != nil {
			if err := appendLink(ctx, tx, c.Game, c.Link); err != nil {
				return err
			}
		}
		if c.TimerAt != nil {
			if err := advanceClock(ctx, tx, c.Game, *c.TimerAt); err != nil {
				return err
			}
		}
		seq, err := appendEvents(ctx, tx, &c)
		if err != nil {
			return err
		}
		ids := make([]int64, len(c.Flags))
		for i, f := range c.Flags {
			if ids[i], err = insertFlag(ctx, tx, c.Game, f, now); err != nil {
				return fmt.Errorf("flag %d: %w", i, err)
			}
		}
		outbox := c.Outbox
		if c.Notices != nil && len(ids) > 0 {
			notices, err := c.Notices(ids)
			if err != nil {
				return fmt.Errorf("notices: %w", err)
			}
			for i, it := range notices {
				if err := it.check(); err != nil {
					return fmt.Errorf("notice %d: %w", i, err)
				}
			}
			outbox = append(outbox[:len(outbox):len(outbox)], notices...)
		}
		if err := insertOutbox(ctx, tx, c.Game, outbox, seq, now); err != nil {
			return err
		}
		if c.Cursor != nil {
			if err := setCursor(ctx, tx, c.Game, c.Cursor.Source, c.Cursor.Cursor, now); err != nil {
				return err
			}
		}
		if c.Pause != nil {
			if err := setPaused(ctx, tx, c.Game, *c.Pause, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// recordVerdict records the verdict of a post, inserting the post if it is new.
func recordVerdict(ctx context.Context, tx *sql.Tx, game string, j Judgement, resolved Flag, now time.Time) error {
	inserted, err := insertPost(ctx, tx, game, j.Source, j.Post, j.Verdict, now, now)
	if err != nil || inserted {
		return err
	}
	p, err := post(ctx, tx, game, j.Source, j.Post.ID)
	if err != nil {
		return err
	}
	rejudge := p.Verdict == VerdictFlagged && resolved.ID != 0 &&
		resolved.Source == j.Source && resolved.PostID == j.Post.ID
	if p.Verdict != VerdictPending && !rejudge {
		return fmt.Errorf("post %s/%s/%s is %s: %w", game, j.Source, j.Post.ID, p.Verdict, ErrAlreadyJudged)
	}
	_, err = tx.ExecContext(ctx, `UPDATE posts SET verdict = ?, judged_at = ? WHERE game_id = ? AND source = ? AND post_id = ?`,
		j.Verdict, fmtTime(now), game, j.Source, j.Post.ID)
	return err
}

// appendEvents appends c's events after the game's last seq and returns the new last seq.
func appendEvents(ctx context.Context, tx *sql.Tx, c *Commit) (int64, error) {
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?`, c.Game).Scan(&seq); err != nil {
		return 0, err
	}
	if len(c.Events) == 0 {
		return seq, nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO events (game_id, seq, at, kind, data, cause, actor, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	at := fmtTime(c.At)
	for _, r := range c.Events {
		seq++
		if _, err := stmt.ExecContext(ctx, c.Game, seq, at, r.Kind, string(r.Data), c.Cause, c.Actor, c.Reason); err != nil {
			return 0, fmt.Errorf("event %d (%s): %w", seq, r.Kind, err)
		}
	}
	return seq, nil
}

// EventRow is one event of a game's log as stored.
type EventRow struct {
	Game   string
	Seq    int64
	At     time.Time
	Kind   string
	Data   json.RawMessage // the engine's JSON, byte for byte
	Cause  string
	Actor  string
	Reason string
}

// Record is the engine's view of the event.
func (e EventRow) Record() game.Record { return game.Record{Kind: e.Kind, Data: e.Data} }

// Events returns the game's log in seq order (1..n).
func (s *Store) Events(ctx context.Context, game string) ([]EventRow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, at, kind, data, cause, actor, reason FROM events
		WHERE game_id = ? ORDER BY seq`, game)
	if err != nil {
		return nil, fmt.Errorf("store: events %s: %w", game, err)
	}
	defer rows.Close()
	var out []EventRow
	for rows.Next() {
		e := EventRow{Game: game}
		var at string
		var data []byte
		if err := rows.Scan(&e.Seq, &at, &e.Kind, &data, &e.Cause, &e.Actor, &e.Reason); err != nil {
			return nil, fmt.Errorf("store: events %s: %w", game, err)
		}
		e.Data = data
		if e.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("store: events %s: %w", game, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: events %s: %w", game, err)
	}
	return out, nil
}

// Records returns the game's log as stored records, for game.Replay.
func (s *Store) Records(ctx context.Context, id string) ([]game.Record, error) {
	evs, err := s.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]game.Record, len(evs))
	for i, e := range evs {
		out[i] = e.Record()
	}
	return out, nil
}

// LastSeq returns the seq of the game's last event (0 when the log is empty).
func (s *Store) LastSeq(ctx context.Context, game string) (int64, error) {
	var seq int64
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?`, game).Scan(&seq); err != nil {
		return 0, fmt.Errorf("store: last seq %s: %w", game, err)
	}
	return seq, nil
}
