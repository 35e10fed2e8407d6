// Package ops owns what operators watch a running forumgm by: the Prometheus metrics, the health
// report (/healthz) and the ops listener serving both on loopback, and the structured logger.
// The daemon, the fleet and the commands share them.
package ops

import (
	"encoding/json"
	"net"
	"net/http"
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

	PostsRead     *prometheus.CounterVec   // by source: thread | pm
	MovesJudged   *prometheus.CounterVec   // by verdict: accepted | refused | ignored | flagged
	RepliesPosted *prometheus.CounterVec   // by kind: reply | pm; dedup: found by marker
	TimersFired   *prometheus.CounterVec   // timed rules fired
	PollLatency   *prometheus.HistogramVec // by source: one forum read (thread page walk or inbox)
	Errors        *prometheus.CounterVec   // by kind: flood | logged_out | too_long | ambiguous | forum | store | referee
	OutboxPending *prometheus.GaugeVec     // items waiting to be posted
	OutboxFailed  *prometheus.CounterVec   // by kind: items given up on (a person must look)
	FlagsRaised   *prometheus.CounterVec   // new moderator flags
}

// NewMetrics builds the metrics and registers them with the Go and process collectors.
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		PostsRead: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_posts_read_total", Help: "New posts and private messages read, by source.",
		}, []string{"game", "source"}),
		MovesJudged: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_moves_judged_total", Help: "Posts judged by the referee, by verdict.",
		}, []string{"game", "verdict"}),
		RepliesPosted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_replies_posted_total", Help: "Outbox items delivered, by kind (reply, pm) and how (posted, found: already on the forum after a crash).",
		}, []string{"game", "kind", "how"}),
		TimersFired: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_timers_fired_total", Help: "Timed rules fired (daily close, question, deadlines).",
		}, []string{"game"}),
		PollLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "forumgm_poll_latency_seconds", Help: "Duration of one forum read (the thread or the inbox).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"game", "source"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_errors_total", Help: "Errors by kind (flood, logged_out, too_long, ambiguous: a post whose outcome was unknown, forum, store, referee).",
		}, []string{"game", "kind"}),
		OutboxPending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "forumgm_outbox_pending", Help: "Replies and private messages waiting to be posted.",
		}, []string{"game"}),
		OutboxFailed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_outbox_failed_total", Help: "Replies and private messages given up on (an unknown recipient, private messages disabled, a full inbox): a person must look.",
		}, []string{"game", "kind"}),
		FlagsRaised: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "forumgm_flags_raised_total", Help: "Cases handed to the moderators.",
		}, []string{"game"}),
	}
	r.MustRegister(m.PostsRead, m.MovesJudged, m.RepliesPosted, m.TimersFired, m.PollLatency, m.Errors,
		m.OutboxPending, m.OutboxFailed, m.FlagsRaised, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// DefaultMaxFailures is how many polls in a row may fail (the forum unreachable, a login
// refused, the store failing) before /healthz reports unhealthy.
const DefaultMaxFailures = 3

// Health is what /healthz reports: the last cycle, the failed polls in a row and the last error.
// It is unhealthy (503) when no cycle finished within MaxQuiet, or when the last MaxFailures polls
// all failed; one cycle that completes makes it healthy again.
type Health struct {
	mu        sync.Mutex
	started   time.Time
	lastCycle time.Time
	failures  int // polls failed in a row since the last finished cycle
	lastErr   string
	lastErrAt time.Time
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
	ok := !quiet && !failing
	body := map[string]any{"ok": ok, "last_cycle": fmtT(h.lastCycle), "failed_polls_in_row": h.failures,
		"last_error": h.lastErr, "last_error_at": fmtT(h.lastErrAt)}
	switch {
	case failing:
		body["reason"] = "the last polls failed"
	case quiet:
		body["reason"] = "no poll finished recently"
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
