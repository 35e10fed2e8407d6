package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/config"
	"forumgm/internal/pgtest"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
	"forumgm/store"
)

// Three daemons share 330 Crusade games of the sandbox board; one dies (its database connection
// gone, its leases left to expire): every one of its 100-odd games is taken by the two others
// and running there within the lease TTL plus one renewal period of its death, each game on one
// daemon only; the survivors then hold every game. On PostgreSQL (the cluster's store) and on a
// shared SQLite file (the same lease code).
func TestLeasedTakeoverOfManyGames(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) { leasedTakeover(t, engine, 330) })
	}
}

func leasedTakeover(t *testing.T, engine string, games int) {
	ctx := context.Background()
	dir := t.TempDir()
	loc := filepath.Join(dir, "forumgm.db")
	if engine == "postgres" {
		pg, err := pgtest.Start(ctx, t.TempDir(), pgtest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Stop() })
		if loc, err = pg.Schema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var threads []sandbox.Thread
	for i := range games {
		threads = append(threads, sandbox.Thread{FID: 10, Subject: fmt.Sprintf("Партия %d", i+1),
			Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Набор в партию закрыт, играем."}}})
	}
	_, _, url := serveBoard(t, ctx, dir, boardOptions{users: []string{"gm-bot", "Moderator", "Джелу", "snovaya"}, threads: threads})
	t.Setenv("FLEET_BOT_PW", "pw-gm-bot")
	var y strings.Builder
	fmt.Fprintf(&y, `forums:
  main: {url: %q, dialect: mybb, timezone: UTC, bot: {username: gm-bot, password_env: FLEET_BOT_PW}}
moderators: [Moderator]
store: {path: forumgm.db}
games:
`, url)
	for i := range games {
		fmt.Fprintf(&y, "  - {id: g%d, kind: crusade, forum: main, thread: \"%d\", timezone: UTC, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}], settings: {daily_question: false, board_required: false}}\n", i+1, i+1)
	}
	cfg, err := config.Parse([]byte(y.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(known); err != nil {
		t.Fatal(err)
	}

	const ttl = 2 * time.Second
	// The games' clock stands still: their loops wait, and what is measured is the leases.
	clock := testkit.NewStillClock(time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC))
	type daemon struct {
		st     *store.Store
		fl     *Fleet
		cancel context.CancelFunc
	}
	start := func(name string) *daemon {
		st, err := store.Open(ctx, loc, store.Shared(), store.WithOwner(name, time.Now))
		if err != nil {
			t.Fatal(err)
		}
		fl, err := New(Options{Store: st, Clock: clock, Log: zerolog.Nop(), Leases: &Leases{TTL: ttl}})
		if err != nil {
			t.Fatal(err)
		}
		dctx, cancel := context.WithCancel(ctx)
		if err := fl.Apply(dctx, cfg); err != nil {
			t.Fatal(err)
		}
		d := &daemon{st: st, fl: fl, cancel: cancel}
		t.Cleanup(func() { cancel(); fl.Wait(); st.Close() })
		return d
	}
	ds := []*daemon{start("daemon-a"), start("daemon-b"), start("daemon-c")}
	running := func(ds ...*daemon) map[string]int {
		n := map[string]int{}
		for _, d := range ds {
			for _, g := range d.fl.Games() {
				n[g.Config.Game.ID]++
			}
		}
		return n
	}
	// Settled: every game runs once, shared about evenly.
	for until := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		n := running(ds...)
		each := []int{len(ds[0].fl.Games()), len(ds[1].fl.Games()), len(ds[2].fl.Games())}
		if len(n) == games && slices.Max(each) <= games/3+1 && slices.Min(each) >= games/3-1 {
			break
		}
		if time.Now().After(until) {
			t.Fatalf("the three daemons did not share the %d games: %d running, %v each", games, len(n), each)
		}
	}
	dead := ds[2]
	var orphans []string
	for _, g := range dead.fl.Games() {
		orphans = append(orphans, g.Config.Game.ID)
	}
	// The daemon dies: its database gone first (nothing renewed, nothing released), then its loops.
	died := time.Now()
	dead.st.Close()
	dead.cancel()
	dead.fl.Wait()

	// The lease, one renewal period, the check's own polling and a loaded machine's scheduling
	// (under a load of 34 on 2 cores a lease round started up to 0.2 s late).
	limit := ttl + ttl/3 + 500*time.Millisecond
	survivors := ds[:2]
	var leased, open time.Duration
	for {
		ls, err := ds[0].st.Leases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		taken := 0
		for _, l := range ls {
			if slices.Contains(orphans, l.Game) && l.Owner != "daemon-c" && l.Expires.After(now) {
				taken++
			}
		}
		if leased == 0 && taken == len(orphans) {
			leased = time.Since(died)
		}
		n := running(survivors...)
		if open == 0 && len(n) == games {
			open = time.Since(died)
		}
		if leased > 0 && open > 0 {
			break
		}
		if time.Since(died) > 4*limit+cfg.Poll.Floor.D() {
			t.Fatalf("%s: %d of the dead daemon's %d games taken, %d of %d games running after %v", engine, taken, len(orphans), len(n), games, time.Since(died).Round(time.Millisecond))
		}
		time.Sleep(20 * time.Millisecond)
	}
	for id, k := range running(survivors...) {
		if k != 1 {
			t.Errorf("%s runs on %d daemons", id, k)
		}
	}
	t.Logf("%s: %d orphans leased by the survivors %v after the death, all %d games running after %v (limit %v); the survivors run %d and %d",
		engine, len(orphans), leased.Round(time.Millisecond), games, open.Round(time.Millisecond), limit, len(ds[0].fl.Games()), len(ds[1].fl.Games()))
	if len(orphans) < 100 {
		t.Errorf("the dead daemon ran only %d games, want at least 100", len(orphans))
	}
	if leased > limit {
		t.Errorf("%s: the dead daemon's games were leased after %v, want within %v (the lease and a renewal period)",
			engine, leased.Round(time.Millisecond), limit)
	}
	// Running again: within a poll more (the first poll of a game taken over is what matters to
	// its players; on this loaded 2-core machine opening 110 games took 0.3-2.9 s).
	if poll := cfg.Poll.Floor.D(); open > limit+poll {
		t.Errorf("%s: the dead daemon's games were running again after %v, want within %v (the lease, a renewal period and a poll)",
			engine, open.Round(time.Millisecond), limit+poll)
	}
}

// pickFree: what a lease round takes, by the leases it read.
func TestPickFree(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	const ttl = 3 * time.Second
	view := func(id string) *config.Config {
		v := &config.Config{}
		v.Game.ID = id
		return v
	}
	lease := func(game, owner string, expires time.Duration) store.Lease {
		return store.Lease{Game: game, Owner: owner, Token: 1, Expires: now.Add(expires)}
	}
	alive := []store.Daemon{{Owner: "me"}, {Owner: "other"}}
	for _, c := range []struct {
		name   string
		leases []store.Lease
		room   int
		want   string
	}{
		{"held by another (b and c never leased)", []store.Lease{lease("a", "other", time.Second)}, 5, "b c"},
		{"a dead daemon's, expired: taken beyond the share", []store.Lease{lease("a", "dead", -time.Millisecond)}, 0, "a"},
		{"a dead daemon's, not yet expired", []store.Lease{lease("a", "dead", time.Millisecond)}, 0, ""},
		{"released by a live daemon: within the share", []store.Lease{lease("a", "other", -time.Second), lease("b", "other", -time.Second)}, 1, "a"},
		{"released by a live daemon: no room", []store.Lease{lease("a", "other", -time.Second)}, 0, ""},
		{"free a whole TTL: no share took it, anyone does", []store.Lease{lease("a", "other", -ttl)}, 0, "a"},
		{"never leased: within the share", nil, 2, "a b"},
		{"open here already", []store.Lease{lease("open", "dead", -time.Second)}, 5, "a b c"},
		{"an orphan beyond the share, in preference order", []store.Lease{lease("a", "other", -time.Second), lease("c", "dead", -time.Second)}, 1, "a c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			views := []*config.Config{view("open"), view("a"), view("b"), view("c")}
			var got []string
			for _, v := range pickFree(views, c.leases, alive, now, ttl, c.room, func(id string) bool { return id == "open" }) {
				got = append(got, v.Game.ID)
			}
			if strings.Join(got, " ") != c.want {
				t.Fatalf("took %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
}
