package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/dialects/mybb" // the loopback tests' fast mybb session
	"forumgm/fleet"
	"forumgm/forum"
	"forumgm/media"
	"forumgm/ops"
	"forumgm/public"
	"forumgm/resident"
	"forumgm/review"
	"forumgm/store"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	resident.Tune(os.Getenv)
	fs, path := configFlags("run", stderr)
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	log, err := ops.NewLogger(stderr, cfg.Ops.LogFormat, cfg.Ops.LogLevel)
	if err != nil {
		return err
	}
	hooks, err := testHooksFromEnv()
	if err != nil {
		return err
	}
	if !hooks.fixedChance {
		// A live game whose settings fix chance is refused, as check-config refuses it.
		if err := refuseFixedLive(cfg); err != nil {
			log.Error().Err(err).Str("kind", "start").Msg("cannot start the games")
			return err
		}
	}
	var clock daemon.Clock = daemon.RealClock{}
	if hooks.clock != nil {
		clock = hooks.clock
	}
	// A game that stops for good ends the process when it was the last one, or at once when the
	// store's file is gone (every game writes there); the others run on otherwise.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, err := openGames(ctx, cfg, clock, log, hooks)
	if err != nil {
		// The log stays JSON (or console) like every other line: a supervisor reads it there.
		log.Error().Err(err).Str("kind", "start").Msg("cannot start the games")
		return err
	}
	defer g.Close()
	if cfg.Ops.Listen != "" {
		addr, stop, err := ops.ListenOps(cfg.Ops.Listen, g.Metrics, g.Health)
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
	var web *review.Web
	if cfg.Review.Listen != "" && len(cfg.Review.Accounts) > 0 {
		// The moderator web UI beside the daemon, over the same store, for every game.
		reviews := g.Reviews()
		w, names, err := reviewWeb(cfg, reviews)
		if err != nil {
			log.Error().Err(err).Msg("moderator web UI not started")
		} else {
			web = w
			go func() {
				if err := serveWeb(ctx, cfg, w, names, gameNames(reviews), "", stderr); err != nil {
					log.Error().Err(err).Msg("moderator web UI stopped")
				}
			}()
		}
	}
	// SIGHUP reloads the config: games added start, games removed stop, changed ones restart.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	if err := g.Fleet.Apply(ctx, cfg); err != nil && len(g.Fleet.Games()) == 0 {
		return err
	}
	go resident.GiveBack(ctx, func(n int64, err error) {
		if err != nil {
			log.Warn().Err(err).Str("kind", "memory").Msg("could not give the executable's unused pages back")
			return
		}
		log.Debug().Int64("bytes", n).Msg("gave back the free heap and the executable's unused pages")
	})
	var pages *public.Pages
	if cfg.Public.Addr != "" {
		// The players' read-only game pages, beside the daemon, over the same store.
		pages, err = public.New(public.Options{TrustedProxyHeader: cfg.Public.TrustedProxyHeader}, publicGames(g.Store, g.Fleet.Games())...)
		if err != nil {
			return err
		}
		addr, err := listenPublic(ctx, cfg, pages)
		if err != nil {
			return err
		}
		log.Info().Str("addr", addr).Str("public_url", cfg.Public.PublicURL).Msg("serving the players' game pages (put a reverse proxy in front of them for public_url)")
	}
	if g.Store.Owner() == "" {
		cfg.DropSpecs() // the games are set up: their YAML trees are not kept (a reload reads the file)
	} // (leased games open whenever this daemon takes one: the fleet keeps the config)
	for {
		select {
		case <-ctx.Done():
			g.Fleet.Wait()
			return nil
		case <-g.ended:
			if err := g.stopped(); err != nil {
				cancel()
				g.Fleet.Wait()
				return err
			}
		case <-hup:
			next, err := config.Load(cfg.Path(), knownGames())
			if err == nil {
				// A bot's password this process does not have would stop the next start: refused
				// now, while the games run (the environment is the one the daemon started with).
				err = next.CheckSecrets(false)
			}
			if err == nil && !hooks.fixedChance {
				err = refuseFixedLive(next)
			}
			if err != nil {
				log.Error().Err(err).Str("kind", "reload").Msg("config reload refused; the games run on as they were")
				continue
			}
			err = g.Fleet.Apply(ctx, next)
			if err != nil {
				log.Error().Err(err).Str("kind", "reload").Msg("config reloaded; some games could not start")
			}
			if pages != nil {
				pages.SetGames(publicGames(g.Store, g.Fleet.Games())...)
			}
			if web != nil {
				// The web UI serves the games now running (its accounts and address stay).
				if err := web.SetGames(byID(g.Reviews())...); err != nil {
					log.Error().Err(err).Str("kind", "reload").Msg("moderator web UI keeps its games")
				}
			}
			log.Info().Int("games", len(g.Fleet.Games())).Msg("config reloaded")
		}
	}
}

// games are the daemon's games with what they share.
type games struct {
	Fleet   *fleet.Fleet
	Store   *store.Store
	Metrics *ops.Metrics
	Health  *ops.Health

	mu    sync.Mutex
	ended chan struct{}    // a game's loop ended with an error (see ended)
	errs  map[string]error // by game: why its loop ended
}

// end records that game's loop ended with err (fleet.Options.Ended).
func (g *games) end(game string, err error) {
	g.mu.Lock()
	g.errs[game] = err
	g.mu.Unlock()
	select {
	case g.ended <- struct{}{}:
	default:
	}
}

// stopped is what ends the process after games stopped: the store's file gone (no game can write
// on), or every game stopped; nil while some game runs on.
func (g *games) stopped() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var all []error
	for id, err := range g.errs {
		if errors.Is(err, store.ErrFileGone) {
			return err
		}
		all = append(all, fmt.Errorf("game %s: %w", id, err))
	}
	for _, x := range g.Fleet.Games() {
		if _, ok := g.errs[x.Config.Game.ID]; !ok {
			return nil
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Error() < all[j].Error() })
	return errors.Join(all...)
}

func (g *games) Close() error { return g.Store.Close() }

// Reviews are the moderator tools of every open game, by game id.
func (g *games) Reviews() map[string]*review.Review {
	out := map[string]*review.Review{}
	for _, x := range g.Fleet.Games() {
		out[x.Config.Game.ID] = newReview(x.Config, g.Store, x.NewReferee, x.Forum.Capabilities())
	}
	return out
}

// openGames opens the store and every game of cfg (not started: Fleet.Apply starts them).
func openGames(ctx context.Context, cfg *config.Config, clock daemon.Clock, log zerolog.Logger, hooks testHooks) (*games, error) {
	opts := []store.Option{store.WithClock(clock.Now)}
	var leases *fleet.Leases
	if store.IsURL(cfg.StoreLocation()) {
		// Several daemons may share the database: this one runs the games it leases.
		owner, err := ownerName()
		if err != nil {
			return nil, err
		}
		opts = append(opts, store.WithOwner(owner, time.Now)) // leases measure real time between daemons
		leases = &fleet.Leases{TTL: cfg.Store.LeaseTTL.D()}
		log.Info().Str("owner", owner).Dur("lease_ttl", leases.TTLOrDefault()).Msg("store shared on PostgreSQL: games are leased")
	}
	st, err := store.Open(ctx, cfg.StoreLocation(), opts...)
	if err != nil {
		return nil, err
	}
	m := ops.NewMetrics()
	h := ops.NewHealth(clock.Now, 2*cfg.Poll.Ceiling.D()+time.Minute)
	g := &games{Store: st, Metrics: m, Health: h, ended: make(chan struct{}, 1), errs: map[string]error{}}
	fl, err := fleet.New(fleet.Options{
		Store: st, Clock: clock, Log: log, Metrics: m, Health: h, Ended: g.end, Leases: leases,
		BackgroundShare: cfg.Poll.BackgroundShare,
		Open: func(v *config.Config, fcfg forum.Config) (forum.Forum, error) {
			if hooks.fastHTTP && v.Forum.Dialect == "mybb" {
				// Tests against the loopback sandbox: no politeness rate limit.
				return mybb.New(fcfg, mybb.WithClient(forum.NewClient(forum.ClientConfig{UserAgent: v.Forum.UserAgent, Rate: 10000, Burst: 1000})))
			}
			return openForum(v.Forum.Dialect, fcfg)
		},
		Tune: func(o *daemon.Options) {
			if hooks.poll > 0 {
				o.Poll.Floor, o.Poll.Ceiling = hooks.poll, hooks.poll
			}
			o.Hook, o.Rescan = hooks.hook, hooks.rescan
			if hooks.clock != nil {
				o.HoldAfterJump = false // a test's clock file moves by hours on purpose
			}
		},
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := fl.Prepare(ctx, cfg); err != nil && len(fl.Games()) == 0 {
		st.Close()
		return nil, err
	}
	g.Fleet = fl
	return g, nil
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
	// fixedChance lets a test's config fix chance (FORUMGM_TEST_FIXED_CHANCE=1): scripted games
	// with fixed die faces and start cells, which a live game may not have.
	fixedChance bool
	fastHTTP    bool
	hook        func(string)
	clock       daemon.Clock
	poll        time.Duration
	rescan      time.Duration
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
	h.fixedChance = os.Getenv("FORUMGM_TEST_FIXED_CHANCE") == "1"
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

// ownerName names this daemon among those sharing a database: host, pid and a random part (a
// restarted daemon is a new owner).
func ownerName() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		host = "host"
	}
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("run: %w", err)
	}
	return fmt.Sprintf("%s-%d-%x", host, os.Getpid(), b), nil
}
