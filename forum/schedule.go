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
	recent []time.Time       // when the last burst requests went out, oldest first (nil: no cap a second)
}

// politeWindow is the second in which a scheduler whose rate is below its burst lets out no
// more than burst requests, with a margin for the requests' way to the forum (a forum that counts
// them in any closed second must not see one more).
const politeWindow = time.Second + 20*time.Millisecond

type waiter struct {
	ready bool
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
		s.recent = make([]time.Time, 0, burst)
	}
	s.last = o.Now()
	return s
}

// Wait blocks until a request of ctx's class (ClassOf) may go out, or ctx ends. A context from
// Admit goes out at once, once.
func (s *Scheduler) Wait(ctx context.Context) error {
	if prepaid(ctx) {
		return ctx.Err()
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
			return nil
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
			return err
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
	s.took()
	s.bg--
	s.sent[ClassBackground]++
	if s.o.Waited != nil {
		s.o.Waited(s.host, ClassBackground, 0)
	}
	turn := new(atomic.Bool)
	turn.Store(true)
	return context.WithValue(WithClass(ctx, ClassBackground), prepaidKey{}, turn), true
}

type prepaidKey struct{}

// prepaid reports (once) whether ctx carries a turn Admit took.
func prepaid(ctx context.Context) bool {
	t, ok := ctx.Value(prepaidKey{}).(*atomic.Bool)
	return ok && t.CompareAndSwap(true, false)
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
		s.took()
		w := s.queue[c][0]
		s.queue[c] = s.queue[c][1:]
		s.queued(c)
		s.let(c, w)
	}
}

// took spends a token on a request going out now; s.mu is held.
func (s *Scheduler) took() {
	s.tokens--
	if s.recent == nil {
		return
	}
	if len(s.recent) == cap(s.recent) {
		s.recent = append(s.recent[:0], s.recent[1:]...)
	}
	s.recent = append(s.recent, s.last)
}

// windowWait is how long until one more request may go out without putting more than burst
// requests in one politeWindow (0: now); s.mu is held and s.last is now.
func (s *Scheduler) windowWait() time.Duration {
	if s.recent == nil || len(s.recent) < cap(s.recent) {
		return 0
	}
	return max(0, s.recent[0].Add(politeWindow).Sub(s.last))
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
