package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/media"
	mybb "forumgm/poster/mybb" // the mybb dialect (registered by its init)
	"forumgm/review"
	"forumgm/store"
)

func init() {
	commands["run"] = command{
		summary: "run the game master daemon: forumgm run --config config.yaml",
		run:     cmdRun,
	}
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("run", stderr)
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	log, err := daemon.NewLogger(stderr, cfg.Ops.LogFormat, cfg.Ops.LogLevel)
	if err != nil {
		return err
	}
	hooks, err := testHooksFromEnv()
	if err != nil {
		return err
	}
	var clock daemon.Clock = daemon.RealClock{}
	if hooks.clock != nil {
		clock = hooks.clock
	}
	g, err := openGame(ctx, cfg, clock, log, hooks)
	if err != nil {
		// The log stays JSON (or console) like every other line: a supervisor reads it there.
		log.Error().Err(err).Str("kind", "start").Msg("cannot start the game")
		return err
	}
	defer g.Close()
	if cfg.Ops.Listen != "" {
		addr, stop, err := daemon.ListenOps(cfg.Ops.Listen, g.Metrics, g.Health)
		if err != nil {
			return fmt.Errorf("ops listen %s: %w", cfg.Ops.Listen, err)
		}
		defer stop()
		log.Info().Str("addr", addr).Msg("serving /healthz and /metrics")
	}
	if a := cfg.Attachments; a.Listen != "" {
		addr, stop, err := listenMedia(a.Listen, cfg.Resolve(a.Dir))
		if err != nil {
			return fmt.Errorf("attachments listen %s: %w", a.Listen, err)
		}
		defer stop()
		log.Info().Str("addr", addr).Str("public_url", a.PublicURL).Msg("serving the pictures folder (put a reverse proxy in front of it for public_url)")
	}
	if cfg.Review.Listen != "" && len(cfg.Review.Accounts) > 0 {
		// The moderator web UI beside the daemon, over the same store.
		go func() {
			if err := serveReview(ctx, cfg, g.Review, "", stderr); err != nil {
				log.Error().Err(err).Msg("moderator web UI stopped")
			}
		}()
	}
	return g.Daemon.Run(ctx)
}

// game is a daemon with what it owns.
type game struct {
	Daemon  *daemon.Daemon
	Store   *store.Store
	Forum   forum.Forum
	Metrics *daemon.Metrics
	Health  *daemon.Health
	Review  *review.Review // the moderator tools over the same store (web UI)
}

func (g *game) Close() error { return g.Store.Close() }

// openGame opens the store and the forum and builds the daemon for cfg's game.
func openGame(ctx context.Context, cfg *config.Config, clock daemon.Clock, log zerolog.Logger, hooks testHooks) (*game, error) {
	password, err := cfg.Password()
	if err != nil {
		return nil, err
	}
	fcfg := forum.Config{
		BaseURL:   cfg.Forum.URL,
		Username:  cfg.Bot.Username,
		Password:  password,
		Location:  cfg.ForumLocation(),
		Now:       clock.Now,
		UserAgent: cfg.Forum.UserAgent,
		Extra:     cfg.Forum.Extra,
		// Flood control is waited out by the daemon, which reads and judges meanwhile.
		ReturnFlood: true,
		// ... and splits a message the board finds too long, every part with its own marker.
		ReturnTooLong: true,
	}
	var f forum.Forum
	if hooks.fastHTTP && cfg.Forum.Dialect == "mybb" {
		// Tests against the loopback sandbox: no politeness rate limit.
		f, err = mybb.New(fcfg, mybb.WithClient(forum.NewClient(forum.ClientConfig{UserAgent: cfg.Forum.UserAgent, Rate: 10000, Burst: 1000})))
	} else {
		f, err = forum.Open(cfg.Forum.Dialect, fcfg)
	}
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, cfg.Resolve(cfg.Store.Path), store.WithClock(clock.Now))
	if err != nil {
		return nil, err
	}
	rec, err := daemon.Register(ctx, st, cfg, clock.Now())
	if err != nil {
		st.Close()
		return nil, err
	}
	newRef, err := daemon.RefereeFactory(cfg, f.Capabilities(), rec)
	if err != nil {
		st.Close()
		return nil, err
	}
	m := daemon.NewMetrics()
	poll, err := pollPolicy(cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	if hooks.poll > 0 {
		poll.Floor, poll.Ceiling = hooks.poll, hooks.poll
	}
	var files *media.Folder
	if a := cfg.Attachments; a.PublicURL != "" {
		if files, err = media.New(cfg.Resolve(a.Dir), a.PublicURL); err != nil {
			st.Close()
			return nil, err
		}
	}
	h := daemon.NewHealth(clock.Now, 2*poll.Ceiling+time.Minute)
	d, err := daemon.New(daemon.Options{
		Game: cfg.Game.ID, Kind: cfg.Game.Kind, Thread: forum.Thread{ID: cfg.Forum.Thread},
		Forum: f, Store: st, NewReferee: newRef, Bot: cfg.Bot.Username, Moderators: cfg.Moderators,
		PublicURL: cfg.Review.PublicURL, SharedInbox: cfg.Bot.Shared,
		Start: rec.Start, Clock: clock, Poll: poll, Log: log, Metrics: m, Health: h, Hook: hooks.hook,
		Rescan: hooks.rescan, Files: files,
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	rv := newReview(cfg, st, newRef, f.Capabilities())
	return &game{Daemon: d, Store: st, Forum: f, Metrics: m, Health: h, Review: rv}, nil
}

func pollPolicy(cfg *config.Config) (daemon.PollPolicy, error) {
	var p daemon.PollPolicy
	var errs []error
	get := func(s string) time.Duration {
		d, err := config.ClockTime(s)
		errs = append(errs, err)
		return d
	}
	p.Floor, p.Ceiling = cfg.Poll.Floor.D(), cfg.Poll.Ceiling.D()
	p.BusyStart, p.BusyEnd = get(cfg.Poll.EveningStart), get(cfg.Poll.EveningEnd)
	p.NightStart, p.NightEnd = get(cfg.Poll.NightStart), get(cfg.Poll.NightEnd)
	p.Loc = cfg.GameLocation()
	p.WorkingDay = cfg.WorkingDay
	return p, errors.Join(errs...)
}

// testHooks are switched on by environment variables, for the crash tests only:
//
//	FORUMGM_TEST_EXIT_AFTER=step:N   exit (status 3, no clean-up) right after the N-th "step"
//	                                 (started, decided, judged, fired, attempt, sent, posted, cycle)
//	FORUMGM_TEST_CLOCK_FILE=PATH     the clock reads its time (RFC 3339) from the file
//	FORUMGM_TEST_POLL=DURATION       poll at this fixed interval (below the 1s floor allowed)
//	FORUMGM_TEST_RESCAN=DURATION     the edit rescan interval
//	FORUMGM_TEST_FAST_HTTP=1         no per-host rate limit (loopback sandbox only)
type testHooks struct {
	fastHTTP bool
	hook     func(string)
	clock    daemon.Clock
	poll     time.Duration
	rescan   time.Duration
}

func testHooksFromEnv() (testHooks, error) {
	var h testHooks
	if v := os.Getenv("FORUMGM_TEST_EXIT_AFTER"); v != "" {
		step, nstr, _ := strings.Cut(v, ":")
		n, err := strconv.Atoi(nstr)
		if err != nil || n < 1 {
			return h, fmt.Errorf("FORUMGM_TEST_EXIT_AFTER=%q: want step:N", v)
		}
		var mu sync.Mutex
		count := 0
		h.hook = func(s string) {
			if s != step {
				return
			}
			mu.Lock()
			count++
			c := count
			mu.Unlock()
			if c == n {
				fmt.Fprintf(os.Stderr, "test hook: exiting after %s #%d\n", step, n)
				os.Exit(3)
			}
		}
	}
	h.fastHTTP = os.Getenv("FORUMGM_TEST_FAST_HTTP") == "1"
	if v := os.Getenv("FORUMGM_TEST_POLL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return h, fmt.Errorf("FORUMGM_TEST_POLL=%q: want a duration", v)
		}
		h.poll = d
	}
	if v := os.Getenv("FORUMGM_TEST_RESCAN"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return h, fmt.Errorf("FORUMGM_TEST_RESCAN=%q: want a duration", v)
		}
		h.rescan = d
	}
	if v := os.Getenv("FORUMGM_TEST_CLOCK_FILE"); v != "" {
		h.clock = fileClock{path: v, maxSleep: max(h.poll, 10*time.Millisecond)}
	}
	return h, nil
}

// fileClock reads the time from a file the test writes; Sleep waits at most maxSleep of real
// time (the test moves the clock).
type fileClock struct {
	path     string
	maxSleep time.Duration
}

func (c fileClock) Now() time.Time {
	for i := 0; ; i++ {
		b, err := os.ReadFile(c.path)
		if err == nil {
			if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b))); err == nil {
				return t
			}
		}
		if i > 100 {
			fmt.Fprintf(os.Stderr, "test clock %s unreadable\n", c.path)
			os.Exit(4)
		}
		time.Sleep(5 * time.Millisecond) // the test is rewriting it
	}
}

func (c fileClock) Sleep(ctx context.Context, d time.Duration) error {
	return daemon.RealClock{}.Sleep(ctx, min(d, c.maxSleep))
}

// listenMedia serves the pictures folder (media.Handler) on a loopback address until stop.
func listenMedia(addr, dir string) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: media.Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String(), func() { _ = srv.Close() }, nil
}
