package fleet

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
	"forumgm/store"
)

// pollFloor is the poll floor of a world's config.yaml.
const pollFloor = 5 * time.Second

// tickingClock is the test clock moving a millisecond at each reading, as a host's clock does
// between two steps of a cycle (the test clock alone stands still within a cycle, and a game's
// probe turn is always due on a clock that stands still).
type tickingClock struct{ *testkit.Clock }

func (c tickingClock) Now() time.Time { return c.Advance(time.Millisecond) }

// worldUsers are a world's board users unless its options name others.
var worldUsers = []string{"gm-bot", "Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл", "Moderator"}

// boardOptions is what the sandbox board of a fleet test is made of, besides its one section
// (FID 10, "Игры"), which holds every thread.
type boardOptions struct {
	now      func() time.Time // the board's clock; nil: time.Now
	location *time.Location   // the board's time zone; nil: UTC
	users    []string         // each with the password "pw-"+name
	threads  []sandbox.Thread
	front    func(http.Handler) http.Handler // if set, stands between the bot and the board
}

// serveBoard opens a sandbox board in dir and serves it over real HTTP on loopback through a
// listener that counts requests and bytes at the board; it returns the board, the count and the
// board's URL. Both are closed when the test ends.
func serveBoard(t *testing.T, ctx context.Context, dir string, o boardOptions) (*sandbox.Server, *counting, string) {
	t.Helper()
	var users []sandbox.User
	for _, u := range o.users {
		users = append(users, sandbox.User{Name: u, Password: "pw-" + u})
	}
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: o.now, Location: o.location,
		Forums: []sandbox.Forum{{FID: 10, Name: "Игры"}}, Threads: o.threads, Users: users,
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &counting{Listener: ln}
	h := board.Handler()
	if o.front != nil {
		h = o.front(h)
	}
	srv := &http.Server{Handler: cl.wrap(h), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(cl) }()
	t.Cleanup(func() { srv.Close() })
	return board, cl, "http://" + ln.Addr().String() + "/"
}

// moscow is the games' and the board's time zone in a world.
func moscow(t *testing.T) *time.Location {
	t.Helper()
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	return msk
}

// worldOptions are what the fleet tests' worlds differ in. A zero field takes the default: the
// evening window's clock, worldUsers, and one thread a game ("Драконий мяч N", a moderator's post
// two hours old).
type worldOptions struct {
	start   time.Time        // the clock's first reading (zero: 19:30 Moscow, the evening window)
	users   []string         // the board's users, the bot gm-bot and Moderator among them
	threads []sandbox.Thread // the section's threads
	games   int              // config.yaml's games: entry(0), ..., entry(games-1) (game i's thread i+1)
	entry   func(i int) string
	ticking bool                            // the fleet reads the clock through tickingClock (the board and the store do not)
	front   func(http.Handler) http.Handler // if set, stands between the bot and the board
	tune    func(*daemon.Options)           // the fleet's Tune
}

// world is a fleet of games in one section of the sandbox, read over real HTTP through a listener
// that counts requests and bytes at the board (count), on the test clock. Its games' loops are not
// started: a test runs their cycles (run, cycle).
type world struct {
	ctx   context.Context
	clock *testkit.Clock
	board *sandbox.Server
	count *counting
	st    *store.Store
	fleet *Fleet
	next  map[string]time.Time // each game's next poll (run)
}

// newWorld builds the world o describes: the board, its config.yaml, the store and the fleet
// (New and Prepare).
func newWorld(t *testing.T, o worldOptions) *world {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	msk := moscow(t)
	if o.start.IsZero() {
		o.start = time.Date(2026, 12, 2, 19, 30, 0, 0, msk) // the evening window
	}
	clock := testkit.NewClock(o.start)
	if o.users == nil {
		o.users = worldUsers
	}
	if o.threads == nil {
		for i := range o.games {
			o.threads = append(o.threads, sandbox.Thread{FID: 10, Subject: fmt.Sprintf("Драконий мяч %d", i+1),
				Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Команды набраны, играем.", Time: o.start.Add(-2 * time.Hour)}}})
		}
	}
	board, cl, url := serveBoard(t, ctx, dir, boardOptions{now: clock.Now, location: msk, users: o.users, threads: o.threads, front: o.front})

	var cfg strings.Builder
	fmt.Fprintf(&cfg, `forums:
  main: {url: %q, dialect: mybb, timezone: Europe/Moscow, bot: {username: gm-bot, password_env: FLEET_WORLD_PW}, extra: {rate: "1000"}}
moderators: [Moderator]
poll: {floor: %s, ceiling: 10m}
store: {path: %s}
games:
`, url, pollFloor, filepath.Join(dir, "forumgm.db"))
	for i := range o.games {
		cfg.WriteString(o.entry(i))
	}
	t.Setenv("FLEET_WORLD_PW", "pw-gm-bot")
	c, err := config.Parse([]byte(cfg.String()))
	if err == nil {
		err = c.Validate(known)
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"), store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var fc daemon.Clock = clock
	if o.ticking {
		fc = tickingClock{clock}
	}
	fl, err := New(Options{Store: st, Clock: fc, Tune: o.tune})
	if err != nil {
		t.Fatal(err)
	}
	if err := fl.Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	w := &world{ctx: ctx, clock: clock, board: board, count: cl, st: st, fleet: fl, next: map[string]time.Time{}}
	for _, g := range fl.Games() {
		w.next[g.Config.Game.ID] = clock.Now().Add(daemon.Spread(g.Config.Game.ID, pollFloor))
	}
	return w
}

// run moves the clock through d in steps of a tenth of a second, running each game's cycle when
// its poll is due (every poll floor from its own offset), as the games' loops do in the evening
// window (a game that expects private messages polls at the floor).
func (w *world) run(t *testing.T, d time.Duration) {
	t.Helper()
	end := w.clock.Now().Add(d)
	for w.clock.Now().Before(end) {
		for _, g := range w.fleet.Games() {
			id := g.Config.Game.ID
			if w.clock.Now().Before(w.next[id]) {
				continue
			}
			if _, err := g.Daemon.Cycle(w.ctx); err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			w.next[id] = w.next[id].Add(pollFloor)
		}
		w.clock.Advance(100 * time.Millisecond)
	}
}

// cycle runs the cycle of the world's one game.
func (w *world) cycle(t *testing.T) {
	t.Helper()
	games := w.fleet.Games()
	if len(games) != 1 {
		t.Fatalf("cycle: %d games, want one", len(games))
	}
	if _, err := games[0].Daemon.Cycle(w.ctx); err != nil {
		t.Fatal(err)
	}
}
