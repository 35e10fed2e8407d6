// Package daemon runs games: for each game a loop reads the thread and the bot's inbox, records
// and judges each new post through the game's Referee, fires the game's timed rules in order, and
// commits every outcome (verdict, events, replies, flags, cursor, clock) in one store transaction;
// a poster then drains the outbox, so every reply reaches the forum exactly once, even across a
// crash: each message carries a marker, and an item whose earlier attempt may have reached the
// forum is looked up by its marker before it is posted again; so are the first after a start,
// for a store behind the thread (restore.go).
package daemon

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/media"
	"forumgm/ops"
	"forumgm/referee"
	"forumgm/store"
)

// Options configure one game's daemon.
type Options struct {
	Game       string // the store's game id
	Kind       string // the game's name (one of games.All), for EnsureGame
	GameConfig []byte // JSON of the game's configuration, stored once (EnsureGame)
	Thread     forum.Thread
	Forum      forum.Forum
	Store      *store.Store
	// NewReferee builds a fresh referee (start-up, and again whenever the event log changed
	// behind the daemon's back: a moderator's command from another process).
	NewReferee func() (*referee.Referee, error)
	// Files is where pictures the forum cannot take as attachments are served from (linked with
	// [img]); nil: such pictures are dropped and the message's text stands alone.
	Files      *media.Folder
	Bot        string   // the bot's forum user name (its own posts are not judged)
	Moderators []string // notified of new flags by private message
	// SharedInbox: the bot account serves other games too; a private message from someone
	// who neither plays this game nor moderates it is theirs, not this game's.
	SharedInbox bool
	// Hold, if set, is asked right before anything is sent to the forum (a reply, a private
	// message): an error (store.ErrLeaseLost: another daemon sharing the database runs the game
	// now) sends nothing and ends the loop; else it says how long the request may take to go out
	// (forum.WriteGuard: a request held past it, the process paused, is not sent). Set by a
	// fleet whose games are leased.
	Hold forum.WriteGuard
	// Settle is how moderators settle flags, as the notices tell it (commands, web UI address).
	Settle store.Settle
	// Start is when the game starts; zero: the first cycle's time.
	Start time.Time
	Clock Clock
	Poll  PollPolicy
	// Rescan is how often (game clock) the thread is read again, in the forum's background class,
	// from its oldest move post still open to dispute (posted within Recent) to find edited or
	// vanished move posts; 0: once a day, at a moment of the day fixed by the game's id (so that
	// games do not all read at once, nor all at a restart). Every move post is read again
	// every RescanAll (0: never: the daily cost stays the pages holding the day's moves).
	Rescan    time.Duration
	Recent    time.Duration // 0: a day and an hour (each move post is in at least one pass)
	RescanAll time.Duration
	Log       zerolog.Logger
	Metrics   *ops.Metrics // nil: a private set
	Health    *ops.Health  // nil: none
	// StartDelay is waited once before the first cycle: games started together (a daemon with
	// many games) spread their polls over the interval instead of polling in one burst.
	StartDelay time.Duration
	// Hook, if set, is called after each step of the pipeline with the step's name ("started",
	// "decided": a post judged by the referee, not yet committed; "judged": committed; "fired",
	// "attempt", "sent", "posted", "cycle"); the crash tests exit from it, the race test commits a
	// moderator's event from it.
	Hook func(step string)

	// MaxClockSkew is how far the forum's stamps may be from Clock before it is an error
	// (clockcheck.go); 0: forum.DefaultMaxSkew.
	MaxClockSkew time.Duration
	// HoldAfterJump: after this host's clock jumps forward past a timed rule (a gap between
	// cycles longer than the poll ceiling plus MaxClockSkew), the timed rules and the judging wait
	// for a moderator's confirmation (a clock_jump flag; clockcheck.go) instead of firing at once.
	// The fleet sets it; tests that move their clock by hours on purpose leave it off.
	HoldAfterJump bool
}

// Daemon is one game's loop.
type Daemon struct {
	o   Options
	log zerolog.Logger
	m   *ops.Metrics
	// rescheduled: a changed schedule (config reload) was looked for (schedule.go).
	rescheduled bool

	mu       sync.Mutex
	ref      *referee.Referee
	seq      int64     // the last event seq the referee has folded
	clock    time.Time // the game clock: the last timer fired
	hasClock bool
	idle     int
	limit    int // learned max post length (0: the forum's capability, or none)
	retryAt  map[int64]time.Time
	// fail's rate limit of log lines, per error kind.
	logMu      sync.Mutex
	logged     map[string]time.Time
	unlogged   map[string]int
	lastScan   time.Time
	lastAll    time.Time // the last rescan of every move post (zero: not yet)
	errBack    time.Duration
	missing    map[string]int // move posts missing from consecutive whole rescans, by post id
	held       heldPost       // the garbled post the reads stop at (garbled.go)
	inboxAt    time.Time      // when the inbox was last read
	inboxOwed  bool           // an inbox read failed: the next poll reads it again, whatever the signal says
	wakeMu     sync.Mutex
	cancelWait func()        // ends the loop's current wait (Wake); nil while it works
	woken      bool          // a Wake came while the loop worked
	dropped    bool          // a picture was dropped (no attachments, no Files): logged once
	marks      marks         // the game's markers found in the bot's posts since the start (restore.go)
	cw         clockWatch    // the forum's clock against ours, and ours between cycles (clockcheck.go)
	confirms   []unconfirmed // replies posted whose forum id the next read checks (confirm.go)
	ownLast    string        // the newest post of the bot's replies in the thread (lastOwn)
	ownLastSet bool          // ownLast was taken from the store
}

// inboxEvery is how often the inbox is read when the game expects no private message and no page
// showed an unread one: a safety net for a forum whose pages do not tell.
const inboxEvery = 30 * time.Minute

// While the game expects a private message on a forum whose pages tell when one comes
// (forum.PMWatcher): PMLookEvery is how old that signal may grow before the daemon refreshes it
// (the dialect's cheapest page that carries it: MyBB's board index), PMNetEvery how often the
// inbox is read in full all the same (a safety net). The fleet budgets its idle looks with them.
const (
	PMLookEvery = time.Minute
	PMNetEvery  = 10 * time.Minute
)

// PMFresh reports whether w's unread signal is younger than PMLookEvery at now (a signal from
// the future, a clock set back, is not).
func PMFresh(w forum.PMWatcher, now time.Time) bool {
	seen := w.PMSeen()
	return !seen.IsZero() && now.Sub(seen) < PMLookEvery && !now.Before(seen)
}

// inboxDue reports whether this poll reads the inbox before the thread: a page read showed an
// unread message (forum.PMNotifier); the game expects a private message now (the referee's
// ExpectsPrivate) and the forum cannot tell when one comes (no forum.PMWatcher, or its signal was
// never read), or the last full read is PMNetEvery old; or the inbox was not read for inboxEvery
// (or ever). While the game expects one, the loop polls at the poll interval without the idle
// back-off however quiet the thread is (interval), and the signal is refreshed after the thread
// (pmLook): a private message is read on the clock, not when someone happens to post in the
// thread.
func (d *Daemon) inboxDue(ref *referee.Referee, now time.Time) bool {
	if d.inboxOwed {
		return true // a read that failed may have marked messages read on the board (its counter no longer shows them)
	}
	if n, ok := forum.As[forum.PMNotifier](d.o.Forum); ok && n.UnreadPM() {
		return true
	}
	if ref.ExpectsPrivate(now) {
		w, ok := forum.As[forum.PMWatcher](d.o.Forum)
		return !ok || w.PMSeen().IsZero() || d.inboxAt.IsZero() || now.Sub(d.inboxAt) >= PMNetEvery || now.Before(d.inboxAt) ||
			d.timerDue(ref, now)
	}
	return d.inboxAt.IsZero() || now.Sub(d.inboxAt) >= inboxEvery
}

// timerDue reports whether a timed rule falls due by now, so that this cycle fires it (after
// judging what it read): every message written before it is read first, in full, not when the
// board's unread counter is next looked at (a round's orders sent in its last minute are in time).
func (d *Daemon) timerDue(ref *referee.Referee, now time.Time) bool {
	d.mu.Lock()
	from := d.clockOr(now)
	d.mu.Unlock()
	t, ok := ref.NextTimer(from)
	return ok && !t.After(now)
}

// pmLook refreshes a PMWatcher's signal when the game expects a private message and the signal is
// PMLookEvery old (the thread's read carried none: MyBB's lastpost probe shows no header). It
// reports false when the look failed: the inbox is then read in full.
func (d *Daemon) pmLook(ctx context.Context, ref *referee.Referee, now time.Time) bool {
	w, ok := forum.As[forum.PMWatcher](d.o.Forum)
	if !ok || !ref.ExpectsPrivate(now) {
		return true
	}
	if PMFresh(w, now) {
		return true
	}
	if err := w.LookPM(forum.WithClass(ctx, forum.ClassPoll)); err != nil {
		d.fail(kindOf(err), fmt.Errorf("daemon: the look for an unread private message (the inbox is read instead): %w", err))
		return false
	}
	return !w.PMSeen().Before(now) // a look whose page did not show the counter tells nothing
}

// expectsPrivate reports whether the game may receive a private message at now on a forum that
// has them.
func (d *Daemon) expectsPrivate(ref *referee.Referee, now time.Time) bool {
	return d.o.Forum.Capabilities().PrivateMessages && ref.ExpectsPrivate(now)
}

// New builds a daemon; call Run (or Cycle from tests).
func New(o Options) (*Daemon, error) {
	if o.Store == nil || o.Forum == nil || o.NewReferee == nil || o.Game == "" || o.Kind == "" {
		return nil, errors.New("daemon: Store, Forum, NewReferee, Game and Kind are required")
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.Metrics == nil {
		o.Metrics = ops.NewMetrics()
	}
	if o.Rescan == 0 {
		o.Rescan = 24 * time.Hour
	}
	if o.Recent == 0 {
		o.Recent = 25 * time.Hour
	}
	if o.Poll.Floor == 0 {
		o.Poll.Floor = 30 * time.Second
	}
	if o.Poll.Ceiling == 0 {
		o.Poll.Ceiling = 10 * time.Minute
	}
	d := &Daemon{o: o, m: o.Metrics, retryAt: map[int64]time.Time{}, missing: map[string]int{},
		logged: map[string]time.Time{}, unlogged: map[string]int{}}
	d.log = o.Log.With().Str("game", o.Game).Logger()
	return d, nil
}

func (d *Daemon) hook(step string) {
	if d.o.Hook != nil {
		d.o.Hook(step)
	}
}

// Run logs in and runs cycles until ctx ends. A commit in flight when ctx ends is finished.
func (d *Daemon) Run(ctx context.Context) error {
	done := make(chan error, 1)
	d.Start(ctx, func(err error) { done <- err })
	return <-done
}

// Start runs the game's loop as Run does without waiting for it: end is called once, with what
// Run would return, when the loop has ended. Call Start (or Run) once.
//
// No goroutine waits for the game between cycles: on a clock with timers (Timers: the real one)
// the wait is a timer that starts the next cycle on a goroutine of its own, which ends with the
// cycle. A process of thousands of idle games holds a timer for each, not a parked goroutine and
// the stack its start-up and cycles grew (issue 23: memory).
func (d *Daemon) Start(ctx context.Context, end func(error)) {
	go d.begin(ctx, end)
}

// begin registers the game and logs in (the first step of the loop).
func (d *Daemon) begin(ctx context.Context, end func(error)) {
	if _, err := d.o.Store.EnsureGame(ctx, d.o.Game, d.o.Kind, d.o.GameConfig); err != nil {
		if ctx.Err() != nil {
			end(nil) // stopped while starting (given up, or its lease taken): not a failure
			return
		}
		if stopsGame(err) {
			end(d.stop(err))
			return
		}
		end(fmt.Errorf("daemon: %w", err))
		return
	}
	d.login(ctx, end)
}

// login logs in, retried with back-off until it succeeds or ctx ends, then waits StartDelay and
// runs the first cycle.
func (d *Daemon) login(ctx context.Context, end func(error)) {
	if err := d.o.Forum.Login(ctx); err != nil {
		if ctx.Err() != nil {
			end(nil)
			return
		}
		// A refused login (a wrong password, or a login page served by a proxy in trouble) is
		// retried with back-off like any start-up fault, while /healthz says why.
		d.fail("login", fmt.Errorf("daemon: login as %s: %w", d.o.Bot, err))
		if d.o.Health != nil {
			d.o.Health.Failed()
		}
		d.after(ctx, d.backoff(), false, func() { d.login(ctx, end) }, end)
		return
	}
	d.log.Info().Str("thread", d.o.Thread.ID).Msg("logged in; game loop started")
	if d.o.StartDelay > 0 {
		d.after(ctx, d.o.StartDelay, true, func() { d.turn(ctx, end) }, end)
		return
	}
	d.turn(ctx, end)
}

// turn runs one cycle and arranges the next. It runs on a goroutine that ends with it (the stack
// a cycle grows, pages parsed, the referee, the store, is freed when it ends).
func (d *Daemon) turn(ctx context.Context, end func(error)) {
	start := d.o.Clock.Now()
	busy, err := d.Cycle(ctx)
	if ctx.Err() != nil {
		d.log.Info().Msg("shutting down")
		end(nil)
		return
	}
	if stopsGame(err) {
		end(d.stop(err))
		return
	}
	wait := d.intervalFrom(busy, start)
	if err != nil {
		wait = max(wait, d.backoff())
	} else {
		d.errBack = 0
	}
	d.after(ctx, wait, true, func() { d.turn(ctx, end) }, end)
}

// after calls then on a goroutine of its own once wait has passed on the clock (or at once after
// a Wake, when wakeable), or end(nil) when ctx ends first. It never blocks: on a clock with
// timers nothing waits meanwhile but a timer; on another (the tests' clocks) a goroutine sleeps.
func (d *Daemon) after(ctx context.Context, wait time.Duration, wakeable bool, then func(), end func(error)) {
	if ctx.Err() != nil {
		d.log.Info().Msg("shutting down")
		end(nil)
		return
	}
	d.wakeMu.Lock()
	defer d.wakeMu.Unlock()
	if wakeable && d.woken {
		d.woken = false
		go then()
		return
	}
	var release func() // frees what watches ctx (and the wait)
	fire := func() {   // called once, when the wait is over for whatever reason
		d.wakeMu.Lock()
		d.cancelWait = nil
		d.wakeMu.Unlock()
		release()
		if ctx.Err() != nil {
			d.log.Info().Msg("shutting down")
			end(nil)
			return
		}
		then()
	}
	var cut func() // ends the wait now (a Wake, ctx ended)
	if t, ok := d.o.Clock.(Timers); ok {
		stop := t.AfterFunc(wait, fire)
		cut = func() {
			if stop() { // the timer has not fired: fire is this call's to make
				go fire()
			}
		}
		stopWatch := context.AfterFunc(ctx, cut)
		release = func() { stopWatch() }
	} else {
		sctx, cancel := context.WithCancel(ctx)
		cut, release = cancel, cancel
		go func() {
			_ = d.o.Clock.Sleep(sctx, wait)
			fire()
		}()
	}
	if wakeable {
		d.cancelWait = cut
	}
}

// Wake cuts the game loop's current wait short: something for the game may have come (the
// section's thread list showed its thread changed). A wake while the loop works cuts its next
// wait. It never blocks.
func (d *Daemon) Wake() {
	d.wakeMu.Lock()
	defer d.wakeMu.Unlock()
	if d.cancelWait != nil {
		d.cancelWait()
		d.cancelWait = nil
	} else {
		d.woken = true
	}
}

func (d *Daemon) backoff() time.Duration {
	if d.errBack == 0 {
		d.errBack = d.o.Poll.Floor
	} else {
		d.errBack = min(d.errBack*2, d.o.Poll.Ceiling)
	}
	return d.errBack
}

// intervalFrom is the wait after a cycle that began at start (zero: now): the poll interval
// counted from the cycle's start, not its end, so that a cycle that waited for the forum (a
// reply's three requests at 1 request/s) does not push the next look back by as long — a move
// posted meanwhile waits one interval at most — yet at least half the interval after its end; a
// timed rule due sooner cuts it, as ever.
func (d *Daemon) intervalFrom(busy bool, start time.Time) time.Duration {
	if busy {
		d.idle = 0
	} else {
		d.idle++
	}
	now := d.o.Clock.Now()
	var next time.Time
	expecting, private := false, false
	d.mu.Lock()
	if d.ref != nil {
		expecting = !d.ref.Paused()
		private = expecting && d.expectsPrivate(d.ref, now)
		if t, ok := d.ref.NextTimer(d.clockOr(now)); ok {
			next = t
		}
	}
	d.mu.Unlock()
	// A message held by flood control is sent as soon as the board allows.
	for _, t := range d.retryAt {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	idle := d.idle
	if private {
		idle = 0 // the inbox on the clock: no idle back-off (inboxDue)
	}
	wait := d.o.Poll.Interval(now, idle, expecting, time.Time{})
	if took := now.Sub(start); !start.IsZero() && took > 0 {
		wait = max(wait-took, wait/2)
	}
	if !next.IsZero() {
		wait = min(wait, max(next.Sub(now), 0))
	}
	return wait
}

func (d *Daemon) clockOr(now time.Time) time.Time {
	if d.hasClock {
		return d.clock
	}
	return now
}

// durable is ctx without its cancellation (and a bound): a commit in flight finishes on shutdown.
func durable(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

// personKinds are the error kinds a person must look at (logged at error level): the forum
// refuses the bot's login, its pages no longer read (a theme or engine change) or are another
// thread's, the referee failed on a post, the store failed, a post is held because its text did
// not decode cleanly, the forum's times are off this host's clock or this host's clock jumped
// (clockcheck.go). The others are the forum's weather (flood control, a lost session, a 5xx, a
// cut page), handled by retrying, and logged as warnings.
var personKinds = map[string]bool{"login": true, "markup_changed": true, "referee": true, "store": true, "encoding": true,
	"clock_skew": true, "clock_jump": true, "too_large": true, "wrong_thread": true}

// logEvery is how often one kind of error is logged at most; the rest are counted (always) and
// the next line says how many were not logged.
const logEvery = time.Minute

// fail logs and counts an error by kind.
func (d *Daemon) fail(kind string, err error) {
	d.m.Errors.WithLabelValues(d.o.Game, kind).Inc()
	if d.o.Health != nil {
		d.o.Health.Error(err)
	}
	now := d.o.Clock.Now()
	d.logMu.Lock()
	if last, ok := d.logged[kind]; ok && now.Sub(last) < logEvery {
		d.unlogged[kind]++
		d.logMu.Unlock()
		return
	}
	d.logged[kind] = now
	n := d.unlogged[kind]
	d.unlogged[kind] = 0
	d.logMu.Unlock()
	ev := d.log.Warn()
	if personKinds[kind] {
		ev = d.log.Error()
	}
	if n > 0 {
		ev = ev.Int("not_logged_since", n)
	}
	if wt := (*forum.WrongThreadError)(nil); errors.As(err, &wt) {
		ev = ev.Str("thread_asked", wt.Asked).Str("thread_found", wt.Found)
	}
	ev.Err(err).Str("kind", kind).Msg("error")
}

// sync makes sure the referee has folded exactly the stored event log: at start-up, after a
// failed commit, and when another process (the moderator's review command) appended events.
func (d *Daemon) sync(ctx context.Context) error {
	seq, err := d.o.Store.LastSeq(ctx, d.o.Game)
	if err != nil {
		return err
	}
	clk, has, err := d.o.Store.Clock(ctx, d.o.Game)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ref != nil && seq == d.seq && has == d.hasClock && clk.Equal(d.clock) {
		return nil
	}
	recs, err := d.o.Store.Records(ctx, d.o.Game)
	if err != nil {
		return err
	}
	ref, err := d.o.NewReferee()
	if err != nil {
		return fmt.Errorf("daemon: new referee: %w", err)
	}
	ref.Lean() // the current state only: undo is the moderators' tools' business
	if err := ref.Restore(recs); err != nil {
		return fmt.Errorf("daemon: restore %d events: %w", len(recs), err)
	}
	chain, err := d.o.Store.ChainPosts(ctx, d.o.Game)
	if err != nil {
		return err
	}
	if err := ref.Rechain(chain); err != nil {
		return fmt.Errorf("daemon: restore the chain: %w", err)
	}
	d.ref, d.seq, d.clock, d.hasClock = ref, int64(len(recs)), clk, has
	d.log.Info().Int("events", len(recs)).Time("clock", clk).Msg("referee rebuilt from the event log")
	return nil
}

// referee returns the referee and the seq it folded, rebuilding it from the store first when a
// refused commit dropped it (invalidate): no path meets a nil referee.
func (d *Daemon) referee(ctx context.Context) (*referee.Referee, int64, error) {
	d.mu.Lock()
	ref, seq := d.ref, d.seq
	d.mu.Unlock()
	if ref != nil {
		return ref, seq, nil
	}
	if err := d.sync(ctx); err != nil {
		d.fail("store", err)
		return nil, 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ref, d.seq, nil
}

// invalidate drops the referee: its state may be ahead of the store after a failed commit.
func (d *Daemon) invalidate() {
	d.mu.Lock()
	d.ref = nil
	d.mu.Unlock()
}

// Cycle runs one pass: sync, start, drain, read and judge, fire due timers, drain, rescan. It
// reports whether anything happened (the poll interval shortens then).
func (d *Daemon) Cycle(ctx context.Context) (busy bool, err error) {
	defer func() {
		// Between cycles the rules keep no drawings (game.Rester): a process of many idle
		// games holds their states, not their boards' texts.
		d.mu.Lock()
		if d.ref != nil {
			d.ref.Rest()
		}
		d.mu.Unlock()
		if d.o.Health != nil {
			switch {
			case err == nil:
				d.o.Health.Cycle()
			case ctx.Err() == nil: // a failed poll, not a shutdown
				d.o.Health.Failed()
			}
		}
		d.hook("cycle")
	}()
	if err := d.o.Store.CheckFile(); err != nil {
		d.fail("store", err)
		return false, err
	}
	if err := d.sync(ctx); err != nil {
		d.fail("store", err)
		return false, err
	}
	now := d.o.Clock.Now()
	jumped := d.checkJump(now)
	started, err := d.ensureStarted(ctx, now)
	if err != nil {
		return false, err
	}
	if !started {
		return false, nil
	}
	if err := d.reschedule(ctx, now); err != nil {
		return false, err
	}
	// A message that cannot go out now waits for its retry (the drain after judging reports it);
	// it never keeps new posts from being read and answered.
	if _, err := d.Drain(ctx); err != nil && ctx.Err() != nil {
		return false, err
	}
	if held, err := d.holdAfterJump(ctx, jumped, now); err != nil || held {
		if err != nil {
			return false, err
		}
		sent, err := d.Drain(ctx) // the flag's notices go out; nothing is judged or fired
		return sent > 0, err
	}
	n, err := d.readAndJudge(ctx, now)
	if err != nil {
		return n > 0, err
	}
	fired, err := d.fireDue(ctx, now)
	d.afterJump(jumped, fired)
	if err != nil {
		return true, err
	}
	sent, err := d.Drain(ctx)
	if err != nil {
		return true, err
	}
	if d.lastScan.IsZero() {
		// The first pass comes at the game's own moment of the interval, not at the start: a
		// restarted daemon does not read every game's thread again at once (issue 23, item 4).
		d.lastScan = now.Add(-Spread(d.o.Game, d.o.Rescan))
	}
	if now.Sub(d.lastScan) >= d.o.Rescan || now.Before(d.lastScan) {
		if err := d.rescan(forum.WithClass(ctx, forum.ClassBackground), now); errors.Is(err, errPutOff) {
			// The forum's background share is taken now: a later cycle tries again.
		} else if err != nil {
			d.fail(kindOf(err), err)
		} else {
			d.lastScan = now
		}
	}
	return n+fired+sent > 0, nil
}

// ensureStarted gives the opening outcome once; the game clock is set to the start time in the
// same commit, so "started" is "the clock exists".
func (d *Daemon) ensureStarted(ctx context.Context, now time.Time) (bool, error) {
	d.mu.Lock()
	has := d.hasClock
	d.mu.Unlock()
	if has {
		return true, nil
	}
	ref, seq, err := d.referee(ctx)
	if err != nil {
		return false, err
	}
	at := d.o.Start
	if at.IsZero() {
		at = now
	}
	if at.After(now) {
		return false, nil
	}
	if err := d.checkNewStore(ctx); err != nil {
		return false, err
	}
	out, err := ref.Start(at)
	if err != nil {
		d.invalidate()
		d.fail("referee", err)
		return false, fmt.Errorf("daemon: start: %w", err)
	}
	c := store.Commit{Game: d.o.Game, At: at, Cause: "start", TimerAt: &at, ExpectSeq: store.Expect(seq)}
	if err := d.commit(ctx, &c, out, nil); err != nil {
		if errors.Is(err, store.ErrTimerFired) {
			return true, nil
		}
		if errors.Is(err, store.ErrLogMoved) {
			return false, nil // a moderator acted first; the next cycle rebuilds and starts
		}
		return false, err
	}
	d.mu.Lock()
	d.clock, d.hasClock = at, true
	d.mu.Unlock()
	d.log.Info().Time("at", at).Int("messages", len(out.Messages)).Msg("game started")
	d.hook("started")
	return true, nil
}

// commit writes the outcome with c (whose Game, At, Cause, Post, Cursor, TimerAt, Resolve and
// ExpectSeq the caller set), adding the events, the messages as outbox items and the flags with
// their moderator notices. On failure the referee is dropped (it may be ahead of the store); a
// store.ErrLogMoved (the outcome was decided on a log another process has since appended to) is
// the caller's cue to rebuild and decide again.
func (d *Daemon) commit(ctx context.Context, c *store.Commit, out game.Outcome, in *game.Input) error {
	n := store.Notify{Moderators: d.o.Moderators, PM: d.o.Forum.Capabilities().PrivateMessages, Settle: d.o.Settle}
	if err := c.Fill(out, in, n); err != nil {
		d.invalidate()
		d.fail("referee", err)
		return err
	}
	cctx, cancel := durable(ctx)
	defer cancel()
	if err := d.o.Store.Commit(cctx, *c); err != nil {
		d.invalidate()
		switch {
		case errors.Is(err, store.ErrLogMoved):
			d.log.Info().Err(err).Msg("the event log moved while deciding (a moderator's command): rebuilding the referee, deciding again")
		case !errors.Is(err, store.ErrAlreadyJudged) && !errors.Is(err, store.ErrTimerFired):
			d.fail("store", err)
		}
		return err
	}
	d.mu.Lock()
	d.seq += int64(len(c.Events))
	d.mu.Unlock()
	if n := len(c.Flags); n > 0 {
		d.m.FlagsRaised.WithLabelValues(d.o.Game).Add(float64(n))
	}
	return nil
}

// input is one new post or private message to judge.
type input struct {
	src  store.Source
	post forum.Post
	seq  int // order read within its source
	// An appended part of a post the forum merged a new post into (see merged.go): the cursor
	// stays at the post itself, and once judged the post as it is now (hash) is known.
	cursorID, hash string
	late           bool // judged as a late post (late.go: Referee.JudgeLate)
	behind         bool // before its source's cursor, found by a rescan (late.go): the cursor stays
}

// readAndJudge reads the inbox (when due) and then the thread after their cursors, and judges each
// new input in time order, firing the timers due before each. It returns how many inputs it
// handled.
func (d *Daemon) readAndJudge(ctx context.Context, now time.Time) (int, error) {
	ref, _, err := d.referee(ctx)
	if err != nil {
		return 0, err
	}
	if ref.Paused() {
		return 0, nil // posts wait (the cursor stays) until a moderator resumes the game
	}
	var ins []input
	var cursors []store.CursorUpdate
	read := func(src store.Source, list func(context.Context, forum.Cursor) ([]forum.Post, forum.Cursor, error)) error {
		cur, _, err := d.o.Store.Cursor(ctx, d.o.Game, src)
		if err != nil {
			return err
		}
		var from string // the post the first reply's marker look would read from (restore.go)
		look := false
		if src == store.SourceThread {
			if cur, err = d.includeCursor(ctx, cur); err != nil {
				return err
			}
			if from, look, err = d.lookAlong(ctx); err != nil {
				return err
			}
		}
		lctx := ctx
		if look && from != "" && cur.PostID == from && !cur.Include {
			// The cursor is at the bot's last reply: a read made anyway returns it too.
			cur.Include, lctx = true, forum.WithIncludeIfRead(ctx)
		}
		if src == store.SourceThread {
			if cur.PostID == "" {
				lctx = forum.WithClass(ctx, forum.ClassBackground) // the first read of a game's thread: catch-up
			}
			lctx = forum.WithProgress(lctx, d.progress(d.o.Clock.Now()))
		}
		t0 := time.Now()
		posts, next, err := list(lctx, cur)
		d.m.PollLatency.WithLabelValues(d.o.Game, string(src)).Observe(time.Since(t0).Seconds())
		if src == store.SourceThread {
			d.wrongThread(err)
		}
		if err != nil {
			return d.forumErr(ctx, err)
		}
		forum.CheckEncoding(posts)
		if src == store.SourceThread {
			d.noteMarkers(posts)
			d.confirmSeen(ctx, posts)
			if look && covers(cur, from, posts) {
				d.setLookedFor(store.OutboxReply) // the read saw where the first reply's marker could be
			}
		}
		d.checkStamps(src, posts, d.o.Clock.Now())
		for i, p := range posts {
			if _, garbled := p.Encoding(); garbled && cur.Include && p.ID == cur.PostID {
				continue // judged before; read garbled now, which is no edit (garbled.go)
			}
			if cur.Include && p.ID == cur.PostID {
				// The last post read again: did the forum merge a new post into it?
				part, ok, err := d.grown(ctx, p, now)
				if err != nil {
					return err
				}
				if ok {
					part.seq = i
					ins = append(ins, part)
				}
				continue
			}
			ins = append(ins, inputs(src, p, i)...) // a post merged before this read: its parts (split.go)
		}
		next.Include = false
		if was := cur; true {
			was.Include = false
			if next == was {
				return nil
			}
		}
		{
			cursors = append(cursors, store.CursorUpdate{Source: src, Cursor: next})
		}
		return nil
	}
	// The inbox first (when due), the thread last: nothing is read between the page that holds a
	// move and the reply to it, and the inputs of both are judged together in time order.
	pms := d.o.Forum.Capabilities().PrivateMessages
	inboxRead := false
	if pms && d.inboxDue(ref, now) {
		d.inboxOwed = true
		if err := read(store.SourcePM, d.o.Forum.Inbox); err != nil {
			return 0, err
		}
		d.inboxAt, inboxRead = now, true // owed until its messages are judged and the cursor kept (below)
	}
	if err := read(store.SourceThread, func(ctx context.Context, c forum.Cursor) ([]forum.Post, forum.Cursor, error) {
		return d.o.Forum.Posts(ctx, d.o.Thread, c)
	}); err != nil {
		return 0, err
	}
	looked := !pms || inboxRead || d.pmLook(ctx, ref, now)
	if n, ok := forum.As[forum.PMNotifier](d.o.Forum); pms && !inboxRead && (!looked || ok && n.UnreadPM()) {
		// The page just read (or the look for the signal) shows a private message waiting: a
		// player's message may come before the posts read, so it is read now and judged with them.
		d.inboxOwed = true
		if err := read(store.SourcePM, d.o.Forum.Inbox); err != nil {
			return 0, err
		}
		d.inboxAt, inboxRead = now, true
	}
	sort.SliceStable(ins, func(i, j int) bool {
		a, b := ins[i], ins[j]
		if !a.post.Time.Equal(b.post.Time) {
			return a.post.Time.Before(b.post.Time)
		}
		if a.src != b.src {
			return a.src == store.SourceThread
		}
		return a.seq < b.seq
	})
	n := 0
	defer d.reportBeforeStart()
	for _, in := range ins {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		if d.isBot(in.post.Author) {
			continue // our own replies
		}
		if beforeStart(in.post.Time, d.o.Start) {
			d.skipBeforeStart(in) // the thread's history before the game (sign-ups, chatter): counted, logged
			continue
		}
		if pr, garbled := in.post.Encoding(); garbled && d.hold(in, pr, now) {
			return n, nil // it and what follows wait for a clean read; the cursors stay
		}
		if in.src == store.SourcePM && d.o.SharedInbox && !ref.Plays(in.post.Author) && !d.moderator(in.post.Author) {
			continue // another game's player writing to the shared bot account
		}
		in.late = d.pmAfterItsTimer(in)
		d.m.PostsRead.WithLabelValues(d.o.Game, string(in.src)).Inc()
		if _, err := d.fireDue(ctx, minTime(in.post.Time, now)); err != nil {
			return n, err
		}
		if err := d.judgeOne(ctx, in); err != nil {
			if errors.Is(err, errPaused) {
				return n, nil // a moderator paused the game meanwhile: the rest waits, cursors stay
			}
			return n, err
		}
		n++
	}
	d.released()
	for _, cu := range cursors {
		cctx, cancel := durable(ctx)
		err := d.o.Store.SetCursor(cctx, d.o.Game, cu.Source, cu.Cursor)
		cancel()
		if err != nil {
			d.fail("store", err)
			return n, err
		}
	}
	if inboxRead {
		// Every message read was judged and the cursor kept: the board's counter speaks for the
		// inbox again. (A read cut short — an error, a garbled message held, a pause — leaves it
		// owed: reading marked the messages read on the board, so the counter no longer shows them.)
		d.inboxOwed = false
	}
	return n, nil
}

// progressFrom is how many pages a read must have before its progress is shown; progressEvery
// how often a log line tells it.
const (
	progressFrom  = 5
	progressEvery = 30 * time.Second
)

// progress is the forum.Progress of a thread read begun at start: a long read (the cold catch-up
// of a long thread) shows pages done, pages to go and an estimate in the log and on /healthz.
func (d *Daemon) progress(start time.Time) forum.Progress {
	var logged time.Time
	return func(done, total int) {
		if total < progressFrom || done <= 0 {
			return
		}
		now := d.o.Clock.Now()
		toGo := total - done
		eta := time.Duration(float64(now.Sub(start)) / float64(done) * float64(toGo))
		if d.o.Health != nil {
			d.o.Health.SetProgress(d.o.Game, done, toGo, eta, start)
		}
		if toGo > 0 && !logged.IsZero() && now.Sub(logged) < progressEvery {
			return
		}
		logged = now
		// The store keeps it for `forumgm games list` and the web UI (as often as the log tells).
		sctx, cancel := durable(context.Background())
		if err := d.o.Store.SetProgress(sctx, d.o.Game, done, toGo, eta, start); err != nil {
			d.fail("store", err)
		}
		cancel()
		ev := d.log.Info().Int("pages_done", done).Int("pages_to_go", toGo)
		if toGo > 0 {
			ev.Dur("eta", eta.Round(time.Second)).Msg("reading the thread (catch-up)")
		} else {
			ev.Dur("took", now.Sub(start).Round(time.Second)).Msg("thread read (catch-up done)")
		}
	}
}

// moderator reports whether name is one of the game's moderators.
func (d *Daemon) moderator(name string) bool {
	for _, m := range d.o.Moderators {
		if strings.EqualFold(strings.TrimSpace(m), strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// startSlack is how much earlier than the start a post may be stamped and still count: forums
// often show times to the minute only.
const startSlack = time.Minute

// beforeStart reports whether a post stamped at t was made before a game starting at start
// (zero start: unknown, nothing is before it).
func beforeStart(t, start time.Time) bool {
	return !start.IsZero() && !t.IsZero() && t.Before(start.Add(-startSlack))
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// errPaused: a moderator paused the game while a post was being judged; the post waits.
var errPaused = errors.New("daemon: game paused by a moderator")

// maxRedecide bounds how often one post is judged again because the log moved under it.
const maxRedecide = 5

// judgeOne judges one input and commits the outcome with the input's verdict and cursor. The
// commit carries the seq of the log the referee had folded (ExpectSeq); if a moderator's command
// from another process was committed meanwhile, the store refuses the stale verdict, and the post
// is judged again on the rebuilt referee (or waits, when the command paused the game).
func (d *Daemon) judgeOne(ctx context.Context, in input) error {
	for try := 1; ; try++ {
		err := d.judgeOnce(ctx, in)
		if !errors.Is(err, store.ErrLogMoved) || try >= maxRedecide {
			return err
		}
		if err := d.sync(ctx); err != nil {
			d.fail("store", err)
			return err
		}
		ref, _, err := d.referee(ctx)
		if err != nil {
			return err
		}
		if ref.Paused() {
			return errPaused
		}
	}
}

func (d *Daemon) judgeOnce(ctx context.Context, in input) error {
	rec, seen, err := d.o.Store.SeenPost(ctx, d.o.Game, in.src, in.post.ID)
	if err != nil {
		d.fail("store", err)
		return err
	}
	if seen && rec.Judged() {
		return nil // judged before a crash; the cursor lagged
	}
	ji := game.Input{Source: in.src, PostID: in.post.ID, Author: in.post.Author, At: in.post.Time, Post: in.post}
	if seen {
		// The first-seen post stands: the whole of it when it was stored whole, else its text.
		if rec.Whole {
			ji.Post = rec.Post
		} else {
			ji.Post.Text = rec.Text
		}
	}
	ref, seq, err := d.referee(ctx)
	if err != nil {
		return err
	}
	if ji.At.IsZero() {
		ji.At = d.o.Clock.Now() // the forum's date could not be read: when it was read
	}
	var out game.Outcome
	if missing := missingParts(in.post); missing != "" {
		// The page did not show who wrote the post or what it says: a person must look, the
		// game judges nothing it cannot attribute or read.
		out = game.Outcome{Verdict: game.Flagged, Flags: []game.Flag{{Kind: game.FlagOther, PostID: in.post.ID,
			Detail: "the forum's page did not show the post's " + missing + " (" + problemsText(in.post.Problems) + ")"}}}
	} else if pr, garbled := in.post.Encoding(); garbled {
		out = garbledOutcome(in.post, pr) // held for holdGarbled, still garbled: a person reads it
	} else if in.late {
		out, err = ref.JudgeLate(ji)
	} else {
		out, err = ref.Judge(ji)
	}
	if err != nil {
		// A referee error is a bug or bad input the referee could not handle: flag it for a
		// moderator rather than stall the game. The post stays in the chain (it was absorbed).
		d.invalidate()
		d.fail("referee", err)
		out = game.Outcome{Verdict: game.Flagged, Link: out.Link, Flags: []game.Flag{{Kind: game.FlagUnreadable, PostID: in.post.ID,
			Detail: "the referee failed on this post: " + err.Error()}}}
	}
	d.hook("decided")
	v := out.Verdict
	if v == "" {
		v = store.VerdictIgnored
	}
	c := store.Commit{Game: d.o.Game, At: in.post.Time, Actor: in.post.Author,
		Post:      &store.Judgement{Source: in.src, Post: ji.Post, Verdict: v},
		Cursor:    &store.CursorUpdate{Source: in.src, Cursor: forum.Cursor{PostID: cursorOf(in)}},
		ExpectSeq: store.Expect(seq)}
	if in.behind {
		c.Cursor = nil // the source's cursor is past it already
	}
	if c.At.IsZero() {
		c.At = d.o.Clock.Now()
	}
	if err := d.commit(ctx, &c, out, &ji); err != nil {
		if errors.Is(err, store.ErrAlreadyJudged) {
			return nil
		}
		return err
	}
	if in.hash != "" {
		// The merged post as it is now is known: not an edit for the rescan.
		cctx, cancel := durable(ctx)
		_, err := d.o.Store.MarkPostEdited(cctx, d.o.Game, in.src, in.cursorID, in.hash, nil)
		cancel()
		if err != nil {
			d.fail("store", err)
			return err
		}
	}
	d.m.MovesJudged.WithLabelValues(d.o.Game, string(v)).Inc()
	d.log.Info().Str("source", string(in.src)).Str("post", in.post.ID).Str("author", in.post.Author).
		Str("verdict", string(v)).Int("events", len(c.Events)).Int("outbox", len(c.Outbox)).Int("flags", len(c.Flags)).Msg("judged")
	d.hook("judged")
	return nil
}

// missingParts names what a post read from the forum lacks for judging: its author or its text
// ("" when neither is missing; a missing date is replaced by the time it was read).
func missingParts(p forum.Post) string {
	var parts []string
	for _, pr := range p.Problems {
		switch pr.Kind {
		case forum.ProblemAuthor:
			parts = append(parts, "author")
		case forum.ProblemText:
			parts = append(parts, "text")
		}
	}
	return strings.Join(parts, " and ")
}

// problemsText is a post's problems as a flag names them: "author: not found (.author); body: …".
func problemsText(ps []forum.Problem) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// cursorOf is the post id the thread's cursor moves to once in is judged.
func cursorOf(in input) string {
	if in.cursorID != "" {
		return in.cursorID
	}
	return in.post.ID
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// fireDue fires, in order, every timed rule due at or before until, each in its own commit with
// the clock. It returns how many fired.
func (d *Daemon) fireDue(ctx context.Context, until time.Time) (int, error) {
	n := 0
	for {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		d.mu.Lock()
		ref, from, has, seq := d.ref, d.clock, d.hasClock, d.seq
		d.mu.Unlock()
		if ref == nil {
			if err := d.sync(ctx); err != nil {
				return n, err
			}
			continue
		}
		if !has {
			return n, nil
		}
		at, ok := ref.NextTimer(from)
		if !ok || at.After(until) {
			return n, nil
		}
		out, err := ref.Fire(at)
		if err != nil {
			d.invalidate()
			d.fail("referee", err)
			return n, fmt.Errorf("daemon: fire %s: %w", at.Format(time.RFC3339), err)
		}
		c := store.Commit{Game: d.o.Game, At: at, TimerAt: &at, ExpectSeq: store.Expect(seq)}
		if err := d.commit(ctx, &c, out, nil); err != nil {
			if errors.Is(err, store.ErrTimerFired) || errors.Is(err, store.ErrLogMoved) {
				continue // another process fired it or changed the game; sync reloads, fire again
			}
			return n, err
		}
		d.mu.Lock()
		d.clock = at
		d.mu.Unlock()
		d.m.TimersFired.WithLabelValues(d.o.Game).Inc()
		d.log.Info().Time("at", at).Int("events", len(c.Events)).Int("outbox", len(c.Outbox)).Msg("timer fired")
		d.hook("fired")
		n++
	}
}

// forumErr handles a forum error of a read: logged out → log in again.
func (d *Daemon) forumErr(ctx context.Context, err error) error {
	kind := kindOf(err)
	d.fail(kind, err)
	if errors.Is(err, forum.ErrLoggedOut) {
		if lerr := d.o.Forum.Login(ctx); lerr != nil {
			d.fail("login", lerr)
		}
	}
	return err
}

// wrongThread counts a read of the game's thread refused as another thread's page
// (forum.ErrWrongThread: nothing of it is judged, the cursor stays, the next poll reads again)
// and shows it on /healthz until a read of the thread works.
func (d *Daemon) wrongThread(err error) {
	wt := (*forum.WrongThreadError)(nil)
	wrong := errors.As(err, &wt)
	if wrong {
		d.m.WrongThread.WithLabelValues(d.o.Game).Inc()
	}
	switch {
	case d.o.Health == nil:
	case wrong:
		d.o.Health.Problem("wrong_thread", d.o.Game, fmt.Sprintf("the forum served thread %s's page for the game's thread %s", wt.Found, wt.Asked))
	case err == nil:
		d.o.Health.Problem("wrong_thread", d.o.Game, "")
	}
}

func kindOf(err error) string {
	var fe *forum.FloodError
	switch {
	case errors.Is(err, forum.ErrAmbiguous):
		return "ambiguous"
	case errors.As(err, &fe):
		return "flood"
	case errors.Is(err, forum.ErrLoggedOut):
		return "logged_out"
	case errors.Is(err, forum.ErrTooLong):
		return "too_long"
	case errors.Is(err, forum.ErrMaintenance):
		return "maintenance"
	case errors.Is(err, forum.ErrTooLarge):
		return "too_large"
	case errors.Is(err, forum.ErrMarkupChanged):
		return "markup_changed"
	case errors.Is(err, forum.ErrTruncated):
		return "truncated"
	case errors.Is(err, forum.ErrWrongThread):
		return "wrong_thread"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "canceled"
	}
	return "forum"
}

// rescan reads the thread from the oldest move post still open to dispute and flags move posts whose text changed
// (the first-seen text stands) or that vanished. Each case is flagged once; the moderators get a
// private message in the same commit as the flag.
func (d *Daemon) rescan(ctx context.Context, now time.Time) error {
	moves, err := d.o.Store.MovePosts(ctx, d.o.Game)
	if err != nil {
		return err
	}
	if d.lastAll.IsZero() && d.o.RescanAll > 0 {
		d.lastAll = now.Add(-Spread(d.o.Game, d.o.RescanAll))
	}
	all := d.o.RescanAll > 0 && (now.Sub(d.lastAll) >= d.o.RescanAll || now.Before(d.lastAll))
	var thread []store.PostRecord
	for _, p := range moves {
		if p.Source == store.SourceThread && (all || now.Sub(p.PostedAt) < d.o.Recent) {
			thread = append(thread, p)
		}
	}
	if all {
		d.lastAll = now
	}
	if err := d.rescanInbox(ctx, all, now); err != nil {
		return err
	}
	if len(thread) == 0 {
		return nil
	}
	oldest := thread[0].ID
	for _, p := range thread[1:] {
		if forum.IDLess(p.ID, oldest) {
			oldest = p.ID
		}
	}
	if a, ok := forum.As[forum.Admitter](d.o.Forum); ok {
		// Only when the forum's background share lets it out now: a rescan never holds the
		// game's loop in the queue (a move in the thread meanwhile would wait behind it).
		if ctx, ok = a.Admit(ctx); !ok {
			if all {
				d.lastAll = time.Time{}.Add(1) // still due: the next try reads every move post
			}
			return errPutOff
		}
	}
	// From the oldest move post's own permalink, that post included: the page holding it, then
	// on. (Not forum.Before: the id one less is most often another thread's post, whose
	// permalink is answered with another thread, or with this thread's first page.)
	posts, _, err := d.o.Forum.Posts(ctx, d.o.Thread, forum.Cursor{PostID: oldest, Include: true})
	if err != nil {
		return fmt.Errorf("daemon: rescan: %w", err)
	}
	forum.CheckEncoding(posts)
	d.noteMarkers(posts)
	if err := d.judgeLate(ctx, store.SourceThread, posts); err != nil {
		return err
	}
	byID := map[string]forum.Post{}
	newest := "" // the newest post read: a move post after it is not provably gone
	for _, p := range posts {
		byID[p.ID] = p
		if forum.IDLess(newest, p.ID) {
			newest = p.ID
		}
	}
	open, err := d.o.Store.OpenFlags(ctx, d.o.Game)
	if err != nil {
		return err
	}
	for _, rec := range thread {
		p, ok := byID[rec.ID]
		if ok {
			delete(d.missing, rec.ID)
		}
		_, garbled := p.Encoding()
		switch {
		case ok && garbled:
			continue // read garbled this time: no edit (garbled.go)
		case ok:
			h := rec.HashOf(p) // own text, quotes and code blocks: see store.ContentHash
			last := rec.TextHash
			if rec.EditedHash != "" {
				last = rec.EditedHash
			}
			if h == last {
				continue
			}
			detail := fmt.Sprintf("the post was edited after the decision (%s); the first version stands", firstLine(p.Text))
			if err := d.flagPost(ctx, open, rec, store.FlagEdited, detail, h[:12], p, func(cctx context.Context) error {
				_, err := d.o.Store.MarkPostEdited(cctx, d.o.Game, rec.Source, rec.ID, h, nil)
				return err
			}); err != nil {
				return err
			}
		case rec.VanishedAt.IsZero():
			if forum.IDLess(newest, rec.ID) {
				continue // not provably gone
			}
			// One read without the post proves nothing (a page served stale or incomplete): it
			// is gone when the next whole rescan misses it too.
			if d.missing[rec.ID]++; d.missing[rec.ID] < vanishedAfter {
				d.log.Info().Str("post", rec.ID).Msg("move post missing from the thread: flagged if the next rescan misses it too")
				continue
			}
			if err := d.flagPost(ctx, open, rec, store.FlagDeleted, "the move post vanished from the thread", "vanished", forum.Post{ID: rec.ID, Author: rec.Author}, func(cctx context.Context) error {
				_, err := d.o.Store.MarkPostVanished(cctx, d.o.Game, rec.Source, rec.ID, nil)
				return err
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// errPutOff is rescan's report that the forum's background share would make it wait: it is
// tried again at a later cycle.
var errPutOff = errors.New("daemon: rescan put off: the forum's background share is taken")

// Spread is a fixed share of d for key (its FNV hash, mixed): games sharing a process do their
// rare work at different moments, spread over the whole of d. (The share was once the 32-bit hash
// modulo d in nanoseconds: never more than 4.3 s, so 500 games' daily rescans, verifying reads and
// poll starts all fell in the same few seconds.)
func Spread(key string, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	var h uint64 = 14695981039346656037 // FNV-1a, 64 bits
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	// splitmix64's finaliser: keys that differ in their last byte differ in the high bits too.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	share, _ := bits.Mul64(h, uint64(d)) // h/2⁶⁴ of d: in [0, d)
	return time.Duration(share)
}

// vanishedAfter is how many whole rescans in a row must miss a move post before it is flagged as
// deleted.
const vanishedAfter = 2

// flagPost raises a flag about a recorded post (unless an open flag with the same tag exists: the
// flag was committed but the mark was not, before a crash) and then marks the post.
func (d *Daemon) flagPost(ctx context.Context, open []store.Flag, rec store.PostRecord, kind store.FlagKind, detail, tag string, p forum.Post, mark func(context.Context) error) error {
	dup := false
	for _, f := range open {
		if f.Kind == kind && f.PostID == rec.ID && f.Source == rec.Source && strings.Contains(f.Detail, tag) {
			dup = true
		}
	}
	if !dup {
		in := &game.Input{Source: game.Thread, PostID: rec.ID, Author: rec.Author, Post: p}
		// The notice shows an edit as what changed from the first-seen text.
		was := rec.Text
		if rec.Whole {
			was = rec.Post.Text
		}
		out := game.Outcome{Flags: []game.Flag{{Kind: kind, PostID: rec.ID, Detail: detail + " [" + tag + "]", Was: was}}}
		c := store.Commit{Game: d.o.Game}
		if err := d.commit(ctx, &c, out, in); err != nil {
			return err
		}
		d.log.Warn().Str("post", rec.ID).Str("kind", string(kind)).Msg("move post changed: flagged")
	}
	cctx, cancel := durable(ctx)
	defer cancel()
	return mark(cctx)
}

// isBot reports whether name is the game's bot account (as the forum shows it: case and spaces
// aside).
func (d *Daemon) isBot(name string) bool {
	return strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(d.o.Bot))
}
