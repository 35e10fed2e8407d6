package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"forumgm/game"
)

// Secret is a game's seed and salt (secrets table): kept apart from the game's public config.
type Secret struct {
	Seed, Salt string
}

// EnsureSecret keeps s as the game's secret unless it has one, and returns the stored one (a
// game keeps its first seed for ever).
func (s *Store) EnsureSecret(ctx context.Context, game string, sec Secret) (Secret, error) {
	if sec.Seed == "" {
		return Secret{}, fmt.Errorf("store: secret of %s: %w: empty seed", game, ErrInvalid)
	}
	var out Secret
	err := s.write(ctx, "secret "+game, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO secrets (game_id, seed, salt) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO NOTHING`, game, sec.Seed, sec.Salt); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT seed, salt FROM secrets WHERE game_id = ?`, game).Scan(&out.Seed, &out.Salt)
	})
	return out, err
}

// GameSecret is the game's seed and salt; ErrNotFound when it has none.
func (s *Store) GameSecret(ctx context.Context, game string) (Secret, error) {
	var out Secret
	err := s.r.QueryRowContext(ctx, `SELECT seed, salt FROM secrets WHERE game_id = ?`, game).Scan(&out.Seed, &out.Salt)
	if errors.Is(err, sql.ErrNoRows) {
		return Secret{}, fmt.Errorf("store: secret of %s: %w", game, ErrNotFound)
	}
	if err != nil {
		return Secret{}, fmt.Errorf("store: secret of %s: %w", game, err)
	}
	return out, nil
}

// appendLink records the post a judged input absorbed into the game's chain (Commit.Link).
func appendLink(ctx context.Context, tx *sql.Tx, game string, l *Link) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO chain (game_id, k, post_id, head) VALUES (?, ?, ?, ?)`,
		game, l.K, l.PostID, l.Head); err != nil {
		return fmt.Errorf("chain link %d: %w", l.K, err)
	}
	return nil
}

// Link is one post absorbed into a game's chain: its position k (from 1), the post, the head after it.
type Link struct {
	K      uint64
	PostID string
	Head   string
}

// ChainPosts is the game's chain with its posts as stored (author and first-seen text, which is
// the text judged), in order: what forumgm verify --config lists and re-derives.
func (s *Store) ChainPosts(ctx context.Context, gameID string) ([]game.Link, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.k, c.post_id, COALESCE(p.author, ''), COALESCE(p.text, ''), c.head
		FROM chain c LEFT JOIN posts p ON p.game_id = c.game_id AND p.source = 'thread' AND p.post_id = c.post_id
		WHERE c.game_id = ? ORDER BY c.k`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: chain of %s: %w", gameID, err)
	}
	defer rows.Close()
	var out []game.Link
	for rows.Next() {
		var l game.Link
		if err := rows.Scan(&l.K, &l.PostID, &l.Author, &l.Text, &l.Head); err != nil {
			return nil, fmt.Errorf("store: chain of %s: %w", gameID, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: chain of %s: %w", gameID, err)
	}
	return out, nil
}
