package forum

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Class is a request's priority at its forum host's Scheduler: the reply path first, then the
// private messages that answer players, then polls and probes, then the background.
type Class int8

// The request classes, most urgent first.
const (
	ClassReply      Class = iota // the reply path: the page holding a move, the reply form, the post
	ClassPM                      // private messages answering players
	ClassPoll                    // polls and probes (board index, section lists, idle probes, inbox)
	ClassBackground              // rescans for edits, catch-up of new games, daily checks
	NumClasses
)

var classNames = [NumClasses]string{"reply", "pm", "poll", "background"}

// String is the class's name (the /metrics label).
func (c Class) String() string {
	if c < 0 || c >= NumClasses {
		return "poll"
	}
	return classNames[c]
}

type classKey struct{}

// WithClass is ctx whose forum requests go out in class c.
func WithClass(ctx context.Context, c Class) context.Context {
	return context.WithValue(ctx, classKey{}, c)
}

// ClassOf is the class ctx's forum requests go out in; ClassPoll when none was set.
func ClassOf(ctx context.Context) Class {
	if c, ok := ctx.Value(classKey{}).(Class); ok && c >= 0 && c < NumClasses {
		return c
	}
	return ClassPoll
}

// Urgent is ctx in class c unless its class is more urgent already: a reply path's reads stay in
// the reply class when a lower layer asks for a poll.
func Urgent(ctx context.Context, c Class) context.Context {
	if ClassOf(ctx) <= c {
		return ctx
	}
	return WithClass(ctx, c)
}

// DefaultBackgroundShare is the part of a host's rate the background class may use at most.
const DefaultBackgroundShare = 0.1

// SchedulerOptions tune the schedulers of a HostLimits. Zero values take the defaults noted.
type SchedulerOptions struct {
	// BackgroundShare is the part of the rate the background class may use at most (0:
	// DefaultBackgroundShare; it never goes out while a request of another class waits).
	BackgroundShare float64
	// Now and Sleep are the clock (tests: the test clock); default the real one.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Waited, if set, is told how long each request waited for its turn; Queued of the number
	// of requests of a class waiting whenever it changes (the /metrics of package ops).
	Waited func(host string, c Class, d time.Duration)
	Queued func(host string, c Class, n int)
	// Cluster, if set, is asked after each turn granted here when other processes share the
	// host's rate (daemons on one database): it returns once the host's next shared slot has come
	// (every is one request's interval), so together they keep to the rate.
	Cluster func(ctx context.Context, host string, every time.Duration) error
}

// Scheduler paces the requests to one forum host: one rate (a token bucket of the host's rate and
// burst) shared by every game and account on it, served most urgent class first, first come first
// served within a class. The background class goes out only while no other request waits, and
// within its own share of the rate. Where the rate is below the burst (1 request a second,
// bursts of 3 by default), no second holds more than burst requests: the bucket alone would let
// a fourth out a second after a burst of three.
type Scheduler struct {
	host  string
	rate  float64
	burst float64
	o     SchedulerOptions

	mu     sync.Mutex
	tokens float64 // of the whole rate, up to burst
	bg     float64 // of the background's share, up to 1
	last   time.Time
	queue  [NumClasses][]*waiter
	sent   [NumClasses]int64 // requests let through, by class
	recent []*slot           // the requests that may still count in a second (nil: no cap a second)
}

// slot is a request let out, for the cap a second: until its answer came (open) it may reach the
// forum at any moment; then at is when the answer came, after it reached the forum. (Counting
// from the moment it was let out would not do: a request can reach the forum a good while after
// its turn, behind a busy host's scheduler or a shared slot of the cluster, and land within one
// second of three later ones.)
type slot struct {
	at   time.Time
	open bool
}

// politeWindow is the second in which a scheduler whose rate is below its burst lets out no
// more than burst requests, with a margin for the requests' way to the forum (a forum that counts
// them in any closed second must not see one more).
const politeWindow = time.Second + 20*time.Millisecond

type waiter struct {
	ready bool
	slot  *slot              // the turn's slot, once ready
	wake  context.CancelFunc // cuts the waiter's sleep short (nil: not sleeping)
}

func newScheduler(host string, r rate.Limit, burst int, o SchedulerOptions) *Scheduler {
	if o.BackgroundShare <= 0 || o.BackgroundShare > 1 {
		o.BackgroundShare = DefaultBackgroundShare
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = Sleep
	}
	if burst <= 0 {
		burst = defaultBurst
	}
	s := &Scheduler{host: host, rate: float64(r), burst: float64(burst), o: o, tokens: float64(burst), bg: 1}
	if float64(r) < float64(burst) {
		s.recent = []*slot{}
	}
	s.last = o.Now()
	return s
}

// Take blocks until a request of ctx's class (ClassOf) may go out, or ctx ends; done, called
// once the request's answer came (or it failed), ends the request's turn. A context from Admit
// goes out at once, once.
func (s *Scheduler) Take(ctx context.Context) (done func(), err error) {
	if sl, ok := prepaid(ctx); ok {
		return s.done(sl), ctx.Err()
	}
	c := ClassOf(ctx)
	t0 := s.o.Now()
	w := &waiter{}
	s.mu.Lock()
	s.queue[c] = append(s.queue[c], w)
	s.queued(c)
	for {
		s.grant()
		if w.ready {
			s.mu.Unlock()
			if s.o.Waited != nil {
				s.o.Waited(s.host, c, s.o.Now().Sub(t0))
			}
			return s.done(w.slot), nil
		}
		d := s.next()
		sctx, cancel := context.WithCancel(ctx)
		w.wake = cancel
		s.mu.Unlock()
		_ = s.o.Sleep(sctx, d)
		cancel()
		s.mu.Lock()
		w.wake = nil
		if err := ctx.Err(); err != nil && !w.ready {
			s.drop(c, w)
			s.mu.Unlock()
			return nil, err
		}
	}
}

// done is the end of a turn whose slot is sl: the slot counts from now (the answer came after
// the request reached the forum), and the waiters look again.
func (s *Scheduler) done(sl *slot) func() {
	return func() {
		if sl == nil {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if !sl.open {
			return
		}
		sl.open, sl.at = false, s.o.Now()
		s.grant()
		if c := s.head(); c >= 0 && s.queue[c][0].wake != nil {
			s.queue[c][0].wake() // its sleep was reckoned while the slot was open
		}
	}
}

// Admit lets a background request out now if it may go at once (nothing waits, a token and the
// background's share are there), without waiting: the caller's next request on the returned
// context uses the turn taken (Prepaid). ok is false, and nothing is taken, when it would have to
// wait: work that may come later (a rescan) is put off rather than holding its game's loop in the
// queue.
func (s *Scheduler) Admit(ctx context.Context) (context.Context, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refill()
	if s.head() >= 0 || s.tokens < 1 || s.bg < 1 || s.windowWait() > 0 {
		return ctx, false
	}
	turn := &prepaidTurn{slot: s.took()}
	turn.unused.Store(true)
	s.bg--
	s.sent[ClassBackground]++
	if s.o.Waited != nil {
		s.o.Waited(s.host, ClassBackground, 0)
	}
	return context.WithValue(WithClass(ctx, ClassBackground), prepaidKey{}, turn), true
}

type prepaidKey struct{}

// prepaidTurn is a turn Admit took, for the first request on its context.
type prepaidTurn struct {
	unused atomic.Bool
	slot   *slot
}

// prepaid reports (once) whether ctx carries a turn Admit took, and gives its slot.
func prepaid(ctx context.Context) (*slot, bool) {
	t, ok := ctx.Value(prepaidKey{}).(*prepaidTurn)
	if !ok || !t.unused.CompareAndSwap(true, false) {
		return nil, false
	}
	return t.slot, true
}

// Sent is how many requests of class c the scheduler let through.
func (s *Scheduler) Sent(c Class) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[c]
}

// refill adds the tokens earned since the last look; s.mu is held.
func (s *Scheduler) refill() {
	now := s.o.Now()
	if dt := now.Sub(s.last).Seconds(); dt > 0 {
		s.tokens = min(s.burst, s.tokens+dt*s.rate)
		s.bg = min(1, s.bg+dt*s.rate*s.o.BackgroundShare)
	}
	s.last = now
}

// grant lets through as many waiters as there are tokens, most urgent first; s.mu is held.
func (s *Scheduler) grant() {
	if s.rate <= 0 || rate.Limit(s.rate) == rate.Inf {
		for c := range s.queue {
			for _, w := range s.queue[c] {
				s.let(Class(c), w)
			}
			s.queue[c] = nil
			s.queued(Class(c))
		}
		return
	}
	s.refill()
	for s.tokens >= 1 && s.windowWait() == 0 {
		c := s.head()
		if c < 0 {
			return
		}
		if c == ClassBackground {
			if s.bg < 1 {
				return
			}
			s.bg--
		}
		w := s.queue[c][0]
		w.slot = s.took()
		s.queue[c] = s.queue[c][1:]
		s.queued(c)
		s.let(c, w)
	}
}

// took spends a token on a request going out now and gives its slot (nil: no cap a second);
// s.mu is held.
func (s *Scheduler) took() *slot {
	s.tokens--
	if s.recent == nil {
		return nil
	}
	sl := &slot{at: s.last, open: true}
	s.recent = append(s.recent, sl)
	return sl
}

// windowWait is how long until one more request may go out without putting more than burst
// requests in one politeWindow (0: now): the requests that may have reached the forum within the
// last politeWindow (those still open, and those answered within it) must be fewer than burst.
// The slots past the window are dropped. s.mu is held and s.last is now.
func (s *Scheduler) windowWait() time.Duration {
	if s.recent == nil {
		return 0
	}
	since := s.last.Add(-politeWindow)
	kept := s.recent[:0]
	var first time.Time // the earliest answer still within the window
	for _, sl := range s.recent {
		if sl.open || sl.at.After(since) {
			kept = append(kept, sl)
			if !sl.open && (first.IsZero() || sl.at.Before(first)) {
				first = sl.at
			}
		}
	}
	clear(s.recent[len(kept):])
	s.recent = kept
	if float64(len(kept)) < s.burst {
		return 0
	}
	if first.IsZero() {
		return politeWindow // all open: a look again when one is answered (done wakes the head)
	}
	return max(time.Millisecond, first.Add(politeWindow).Sub(s.last))
}

// head is the most urgent class with a waiter (-1: none).
func (s *Scheduler) head() Class {
	for c := range s.queue {
		if len(s.queue[c]) > 0 {
			return Class(c)
		}
	}
	return -1
}

func (s *Scheduler) let(c Class, w *waiter) {
	w.ready = true
	s.sent[c]++
	if w.wake != nil {
		w.wake()
	}
}

// next is how long until the head of the queue may go out; s.mu is held.
func (s *Scheduler) next() time.Duration {
	need := (1 - s.tokens) / s.rate
	if s.head() == ClassBackground {
		need = max(need, (1-s.bg)/(s.rate*s.o.BackgroundShare))
	}
	return max(time.Duration(need*float64(time.Second)), s.windowWait(), time.Millisecond)
}

// drop removes a waiter that gave up; s.mu is held.
func (s *Scheduler) drop(c Class, w *waiter) {
	q := s.queue[c]
	for i, x := range q {
		if x == w {
			s.queue[c] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	s.queued(c)
	s.grant() // its place may free the next
}

func (s *Scheduler) queued(c Class) {
	if s.o.Queued != nil {
		s.o.Queued(s.host, c, len(s.queue[c]))
	}
}

// Admitter is a forum whose request scheduler can let a background request out at once or say it
// would wait (Scheduler.Admit): the fleet's shared sessions.
type Admitter interface {
	Admit(ctx context.Context) (context.Context, bool)
}

// HostLimits are the request schedulers by forum host, shared by the clients given them: one
// rate per forum host however many sessions and games reach it.
type HostLimits struct {
	o  SchedulerOptions
	mu sync.Mutex
	m  map[string]*Scheduler
}

// NewHostLimits builds an empty set of shared schedulers.
func NewHostLimits(o SchedulerOptions) *HostLimits {
	return &HostLimits{o: o, m: map[string]*Scheduler{}}
}

// Shared waits for host's next slot of the rate shared with other processes (SchedulerOptions.Cluster);
// at once when there is none.
func (h *HostLimits) Shared(ctx context.Context, host string, r rate.Limit) error {
	if h.o.Cluster == nil || r <= 0 || r == rate.Inf {
		return nil
	}
	return h.o.Cluster(ctx, host, time.Duration(float64(time.Second)/float64(r)))
}

// Host is host's scheduler, made with r and burst when it is the first asked for.
func (h *HostLimits) Host(host string, r rate.Limit, burst int) *Scheduler {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.m[host]
	if !ok {
		s = newScheduler(host, r, burst, h.o)
		h.m[host] = s
	}
	return s
}
