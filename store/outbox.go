package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"forumgm/forum"
)

// OutboxKind is what the poster sends.
type OutboxKind string

// Outbox kinds.
const (
	OutboxReply OutboxKind = "reply" // a reply in the game's thread
	OutboxPM    OutboxKind = "pm"    // a private message to Recipient
)

// OutboxState is where an item is in its life.
type OutboxState string

// Outbox states.
const (
	OutboxPending OutboxState = "pending" // to send (again, after a failed attempt)
	OutboxPosted  OutboxState = "posted"  // sent
	OutboxFailed  OutboxState = "failed"  // given up on; needs a human
)

// OutboxItem is a reply or private message to queue in a Commit.
type OutboxItem struct {
	Kind      OutboxKind
	Recipient string // the forum user name, for a PM; empty for a reply
	Subject   string
	Body      string // forum markup; the poster adds the item's marker to what it sends
	// Attachments are files posted with the item (at most MaxAttachments, each at most
	// MaxAttachmentSize bytes); their bytes are stored once however many items carry them.
	Attachments []forum.Attachment
	// Clock is the game's key of the clock the item starts (game.Message.Clock); "" none.
	Clock string
}

// OutboxCause is the cause of the events an outbox item's posting causes (Commit.Posted).
func OutboxCause(marker string) string { return "outbox:" + marker }

// Limits on an outbox item's attachments (the schema enforces them too).
const (
	MaxAttachments    = 8
	MaxAttachmentSize = 2 << 20 // bytes
)

// OutboxRow is a queued item as stored.
type OutboxRow struct {
	ID          int64
	Game        string
	N           int64 // the item's number within its game, 1..n
	Kind        OutboxKind
	Recipient   string
	Subject     string
	Body        string
	Attachments []forum.Attachment // in the order they were queued
	Marker      string             // Marker(the game's key, Game, N)
	EventSeq    int64              // the game's last event seq when the item was queued
	CreatedAt   time.Time
	State       OutboxState
	ForumPostID string // the forum's id of the posted reply ("" for a PM)
	Attempts    int
	LastError   string
	PostedAt    time.Time
	Clock       string // the clock the item starts (OutboxItem.Clock)
}

func (it OutboxItem) check() error {
	switch it.Kind {
	case OutboxReply:
		if it.Recipient != "" {
			return fmt.Errorf("%w: a thread reply with a recipient", ErrInvalid)
		}
	case OutboxPM:
		if it.Recipient == "" {
			return fmt.Errorf("%w: a private message without a recipient", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: outbox kind %q", ErrInvalid, it.Kind)
	}
	if it.Body == "" {
		return fmt.Errorf("%w: empty outbox body", ErrInvalid)
	}
	if len(it.Attachments) > MaxAttachments {
		return fmt.Errorf("%w: %d attachments (at most %d)", ErrInvalid, len(it.Attachments), MaxAttachments)
	}
	for i, a := range it.Attachments {
		switch {
		case a.Name == "" || strings.ContainsAny(a.Name, "/\\\x00") || a.Name == "." || a.Name == "..":
			return fmt.Errorf("%w: attachment %d: bad file name %q", ErrInvalid, i+1, a.Name)
		case a.ContentType == "":
			return fmt.Errorf("%w: attachment %q: no content type", ErrInvalid, a.Name)
		case len(a.Data) == 0:
			return fmt.Errorf("%w: attachment %q: empty", ErrInvalid, a.Name)
		case len(a.Data) > MaxAttachmentSize:
			return fmt.Errorf("%w: attachment %q: %d bytes (at most %d)", ErrInvalid, a.Name, len(a.Data), MaxAttachmentSize)
		}
	}
	return nil
}

// PendingOutbox lists the game's items still to send, in the order they were queued.
func (s *Store) PendingOutbox(ctx context.Context, game string) ([]OutboxRow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+outboxCols+` FROM outbox
		WHERE game_id = ? AND state = 'pending' ORDER BY id`, game)
	if err != nil {
		return nil, fmt.Errorf("store: pending outbox %s: %w", game, err)
	}
	defer rows.Close()
	var out []OutboxRow
	for rows.Next() {
		o, err := scanOutbox(rows)
		if err != nil {
			return nil, fmt.Errorf("store: pending outbox %s: %w", game, err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: pending outbox %s: %w", game, err)
	}
	rows.Close()
	for i := range out {
		if out[i].Attachments, err = outboxAttachments(ctx, s.r, out[i].ID); err != nil {
			return nil, fmt.Errorf("store: pending outbox %s: %w", game, err)
		}
	}
	return out, nil
}

// Outbox returns one outbox item; ErrNotFound if there is none.
func (s *Store) Outbox(ctx context.Context, id int64) (OutboxRow, error) {
	o, err := outboxItem(ctx, s.r, id)
	if err != nil {
		return OutboxRow{}, fmt.Errorf("store: outbox %d: %w", id, err)
	}
	return o, nil
}

// MarkPosted records that the item was sent (forumPostID is "" for a PM). Marking an item posted
// again with the same forum post id is a no-op; with another id it is ErrOutboxState.
func (s *Store) MarkPosted(ctx context.Context, id int64, forumPostID string, at time.Time) error {
	return s.write(ctx, fmt.Sprintf("mark posted %d", id), func(tx *sql.Tx) error {
		if err := s.fenceItem(ctx, tx, id); err != nil {
			return err
		}
		return markPosted(ctx, tx, Posted{ID: id, ForumPostID: forumPostID, At: at}, s.now())
	})
}

// Repoint corrects the forum post id of an item marked posted: the post holding its marker,
// found on a later read, when the forum had named another post for it (its redirect).
func (s *Store) Repoint(ctx context.Context, id int64, forumPostID string) error {
	return s.write(ctx, fmt.Sprintf("repoint posted %d", id), func(tx *sql.Tx) error {
		if err := s.fenceItem(ctx, tx, id); err != nil {
			return err
		}
		o, err := outboxItem(ctx, tx, id)
		if err != nil {
			return err
		}
		if o.State != OutboxPosted {
			return fmt.Errorf("outbox %d is %s, not posted: %w", id, o.State, ErrOutboxState)
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET forum_post_id = ? WHERE id = ?`, forumPostID, id)
		return err
	})
}

// Posted marks an outbox item posted (MarkPosted, or Commit.Posted with the events its posting
// causes).
type Posted struct {
	ID          int64
	ForumPostID string    // "" for a private message
	At          time.Time // zero: the store's clock
}

func markPosted(ctx context.Context, tx *sql.Tx, p Posted, now time.Time) error {
	o, err := outboxItem(ctx, tx, p.ID)
	if err != nil {
		return err
	}
	if o.State == OutboxPosted {
		if o.ForumPostID == p.ForumPostID {
			return nil
		}
		return fmt.Errorf("posted already as %q, not %q: %w", o.ForumPostID, p.ForumPostID, ErrOutboxState)
	}
	at := p.At
	if at.IsZero() {
		at = now
	}
	_, err = tx.ExecContext(ctx, `UPDATE outbox SET state = 'posted', forum_post_id = ?, posted_at = ? WHERE id = ?`,
		p.ForumPostID, fmtTime(at), p.ID)
	return err
}

// MarkAttempt records a failed attempt to send a pending item (it stays pending).
func (s *Store) MarkAttempt(ctx context.Context, id int64, cause error) error {
	return s.markAttempt(ctx, "mark attempt", id, cause, OutboxPending)
}

// MarkFailed records a last failed attempt and gives the item up (state failed) for a human.
func (s *Store) MarkFailed(ctx context.Context, id int64, cause error) error {
	return s.markAttempt(ctx, "mark failed", id, cause, OutboxFailed)
}

func (s *Store) markAttempt(ctx context.Context, what string, id int64, cause error, state OutboxState) error {
	msg := ""
	if cause != nil {
		msg = cause.Error()
	}
	return s.write(ctx, fmt.Sprintf("%s %d", what, id), func(tx *sql.Tx) error {
		if err := s.fenceItem(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, state = ?
			WHERE id = ? AND state = 'pending'`, msg, state, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		if _, err := outboxItem(ctx, tx, id); err != nil {
			return err
		}
		return fmt.Errorf("item %d is not pending: %w", id, ErrOutboxState)
	})
}

// insertOutbox queues items after the game's last one; n numbers them within the game.
func insertOutbox(ctx context.Context, tx *sql.Tx, game string, items []OutboxItem, lastSeq int64, now time.Time) error {
	if len(items) == 0 {
		return nil
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(n), 0) FROM outbox WHERE game_id = ?`, game).Scan(&n); err != nil {
		return err
	}
	key, err := markerKey(ctx, tx, game)
	if err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO outbox (game_id, n, kind, recipient, subject, body, marker, event_seq, created_at, clock)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	created := fmtTime(now)
	for _, it := range items {
		n++
		var id int64
		if err := stmt.QueryRowContext(ctx, game, n, it.Kind, it.Recipient, it.Subject, it.Body, Marker(key, game, n), lastSeq, created, it.Clock).Scan(&id); err != nil {
			return fmt.Errorf("outbox item %d: %w", n, err)
		}
		if len(it.Attachments) > 0 {
			if err := insertAttachments(ctx, tx, id, it.Attachments); err != nil {
				return fmt.Errorf("outbox item %d: %w", n, err)
			}
		}
	}
	return nil
}

const outboxCols = `id, game_id, n, kind, recipient, subject, body, marker, event_seq, created_at, state, forum_post_id,
	attempts, last_error, posted_at, clock`

func outboxItem(ctx context.Context, q queryer, id int64) (OutboxRow, error) {
	o, err := scanOutbox(q.QueryRowContext(ctx, `SELECT `+outboxCols+` FROM outbox WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return OutboxRow{}, fmt.Errorf("outbox item %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return OutboxRow{}, err
	}
	if o.Attachments, err = outboxAttachments(ctx, q, id); err != nil {
		return OutboxRow{}, err
	}
	return o, nil
}

// outboxAttachments reads an item's files in order (nil when it has none).
func outboxAttachments(ctx context.Context, q queryer, id int64) ([]forum.Attachment, error) {
	rows, err := q.QueryContext(ctx, `SELECT a.name, a.content_type, b.data FROM outbox_attachments a
		JOIN blobs b ON b.sha256 = a.sha256 WHERE a.outbox_id = ? ORDER BY a.pos`, id)
	if err != nil {
		return nil, fmt.Errorf("outbox item %d: attachments: %w", id, err)
	}
	defer rows.Close()
	var out []forum.Attachment
	for rows.Next() {
		var a forum.Attachment
		if err := rows.Scan(&a.Name, &a.ContentType, &a.Data); err != nil {
			return nil, fmt.Errorf("outbox item %d: attachments: %w", id, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox item %d: attachments: %w", id, err)
	}
	return out, nil
}

// insertAttachments stores an item's files: each file's bytes once (by sha256), and the item's list.
func insertAttachments(ctx context.Context, tx *sql.Tx, outboxID int64, atts []forum.Attachment) error {
	for i, a := range atts {
		sum := sha256.Sum256(a.Data)
		h := hex.EncodeToString(sum[:])
		if _, err := tx.ExecContext(ctx, `INSERT INTO blobs (sha256, data) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING`, h, a.Data); err != nil {
			return fmt.Errorf("attachment %q: %w", a.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_attachments (outbox_id, pos, name, content_type, sha256) VALUES (?, ?, ?, ?, ?)`,
			outboxID, i, a.Name, a.ContentType, h); err != nil {
			return fmt.Errorf("attachment %q: %w", a.Name, err)
		}
	}
	return nil
}

func scanOutbox(sc scanner) (OutboxRow, error) {
	var o OutboxRow
	var created string
	var posted sql.NullString
	if err := sc.Scan(&o.ID, &o.Game, &o.N, &o.Kind, &o.Recipient, &o.Subject, &o.Body, &o.Marker, &o.EventSeq,
		&created, &o.State, &o.ForumPostID, &o.Attempts, &o.LastError, &posted, &o.Clock); err != nil {
		return OutboxRow{}, err
	}
	var err error
	if o.CreatedAt, err = parseTime(created); err != nil {
		return OutboxRow{}, err
	}
	if o.PostedAt, err = parseNullTime(posted); err != nil {
		return OutboxRow{}, err
	}
	return o, nil
}

// LastReply is the game's newest thread reply item (any state); ok is false when it has none.
func (s *Store) LastReply(ctx context.Context, game string) (o OutboxRow, ok bool, err error) {
	var id int64
	err = s.r.QueryRowContext(ctx, `SELECT id FROM outbox WHERE game_id = ? AND kind = ? ORDER BY id DESC LIMIT 1`, game, string(OutboxReply)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return OutboxRow{}, false, nil
	}
	if err != nil {
		return OutboxRow{}, false, fmt.Errorf("store: game %s: last reply: %w", game, err)
	}
	if o, err = outboxItem(ctx, s.r, id); err != nil {
		return OutboxRow{}, false, fmt.Errorf("store: game %s: last reply: %w", game, err)
	}
	return o, true, nil
}

// FirstOutboxID is the id of a game's first queued item (its opening post); ErrNotFound if none.
func (s *Store) FirstOutboxID(ctx context.Context, game string) (int64, error) {
	var id int64
	err := s.r.QueryRowContext(ctx, `SELECT id FROM outbox WHERE game_id = ? ORDER BY n LIMIT 1`, game).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("store: game %s: no outbox item: %w", game, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("store: game %s: first outbox item: %w", game, err)
	}
	return id, nil
}

// fenceItem is fence for the game of an outbox item (when the store holds leases).
func (s *Store) fenceItem(ctx context.Context, tx *sql.Tx, id int64) error {
	if s.lease == nil {
		return nil
	}
	o, err := outboxItem(ctx, tx, id)
	if err != nil {
		return err
	}
	return s.fence(ctx, tx, o.Game)
}
