package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"forumgm/internal/pgtest"
	"forumgm/store"
)

// clusterGames is how many games TestClusterTakeover shares between its three daemons; the
// issue's figure (300) is `go test ./cmd/forumgm -run TestClusterTakeover -cluster.games=300`.
var clusterGames = flag.Int("cluster.games", 24, "games of TestClusterTakeover")

// clusterKills and clusterPauses make TestClusterTakeover harsher for a stress run
// (`-cluster.kills=20 -cluster.pauses`): more kills, and every one a pause past the lease.
var (
	clusterKills  = flag.Int("cluster.kills", 6, "kills and pauses of TestClusterTakeover (at least 3)")
	clusterPauses = flag.Bool("cluster.pauses", false, "TestClusterTakeover pauses (SIGSTOP) every victim rather than SIGKILLing it")
)

// clusterTTL is the lease of TestClusterTakeover's daemons.
const clusterTTL = 3 * time.Second

// clusterCopy is Crusade's crash game for game id, with players of its own (the bot's shared
// inbox routes a private message by its author).
func clusterCopy(id string) *crashGame {
	g := crusadeCrash
	g.id, g.seedAs = id, "cluster" // the same draws in every copy
	g.subject = crusadeCrash.subject + " " + id
	rename := map[string]string{}
	g.players = nil
	for _, p := range crusadeCrash.players {
		rename[p] = p + "-" + id
		g.players = append(g.players, rename[p])
	}
	g.section = crusadeCrash.section
	for old, nu := range rename {
		g.section = strings.ReplaceAll(g.section, old+",", nu+",")
	}
	g.posts = slices.Clone(crusadeCrash.posts)
	for i := range g.posts {
		g.posts[i].author = rename[g.posts[i].author]
	}
	return &g
}

// clusterID is the n-th game's id: letters only (the markers' pattern).
func clusterID(n int) string {
	b := []byte("gaaa")
	for i := 3; i > 0; i-- {
		b[i] = byte('a' + n%26)
		n /= 26
	}
	return string(b)
}

// TestClusterTakeover runs three daemons on one PostgreSQL database sharing the games of one
// sandbox board, kills them (SIGKILL at random moments, each restarted; one SIGSTOPped past its
// lease and then resumed), and checks that every game resumes on another daemon within the lease
// time plus a renewal period and a poll, that no reply is on the board twice or missing, and
// that each game's thread, private messages and final state equal a single daemon's run of it.
func TestClusterTakeover(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	n := *clusterGames

	var games []*crashGame
	for i := range n {
		games = append(games, clusterCopy(clusterID(i)))
	}
	// The reference: the same games on a board of their own, one daemon, SQLite. (Each game's
	// draws hang on its thread's post ids, docs/fairness.md: the boards are built alike.)
	base := newFleetWorld(t, ctx, games)
	// 2 s a game was too little for 300 games on this 2-core machine under a load of 12-16 (the
	// reference had posted 5,190 of its replies when it was cut off at 660 s).
	base.childTimeout = time.Duration(60+4*n) * time.Second
	if out, err := base.child(t, bin, "", 0, base.finishedFn(t)); err != nil && !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	want := base.result(t)
	for i, g := range base.games {
		if len(want[i].thread) < 5 {
			t.Fatalf("reference: %s has only %d replies", g.id, len(want[i].thread))
		}
	}

	pg, err := pgtest.Start(ctx, t.TempDir(), pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	loc, err := pg.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := newFleetWorldAt(t, ctx, games, loc, fmt.Sprintf(", lease_ttl: %s", clusterTTL), "")
	c := &cluster{t: t, bin: bin, w: w, fast: true}
	for i := range 3 {
		c.start(i)
	}
	defer c.stopAll()

	st, err := store.Open(ctx, loc, store.Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(25, uint64(n)))
	deadline := time.Now().Add(time.Duration(90+5*n) * time.Second)
	kills, stopped := 0, false
	var worst time.Duration
	var takes []time.Duration // each kill's or pause's takeover
	var taken []string        // "N games in D" for the log
	finishedAt := 0           // kills when the games were all finished
	var when []string         // each kill: when, which daemon, how (a failure's log names them)
	took := func(owned []string, d time.Duration) {
		takes = append(takes, d)
		taken = append(taken, fmt.Sprintf("%d in %v", len(owned), d.Round(time.Millisecond)))
		worst = max(worst, d)
	}
	total := max(*clusterKills, 3)
	for kills < total || !w.finished(t) {
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not finish the %d games in time (%d kills)\n%s\n%s", n, kills, c.unfinished(ctx, st), c.logs())
		}
		if kills >= total {
			time.Sleep(200 * time.Millisecond)
			continue // let the games finish
		}
		time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
		if finishedAt == 0 && w.finished(t) {
			finishedAt = kills
		}
		victim := rng.IntN(3)
		owned := c.owned(ctx, st, victim)
		if len(owned) == 0 {
			continue
		}
		at := time.Now()
		how := "SIGKILL"
		if *clusterPauses || !stopped && kills == 2 {
			how = "SIGSTOP"
		}
		when = append(when, fmt.Sprintf("%s %s of daemon %d (pid %d, %d games)", at.Format("15:04:05.000"), how, victim, c.pid(victim), len(owned)))
		if how == "SIGSTOP" {
			// Paused past its lease: the others take its games; resumed, it must write and post
			// nothing more for them.
			stopped = true
			c.signal(victim, syscall.SIGSTOP)
			took(owned, c.takenOver(ctx, st, victim, owned, at))
			c.signal(victim, syscall.SIGCONT)
		} else {
			c.signal(victim, syscall.SIGKILL)
			c.wait(victim)
			took(owned, c.takenOver(ctx, st, victim, owned, at))
			c.start(victim)
		}
		kills++
	}
	limit := clusterTTL + clusterTTL/3 + 2*time.Second // a lease, a renewal period, a poll and the board's answers
	if worst > limit {
		t.Errorf("a game waited %v for another daemon (want ≤ %v)", worst, limit)
	}
	slices.Sort(takes)
	t.Logf("%d games, %d kills/pauses (%d of them while games were still being played), takeovers (games in time) %s; min %v, median %v, worst %v",
		n, kills, cmp.Or(finishedAt, kills), strings.Join(taken, ", "), takes[0].Round(time.Millisecond),
		takes[len(takes)/2].Round(time.Millisecond), worst.Round(time.Millisecond))
	// games list names the daemon running each game and the three daemons alive, once the
	// killed ones' heartbeats are old and their games taken (polled: a loaded machine is slow).
	var list strings.Builder
	for until := time.Now().Add(30 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		var lerr strings.Builder
		list.Reset()
		if code := run([]string{"games", "--config", w.cfgPath, "list"}, &list, &lerr); code != 0 {
			t.Fatalf("games list: exit %d: %s", code, lerr.String())
		}
		if strings.Contains(list.String(), "daemons: 3 alive") && strings.Count(list.String(), ", run by ") == n &&
			!strings.Contains(list.String(), "run by nobody") {
			break
		}
		if time.Now().After(until) {
			t.Errorf("games list does not name each game's daemon:\n%s\n%s\n%s", list.String(), c.unfinished(ctx, st), c.logs())
			break
		}
	}
	c.stopAll()
	got := w.result(t) // every marker once on the board
	if differ := w.compare(t, "cluster", want, got); len(differ) > 0 {
		t.Logf("the kills: %s", strings.Join(when, "; "))
		for _, id := range differ {
			t.Logf("what the daemons logged of game %s:\n%s", id, c.gameLog(id))
		}
	}
	if t.Failed() {
		c.logs() // the whole logs, to FORUMGM_TEST_CLUSTER_LOGS
	}
}

// gameLog is what every daemon process (killed ones too, in the order they started) logged of game
// id, a line an entry without the game's name, stamped when the test read it, at most 150
// entries a process.
func (c *cluster) gameLog(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for i, o := range c.all {
		n, end := 0, 0
		for line := range strings.Lines(o.String()) {
			end += len(line)
			var e map[string]any
			if json.Unmarshal([]byte(line), &e) != nil || e["game"] != id {
				continue
			}
			if n++; n > 150 {
				continue
			}
			if n == 1 {
				fmt.Fprintf(&b, "--- process %d (%s)\n", i, c.pids[i])
			}
			fmt.Fprintf(&b, "%s %v %v", o.stamp(end).Format("15:04:05.000"), e["level"], e["message"])
			for _, k := range slices.Sorted(maps.Keys(e)) {
				if k != "time" && k != "level" && k != "message" && k != "game" {
					fmt.Fprintf(&b, " %s=%v", k, e[k])
				}
			}
			b.WriteByte('\n')
		}
		if n > 150 {
			fmt.Fprintf(&b, "(%d more)\n", n-150)
		}
	}
	return b.String()
}

// cluster is the three daemon processes of TestClusterTakeover.
type cluster struct {
	t    *testing.T
	bin  string
	w    *fleetWorld
	mu   sync.Mutex
	cmds [3]*exec.Cmd
	done [3]chan struct{}
	outs [3]*procOut
	all  []*procOut // every process's output, killed ones too
	pids []string   // "daemon I, pid P" of each of all
	fast bool       // no politeness rate (FORUMGM_TEST_FAST_HTTP)
	// logDir is where logs wrote the whole logs (FORUMGM_TEST_CLUSTER_LOGS), once it has.
	logDir string
}

func (c *cluster) start(i int) {
	cmd := exec.Command(c.bin, "run", "--config", c.w.cfgPath)
	cmd.Env = append(os.Environ(), "FORUMGM_TEST_BOT_PW=bot-secret-pw-1", "FORUMGM_TEST_CLOCK_FILE="+c.w.clockPath,
		"FORUMGM_TEST_POLL=100ms", "FORUMGM_TEST_RESCAN=1h")
	if c.fast {
		cmd.Env = append(cmd.Env, "FORUMGM_TEST_FAST_HTTP=1")
	}
	out := &procOut{}
	cmd.Stdout, cmd.Stderr = &lockedWriter{o: out, mu: &c.mu}, &lockedWriter{o: out, mu: &c.mu}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	c.mu.Lock()
	c.cmds[i], c.done[i], c.outs[i] = cmd, done, out
	c.all = append(c.all, out)
	c.pids = append(c.pids, fmt.Sprintf("daemon %d, pid %d", i, cmd.Process.Pid))
	c.mu.Unlock()
}

func (c *cluster) signal(i int, s syscall.Signal) { _ = c.cmds[i].Process.Signal(s) }

func (c *cluster) wait(i int) {
	select {
	case <-c.done[i]:
	case <-time.After(20 * time.Second):
		c.t.Fatalf("daemon %d did not end", i)
	}
}

func (c *cluster) stopAll() {
	for i, cmd := range c.cmds {
		if cmd == nil {
			continue
		}
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		c.wait(i)
	}
}

func (c *cluster) logs() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dir := os.Getenv("FORUMGM_TEST_CLUSTER_LOGS"); dir != "" {
		// A folder of its own per run (-count=N keeps every failing run's logs), written again
		// with all there is at each call.
		_ = os.MkdirAll(dir, 0o755)
		if c.logDir == "" {
			if run, err := os.MkdirTemp(dir, "run-"); err == nil {
				c.logDir = run
				c.t.Logf("the daemons' whole logs are in %s", run)
			}
		}
		for i, o := range c.all {
			if c.logDir == "" {
				break
			}
			_ = os.WriteFile(fmt.Sprintf("%s/process-%d.log", c.logDir, i), []byte(o.String()), 0o644)
		}
	}
	var b strings.Builder
	for i, o := range c.outs {
		s := o.String()
		if len(s) > 3000 {
			s = "…" + s[len(s)-3000:]
		}
		fmt.Fprintf(&b, "--- daemon %d\n%s\n", i, s)
	}
	return b.String()
}

// pid is daemon i's process id as its owner name carries it.
func (c *cluster) pid(i int) int { return c.cmds[i].Process.Pid }

// owned are the games whose lease daemon i holds now.
func (c *cluster) owned(ctx context.Context, st *store.Store, i int) []string {
	ls, err := st.Leases(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	var out []string
	mark := fmt.Sprintf("-%d-", c.pid(i))
	for _, l := range ls {
		if strings.Contains(l.Owner, mark) && l.Expires.After(time.Now()) {
			out = append(out, l.Game)
		}
	}
	return out
}

// takenOver waits until every game of games is held by another daemon than i and says how long
// that took from since.
func (c *cluster) takenOver(ctx context.Context, st *store.Store, i int, games []string, since time.Time) time.Duration {
	mark := fmt.Sprintf("-%d-", c.pid(i))
	for {
		ls, err := st.Leases(ctx)
		if err != nil {
			c.t.Fatal(err)
		}
		left := 0
		for _, l := range ls {
			if slices.Contains(games, l.Game) && (strings.Contains(l.Owner, mark) || !l.Expires.After(time.Now())) {
				left++
			}
		}
		if left == 0 {
			return time.Since(since)
		}
		// The checker's own patience (the daemons' bound is checked by the caller): more games
		// are more to read back on a loaded machine.
		if wait := 30*time.Second + time.Duration(len(games))*100*time.Millisecond; time.Since(since) > wait {
			var rows strings.Builder
			for _, l := range ls {
				if slices.Contains(games, l.Game) && (strings.Contains(l.Owner, mark) || !l.Expires.After(time.Now())) {
					fmt.Fprintf(&rows, "%s: %s token %d expires %s\n", l.Game, l.Owner, l.Token, l.Expires.Format("15:04:05.000"))
				}
			}
			ds, _ := st.Daemons(ctx, time.Minute)
			c.t.Fatalf("%d games of daemon %d not taken over after %v (killed %s):\n%sdaemons: %+v\n%s",
				left, i, wait, since.Format("15:04:05.000"), rows.String(), ds, c.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// procOut is one daemon process's output, and when each piece of it came (to the millisecond as
// the test read it: the daemons log whole seconds, too coarse to order two processes' lines).
type procOut struct {
	strings.Builder
	ends []int       // the output's length after each write
	at   []time.Time // when each write came
}

// stamp is when the output up to byte end had come.
func (o *procOut) stamp(end int) time.Time {
	i, _ := slices.BinarySearch(o.ends, end)
	if i == len(o.at) {
		return time.Time{}
	}
	return o.at[i]
}

// lockedWriter appends to a process's output under a lock (two streams, read from the test).
type lockedWriter struct {
	o  *procOut
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.o.Write(p)
	l.o.ends, l.o.at = append(l.o.ends, l.o.Len()), append(l.o.at, time.Now())
	return n, err
}

// unfinished says, for each game not finished, who holds it and what it still owes.
func (c *cluster) unfinished(ctx context.Context, st *store.Store) string {
	ls, _ := st.Leases(ctx)
	holder := map[string]store.Lease{}
	for _, l := range ls {
		holder[l.Game] = l
	}
	var b strings.Builder
	for _, g := range c.w.games {
		if c.w.gamesFinished(c.t, g) {
			continue
		}
		clk, _, _ := st.Clock(ctx, g.id)
		pend, _ := st.PendingOutbox(ctx, g.id)
		l := holder[g.id]
		fmt.Fprintf(&b, "%s: held by %s (token %d, expires %s), clock %s, %d pending\n", g.id, l.Owner, l.Token,
			l.Expires.Format("15:04:05.000"), clk.Format(time.RFC3339), len(pend))
	}
	for i, cmd := range c.cmds {
		fmt.Fprintf(&b, "daemon %d: pid %d\n", i, cmd.Process.Pid)
	}
	return b.String()
}

// TestClusterSharedRate: three daemons sharing six games on one forum keep together to the
// forum's rate (5 requests a second here), counted at the board: no second of the run sees more.
func TestClusterSharedRate(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	pg, err := pgtest.Start(ctx, t.TempDir(), pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	loc, err := pg.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var games []*crashGame
	for i := range 6 {
		games = append(games, clusterCopy(clusterID(i)))
	}
	const rate = 5
	w := newFleetWorldAt(t, ctx, games, loc, fmt.Sprintf(", lease_ttl: %s", clusterTTL), fmt.Sprintf(", extra: {rate: \"%d\"}", rate))
	c := &cluster{t: t, bin: bin, w: w}
	for i := range 3 {
		c.start(i)
	}
	defer c.stopAll()
	time.Sleep(15 * time.Second)
	c.stopAll()
	w.mu.Lock()
	stamps := slices.Clone(w.stamps)
	w.mu.Unlock()
	if len(stamps) < 3*rate {
		t.Fatalf("only %d requests in 15 s: the daemons did not play", len(stamps))
	}
	// The slots are the rate's; a request whose process woke late reaches the board closer to the
	// next one, so a second may hold one or two more, never a second process's worth.
	most := func(window time.Duration) int {
		m := 0
		for i := range stamps {
			n := 0
			for j := i; j < len(stamps) && stamps[j].Sub(stamps[i]) < window; j++ {
				n++
			}
			m = max(m, n)
		}
		return m
	}
	one, five := most(time.Second), most(5*time.Second)
	t.Logf("%d requests in 15 s from 3 daemons; at most %d in any second, %d in any 5 s (rate %d/s)", len(stamps), one, five, rate)
	if five > 5*rate+2 {
		t.Errorf("%d requests reached the board within 5 s; the shared rate is %d/s", five, rate)
	}
	if one > rate+2 {
		t.Errorf("%d requests reached the board within one second; the shared rate is %d/s", one, rate)
	}
}
