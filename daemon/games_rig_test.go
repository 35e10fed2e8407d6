package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/config"
	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/internal/testkit"
	"forumgm/referee"
	"forumgm/sandbox"
	"forumgm/store"
)

// The games' rig: one sandbox board on loopback with a thread per game, and for each game its own
// config (any registered game), store, forum session and daemon, all on one simulated clock. A
// game's daemon can be crashed at a pipeline step (a panic from the hook, recovered by the test:
// the daemon is dropped as a killed process would be) and restarted on the same store.

// board is the sandbox forum the games share.
type board struct {
	ctx   context.Context
	srv   *sandbox.Server
	url   string
	clock *testkit.Clock
	dir   string
	pw    map[string]string
}

func newBoard(t testing.TB, start time.Time, users []string, threads ...string) *board {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	clock := testkit.NewClock(start)
	var us []sandbox.User
	pw := map[string]string{}
	for i, u := range users {
		pw[u] = fmt.Sprintf("pw-%d", i)
		us = append(us, sandbox.User{Name: u, Password: pw[u]})
	}
	var ts []sandbox.Thread
	for _, subj := range threads {
		ts = append(ts, sandbox.Thread{Subject: subj, Posts: []sandbox.SeedPost{{Author: users[0], Message: subj + ": тема игры."}}})
	}
	srv, err := sandbox.New(ctx, sandbox.Options{DBPath: dir + "/board.db", Now: clock.Now, Location: msk, Users: us, Threads: ts,
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1, PostsPerPage: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	url, err := srv.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return &board{ctx: ctx, srv: srv, url: url, clock: clock, dir: dir, pw: pw}
}

// set moves the clock to hh:mm on day d of December 2026 (Moscow time).
func (b *board) set(d int, hm string) {
	t, err := time.ParseInLocation("15:04", hm, msk)
	if err != nil {
		panic(err)
	}
	b.clock.Set(time.Date(2026, 12, d, t.Hour(), t.Minute(), 0, 0, msk))
}

// table is one game on the board: its thread, config, store, bot session and daemon.
type table struct {
	b      *board
	id     string
	kind   string
	bot    string
	thread int
	cfg    *config.Config
	newRef func() (*referee.Referee, error)
	st     *store.Store
	fo     forum.Forum
	d      *Daemon
	logMu  sync.Mutex
	log    strings.Builder
}

// crash is what a test hook panics with to drop a daemon mid-pipeline.
type crash struct{ step string }

// game sets up a game on thread (1-based) from a config's game section (indented two spaces),
// played by the bot account bot, with a fixed seed so runs compare.
func (b *board) game(t testing.TB, id, bot string, thread int, gameYAML string) *table {
	t.Helper()
	src := fmt.Sprintf("forum: {url: %q, thread: %q}\nbot: {username: %s, password_env: PW}\nmoderators: [Moderator]\ngame:\n  id: %s\n%s",
		b.url+"/", fmt.Sprint(thread), bot, id, gameYAML)
	cfg, err := config.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(known); err != nil {
		t.Fatal(err)
	}
	g := &table{b: b, id: id, kind: cfg.Game.Kind, bot: bot, thread: thread, cfg: cfg}
	g.st, err = store.Open(b.ctx, fmt.Sprintf("%s/%s.db", b.dir, id), store.WithClock(b.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.st.Close()
		if t.Failed() {
			g.logMu.Lock()
			t.Logf("%s: the daemons' log:\n%s", id, g.log.String())
			g.logMu.Unlock()
		}
	})
	g.fo = g.session(t)
	start := cfg.StartTime()
	if start.IsZero() {
		start = b.clock.Now()
	}
	rec := GameRecord{Kind: g.kind, Forum: b.url + "/", Thread: fmt.Sprint(thread), Start: start.UTC(), Seed: "e2e-" + id, Salt: "salt-" + id}
	g.newRef, err = RefereeFactory(cfg, g.fo.Capabilities(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RegisterRecord(b.ctx, g.st, id, rec); err != nil {
		t.Fatal(err)
	}
	g.d = g.daemon(t, "")
	return g
}

// session is a fresh bot login (a restarted daemon logs in again).
func (g *table) session(t testing.TB) forum.Forum {
	t.Helper()
	f, err := mybb.New(forum.Config{BaseURL: g.b.url + "/", Username: g.bot, Password: g.b.password(t, g.bot), Location: msk, Now: g.b.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000})))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Login(g.b.ctx); err != nil {
		t.Fatal(err)
	}
	return f
}

// daemon builds the game's daemon; crashAt, if set, makes the hook panic at the first time that
// pipeline step is reached.
func (g *table) daemon(t testing.TB, crashAt string) *Daemon {
	t.Helper()
	crashed := false
	d, err := New(Options{Game: g.id, Kind: g.kind, Thread: forum.Thread{ID: fmt.Sprint(g.thread)}, Forum: g.fo, Store: g.st,
		NewReferee: g.newRef, Bot: g.bot, Moderators: []string{"Moderator"}, Start: g.cfg.StartTime(), Clock: g.b.clock,
		Poll: PollPolicy{Floor: time.Second, Ceiling: time.Minute, Loc: msk}, Rescan: time.Hour,
		Log: zerolog.New(syncWriter{&g.logMu, &g.log}),
		Hook: func(step string) {
			if crashAt != "" && step == crashAt && !crashed {
				crashed = true
				panic(crash{step})
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// cycle runs one cycle; it reports whether the daemon crashed at its hook (then the daemon is
// dead: restart builds a new one on the same store).
func (g *table) cycle(t testing.TB) (crashed bool) {
	t.Helper()
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(crash); !ok {
				panic(v)
			}
			crashed = true
		}
	}()
	if _, err := g.d.Cycle(g.b.ctx); err != nil {
		t.Fatalf("%s: cycle: %v", g.id, err)
	}
	return false
}

// restart replaces the daemon by a new one (a new process: a new bot session, the same store).
func (g *table) restart(t testing.TB, crashAt string) {
	t.Helper()
	g.fo = g.session(t)
	g.d = g.daemon(t, crashAt)
}

// settle runs cycles (the clock still) until nothing is left to post.
func (g *table) settle(t testing.TB) {
	t.Helper()
	for i := 0; i < 10; i++ {
		g.cycle(t)
		pend, err := g.st.PendingOutbox(g.b.ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		if len(pend) == 0 {
			return
		}
	}
	t.Fatalf("%s: the outbox does not empty", g.id)
}

// post is a player's reply in the game's thread.
func (g *table) post(t testing.TB, user, text string) int {
	t.Helper()
	pid, _, err := g.b.srv.Reply(g.b.ctx, user, g.thread, text)
	if err != nil {
		t.Fatalf("%s posts: %v", user, err)
	}
	return pid
}

// pm is a player's private message to the game's bot.
func (g *table) pm(t testing.TB, user, text string) {
	t.Helper()
	if err := g.b.srv.SendPM(g.b.ctx, user, g.bot, "ход", text); err != nil {
		t.Fatalf("%s writes to %s: %v", user, g.bot, err)
	}
}

// botPosts are the bot's posts in the game's thread (raw MyCode), the seeded first post left out.
func (g *table) botPosts(t testing.TB) []string {
	t.Helper()
	posts, err := g.b.srv.Posts(g.b.ctx, g.thread)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range posts {
		if p.Author == g.bot && p.PID > 0 && markerRe.MatchString(p.Message) {
			out = append(out, p.Message)
		}
	}
	return out
}

// received are the private messages user got from the game's bot, oldest first.
func (g *table) received(t testing.TB, user string) []string {
	t.Helper()
	pms, err := g.b.srv.PMs(g.b.ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, pm := range pms {
		if pm.From == g.bot && pm.Folder == 1 {
			out = append(out, pm.Message)
		}
	}
	return out
}

// kinds counts the game's events by kind.
func (g *table) kinds(t testing.TB) map[string]int {
	t.Helper()
	evs, err := g.st.Events(g.b.ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range evs {
		out[e.Kind]++
	}
	return out
}

// verdict is how the game judged a thread post or a private message (by forum id).
func (g *table) verdict(t testing.TB, src store.Source, id string) store.Verdict {
	t.Helper()
	rec, ok, err := g.st.SeenPost(g.b.ctx, g.id, src, id)
	if err != nil || !ok {
		t.Fatalf("%s: post %s/%s not seen (%v)", g.id, src, id, err)
	}
	return rec.Verdict
}

// exactlyOnce checks every reply of the game is in its thread once and nothing waits to be sent.
func (g *table) exactlyOnce(t testing.TB) []string {
	t.Helper()
	order, count := markersIn(g.botPosts(t))
	for m, n := range count {
		if n != 1 {
			t.Errorf("%s: marker %s appears %d times in the thread", g.id, m, n)
		}
		if !strings.HasPrefix(m, "fgm-"+g.id+"-") {
			t.Errorf("%s: another game's marker %s in the thread", g.id, m)
		}
	}
	pend, err := g.st.PendingOutbox(g.b.ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(pend) != 0 {
		t.Errorf("%s: %d outbox items still pending", g.id, len(pend))
	}
	return order
}

// withText is the first of texts containing all of want, or "".
func withText(texts []string, want ...string) string {
next:
	for _, s := range texts {
		for _, w := range want {
			if !strings.Contains(s, w) {
				continue next
			}
		}
		return s
	}
	return ""
}

// password is a board user's password (newBoard numbers them).
func (b *board) password(t testing.TB, user string) string {
	t.Helper()
	pw, ok := b.pw[user]
	if !ok {
		t.Fatalf("no board user %s", user)
	}
	return pw
}

// newRefOver reports whether the game, re-folded from its store, is over.
func (g *table) newRefOver(t testing.TB) bool {
	t.Helper()
	ref, err := g.newRef()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := g.st.Records(g.b.ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Restore(recs); err != nil {
		t.Fatal(err)
	}
	return ref.Rules().Over()
}

// crashAndRecover crashes a new daemon at step crashAt during its next cycle, then lets another
// new daemon finish. A crash after the forum took a message ("sent") leaves it unrecorded: the
// next daemon must find it by its marker instead of posting it again; before that, nothing of
// it is on the forum to find.
// between, if set, looks at the world while no daemon runs.
func (g *table) crashAndRecover(t *testing.T, crashAt string, between func()) {
	t.Helper()
	g.restart(t, crashAt)
	if !g.cycle(t) {
		t.Fatalf("the daemon did not reach %q", crashAt)
	}
	if between != nil {
		between()
	}
	g.restart(t, "")
	g.settle(t)
	found := counterValue(t, g.d.m.RepliesPosted.WithLabelValues(g.id, "reply", "found")) +
		counterValue(t, g.d.m.RepliesPosted.WithLabelValues(g.id, "pm", "found"))
	if (crashAt == "sent") != (found > 0) {
		t.Errorf("crashed at %s: %v messages found on the forum by their marker after the restart", crashAt, found)
	}
}
