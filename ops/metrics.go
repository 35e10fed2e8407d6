// Package ops owns what operators watch a running forumgm by: the Prometheus metrics, the health
// report (/healthz) and the ops listener serving both on loopback, and the structured logger.
// The daemon, the fleet and the commands share them.
package ops

import (
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/pprof"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"forumgm/internal/loopback"
)

// Metrics are the daemon's Prometheus metrics, on their own registry (so tests can run several
// daemons in one process).
type Metrics struct {
	Registry *prometheus.Registry

	PostsRead     *CounterVec              // by source: thread | pm
	MovesJudged   *CounterVec              // by verdict: accepted | refused | ignored | flagged
	RepliesPosted *CounterVec              // by kind: reply | pm; dedup: found by marker
	TimersFired   *CounterVec              // timed rules fired
	PollLatency   *HistogramVec            // by source: one forum read (thread page walk or inbox)
	Errors        *CounterVec              // by kind: flood | logged_out | too_long | ambiguous | forum | store | referee
	OutboxPending *GaugeVec                // items waiting to be posted
	OutboxFailed  *CounterVec              // by kind: items given up on (a person must look)
	FlagsRaised   *CounterVec              // new moderator flags
	PostsHeld     *CounterVec              // by source: reads stopped at a post that did not decode cleanly
	ClockSkew     *GaugeVec                // the forum's stamps minus this host's clock, seconds (last measured)
	BeforeStart   *CounterVec              // by source: posts not judged because stamped before the game's start
	WrongThread   *CounterVec              // reads refused: the forum served another thread's page
	LatePosts     *CounterVec              // by source: posts and private messages judged as late
	RequestWait   *prometheus.HistogramVec // by forum host and class: a request's wait for its turn (forum.Scheduler)
	RequestQueue  *prometheus.GaugeVec     // by forum host and class: requests waiting for their turn
}

// NewMetrics builds the metrics and registers them with the Go and process collectors.
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		PostsRead: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_posts_read_total", Help: "New posts and private messages read, by source.",
		}, []string{"game", "source"}),
		MovesJudged: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_moves_judged_total", Help: "Posts judged by the referee, by verdict.",
		}, []string{"game", "verdict"}),
		RepliesPosted: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_replies_posted_total", Help: "Outbox items delivered, by kind (reply, pm) and how (posted, found: already on the forum after a crash).",
		}, []string{"game", "kind", "how"}),
		TimersFired: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_timers_fired_total", Help: "Timed rules fired (daily close, question, deadlines).",
		}, []string{"game"}),
		PollLatency: NewHistogramVec(prometheus.HistogramOpts{
			Name: "forumgm_poll_latency_seconds", Help: "Duration of one forum read (the thread or the inbox).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"game", "source"}),
		Errors: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_errors_total", Help: "Errors by kind (flood, logged_out, too_long, ambiguous: a post whose outcome was unknown, forum, store, referee).",
		}, []string{"game", "kind"}),
		OutboxPending: NewGaugeVec(prometheus.GaugeOpts{
			Name: "forumgm_outbox_pending", Help: "Replies and private messages waiting to be posted.",
		}, []string{"game"}),
		OutboxFailed: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_outbox_failed_total", Help: "Replies and private messages given up on (an unknown recipient, private messages disabled, a full inbox): a person must look.",
		}, []string{"game", "kind"}),
		FlagsRaised: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_flags_raised_total", Help: "Cases handed to the moderators.",
		}, []string{"game"}),
		PostsHeld: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_posts_held_total", Help: "Reads stopped at a post whose text did not decode cleanly (mojibake, U+FFFD): held, not judged, until a read gives its real text.",
		}, []string{"game", "source"}),
		ClockSkew: NewGaugeVec(prometheus.GaugeOpts{
			Name: "forumgm_clock_skew_seconds", Help: "The forum's post stamps minus this host's clock when the post was made (last measured; positive: the forum is ahead).",
		}, []string{"game"}),
		BeforeStart: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_posts_before_start_total", Help: "Posts not judged because they are stamped before the game's start (the thread's history, or a forum clock or zone that is off).",
		}, []string{"game", "source"}),
		WrongThread: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_wrong_thread_reads_total", Help: "Reads of the game's thread refused because the forum served another thread's page (moved or merged threads, a caching front, a wrong redirect): nothing judged, the next poll reads again.",
		}, []string{"game"}),
		LatePosts: NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_late_posts_total", Help: "Posts and private messages judged as late: first seen after later ones were judged (a moderation queue, a lagging replica), or a private message written before a timed rule that had fired.",
		}, []string{"game", "source"}),
		RequestWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "forumgm_request_wait_seconds", Help: "How long a forum request waited for its turn at the host's scheduler, by class (reply, pm, poll, background).",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2, 5, 10, 30, 60, 300},
		}, []string{"host", "class"}),
		RequestQueue: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "forumgm_request_queue", Help: "Forum requests waiting for their turn at the host's scheduler, by class.",
		}, []string{"host", "class"}),
	}
	r.MustRegister(m.RequestWait, m.RequestQueue, m.PostsRead, m.MovesJudged, m.RepliesPosted, m.TimersFired, m.PollLatency, m.Errors,
		m.OutboxPending, m.OutboxFailed, m.FlagsRaised, m.PostsHeld, m.ClockSkew, m.BeforeStart, m.WrongThread, m.LatePosts, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// DefaultMaxFailures is how many polls in a row may fail (the forum unreachable, a login
// refused, the store failing) before /healthz reports unhealthy.
const DefaultMaxFailures = 3

// Health is what /healthz reports: the last cycle, the failed polls in a row, the last error, the
// problems games have (Problem: the posts held, a page of another thread), the games stopped and
// the warnings (Warn: the forum's clock). It is unhealthy (503) when no cycle finished within
// MaxQuiet, when the last MaxFailures polls all failed, while a game has a problem or a failing
// warning, or once a game stopped for good; one cycle that completes (and has none) makes it
// healthy again, unless a game stopped.
type Health struct {
	mu        sync.Mutex
	started   time.Time
	lastCycle time.Time
	failures  int // polls failed in a row since the last finished cycle
	lastErr   string
	lastErrAt time.Time
	problems  map[string]map[string]string  // by kind (problemReasons), by game: what the problem is
	stopped   map[string]string             // by game: why its loop ended for good
	warnings  map[string]map[string]warning // by /healthz field (clock_skew, clock_jump), by game
	progress  map[string]Progress           // by game: a long read under way (Progress)
	owner     string                        // this daemon's name among those sharing a database (SetOwned)
	owned     []string                      // the games it runs now (their leases are its)
	// MaxQuiet is how long without a finished cycle is still healthy.
	MaxQuiet time.Duration
	// MaxFailures is how many failed polls in a row are still healthy minus one: with 3, the
	// third failure in a row makes /healthz fail.
	MaxFailures int
	now         func() time.Time
}

// NewHealth tracks health against a clock.
func NewHealth(now func() time.Time, maxQuiet time.Duration) *Health {
	return &Health{started: now(), now: now, MaxQuiet: maxQuiet, MaxFailures: DefaultMaxFailures}
}

// problemReasons are the kinds of a game's problem /healthz reports (each under its own key, by
// game) while it lasts, with why /healthz is unhealthy then.
var problemReasons = map[string]string{
	"held_posts":   "a post is held: its text did not decode cleanly (held_posts)",
	"wrong_thread": "the forum serves another thread's page for a game's thread (wrong_thread)",
	"timers_held":  "this host's clock jumped forward: a game's timed rules wait for a moderator to accept or close its clock_jump flag (timers_held)",
}

// Problem records game's problem of kind (a key of problemReasons), what saying which and why; ""
// records that the game has none of that kind.
func (h *Health) Problem(kind, game, what string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if what == "" {
		delete(h.problems[kind], game)
		if len(h.problems[kind]) == 0 {
			delete(h.problems, kind)
		}
		return
	}
	if h.problems == nil {
		h.problems = map[string]map[string]string{}
	}
	if h.problems[kind] == nil {
		h.problems[kind] = map[string]string{}
	}
	h.problems[kind][game] = what
}

// Stop records that game's loop ended for good, and why (the process may run other games on).
func (h *Health) Stop(game, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped == nil {
		h.stopped = map[string]string{}
	}
	h.stopped[game] = why
}

// warning is one game's entry under a /healthz field: what it says, and whether /healthz fails
// while it stands.
type warning struct {
	what    string
	failing bool
}

// Warn records what /healthz shows for game under field (clock_skew, clock_jump); "" clears it.
// A failing warning makes /healthz unhealthy until it is cleared.
func (h *Health) Warn(field, game, what string, failing bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if what == "" {
		delete(h.warnings[field], game)
		return
	}
	if h.warnings == nil {
		h.warnings = map[string]map[string]warning{}
	}
	if h.warnings[field] == nil {
		h.warnings[field] = map[string]warning{}
	}
	h.warnings[field][game] = warning{what: what, failing: failing}
}

// Progress is how far a game's long read is (the cold catch-up of a thread with many pages), as
// /healthz shows it.
type Progress struct {
	Done  int    `json:"pages_done"`
	ToGo  int    `json:"pages_to_go"`
	ETA   int64  `json:"eta_seconds"`
	Since string `json:"since"`
}

// SetProgress reports game's long read: done pages, toGo still to read, eta to go; toGo 0 ends it.
func (h *Health) SetProgress(game string, done, toGo int, eta time.Duration, since time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if toGo <= 0 {
		delete(h.progress, game)
		return
	}
	if h.progress == nil {
		h.progress = map[string]Progress{}
	}
	h.progress[game] = Progress{Done: done, ToGo: toGo, ETA: int64(eta.Round(time.Second) / time.Second), Since: fmtT(since)}
}

// SetOwned records, for a daemon sharing its database's games with others (leases), its name and
// the games it runs now: /healthz shows them as owner and owned_games.
func (h *Health) SetOwned(owner string, games []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.owner, h.owned = owner, slices.Clone(games)
}

// Hold records the post game's reads stop at because its text did not decode cleanly, what
// says which and why; "" records that the game holds none.
func (h *Health) Hold(game, what string) { h.Problem("held_posts", game, what) }

// Cycle records a finished cycle (a poll that worked): the failures in a row start again at 0.
func (h *Health) Cycle() {
	h.mu.Lock()
	h.lastCycle = h.now()
	h.failures = 0
	h.mu.Unlock()
}

// Failed records a poll that failed (its error was recorded by Error).
func (h *Health) Failed() {
	h.mu.Lock()
	h.failures++
	h.mu.Unlock()
}

// Error records an error (its text must hold no secret: forum errors never carry passwords).
func (h *Health) Error(err error) {
	h.mu.Lock()
	h.lastErr = err.Error()
	h.lastErrAt = h.now()
	h.mu.Unlock()
}

func (h *Health) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	h.mu.Lock()
	now := h.now()
	ref := h.lastCycle
	if ref.IsZero() {
		ref = h.started
	}
	quiet := now.Sub(ref) > h.MaxQuiet
	failing := h.MaxFailures > 0 && h.failures >= h.MaxFailures
	body := map[string]any{"last_cycle": fmtT(h.lastCycle), "failed_polls_in_row": h.failures,
		"last_error": h.lastErr, "last_error_at": fmtT(h.lastErrAt)}
	kinds := slices.Sorted(maps.Keys(h.problems))
	for _, k := range kinds {
		body[k] = maps.Clone(h.problems[k])
	}
	if len(h.stopped) > 0 {
		body["stopped_games"] = maps.Clone(h.stopped)
	}
	if len(h.progress) > 0 {
		body["progress"] = maps.Clone(h.progress)
	}
	if h.owner != "" {
		body["owner"] = h.owner
		body["owned_games"] = append([]string{}, h.owned...)
	}
	warned := "" // a field whose warning fails /healthz
	for _, field := range slices.Sorted(maps.Keys(h.warnings)) {
		byGame := map[string]string{}
		for game, w := range h.warnings[field] {
			byGame[game] = w.what
			if w.failing && warned == "" {
				warned = field
			}
		}
		if len(byGame) > 0 {
			body[field] = byGame
		}
	}
	ok := !quiet && !failing && len(h.problems) == 0 && len(h.stopped) == 0 && warned == ""
	body["ok"] = ok
	switch {
	case len(h.stopped) > 0:
		body["reason"] = "a game stopped: a person must look (stopped_games)"
	case failing:
		body["reason"] = "the last polls failed"
	case quiet:
		body["reason"] = "no poll finished recently"
	case len(kinds) > 0:
		body["reason"] = problemReasons[kinds[0]]
	case warned == "clock_skew":
		body["reason"] = "the forum's times are off this host's clock: moves may be judged at the wrong time or not at all (clock_skew)"
	case warned != "":
		body["reason"] = "see " + warned
	}
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(body)
}

func fmtT(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// OpsHandler serves /healthz and /metrics, to requests for a loopback Host only (like the web UI:
// a page elsewhere that rebinds its DNS name to 127.0.0.1 cannot read them).
func OpsHandler(m *Metrics, h *Health) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/healthz", h)
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	// The Go runtime's heap and goroutine profiles, for measuring what many games cost
	// (go tool pprof http://127.0.0.1:PORT/debug/pprof/heap).
	mux.Handle("/debug/pprof/heap", pprof.Handler("heap"))
	mux.Handle("/debug/pprof/goroutine", pprof.Handler("goroutine"))
	return loopback.Guard(mux, "forumgm ops: ask for it as http://127.0.0.1:PORT/")
}

// ListenOps starts the ops server on addr (loopback) and returns the listener's address and a
// stop function.
func ListenOps(addr string, m *Metrics, h *Health) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: OpsHandler(m, h), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String(), func() { _ = srv.Close() }, nil
}
