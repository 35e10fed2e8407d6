// Package fleet owns running many games in one process: one store, one login session and one
// request rate per forum account, one look at a section's thread list standing for the games in
// it, a daemon loop per game, and games started, changed and stopped while the others run (a
// config reload).
package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"go.yaml.in/yaml/v3"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/dialects"
	"forumgm/fairness"
	"forumgm/forum"
	"forumgm/media"
	"forumgm/ops"
	"forumgm/referee"
	"forumgm/store"
)

// Options configure a Fleet.
type Options struct {
	Store   *store.Store
	Clock   daemon.Clock
	Log     zerolog.Logger
	Metrics *ops.Metrics // shared by every game (each series labelled by game)
	Health  *ops.Health  // nil: none
	// Open builds the forum of a game's view; default: the view's dialect from package dialects
	// (the generic one without a real-browser writer).
	Open func(cfg *config.Config, fcfg forum.Config) (forum.Forum, error)
	// Tune adjusts each game's daemon options before it starts (tests: hooks, a fixed poll).
	Tune func(*daemon.Options)
	// SectionEvery is how long one look at the board index or a section's thread list stands
	// for its games; 0: the config's poll floor.
	SectionEvery time.Duration
	// VerifyEvery is how often a game reads its thread itself even when the section list says
	// nothing changed; 0: an hour.
	VerifyEvery time.Duration
	// Leases, if set, shares the store's games with the other daemons on the same database
	// (see Leases): a game runs here only while this daemon holds its lease.
	Leases *Leases
	// BackgroundShare is the part of each forum host's request rate the background (rescans,
	// catch-up of new games) may use at most; 0: forum.DefaultBackgroundShare.
	BackgroundShare float64
	// Ended, if set, is told of a game whose loop ended with an error (the game stopped for good:
	// its store's file is gone, its thread holds another store's game), not of a game stopped.
	Ended func(game string, err error)
}

// Game is one running game.
type Game struct {
	Config     *config.Config // the game's single-game view
	Daemon     *daemon.Daemon
	Forum      forum.Forum // the game's forum (the shared session seen through its section)
	NewReferee func() (*referee.Referee, error)

	fingerprint string
	session     string
	cancel      context.CancelFunc
	done        chan struct{}
}

// Fleet runs the games of a config.
type Fleet struct {
	o Options

	mu       sync.Mutex
	sessions map[string]*session // by forum account (dialect, URL, bot)
	limits   *forum.HostLimits   // one request scheduler per forum host, whatever the account
	games    map[string]*Game    // by game id

	// With Leases: the config applied last, the context loops run under, and the lease loop.
	cfg       *config.Config
	runCtx    context.Context
	leaseDone chan struct{}
}

// New builds an empty fleet; Apply starts its games.
func New(o Options) (*Fleet, error) {
	if o.Store == nil {
		return nil, errors.New("fleet: Store is required")
	}
	if o.Clock == nil {
		o.Clock = daemon.RealClock{}
	}
	if o.Metrics == nil {
		o.Metrics = ops.NewMetrics()
	}
	if o.Open == nil {
		reg := dialects.Registry(dialects.Options{})
		o.Open = func(cfg *config.Config, fcfg forum.Config) (forum.Forum, error) {
			return reg.Open(cfg.Forum.Dialect, fcfg)
		}
	}
	if o.VerifyEvery == 0 {
		o.VerifyEvery = time.Hour
	}
	m := o.Metrics
	var cluster func(ctx context.Context, host string, every time.Duration) error
	if o.Leases != nil {
		// The daemons sharing the database share each forum's rate too (store.ReserveSlot). A
		// process that wakes for its slot later than half an interval (a loaded machine) would
		// send next to the following slot, another process's: it lets the slot go and takes a
		// new one, so every request leaves within half an interval of a slot of its own.
		cluster = func(ctx context.Context, host string, every time.Duration) error {
			for {
				at, err := o.Store.ReserveSlot(ctx, host, every)
				if err != nil {
					return err
				}
				if err := forum.Sleep(ctx, time.Until(at)); err != nil {
					return err
				}
				if time.Since(at) <= every/2 {
					return nil
				}
			}
		}
	}
	limits := forum.NewHostLimits(forum.SchedulerOptions{
		BackgroundShare: o.BackgroundShare, Cluster: cluster,
		Waited: func(host string, c forum.Class, d time.Duration) {
			m.RequestWait.WithLabelValues(host, c.String()).Observe(d.Seconds())
		},
		Queued: func(host string, c forum.Class, n int) {
			m.RequestQueue.WithLabelValues(host, c.String()).Set(float64(n))
		},
	})
	return &Fleet{o: o, sessions: map[string]*session{}, games: map[string]*Game{}, limits: limits}, nil
}

// Prepare opens cfg's games not open yet (registers them in the store, builds their daemons)
// without starting their loops, so that the moderator tools can be built first; Apply starts
// them. A game that cannot be opened is reported (all such errors joined) and left out.
//
// With Leases nothing is opened ahead: a game opens when this daemon takes its lease.
func (f *Fleet) Prepare(ctx context.Context, cfg *config.Config) error {
	if f.o.Leases != nil {
		return nil
	}
	var errs []error
	for _, v := range cfg.GameConfigs() {
		f.mu.Lock()
		_, ok := f.games[v.Game.ID]
		f.mu.Unlock()
		if ok {
			continue // open already (when changed, Apply stops it first)
		}
		g, err := f.open(ctx, v)
		if err != nil {
			f.o.Log.Error().Err(err).Str("game", v.Game.ID).Str("kind", "start").Msg("cannot start the game")
			errs = append(errs, fmt.Errorf("game %s: %w", v.Game.ID, err))
			continue
		}
		f.mu.Lock()
		f.games[v.Game.ID] = g
		f.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Apply makes the running games those of cfg: it starts the new ones, restarts those whose
// configuration changed and stops those no longer listed (their state stays in the store). A
// game that cannot start is reported (all such errors joined) while the others run. Loops run
// under ctx.
//
// With Leases, Apply only records cfg and stops the running games whose configuration changed or
// that left it: the lease loop (started by the first Apply) takes and runs this daemon's share.
func (f *Fleet) Apply(ctx context.Context, cfg *config.Config) error {
	if f.o.Leases != nil {
		return f.applyLeased(ctx, cfg)
	}
	want := map[string]string{}
	for _, v := range cfg.GameConfigs() {
		want[v.Game.ID] = fingerprint(v)
	}
	f.mu.Lock()
	var stop []*Game
	for id, g := range f.games {
		if fp, ok := want[id]; !ok || fp != g.fingerprint {
			stop = append(stop, g)
			delete(f.games, id)
		}
	}
	f.mu.Unlock()
	for _, g := range stop {
		if g.done != nil {
			g.cancel()
			<-g.done
			f.o.Log.Info().Str("game", g.Config.Game.ID).Msg("game loop stopped (its configuration changed or it left the config)")
		}
	}
	err := f.Prepare(ctx, cfg)
	for _, g := range f.Games() {
		if g.done == nil {
			f.start(ctx, g)
		}
	}
	f.dropIdleSessions()
	return err
}

// Games are the open games (running or prepared), by id.
func (f *Fleet) Games() []*Game {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*Game, 0, len(f.games))
	for _, g := range f.games {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Config.Game.ID < out[j].Config.Game.ID })
	return out
}

// Wait waits until every loop has ended (after ctx passed to Apply ends).
func (f *Fleet) Wait() {
	f.mu.Lock()
	ld := f.leaseDone
	f.mu.Unlock()
	if ld != nil {
		<-ld // it stops the games and releases their leases
	}
	for _, g := range f.Games() {
		f.mu.Lock()
		done := g.done
		f.mu.Unlock()
		if done != nil {
			<-done
		}
	}
}

func (f *Fleet) open(ctx context.Context, view *config.Config) (*Game, error) {
	v := new(config.Config)
	*v = *view // the game's own copy (a single-game config is its own view: the caller keeps it whole)
	s, err := f.session(v)
	if err != nil {
		return nil, err
	}
	rec, err := daemon.Register(ctx, f.o.Store, v, f.o.Clock.Now())
	if err != nil {
		return nil, err
	}
	newRef, err := daemon.RefereeFactory(v, s.Capabilities(), rec)
	if err != nil {
		return nil, err
	}
	poll, err := PollPolicy(v)
	if err != nil {
		return nil, err
	}
	var files *media.Folder
	if a := v.Attachments; a.PublicURL != "" {
		if files, err = media.New(v.Resolve(a.Dir), a.PublicURL); err != nil {
			return nil, err
		}
		// The players' fair-play check is served beside the pictures; the final post links it.
		if _, err := files.Put(fairness.Attachment()); err != nil {
			return nil, err
		}
	}
	every := f.o.SectionEvery
	if every == 0 {
		every = poll.Floor // one look per poll interval stands for the section's games (docs/operations.md)
	}
	gf := &gameForum{session: s, thread: v.Forum.Thread, sectionID: v.Game.Section, every: every,
		verify: f.o.VerifyEvery, now: f.o.Clock.Now}
	o := daemon.Options{
		Game: v.Game.ID, Kind: v.Game.Kind, Thread: forum.Thread{ID: v.Forum.Thread},
		Forum: gf, Store: f.o.Store, NewReferee: newRef, Bot: v.Bot.Username, Moderators: v.Moderators,
		Settle: SettleOf(v), SharedInbox: v.Bot.Shared,
		Start: rec.Start, MaxClockSkew: v.Forum.MaxClockSkew.D(), Clock: f.o.Clock, Poll: poll, Log: f.o.Log, Metrics: f.o.Metrics, Health: f.o.Health,
		Files: files, HoldAfterJump: true,
	}
	if f.o.Leases != nil {
		game, margin := v.Game.ID, f.o.Leases.TTLOrDefault()/3
		o.Hold = func(ctx context.Context) (time.Duration, error) { return f.o.Store.Holds(ctx, game, margin) }
	}
	if f.o.Tune != nil {
		f.o.Tune(&o)
	}
	// The games' polls spread over the poll interval (each game at its own offset).
	o.StartDelay = daemon.Spread(v.Game.ID, o.Poll.Floor)
	d, err := daemon.New(o)
	if err != nil {
		return nil, err
	}
	gf.wake = d.Wake
	cur, _, err := f.o.Store.Cursor(ctx, v.Game.ID, store.SourceThread)
	if err != nil {
		return nil, err
	}
	gf.Join(cur)
	g := &Game{Config: v, Daemon: d, Forum: gf, NewReferee: newRef,
		fingerprint: fingerprint(v), session: s.key}
	if f.o.Leases == nil {
		// The referee factory holds the decoded setup; the YAML tree is not needed. (Leased
		// games keep it: a game this daemon gives up may come back, opened again from the view.)
		v.DropSpecs()
	}
	return g, nil
}

func (f *Fleet) start(ctx context.Context, g *Game) {
	gctx, cancel := context.WithCancel(ctx)
	f.mu.Lock()
	g.cancel, g.done = cancel, make(chan struct{})
	f.mu.Unlock()
	// No goroutine waits for the game's loop: it holds a timer between cycles (daemon.Start).
	g.Daemon.Start(gctx, func(err error) {
		defer close(g.done)
		if f.o.Leases != nil && errors.Is(err, store.ErrLeaseLost) {
			// Another daemon runs the game now (this one was paused past its lease): not a game
			// stopped for good, and no reason for the process to end; the lease loop drops it.
			f.o.Log.Warn().Err(err).Str("game", g.Config.Game.ID).Str("kind", "lease").Msg("game loop ended here: another daemon holds the game's lease")
			return
		}
		if err != nil {
			f.o.Log.Error().Err(err).Str("game", g.Config.Game.ID).Msg("game loop ended")
			if f.o.Ended != nil {
				f.o.Ended(g.Config.Game.ID, err)
			}
		}
	})
}

// session is the shared session of a game's forum account, opened on first use.
func (f *Fleet) session(v *config.Config) (*session, error) {
	key := v.Forum.Dialect + "|" + v.Forum.URL + "|" + v.Bot.Username
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.sessions[key]; ok {
		return s, nil
	}
	password, err := v.Password()
	if err != nil {
		return nil, err
	}
	fcfg := forum.Config{
		BaseURL: v.Forum.URL, Username: v.Bot.Username, Password: password,
		Location: v.ForumLocation(), Now: f.o.Clock.Now, UserAgent: v.Forum.UserAgent, Extra: v.Forum.Extra,
		Limits: f.limits, Slow: ops.SlowRequests(f.o.Log.With().Str("forum", v.Forum.URL).Logger()),
	}
	fo, err := f.o.Open(v, fcfg)
	if err != nil {
		return nil, err
	}
	s := &session{Forum: fo, key: key, sections: map[string]*section{}, rate: float64(fcfg.Rate()), bot: v.Bot.Username}
	if u, err := url.Parse(v.Forum.URL); err == nil {
		s.sched = f.limits.Host(u.Host, fcfg.Rate(), fcfg.ClientConfig().Burst)
	}
	f.sessions[key] = s
	return s, nil
}

// dropIdleSessions forgets the sessions no running game uses (a reload removed their games).
func (f *Fleet) dropIdleSessions() {
	f.mu.Lock()
	defer f.mu.Unlock()
	used := map[string]bool{}
	for _, g := range f.games {
		used[g.session] = true
	}
	for k := range f.sessions {
		if !used[k] {
			delete(f.sessions, k)
		}
	}
}

// fingerprint identifies a game's configuration: a reload restarts the game when it changed.
func fingerprint(v *config.Config) string {
	spec, _ := yaml.Marshal(&v.Game.Spec)
	b, _ := json.Marshal(struct {
		Forum      config.Forum
		Bot        config.Bot
		Moderators []string
		Game       config.Game
		Spec       string
		Poll       config.Poll
		Review     config.Review
		Attach     config.Attachments
	}{v.Forum, v.Bot, v.Moderators, v.Game, string(spec), v.Poll, v.Review, v.Attachments})
	sum := sha256.Sum256(b)
	return string(sum[:])
}

// PollPolicy is the poll policy of a game's view.
func PollPolicy(cfg *config.Config) (daemon.PollPolicy, error) {
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
