package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sort"
	"sync"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/store"
)

// Leases turn on sharing one database's games between several daemons (PostgreSQL): a daemon runs
// a game only while it holds the game's lease (store.Acquire), renewed every TTL/3; each daemon
// takes a fair share (the games over the daemons alive), and the games of a daemon that died are
// taken by the others once their leases expire. The Store must be opened store.WithOwner.
type Leases struct {
	// TTL is how long a lease lasts unrenewed: a dead daemon's games resume elsewhere after at
	// most TTL plus one renewal period (TTL/3) plus a poll. Default 15 s.
	TTL time.Duration
}

// TTLOrDefault is TTL, or 15 s when unset.
func (l *Leases) TTLOrDefault() time.Duration {
	if l.TTL <= 0 {
		return 15 * time.Second
	}
	return l.TTL
}

// leaseLoop keeps this daemon's share of the games: every TTL/3 it records its heartbeat, renews
// the leases it holds (stopping a game whose lease another daemon took), gives up games beyond
// its fair share, and takes free or expired ones up to it. On ctx's end it stops its games and
// releases their leases, so the others take them at once.
//
// The loop runs on real time, as the leases do (store.WithOwner), whatever clock the games use.
func (f *Fleet) leaseLoop(ctx context.Context) {
	start := time.Now()
	every := f.o.Leases.TTLOrDefault() / 3
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		f.renewLoop(ctx, start, every)
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		f.leaseTick(ctx)
		select {
		case <-ctx.Done():
		case <-tick.C:
			continue
		}
		break
	}
	<-renewed
	bg := context.WithoutCancel(ctx)
	for _, g := range f.Games() {
		f.drop(bg, g, "the daemon stops")
	}
}

// renewLoop records the heartbeat and renews every held lease (one statement) every period, apart
// from the work of taking and opening games, so a busy daemon never lets its own leases lapse; a
// game whose lease another daemon took is stopped at once.
func (f *Fleet) renewLoop(ctx context.Context, start time.Time, every time.Duration) {
	st, ttl := f.o.Store, f.o.Leases.TTLOrDefault()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if err := st.Heartbeat(ctx, start); err != nil && ctx.Err() == nil {
			f.o.Log.Error().Err(err).Str("kind", "lease").Msg("heartbeat failed")
		}
		lost, err := st.RenewAll(ctx, ttl)
		if err != nil && ctx.Err() == nil {
			f.o.Log.Error().Err(err).Str("kind", "lease").Msg("lease renewal failed")
		}
		for _, id := range lost {
			if g := f.game(id); g != nil && g.cancel != nil {
				f.o.Log.Warn().Str("game", id).Str("kind", "lease").Msg("another daemon holds the game's lease: its loop stops here")
				g.cancel()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// openParallel bounds how many games a daemon opens (or stops) at once: each opening is a few
// store transactions and the referee's setup, no forum request.
const openParallel = 8

// leaseTick is one round of leaseLoop: games whose loop ended are dropped, games beyond the fair
// share given up, and free games taken up to it, orphans at once whatever the share. What to
// take is decided from one read of the leases; the leases are taken in one statement
// (store.AcquireFree), and only then are the games opened, several at a time, so a dead
// daemon's hundred games change hands in milliseconds and resume within a second or two.
func (f *Fleet) leaseTick(ctx context.Context) {
	st, ttl := f.o.Store, f.o.Leases.TTLOrDefault()
	log := f.o.Log.With().Str("owner", st.Owner()).Logger()
	defer f.reportOwned()
	running := 0
	for _, g := range f.Games() {
		select {
		case <-g.done:
			f.drop(ctx, g, "its loop ended")
			continue
		default:
		}
		running++
	}
	f.mu.Lock()
	cfg := f.cfg
	f.mu.Unlock()
	if cfg == nil {
		return
	}
	views := cfg.GameConfigs()
	// The leases first, then the daemons: a lease expired at now was last renewed before
	// now-TTL, and its holder's heartbeat (recorded just before each renewal) is older still, so
	// a dead holder is never counted alive next to its own expired lease.
	now := time.Now()
	ls, err := st.Leases(ctx)
	if err != nil {
		log.Error().Err(err).Str("kind", "lease").Msg("cannot list the leases")
		return
	}
	alive, err := st.Daemons(ctx, ttl)
	if err != nil {
		log.Error().Err(err).Str("kind", "lease").Msg("cannot list the daemons")
		return
	}
	n := max(len(alive), 1)
	share := (len(views) + n - 1) / n
	owner := st.Owner()
	// Each daemon prefers its own games (rendezvous hashing of owner and game), so daemons
	// starting together mostly pick different games, and a game goes back to the same daemon.
	sort.Slice(views, func(i, j int) bool {
		return rank(owner, views[i].Game.ID) > rank(owner, views[j].Game.ID)
	})
	if running > share+1 {
		// Beyond the share (and its rounding): give games up, those this daemon ranks last,
		// several at a time (each waits for its loop to stop).
		var give []*Game
		for i := len(views) - 1; i >= 0 && running > share; i-- {
			if g := f.game(views[i].Game.ID); g != nil {
				give = append(give, g)
				running--
			}
		}
		f.parallel(len(give), func(i int) { f.drop(ctx, give[i], "a fair share for the daemons alive") })
	}
	take := pickFree(views, ls, alive, now, ttl, max(share-running, 0), func(id string) bool { return f.game(id) != nil })
	if len(take) == 0 {
		return
	}
	// A game no daemon ever held is registered first (its lease row refers to it).
	held := map[string]bool{}
	for _, l := range ls {
		held[l.Game] = true
	}
	ids := make([]string, 0, len(take))
	byID := map[string]*config.Config{}
	for _, v := range take {
		if !held[v.Game.ID] {
			if _, err := daemon.Register(ctx, st, v, f.o.Clock.Now()); err != nil {
				log.Error().Err(err).Str("game", v.Game.ID).Msg("cannot register the game")
				continue
			}
		}
		ids = append(ids, v.Game.ID)
		byID[v.Game.ID] = v
	}
	leases, err := st.AcquireFree(ctx, ids, ttl)
	if err != nil {
		log.Error().Err(err).Int("games", len(ids)).Str("kind", "lease").Msg("cannot take the games' leases")
	}
	// The leases are this daemon's now (renewLoop renews them): the games open several at a time.
	f.parallel(len(leases), func(i int) {
		l := leases[i]
		if err := f.openLeased(ctx, byID[l.Game]); err != nil {
			log.Error().Err(err).Str("game", l.Game).Msg("cannot start the game")
			_ = st.Release(ctx, l.Game)
			return
		}
		log.Info().Str("game", l.Game).Int64("token", l.Token).Msg("took the game's lease; game loop starts")
	})
}

// parallel runs do(0..n-1), at most openParallel at a time, and waits for them all.
func (f *Fleet) parallel(n int, do func(i int)) {
	sem := make(chan struct{}, openParallel)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			do(i)
		})
	}
	wg.Wait()
}

// pickFree chooses, from views in this daemon's order of preference, the games to take: those
// not open here (open) whose lease is free (no lease row, or expired), in two kinds. An orphan
// (its holder stopped its heartbeat, or its lease has lain expired for a whole TTL, so no
// daemon's share took it) is taken whatever the share: the daemons rebalance later, a game
// waiting for its players does not. A game a live daemon just released (for the share, or its
// loop ended) is taken only up to room, the rest of this daemon's share.
func pickFree(views []*config.Config, ls []store.Lease, alive []store.Daemon, now time.Time, ttl time.Duration, room int, open func(string) bool) []*config.Config {
	live := map[string]bool{}
	for _, d := range alive {
		live[d.Owner] = true
	}
	lease := map[string]store.Lease{}
	for _, l := range ls {
		lease[l.Game] = l
	}
	var out []*config.Config
	for _, v := range views {
		id := v.Game.ID
		if open(id) {
			continue
		}
		l, ok := lease[id]
		switch {
		case ok && l.Expires.After(now):
			continue // held
		case ok && (!live[l.Owner] || now.Sub(l.Expires) >= ttl):
			out = append(out, v) // an orphan
		case room > 0:
			out = append(out, v)
			room--
		}
	}
	return out
}

// applyLeased is Apply with Leases.
func (f *Fleet) applyLeased(ctx context.Context, cfg *config.Config) error {
	if f.o.Store.Owner() == "" {
		return errors.New("fleet: leased games need a store opened with an owner (store.WithOwner)")
	}
	want := map[string]string{}
	for _, v := range cfg.GameConfigs() {
		want[v.Game.ID] = fingerprint(v)
	}
	f.mu.Lock()
	f.cfg = cfg
	first := f.leaseDone == nil
	if first {
		f.runCtx, f.leaseDone = ctx, make(chan struct{})
	}
	var stop []*Game
	for id, g := range f.games {
		if fp, ok := want[id]; !ok || fp != g.fingerprint {
			stop = append(stop, g)
		}
	}
	f.mu.Unlock()
	for _, g := range stop {
		f.drop(ctx, g, "its configuration changed or it left the config")
	}
	if first {
		go func() {
			defer close(f.leaseDone)
			f.leaseLoop(ctx)
		}()
	}
	return nil
}

// openLeased opens a game whose lease this daemon just took (its state read now, after whatever
// the previous holder committed) and starts its loop.
func (f *Fleet) openLeased(ctx context.Context, v *config.Config) error {
	g, err := f.open(ctx, v)
	if err != nil {
		return err
	}
	game := v.Game.ID
	f.mu.Lock()
	f.games[game] = g
	f.mu.Unlock()
	f.start(f.runCtx, g)
	return nil
}

// drop stops a game's loop (waiting for it) and gives its lease up.
func (f *Fleet) drop(ctx context.Context, g *Game, why string) {
	id := g.Config.Game.ID
	f.mu.Lock()
	delete(f.games, id)
	f.mu.Unlock()
	if g.done != nil {
		g.cancel()
		<-g.done
	}
	if err := f.o.Store.Release(ctx, id); err != nil {
		f.o.Log.Error().Err(err).Str("game", id).Str("kind", "lease").Msg("cannot release the game's lease")
	}
	f.o.Log.Info().Str("game", id).Str("owner", f.o.Store.Owner()).Msg("game loop stopped here: " + why)
}

// game is the open game of that id, or nil.
func (f *Fleet) game(id string) *Game {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.games[id]
}

// rank is the rendezvous weight of a game for an owner.
func rank(owner, game string) uint64 {
	h := sha256.Sum256([]byte(owner + "\x00" + game))
	return binary.BigEndian.Uint64(h[:8])
}

// reportOwned tells /healthz which games this daemon runs now.
func (f *Fleet) reportOwned() {
	if f.o.Health == nil {
		return
	}
	var ids []string
	for _, g := range f.Games() {
		ids = append(ids, g.Config.Game.ID)
	}
	f.o.Health.SetOwned(f.o.Store.Owner(), ids)
}
