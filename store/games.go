package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Game is a game as stored.
type Game struct {
	ID             string
	Name           string          // the rules engine: "crusade", ...
	Config         json.RawMessage // the game's configuration as first registered
	CreatedAt      time.Time
	Paused         bool
	PauseReason    string
	PausedBy       string
	PauseChangedAt time.Time // zero if never paused
}

// EnsureGame registers the game if it is new and returns the stored game. An existing game keeps
// its stored config (a replay needs the config the game started with): compare the returned Config
// to decide what to do about a changed configuration. A different engine name is an error.
func (s *Store) EnsureGame(ctx context.Context, id, name string, config json.RawMessage) (Game, error) {
	if err := checkGame(id); err != nil {
		return Game{}, fmt.Errorf("store: ensure game: %w", err)
	}
	if name == "" {
		return Game{}, fmt.Errorf("store: ensure game %s: %w: empty engine name", id, ErrInvalid)
	}
	if len(config) == 0 {
		config = json.RawMessage("{}")
	}
	if !json.Valid(config) {
		return Game{}, fmt.Errorf("store: ensure game %s: %w: config is not JSON", id, ErrInvalid)
	}
	var g Game
	err := s.write(ctx, "ensure game "+id, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO games (id, name, config, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, id, name, string(config), fmtTime(s.now())); err != nil {
			return err
		}
		var err error
		g, err = gameRow(ctx, tx, id)
		if err != nil {
			return err
		}
		if g.Name != name {
			return fmt.Errorf("%w: game is a %q game, not %q", ErrInvalid, g.Name, name)
		}
		return nil
	})
	return g, err
}

// SetGameConfig replaces a game's stored configuration (a record that gained a field).
func (s *Store) SetGameConfig(ctx context.Context, id string, config json.RawMessage) error {
	if !json.Valid(config) {
		return fmt.Errorf("store: set game %s config: %w: not JSON", id, ErrInvalid)
	}
	return s.write(ctx, "set game config "+id, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET config = ? WHERE id = ?`, string(config), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotFound
		}
		return nil
	})
}

// Game returns the stored game; ErrNotFound if there is none.
func (s *Store) Game(ctx context.Context, id string) (Game, error) {
	g, err := gameRow(ctx, s.r, id)
	if err != nil {
		return Game{}, fmt.Errorf("store: game %s: %w", id, err)
	}
	return g, nil
}

// Games lists the stored games by id.
func (s *Store) Games(ctx context.Context) ([]Game, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+gameCols+` FROM games ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: games: %w", err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("store: games: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: games: %w", err)
	}
	return out, nil
}

func setPaused(ctx context.Context, tx *sql.Tx, id string, p PauseUpdate, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE games SET paused = ?, pause_reason = ?, paused_by = ?, pause_changed_at = ?
		WHERE id = ?`, boolInt(p.Paused), p.Reason, p.By, fmtTime(now), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

const gameCols = `id, name, config, created_at, paused, pause_reason, paused_by, pause_changed_at`

func gameRow(ctx context.Context, q queryer, id string) (Game, error) {
	g, err := scanGame(q.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return g, err
}

func scanGame(sc scanner) (Game, error) {
	var g Game
	var cfg, created string
	var changed sql.NullString
	if err := sc.Scan(&g.ID, &g.Name, &cfg, &created, &g.Paused, &g.PauseReason, &g.PausedBy, &changed); err != nil {
		return Game{}, err
	}
	g.Config = json.RawMessage(cfg)
	var err error
	if g.CreatedAt, err = parseTime(created); err != nil {
		return Game{}, err
	}
	if g.PauseChangedAt, err = parseNullTime(changed); err != nil {
		return Game{}, err
	}
	return g, nil
}

// boolInt is a boolean as the 0/1 the schema stores (both engines).
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
