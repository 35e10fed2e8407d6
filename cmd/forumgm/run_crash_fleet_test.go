package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/referee"
	"forumgm/sandbox"
	"forumgm/store"
)

// The crash test of a several-game daemon: one child process runs two games of different kinds
// (each in its own thread of one board, one bot account, a shared inbox), with every player's post
// and private message made before it first runs, as in crashAnywhere. The evening is played once
// uninterrupted, then with the daemon killed at the pipeline's hook points (the hook counts the
// steps of both games), by random SIGKILLs, and by SIGKILLs the board itself sends while one
// game's reply is on its way (before the board takes it, or after it stored it and before the
// daemon hears back). Every run must end with each game's thread, private messages and final
// state equal to the uninterrupted run's, each reply once; and a kill during one game's reply
// must leave the other games as they were: what they had posted and logged by then is where
// their uninterrupted evening went.

func TestCrashAnywhereExactlyOnceTwoGames(t *testing.T) {
	fleetCrashAnywhere(t, []*crashGame{&crusadeCrash, &dragonballCrash},
		[]string{"started:2", "judged:1", "fired:1", "attempt:1", "sent:1", "posted:1", "judged:4", "fired:2",
			"attempt:2", "sent:2", "posted:2", "attempt:3", "sent:3", "posted:4"},
		[]postKill{
			{game: 1, nth: 1},                          // dragonball's first thread post never reaches the board
			{game: 1, nth: 2, stored: true},            // its second is stored; the daemon never hears back
			{game: 1, nth: 1, pm: true},                // its first private message never arrives
			{game: 1, nth: -1, pm: true, stored: true}, // its last private message arrives unacknowledged
			{game: 1, nth: -1, stored: true},           // its last thread post (the last round's report)
			{game: 0, nth: 3, stored: true},            // and one of Crusade's replies the other way round
		})
}

func TestCrashAnywhereExactlyOnceTwoGamesFootball(t *testing.T) {
	fleetCrashAnywhere(t, []*crashGame{&crusadeCrash, &footballCrash},
		[]string{"started:1", "judged:2", "fired:1", "attempt:1", "sent:2", "posted:1", "judged:6", "fired:3",
			"attempt:3", "sent:3", "posted:3", "attempt:5", "sent:5", "posted:6"},
		[]postKill{
			{game: 1, nth: 1, stored: true},            // the football game's first thread post, unacknowledged
			{game: 1, nth: 3},                          // its third never reaches the board
			{game: 1, nth: 1, pm: true, stored: true},  // its first private message
			{game: 1, nth: -1, stored: true},           // its last thread post (the second turn's results)
			{game: 0, nth: -1, pm: true, stored: true}, // and Crusade's private message
		})
}

// fleetGame is one game of a fleetWorld: its id, its thread and what it plays.
type fleetGame struct {
	id     string
	tid    int
	game   *crashGame
	pids   []int // its players' thread posts
	view   *config.Config
	newRef func() (*referee.Referee, error)
}

// fleetWorld is a sandbox board with a thread per game and one daemon config listing the games.
// The board is served through the world (ServeHTTP), which kills the child when an armed reply
// of one game is posted.
type fleetWorld struct {
	crashWorld // dir, config, clock, board, the child runner; its game is nil
	games      []*fleetGame
	loc        string // the store: the SQLite file, or a PostgreSQL URL (newFleetWorldAt)
	until      time.Time
	handler    http.Handler // the board's
	inflight   atomic.Int32 // requests being served
	stamps     []time.Time  // when each request came (under mu)
	kills      []*postKill  // armed (each fires once)
	last       *postKill    // the kill that fired last, not yet looked at
	hits       []killHit
}

// postKill cuts one game's reply: the game's nth thread post or private message (nth < 0 counts
// from the end of the uninterrupted run's).
type postKill struct {
	game   int
	nth    int
	pm     bool
	stored bool // the board stores the post, then the daemon dies before the answer; else before
	hit    bool
}

func (k postKill) String() string {
	what := "thread post"
	if k.pm {
		what = "private message"
	}
	when := "before the board took it"
	if k.stored {
		when = "after the board stored it"
	}
	return fmt.Sprintf("game %d's %s #%d, %s", k.game, what, k.nth, when)
}

// killHit is what the other games had when a kill landed.
type killHit struct {
	kill  postKill
	count int // the killed game's replies of that sort on the board afterwards
	other map[int]fleetState
}

// fleetState is a game's replies on the board and its event log at one moment.
type fleetState struct {
	thread, pms []string
	records     []string
}

func newFleetWorld(t *testing.T, ctx context.Context, games []*crashGame) *fleetWorld {
	return newFleetWorldAt(t, ctx, games, "", "", "")
}

// newFleetWorldAt is newFleetWorld with the store at loc ("": forumgm.db in the world's folder)
// and more of the config's store section (lease_ttl, …) and of its forum's (extra: {rate: …}).
func newFleetWorldAt(t *testing.T, ctx context.Context, games []*crashGame, loc, storeExtra, forumExtra string) *fleetWorld {
	dir := t.TempDir()
	w := &fleetWorld{crashWorld: crashWorld{dir: dir, cfgPath: filepath.Join(dir, "config.yaml"), clockPath: filepath.Join(dir, "clock")}, loc: loc}
	if w.loc == "" {
		w.loc = filepath.Join(dir, "forumgm.db")
	}
	users := []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"}}
	var threads []sandbox.Thread
	var first time.Time
	type timedPost struct {
		at   time.Time
		game *fleetGame
		post crashPost
	}
	var posts []timedPost
	seen := map[string]string{}
	for i, g := range games {
		fg := &fleetGame{id: cmp.Or(g.id, g.kind), tid: i + 1, game: g}
		w.games = append(w.games, fg)
		start, err := time.Parse(time.RFC3339, g.start)
		if err != nil {
			t.Fatal(err)
		}
		if first.IsZero() || start.Before(first) {
			first = start
		}
		if g.until.After(w.until) {
			w.until = g.until
		}
		for _, p := range g.players {
			// The shared inbox routes a private message by who wrote it: a player of two games
			// would make it ambiguous.
			if other, ok := seen[p]; ok {
				t.Fatalf("%s plays in %s and %s", p, other, g.kind)
			}
			seen[p] = g.kind
			users = append(users, sandbox.User{Name: p, Password: fmt.Sprintf("p-%d", len(users))})
		}
		threads = append(threads, sandbox.Thread{Subject: g.subject, Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: "Партия начинается."}}})
		for _, p := range g.posts {
			posts = append(posts, timedPost{p.time(start), fg, p})
		}
	}
	w.set(t, first)
	var err error
	w.board, err = sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: w.Now, Location: mskZone,
		Users: users, Threads: threads, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.board.Close() })
	w.handler = w.board.Handler()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: w, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	w.url = "http://" + ln.Addr().String()

	var cfg strings.Builder
	fmt.Fprintf(&cfg, `forums:
  main: {url: %q, dialect: mybb, timezone: Europe/Moscow, bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}%s}
moderators: [Moderator]
games:
`, w.url+"/", forumExtra)
	for _, g := range w.games {
		fmt.Fprintf(&cfg, "  - id: %s\n    kind: %s\n    forum: main\n    thread: \"%d\"\n    start: %q\n%s", g.id, g.game.kind, g.tid, g.game.start, indent(g.game.section))
		for name, text := range g.game.files {
			if err := writeFile(filepath.Join(dir, name), text); err != nil {
				t.Fatal(err)
			}
		}
	}
	if store.IsURL(w.loc) {
		fmt.Fprintf(&cfg, "store: {url: %q%s}\n", w.loc, storeExtra)
	} else {
		fmt.Fprintf(&cfg, "store: {path: forumgm.db%s}\n", storeExtra)
	}
	cfg.WriteString("ops: {log_format: json, log_level: debug}\n")
	if err := writeFile(w.cfgPath, cfg.String()); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(w.cfgPath, knownGames())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(knownGames()); err != nil {
		t.Fatal(err)
	}
	views := c.GameConfigs()
	if len(views) != len(w.games) {
		t.Fatalf("%d games in the config", len(views))
	}
	// Each game is registered with the same seed in every world (a live game draws its own), so
	// the runs' threads can be compared byte for byte.
	pre, err := store.Open(ctx, w.loc)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range w.games {
		g.view = views[i]
		if !g.view.Bot.Shared {
			t.Fatalf("game %s: the bot's inbox is not shared", g.id)
		}
		rec := daemon.GameRecord{Kind: g.game.kind, Forum: w.url + "/", Thread: strconv.Itoa(g.tid), Start: g.view.StartTime().UTC(),
			Seed: "crash-seed-" + cmp.Or(g.game.seedAs, g.id), Salt: "crash-salt-" + cmp.Or(g.game.seedAs, g.id)}
		if _, err := daemon.RegisterRecord(ctx, pre, g.id, rec); err != nil {
			t.Fatal(err)
		}
		if g.newRef, err = daemon.RefereeFactory(g.view, forum.Capabilities{PrivateMessages: true, MaxPostLength: 65535}, rec); err != nil {
			t.Fatal(err)
		}
	}
	pre.Close()
	// The players post both games (board times, in time order), then the clock moves past the
	// end of the later one.
	sort.SliceStable(posts, func(i, j int) bool { return posts[i].at.Before(posts[j].at) })
	for _, p := range posts {
		w.set(t, p.at)
		if p.post.pm {
			if err := w.board.SendPM(ctx, p.post.author, "gm-bot", "ход", p.post.text); err != nil {
				t.Fatal(err)
			}
			continue
		}
		pid, _, err := w.board.Reply(ctx, p.post.author, p.game.tid, p.post.text)
		if err != nil {
			t.Fatal(err)
		}
		p.game.pids = append(p.game.pids, pid)
	}
	w.set(t, w.until)
	return w
}

func writeFile(path, text string) error {
	return os.WriteFile(path, []byte(text), 0o644)
}

// ServeHTTP serves the board to the child; when an armed kill's reply comes, it SIGKILLs the
// child (before or after letting the board store it) and drops the connection unanswered.
func (w *fleetWorld) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.inflight.Add(1)
	defer w.inflight.Add(-1)
	w.mu.Lock()
	w.stamps = append(w.stamps, time.Now())
	w.mu.Unlock()
	if r.Method == http.MethodPost {
		if k := w.armed(r); k != nil {
			if k.stored {
				w.handler.ServeHTTP(httptest.NewRecorder(), r)
			}
			w.mu.Lock()
			proc := w.proc
			w.mu.Unlock()
			_ = proc.Signal(syscall.SIGKILL)
			if hj, ok := rw.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
				}
			}
			return
		}
	}
	w.handler.ServeHTTP(rw, r)
}

// armed is the kill a request fires (once), if any.
func (w *fleetWorld) armed(r *http.Request) *postKill {
	if err := r.ParseMultipartForm(8 << 20); err != nil && err != http.ErrNotMultipart {
		return nil // the board answers it
	}
	form := func(name string) string {
		if v := r.PostForm.Get(name); v != "" {
			return v
		}
		return r.URL.Query().Get(name)
	}
	path := strings.TrimPrefix(r.URL.Path, "/")
	w.mu.Lock()
	kills := append([]*postKill(nil), w.kills...)
	w.mu.Unlock()
	for _, k := range kills {
		g := w.games[k.game]
		if k.pm {
			if path != "private.php" || form("action") != "do_send" || !g.plays(form("to")) {
				continue
			}
		} else if path != "newreply.php" || form("action") != "do_newreply" || form("tid") != strconv.Itoa(g.tid) {
			continue
		}
		// Counted without the lock: the board's clock takes it.
		if w.count(g, k.pm)+1 != k.nth {
			continue
		}
		w.mu.Lock()
		fire := !k.hit
		if fire {
			k.hit, w.last = true, k
		}
		w.mu.Unlock()
		if fire {
			return k
		}
	}
	return nil
}

func (g *fleetGame) plays(name string) bool {
	for _, p := range g.game.players {
		if strings.EqualFold(p, strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// count is how many thread posts (or private messages) the bot has posted for g.
func (w *fleetWorld) count(g *fleetGame, pm bool) int {
	ctx := context.Background()
	n := 0
	if pm {
		for _, u := range g.game.players {
			pms, _ := w.board.PMs(ctx, u)
			for _, m := range pms {
				if m.From == "gm-bot" && m.Folder == 1 {
					n++
				}
			}
		}
		return n
	}
	posts, _ := w.board.Posts(ctx, g.tid)
	for i, p := range posts {
		if p.Author == "gm-bot" && i > 0 {
			n++
		}
	}
	return n
}

// idle waits until the board serves no request (a killed child's last ones are finished).
func (w *fleetWorld) idle(t *testing.T) {
	for i := 0; w.inflight.Load() > 0; i++ {
		if i > 1000 {
			t.Fatal("the board is still serving a dead child")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// finished reports whether every game has judged every post of its own, fired every timer due
// by the world's clock (and at least its own evening's) and posted everything.
func (w *fleetWorld) finished(t *testing.T) bool {
	return w.gamesFinished(t, w.games...)
}

// gamesFinished is finished for some of the world's games.
func (w *fleetWorld) gamesFinished(t *testing.T, games ...*fleetGame) bool {
	ctx := context.Background()
	st, err := store.Open(ctx, w.loc, store.Shared())
	if err != nil {
		return false
	}
	defer st.Close()
	pms, err := w.board.PMs(ctx, "gm-bot")
	if err != nil {
		return false
	}
	for _, g := range games {
		clk, ok, err := st.Clock(ctx, g.id)
		if err != nil || !ok || clk.Before(g.game.clockAt) {
			return false
		}
		if pend, err := st.PendingOutbox(ctx, g.id); err != nil || len(pend) > 0 {
			return false
		}
		for _, pid := range g.pids {
			if rec, ok, err := st.SeenPost(ctx, g.id, store.SourceThread, fmt.Sprint(pid)); err != nil || !ok || !rec.Judged() {
				return false
			}
		}
		for _, pm := range pms {
			if pm.Folder != 1 || !g.plays(pm.From) {
				continue
			}
			if rec, ok, err := st.SeenPost(ctx, g.id, store.SourcePM, fmt.Sprint(pm.PMID)); err != nil || !ok || !rec.Judged() {
				return false
			}
		}
		ref, err := w.referee(ctx, st, g)
		if err != nil {
			return false
		}
		if at, ok := ref.NextTimer(clk); ok && !at.After(w.until) {
			return false
		}
	}
	return true
}

func (w *fleetWorld) referee(ctx context.Context, st *store.Store, g *fleetGame) (*referee.Referee, error) {
	ref, err := g.newRef()
	if err != nil {
		return nil, err
	}
	recs, err := st.Records(ctx, g.id)
	if err != nil {
		return nil, err
	}
	return ref, ref.Restore(recs)
}

func (w *fleetWorld) finishedFn(t *testing.T) func() bool {
	return func() bool { return w.finished(t) }
}

var fleetMarker = regexp.MustCompile(`fgm-[a-z]+-\d+-[0-9a-f]{12}(-p\d+)?`)

// fleetKey is the keyed part of a marker (each database has its own key).
var fleetKey = regexp.MustCompile(`(fgm-[a-z]+-\d+-)[0-9a-f]{12}`)

// state is each game's replies and event log as they are now.
func (w *fleetWorld) state(t *testing.T) map[int]fleetState {
	ctx := context.Background()
	st, err := store.Open(ctx, w.loc, store.Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[int]fleetState{}
	for i, g := range w.games {
		var s fleetState
		posts, err := w.board.Posts(ctx, g.tid)
		if err != nil {
			t.Fatal(err)
		}
		for j, p := range posts {
			if p.Author == "gm-bot" && j > 0 {
				s.thread = append(s.thread, fleetKey.ReplaceAllString(namedAttachments(t, w.board, p.PID, p.Message), "${1}KEY"))
			}
		}
		for _, pm := range botPMs(t, w.board, g.game.players) {
			s.pms = append(s.pms, pm.to+": "+fleetKey.ReplaceAllString(pm.message, "${1}KEY"))
		}
		recs, err := st.Records(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			b, _ := json.Marshal(r)
			s.records = append(s.records, string(b))
		}
		out[i] = s
	}
	return out
}

// result is each game's thread, private messages and final state; every marker on the board
// (any thread, any player's private messages) must be there once.
func (w *fleetWorld) result(t *testing.T) []crashResult {
	ctx := context.Background()
	count := map[string]int{}
	var players []string
	for _, g := range w.games {
		posts, err := w.board.Posts(ctx, g.tid)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			if p.Author == "gm-bot" {
				for _, m := range fleetMarker.FindAllString(p.Message, -1) {
					count[m]++
				}
			}
		}
		players = append(players, g.game.players...)
	}
	for _, pm := range botPMs(t, w.board, players) {
		for _, m := range fleetMarker.FindAllString(pm.message, -1) {
			count[m]++
		}
	}
	for m, n := range count {
		if n != 1 {
			t.Errorf("reply %s is on the board %d times", m, n)
		}
	}
	st, err := store.Open(ctx, w.loc, store.Shared())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := w.state(t)
	var out []crashResult
	for i, g := range w.games {
		ref, err := w.referee(ctx, st, g)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(ref.Snapshot())
		evs, err := st.Events(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		var log []string
		for _, e := range evs {
			line := fmt.Sprintf("%d %s %s %s %s", e.Seq, e.At.Format(time.RFC3339), e.Cause, e.Kind, e.Data)
			log = append(log, fleetKey.ReplaceAllString(line, "${1}KEY"))
		}
		out = append(out, crashResult{thread: now[i].thread, pms: now[i].pms, snapshot: string(b), events: log})
	}
	return out
}

// compare reports where got differs from the uninterrupted run's want, game by game, and returns
// the games that differ. The short lines come first (a CI log cut short keeps them): the replies'
// order by their markers' numbers (a reply missing, doubled or moved) and where the event logs
// part; then the first differing posts themselves.
func (w *fleetWorld) compare(t *testing.T, what string, want, got []crashResult) (differ []string) {
	t.Helper()
	for i, g := range w.games {
		thread := firstDiff(want[i].thread, got[i].thread, "posts")
		pms := firstDiff(want[i].pms, got[i].pms, "messages")
		if thread == "" && pms == "" && want[i].snapshot == got[i].snapshot {
			continue
		}
		differ = append(differ, g.id)
		t.Errorf("%s: %s differs from the uninterrupted run; its replies by marker number:\nwant %s\ngot  %s",
			what, g.id, markerNumbers(want[i].thread), markerNumbers(got[i].thread))
		if d := firstDiff(want[i].events, got[i].events, "events"); d != "" {
			t.Logf("%s: %s's event log differs: %s", what, g.id, d)
		}
		if thread != "" {
			t.Errorf("%s: %s's thread differs from the uninterrupted run's: %s", what, g.id, thread)
		}
		if pms != "" {
			t.Errorf("%s: %s's private messages differ from the uninterrupted run's: %s", what, g.id, pms)
		}
		if want[i].snapshot != got[i].snapshot {
			t.Errorf("%s: %s's final state differs:\nwant %s\ngot  %s", what, g.id, want[i].snapshot, got[i].snapshot)
		}
	}
	return differ
}

// markerNumbers lists the item number of each post's markers (fgm-GAME-N-…), in thread order.
func markerNumbers(thread []string) string {
	var ns []string
	for _, p := range thread {
		var in []string
		for _, m := range markerNumber.FindAllStringSubmatch(p, -1) {
			in = append(in, m[1])
		}
		ns = append(ns, cmp.Or(strings.Join(in, "+"), "?"))
	}
	return strings.Join(ns, " ")
}

var markerNumber = regexp.MustCompile(`fgm-[a-z]+-(\d+)-`)

// firstDiff says where got first differs from want, showing only the posts around it (a whole
// thread in a CI log hides the difference); "" when they are equal.
func firstDiff(want, got []string, noun string) string {
	k := 0
	for k < len(want) && k < len(got) && want[k] == got[k] {
		k++
	}
	if k == len(want) && k == len(got) {
		return ""
	}
	at := func(s []string, i int) string {
		if i >= len(s) {
			return "(none)"
		}
		return s[i]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s wanted, %d got; the first %d alike", len(want), noun, len(got), k)
	for i := k; i < k+2 && (i < len(want) || i < len(got)); i++ {
		fmt.Fprintf(&b, "\n--- want #%d\n%s\n--- got #%d\n%s", i+1, at(want, i), i+1, at(got, i))
	}
	return b.String()
}

// to picks the private messages to player u (each is "u: text").
func to(u string, pms []string) []string {
	var out []string
	for _, m := range pms {
		if strings.HasPrefix(m, u+": ") {
			out = append(out, m)
		}
	}
	return out
}

// isPrefix reports whether a is where b began.
func isPrefix(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fleetCrashAnywhere plays games in one daemon once uninterrupted, then again (each on a fresh
// board) with the daemon killed at the hook points in kinds, at random moments, and during the
// replies in kills, and compares every game's thread, private messages and final state.
func fleetCrashAnywhere(t *testing.T, games []*crashGame, kinds []string, kills []postKill) {
	bin := buildBinary(t)
	ctx := context.Background()

	// The uninterrupted run.
	base := newFleetWorld(t, ctx, games)
	out, err := base.child(t, bin, "", 0, base.finishedFn(t))
	if err != nil && !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("baseline run: %v\n%s", err, out)
	}
	if strings.Contains(out, "bot-secret-pw-1") {
		t.Fatalf("the bot's password is in the log")
	}
	want := base.result(t)
	for i, g := range base.games {
		if len(want[i].thread)+len(want[i].pms) < len(g.game.posts) {
			t.Fatalf("baseline: %s has only %d bot replies:\n%s", g.id, len(want[i].thread), strings.Join(want[i].thread, "\n---\n"))
		}
	}

	// Killed at the pipeline's hook points, each run resuming the last.
	w := newFleetWorld(t, ctx, games)
	runs, hookKills := 0, 0
	var exits []string
	for i := 0; i < 60 && !w.finished(t); i++ {
		runs++
		out, err := w.child(t, bin, kinds[i%len(kinds)], 0, w.finishedFn(t))
		if err != nil && strings.Contains(out, "test hook: exiting") {
			hookKills++
			exits = append(exits, kinds[i%len(kinds)])
		}
	}
	if out, err := w.child(t, bin, "", 0, w.finishedFn(t)); !w.finished(t) {
		t.Fatalf("hook-kill world did not finish (%v):\n%s", err, out)
	}
	w.compare(t, "hook exits", want, w.result(t))
	if hookKills < 5 {
		t.Errorf("only %d hook crashes happened", hookKills)
	}

	// SIGKILLs at random moments (fixed seed).
	w2 := newFleetWorld(t, ctx, games)
	rng := rand.New(rand.NewPCG(4, 2))
	sigKills := 0
	for i := 0; i < 8 && !w2.finished(t); i++ {
		runs++
		if _, err := w2.child(t, bin, "", time.Duration(30+rng.IntN(400))*time.Millisecond, w2.finishedFn(t)); err != nil {
			sigKills++
		}
	}
	if out, err := w2.child(t, bin, "", 0, w2.finishedFn(t)); !w2.finished(t) {
		t.Fatalf("random-kill world did not finish (%v):\n%s", err, out)
	}
	w2.compare(t, "random SIGKILLs", want, w2.result(t))

	// SIGKILLs while one game's reply is on its way to the board.
	w3 := newFleetWorld(t, ctx, games)
	for i := range kills {
		k := kills[i]
		if k.nth < 0 {
			n := len(want[k.game].thread)
			if k.pm {
				n = len(want[k.game].pms)
			}
			k.nth += n + 1
		}
		w3.kills = append(w3.kills, &k)
	}
	for i := 0; i < 2*len(kills) && !w3.finished(t); i++ {
		runs++
		_, err := w3.child(t, bin, "", 0, w3.finishedFn(t))
		w3.idle(t)
		w3.mu.Lock()
		hit := w3.last
		w3.last = nil
		w3.mu.Unlock()
		if hit == nil {
			continue // the run ended without a kill
		}
		if err == nil {
			t.Fatalf("kill during %s: the child exited cleanly", hit)
		}
		h := killHit{kill: *hit, count: w3.count(w3.games[hit.game], hit.pm), other: w3.state(t)}
		w3.hits = append(w3.hits, h)
	}
	if out, err := w3.child(t, bin, "", 0, w3.finishedFn(t)); !w3.finished(t) {
		t.Fatalf("reply-kill world did not finish (%v):\n%s", err, out)
	}
	got := w3.result(t)
	w3.compare(t, "kills during a reply", want, got)
	final := w3.state(t)
	for _, k := range w3.kills {
		if !k.hit {
			t.Errorf("no kill during %s: the game got past it", k)
		}
	}
	for _, h := range w3.hits {
		k := h.kill
		// The reply cut was stored or not, once.
		wantCount := k.nth - 1
		if k.stored {
			wantCount = k.nth
		}
		if h.count != wantCount {
			t.Errorf("kill during %s: %d such replies on the board, want %d", k, h.count, wantCount)
		}
		// The other games: what they had posted and logged is where their evening went on, to
		// the uninterrupted run's end.
		for i, g := range w3.games {
			if i == k.game {
				continue
			}
			s := h.other[i]
			if !isPrefix(s.thread, want[i].thread) {
				t.Errorf("kill during %s: %s's thread then is not the start of the uninterrupted run's:\n%s",
					k, g.id, strings.Join(s.thread, "\n---\n"))
			}
			for _, u := range g.game.players {
				if then := to(u, s.pms); !isPrefix(then, to(u, want[i].pms)) {
					t.Errorf("kill during %s: %s's private messages to %s then are not the start of the uninterrupted run's:\n%s",
						k, g.id, u, strings.Join(then, "\n---\n"))
				}
			}
			if !isPrefix(s.records, final[i].records) {
				t.Errorf("kill during %s: %s's event log then (%d events) is not the start of its final log", k, g.id, len(s.records))
			}
		}
	}
	orphans := 0
	for _, x := range []*fleetWorld{w, w2, w3} {
		_, pending, err := x.board.AllAttachments(ctx)
		if err != nil {
			t.Fatal(err)
		}
		orphans += pending
	}
	t.Logf("%d runs; %d hook exits (%s), %d random SIGKILLs, %d kills during a reply; %d uploads of killed runs left unposted; replies per game:%s",
		runs, hookKills, strings.Join(exits, " "), sigKills, len(w3.hits), orphans, replyCounts(w3.games, got))
}

func replyCounts(games []*fleetGame, res []crashResult) string {
	var b strings.Builder
	for i, g := range games {
		fmt.Fprintf(&b, " %s %d posts, %d private messages;", g.id, len(res[i].thread), len(res[i].pms))
	}
	return strings.TrimSuffix(b.String(), ";")
}
