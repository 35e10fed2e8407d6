package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"forumgm/forum"
	"forumgm/game"
)

// The store records posts in the referee's vocabulary (judge): where a post was read (Source),
// what became of it (Verdict, plus Pending: seen but not yet judged) and why a case needs a
// moderator (FlagKind). The names below are the same types, not copies.
type (
	Source  = game.Source
	Verdict = game.Verdict
)

// Sources.
const (
	SourceThread = game.Thread
	SourcePM     = game.PM
)

func validSource(s Source) bool { return s == SourceThread || s == SourcePM }

// Verdicts. Pending means seen but not yet judged.
const (
	VerdictPending  = game.Pending
	VerdictAccepted = game.Accepted
	VerdictRefused  = game.Refused
	VerdictIgnored  = game.Ignored
	VerdictFlagged  = game.Flagged
)

func validVerdict(v Verdict) bool {
	switch v {
	case VerdictPending, VerdictAccepted, VerdictRefused, VerdictIgnored, VerdictFlagged:
		return true
	}
	return false
}

// PostRecord is a post or private message as the store remembers it.
type PostRecord struct {
	Game        string
	Source      Source
	ID          string
	Author      string
	AuthorID    string
	PostedAt    time.Time
	FirstSeenAt time.Time
	TextHash    string // HashOf(Post): what an edit is compared against
	Text        string // the own text when first seen (Post.Text)
	// Post is the whole post as first seen: own text, quotes, code blocks, spoilers, permalink.
	// For a post recorded before migration 0003 (Whole false) only the own text is known and
	// Post holds just the stored columns (id, author, time, text).
	Post       forum.Post
	Whole      bool
	Verdict    Verdict
	JudgedAt   time.Time // zero while pending
	EditedHash string    // the latest differing hash seen; "" if never edited
	EditedAt   time.Time // when that edit was noticed
	VanishedAt time.Time // zero unless the post disappeared
}

// HashOf is the hash of p comparable with TextHash: ContentHash(p) for posts stored whole, the
// hash of the own text only for posts recorded before migration 0003 (whose quotes were never
// stored, so a quote could not be compared).
func (p PostRecord) HashOf(post forum.Post) string {
	if p.Whole {
		return ContentHash(post)
	}
	return TextHash(post.Text)
}

// Judged says whether the post has a verdict.
func (p PostRecord) Judged() bool { return p.Verdict != VerdictPending }

// PostCause is the event cause naming a post: "post:<id>" for a thread post, "pm:<id>" for a
// private message.
func PostCause(source Source, id string) string {
	if source == SourcePM {
		return "pm:" + id
	}
	return "post:" + id
}

// Causes that are not posts.
const TimerCause = "timer"

// ModeratorCause is the cause of a moderator's action.
func ModeratorCause(name string) string { return "moderator:" + name }

// SeenPost returns the stored post, and false if it was never seen.
func (s *Store) SeenPost(ctx context.Context, game string, source Source, id string) (PostRecord, bool, error) {
	p, err := post(ctx, s.r, game, source, id)
	if errors.Is(err, ErrNotFound) {
		return PostRecord{}, false, nil
	}
	if err != nil {
		return PostRecord{}, false, fmt.Errorf("store: seen post %s/%s/%s: %w", game, source, id, err)
	}
	return p, true, nil
}

// MarkPostEdited records that the post's text now hashes to newHash. It reports whether that is a
// change from what was last known (the first-seen hash or the last edit), and only then adds flag
// (if not nil) in the same transaction, so an edit is flagged exactly once even across crashes.
func (s *Store) MarkPostEdited(ctx context.Context, game string, source Source, id, newHash string, flag *NewFlag) (bool, error) {
	var changed bool
	err := s.write(ctx, fmt.Sprintf("mark post edited %s/%s/%s", game, source, id), func(tx *sql.Tx) error {
		if err := s.fence(ctx, tx, game); err != nil {
			return err
		}
		p, err := post(ctx, tx, game, source, id)
		if err != nil {
			return err
		}
		last := p.TextHash
		if p.EditedHash != "" {
			last = p.EditedHash
		}
		if newHash == last {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, `UPDATE posts SET edited_hash = ?, edited_at = ?
			WHERE game_id = ? AND source = ? AND post_id = ?`, newHash, fmtTime(s.now()), game, source, id); err != nil {
			return err
		}
		return addFlagFor(ctx, tx, game, flag, s.now())
	})
	return changed, err
}

// MarkPostVanished records that the post has disappeared from the forum. It reports whether it was
// not marked before, and only then adds flag (if not nil) in the same transaction.
func (s *Store) MarkPostVanished(ctx context.Context, game string, source Source, id string, flag *NewFlag) (bool, error) {
	var changed bool
	err := s.write(ctx, fmt.Sprintf("mark post vanished %s/%s/%s", game, source, id), func(tx *sql.Tx) error {
		if err := s.fence(ctx, tx, game); err != nil {
			return err
		}
		p, err := post(ctx, tx, game, source, id)
		if err != nil {
			return err
		}
		if !p.VanishedAt.IsZero() {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, `UPDATE posts SET vanished_at = ?
			WHERE game_id = ? AND source = ? AND post_id = ?`, fmtTime(s.now()), game, source, id); err != nil {
			return err
		}
		return addFlagFor(ctx, tx, game, flag, s.now())
	})
	return changed, err
}

// LastSeenBefore is the id of the game's post from source first seen before t that came last in
// the order posts were seen ("" when none): a read after it lists every post that reached the
// forum since about t (the inbox's rescan reads from there: a private message shown late).
func (s *Store) LastSeenBefore(ctx context.Context, game string, source Source, t time.Time) (string, error) {
	var id string
	err := s.r.QueryRowContext(ctx, `SELECT post_id FROM posts WHERE game_id = ? AND source = ? AND first_seen_at < ?
		ORDER BY rowid DESC LIMIT 1`, game, source, fmtTime(t)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: last %s post seen before %s in %s: %w", source, fmtTime(t), game, err)
	}
	return id, nil
}

// MovePosts lists the game's posts whose verdict is accepted or refused (the ones whose later edit
// or deletion matters), in the order they were first seen. Posts already marked vanished are
// included: the caller may see them come back.
func (s *Store) MovePosts(ctx context.Context, game string) ([]PostRecord, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+postCols+` FROM posts
		WHERE game_id = ? AND verdict IN ('accepted', 'refused') ORDER BY rowid`, game)
	if err != nil {
		return nil, fmt.Errorf("store: move posts %s: %w", game, err)
	}
	defer rows.Close()
	var out []PostRecord
	for rows.Next() {
		p, err := scanPost(rows)
		if err != nil {
			return nil, fmt.Errorf("store: move posts %s: %w", game, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: move posts %s: %w", game, err)
	}
	return out, nil
}

func checkPost(source Source, p forum.Post) error {
	if !validSource(source) {
		return fmt.Errorf("%w: source %q", ErrInvalid, source)
	}
	if p.ID == "" {
		return fmt.Errorf("%w: empty post id", ErrInvalid)
	}
	return nil
}

// insertPost inserts the post unless it is there; it reports whether it inserted.
func insertPost(ctx context.Context, tx *sql.Tx, game string, source Source, p forum.Post, v Verdict, judgedAt, now time.Time) (bool, error) {
	whole, err := json.Marshal(p)
	if err != nil {
		return false, fmt.Errorf("post %s as JSON: %w", p.ID, err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO posts
		(game_id, source, post_id, author, author_id, posted_at, first_seen_at, text_hash, text, verdict, judged_at, post_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id, source, post_id) DO NOTHING`,
		game, source, p.ID, p.Author, p.AuthorID, fmtTime(p.Time), fmtTime(now), ContentHash(p), p.Text,
		v, nullTime(judgedAt), string(whole))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

const postCols = `game_id, source, post_id, author, author_id, posted_at, first_seen_at, text_hash, text,
	verdict, judged_at, edited_hash, edited_at, vanished_at, post_json`

func post(ctx context.Context, q queryer, game string, source Source, id string) (PostRecord, error) {
	p, err := scanPost(q.QueryRowContext(ctx, `SELECT `+postCols+` FROM posts
		WHERE game_id = ? AND source = ? AND post_id = ?`, game, source, id))
	if errors.Is(err, sql.ErrNoRows) {
		return PostRecord{}, fmt.Errorf("post %s/%s/%s: %w", game, source, id, ErrNotFound)
	}
	return p, err
}

func scanPost(sc scanner) (PostRecord, error) {
	var p PostRecord
	var posted, seen string
	var judged, editedHash, edited, vanished, whole sql.NullString
	if err := sc.Scan(&p.Game, &p.Source, &p.ID, &p.Author, &p.AuthorID, &posted, &seen, &p.TextHash, &p.Text,
		&p.Verdict, &judged, &editedHash, &edited, &vanished, &whole); err != nil {
		return PostRecord{}, err
	}
	p.EditedHash = editedHash.String
	var err error
	if p.PostedAt, err = parseTime(posted); err != nil {
		return PostRecord{}, err
	}
	if p.FirstSeenAt, err = parseTime(seen); err != nil {
		return PostRecord{}, err
	}
	if whole.Valid {
		if err := json.Unmarshal([]byte(whole.String), &p.Post); err != nil {
			return PostRecord{}, fmt.Errorf("post %s: stored JSON: %w", p.ID, err)
		}
		p.Whole = true
	} else {
		p.Post = forum.Post{ID: p.ID, Author: p.Author, AuthorID: p.AuthorID, Time: p.PostedAt, Text: p.Text}
	}
	for _, f := range []struct {
		dst *time.Time
		src sql.NullString
	}{{&p.JudgedAt, judged}, {&p.EditedAt, edited}, {&p.VanishedAt, vanished}} {
		if *f.dst, err = parseNullTime(f.src); err != nil {
			return PostRecord{}, err
		}
	}
	return p, nil
}
