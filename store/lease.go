package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrLeaseLost: this daemon does not hold the game's lease (any more): another daemon took the
// game after the lease expired, or it was never taken. Nothing was written.
var ErrLeaseLost = errors.New("store: lease lost")

// Lease is a daemon's hold on a game (see migration 0007).
type Lease struct {
	Game    string
	Owner   string
	Token   int64     // grows by one each time the game changes hands (the fencing token)
	Expires time.Time // the holder must renew before this
}

// Daemon is a daemon sharing the database, as its heartbeat says.
type Daemon struct {
	Owner   string
	Started time.Time
	Seen    time.Time
}

// leaseState is what a Store opened WithOwner holds: its name and the tokens of its leases.
type leaseState struct {
	owner  string
	now    func() time.Time // the leases' clock: real time between daemons
	mu     sync.Mutex
	tokens map[string]int64 // game -> the token this daemon holds
}

// WithOwner makes the store a lease holder named owner (unique per daemon process), its leases
// timed by now (time.Now in a daemon: leases measure real time between processes, whatever game
// clock a test runs the games on): every write
// for a game (Commit, outbox changes, cursors, edits…) first checks, in its transaction, that the
// game's lease row still carries this daemon's token, and refuses with ErrLeaseLost otherwise.
// Stores opened without it (the moderators' tools, a single daemon on SQLite) write unfenced.
func WithOwner(owner string, now func() time.Time) Option {
	return func(s *Store) { s.lease = &leaseState{owner: owner, now: now, tokens: map[string]int64{}} }
}

// Owner is the name given by WithOwner, or "".
func (s *Store) Owner() string {
	if s.lease == nil {
		return ""
	}
	return s.lease.owner
}

// fence checks, inside a write transaction, that this store holds the game's lease (see
// WithOwner). On PostgreSQL the lease row stays locked until the transaction ends, so a takeover
// cannot slip between the check and the commit (SQLite's writer lock already serializes them).
func (s *Store) fence(ctx context.Context, tx *sql.Tx, game string) error {
	if s.lease == nil {
		return nil
	}
	_, err := s.checkLease(ctx, tx, game, true)
	if err != nil {
		return fmt.Errorf("game %s: %w", game, err)
	}
	return nil
}

// checkLease reads the game's lease row through q (locked for the transaction with lock, on
// PostgreSQL) and reports an error wrapping ErrLeaseLost unless it carries this store's owner and
// token (a token another daemon replaced is forgotten); else it returns the lease's expiry.
func (s *Store) checkLease(ctx context.Context, q queryer, game string, lock bool) (time.Time, error) {
	tok, ok := s.tokenOf(game)
	if !ok {
		return time.Time{}, fmt.Errorf("%w: this daemon (%s) does not hold it", ErrLeaseLost, s.lease.owner)
	}
	query := `SELECT owner, token, expires_at FROM leases WHERE game_id = ?`
	if lock && s.pg {
		query += ` FOR UPDATE`
	}
	var owner, exp string
	var have int64
	switch err := q.QueryRowContext(ctx, query, game).Scan(&owner, &have, &exp); {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, fmt.Errorf("%w: no lease", ErrLeaseLost)
	case err != nil:
		return time.Time{}, fmt.Errorf("lease: %w", err)
	case owner != s.lease.owner || have != tok:
		s.forget(game, tok)
		return time.Time{}, fmt.Errorf("%w: held by %s with token %d (this daemon had token %d)", ErrLeaseLost, owner, have, tok)
	}
	until, err := parseTime(exp)
	if err != nil {
		return time.Time{}, fmt.Errorf("lease: %w", err)
	}
	return until, nil
}

// forget drops the game's token if it is still tok.
func (s *Store) forget(game string, tok int64) {
	s.lease.mu.Lock()
	if s.lease.tokens[game] == tok {
		delete(s.lease.tokens, game)
	}
	s.lease.mu.Unlock()
}

// Acquire takes or renews the game's lease for this store's owner (WithOwner) until now+ttl: a
// game nobody holds, or whose lease expired, is taken with the next token; a lease this owner
// holds is renewed with the same token. A lease another daemon holds and has not let expire is
// left (ok false, the holder's lease returned).
func (s *Store) Acquire(ctx context.Context, game string, ttl time.Duration) (l Lease, ok bool, err error) {
	if s.lease == nil {
		return Lease{}, false, fmt.Errorf("store: acquire %s: %w: the store has no owner (WithOwner)", game, ErrInvalid)
	}
	now := s.lease.now()
	err = s.write(ctx, "acquire "+game, func(tx *sql.Tx) error {
		q := `SELECT owner, token, expires_at FROM leases WHERE game_id = ?`
		if s.pg {
			q += ` FOR UPDATE`
		}
		var exp string
		err := tx.QueryRowContext(ctx, q, game).Scan(&l.Owner, &l.Token, &exp)
		l.Game = game
		switch {
		case errors.Is(err, sql.ErrNoRows):
			l.Owner, l.Token, l.Expires = s.lease.owner, 1, now.Add(ttl)
			_, err = tx.ExecContext(ctx, `INSERT INTO leases (game_id, owner, token, expires_at) VALUES (?, ?, ?, ?)`,
				game, l.Owner, l.Token, fmtTime(l.Expires))
			ok = err == nil
			return err
		case err != nil:
			return err
		}
		if l.Expires, err = parseTime(exp); err != nil {
			return err
		}
		mine := l.Owner == s.lease.owner
		if !mine && now.Before(l.Expires) {
			return nil // another daemon's, still valid
		}
		if !mine {
			l.Token++
		} else if tok, held := s.tokenOf(game); !held || tok != l.Token {
			l.Token++ // our own old lease from before a restart: a new hand all the same
		}
		l.Owner, l.Expires = s.lease.owner, now.Add(ttl)
		_, err = tx.ExecContext(ctx, `UPDATE leases SET owner = ?, token = ?, expires_at = ? WHERE game_id = ?`,
			l.Owner, l.Token, fmtTime(l.Expires), game)
		ok = err == nil
		return err
	})
	if err != nil {
		return Lease{}, false, err
	}
	if ok {
		s.lease.mu.Lock()
		s.lease.tokens[game] = l.Token
		s.lease.mu.Unlock()
	}
	return l, ok, nil
}

// acquireBatch bounds the games of one AcquireFree statement (the engines' limits on parameters).
const acquireBatch = 500

// AcquireFree takes, for this store's owner (WithOwner) until now+ttl, the leases of those of
// games that nobody holds or whose lease expired, in one transaction of two statements per
// batch (a dead daemon's hundred games are taken at once, not one by one): an expired lease
// changes hands with the next token, a game without a lease row gets token 1. Leases another
// daemon holds are left; so are, on PostgreSQL, rows another transaction has locked right now
// (another daemon taking the same game, or a holder's commit): the next round sees them again.
// Games not registered in the store are left out. It returns the leases taken, by game.
func (s *Store) AcquireFree(ctx context.Context, games []string, ttl time.Duration) ([]Lease, error) {
	if s.lease == nil {
		return nil, fmt.Errorf("store: acquire: %w: the store has no owner (WithOwner)", ErrInvalid)
	}
	var out []Lease
	for batch := range slices.Chunk(slices.Sorted(slices.Values(games)), acquireBatch) {
		ls, err := s.acquireFree(ctx, batch, ttl)
		if err != nil {
			return out, err
		}
		out = append(out, ls...)
	}
	return out, nil
}

// acquireFree is AcquireFree for one batch of games, sorted (rows locked in one order).
func (s *Store) acquireFree(ctx context.Context, games []string, ttl time.Duration) ([]Lease, error) {
	now := s.lease.now()
	exp := now.Add(ttl)
	in := `(?` + strings.Repeat(", ?", len(games)-1) + `)`
	ids := make([]any, len(games))
	for i, g := range games {
		ids[i] = g
	}
	var taken []Lease
	err := s.write(ctx, fmt.Sprintf("acquire %d games", len(games)), func(tx *sql.Tx) error {
		// The expired leases change hands. On PostgreSQL the rows are locked in the games'
		// order, skipping those another transaction holds (no waiting, no deadlock).
		pick := `SELECT game_id FROM leases WHERE game_id IN ` + in + ` AND expires_at <= ?`
		if s.pg {
			pick += ` ORDER BY game_id FOR UPDATE SKIP LOCKED`
		}
		args := append([]any{s.lease.owner, fmtTime(exp)}, ids...)
		args = append(args, fmtTime(now))
		rows, err := tx.QueryContext(ctx, `UPDATE leases SET owner = ?, token = token + 1, expires_at = ?
			WHERE game_id IN (`+pick+`) RETURNING game_id, token`, args...)
		if err != nil {
			return err
		}
		if taken, err = scanLeases(rows, s.lease.owner, exp); err != nil {
			return err
		}
		// The games no daemon ever held get their first lease (a registered game only; two
		// daemons inserting the same row: the second does nothing).
		args = append([]any{s.lease.owner, fmtTime(exp)}, ids...)
		rows, err = tx.QueryContext(ctx, `INSERT INTO leases (game_id, owner, token, expires_at)
			SELECT id, ?, 1, ? FROM games WHERE id IN `+in+` AND id NOT IN (SELECT game_id FROM leases)
			ON CONFLICT (game_id) DO NOTHING RETURNING game_id, token`, args...)
		if err != nil {
			return err
		}
		fresh, err := scanLeases(rows, s.lease.owner, exp)
		taken = append(taken, fresh...)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(taken, func(a, b Lease) int { return strings.Compare(a.Game, b.Game) })
	s.lease.mu.Lock()
	for _, l := range taken {
		s.lease.tokens[l.Game] = l.Token
	}
	s.lease.mu.Unlock()
	return taken, nil
}

// scanLeases reads rows of (game_id, token) as leases of owner until exp, and closes them.
func scanLeases(rows *sql.Rows, owner string, exp time.Time) ([]Lease, error) {
	defer rows.Close()
	var out []Lease
	for rows.Next() {
		l := Lease{Owner: owner, Expires: exp}
		if err := rows.Scan(&l.Game, &l.Token); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// RenewAll extends every lease this store holds until now+ttl in one statement, and returns the
// games it held that changed hands (the caller stops them at once; they are forgotten here).
func (s *Store) RenewAll(ctx context.Context, ttl time.Duration) (lost []string, err error) {
	if s.lease == nil {
		return nil, fmt.Errorf("store: renew: %w: the store has no owner (WithOwner)", ErrInvalid)
	}
	s.lease.mu.Lock()
	games := slices.Sorted(maps.Keys(s.lease.tokens))
	s.lease.mu.Unlock()
	if len(games) == 0 {
		return nil, nil
	}
	held := map[string]int64{}
	err = s.write(ctx, "renew leases", func(tx *sql.Tx) error {
		// Only the games this store holds: a lease it released keeps its owner's name until
		// another daemon takes it, and must not come back to life here.
		args := []any{fmtTime(s.lease.now().Add(ttl)), s.lease.owner}
		for _, g := range games {
			args = append(args, g)
		}
		rows, err := tx.QueryContext(ctx, `UPDATE leases SET expires_at = ? WHERE owner = ? AND game_id IN (?`+
			strings.Repeat(", ?", len(games)-1)+`) RETURNING game_id, token`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g string
			var tok int64
			if err := rows.Scan(&g, &tok); err != nil {
				return err
			}
			held[g] = tok
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	s.lease.mu.Lock()
	defer s.lease.mu.Unlock()
	for _, g := range games {
		tok, still := s.lease.tokens[g]
		if still && held[g] != tok {
			lost = append(lost, g)
			delete(s.lease.tokens, g)
		}
	}
	slices.Sort(lost)
	return lost, nil
}

// Release gives a held lease up now (a daemon stopping, or handing a game to another for a fair
// share): its token stays, so the next holder takes the next one.
func (s *Store) Release(ctx context.Context, game string) error {
	if s.lease == nil {
		return nil
	}
	err := s.write(ctx, "release "+game, func(tx *sql.Tx) error {
		if err := s.fence(ctx, tx, game); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE leases SET expires_at = ? WHERE game_id = ?`, fmtTime(s.lease.now()), game)
		return err
	})
	if tok, ok := s.tokenOf(game); ok {
		s.forget(game, tok)
	}
	if errors.Is(err, ErrLeaseLost) {
		return nil // not ours any more: nothing to give up
	}
	return err
}

func (s *Store) tokenOf(game string) (int64, bool) {
	s.lease.mu.Lock()
	defer s.lease.mu.Unlock()
	t, ok := s.lease.tokens[game]
	return t, ok
}

// Leases lists every game's lease, by game.
func (s *Store) Leases(ctx context.Context) ([]Lease, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, owner, token, expires_at FROM leases ORDER BY game_id`)
	if err != nil {
		return nil, fmt.Errorf("store: leases: %w", err)
	}
	defer rows.Close()
	var out []Lease
	for rows.Next() {
		var l Lease
		var exp string
		if err := rows.Scan(&l.Game, &l.Owner, &l.Token, &exp); err != nil {
			return nil, fmt.Errorf("store: leases: %w", err)
		}
		if l.Expires, err = parseTime(exp); err != nil {
			return nil, fmt.Errorf("store: leases: %w", err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: leases: %w", err)
	}
	return out, nil
}

// Heartbeat records that this store's owner is alive now (started at start).
func (s *Store) Heartbeat(ctx context.Context, start time.Time) error {
	if s.lease == nil {
		return fmt.Errorf("store: heartbeat: %w: the store has no owner (WithOwner)", ErrInvalid)
	}
	return s.write(ctx, "heartbeat", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO daemons (owner, started_at, seen_at) VALUES (?, ?, ?)
			ON CONFLICT (owner) DO UPDATE SET seen_at = excluded.seen_at`, s.lease.owner, fmtTime(start), fmtTime(s.lease.now()))
		return err
	})
}

// Daemons lists the daemons seen within the last period (by the leases' clock; any clock when
// the store has no owner), by owner.
func (s *Store) Daemons(ctx context.Context, within time.Duration) ([]Daemon, error) {
	now := time.Now
	if s.lease != nil {
		now = s.lease.now
	}
	rows, err := s.r.QueryContext(ctx, `SELECT owner, started_at, seen_at FROM daemons WHERE seen_at >= ? ORDER BY owner`, fmtTime(now().Add(-within)))
	if err != nil {
		return nil, fmt.Errorf("store: daemons: %w", err)
	}
	defer rows.Close()
	var out []Daemon
	for rows.Next() {
		var d Daemon
		var st, seen string
		if err := rows.Scan(&d.Owner, &st, &seen); err != nil {
			return nil, fmt.Errorf("store: daemons: %w", err)
		}
		if d.Started, err = parseTime(st); err != nil {
			return nil, fmt.Errorf("store: daemons: %w", err)
		}
		if d.Seen, err = parseTime(seen); err != nil {
			return nil, fmt.Errorf("store: daemons: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: daemons: %w", err)
	}
	return out, nil
}

// Holds reports how long this store may still send for the game (the lease's time left less
// margin) when it holds the game's lease with its token and at least margin of it left, else an
// error wrapping ErrLeaseLost: the daemon asks right before sending anything to the forum, and the
// request goes out within that time or not at all (forum.WriteGuard), so a daemon that was paused
// past its lease (or nearly so) sends nothing more.
func (s *Store) Holds(ctx context.Context, game string, margin time.Duration) (time.Duration, error) {
	if s.lease == nil {
		return time.Duration(math.MaxInt64), nil
	}
	until, err := s.checkLease(ctx, s.r, game, false)
	if err != nil {
		return 0, fmt.Errorf("store: game %s: %w", game, err)
	}
	left := until.Sub(s.lease.now())
	if left < margin {
		return 0, fmt.Errorf("store: game %s: %w: %v of the lease left, %v needed to send (not renewed in time)", game, ErrLeaseLost, left.Round(time.Millisecond), margin)
	}
	return left - margin, nil
}
