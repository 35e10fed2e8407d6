package ops

import (
	"runtime"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// exposition is the text format of what reg gathers.
func exposition(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// HistogramVec exposes exactly what the client's HistogramVec exposes for the same observations
// (name, help, labels, cumulative buckets, sum, count), values on a bound included.
func TestHistogramVecExposesAsTheClients(t *testing.T) {
	opts := prometheus.HistogramOpts{Name: "forumgm_test_seconds", Help: "A test.", Buckets: []float64{.01, .1, 1, 10}}
	type obs struct {
		game, source string
		v            float64
	}
	cases := []struct {
		name string
		obs  []obs
	}{
		{"none", nil},
		{"one series", []obs{{"g1", "thread", 0.05}}},
		{"bounds, below and above every bound", []obs{{"g1", "thread", 0.01}, {"g1", "thread", 1}, {"g1", "thread", 0}, {"g1", "thread", 99}, {"g1", "thread", 10}}},
		{"several series", []obs{{"g1", "thread", 0.3}, {"g2", "thread", 0.2}, {"g1", "pm", 4}, {"g2", "pm", 12}, {"g1", "thread", 0.003}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, theirs := prometheus.NewRegistry(), prometheus.NewRegistry()
			h := NewHistogramVec(opts, []string{"game", "source"})
			ch := prometheus.NewHistogramVec(opts, []string{"game", "source"})
			ours.MustRegister(h)
			theirs.MustRegister(ch)
			for _, o := range c.obs {
				h.WithLabelValues(o.game, o.source).Observe(o.v)
				ch.WithLabelValues(o.game, o.source).Observe(o.v)
			}
			got, want := exposition(t, ours), exposition(t, theirs)
			if got != want {
				t.Fatalf("exposition:\n%s\nwant (the client's):\n%s", got, want)
			}
		})
	}
}

// A series of HistogramVec holds a small part of the client's (a process of thousands of games
// has two series of it a game).
func TestHistogramVecSeriesAreSmall(t *testing.T) {
	opts := prometheus.HistogramOpts{Name: "forumgm_test_seconds", Help: "A test.", Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}
	const n = 2000
	heap := func(observe func(game string)) int64 {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		for i := range n {
			observe("g" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)))
		}
		runtime.GC()
		runtime.ReadMemStats(&b)
		return (int64(b.HeapAlloc) - int64(a.HeapAlloc)) / n
	}
	h := NewHistogramVec(opts, []string{"game", "source"})
	ours := heap(func(g string) { h.WithLabelValues(g, "thread").Observe(0.2) })
	ch := prometheus.NewHistogramVec(opts, []string{"game", "source"})
	theirs := heap(func(g string) { ch.WithLabelValues(g, "thread").Observe(0.2) })
	runtime.KeepAlive(h)
	runtime.KeepAlive(ch)
	t.Logf("a series: %d bytes (the client's: %d)", ours, theirs)
	if ours > 320 || ours*3 > theirs {
		t.Fatalf("a series holds %d bytes, the client's %d: want at most 320 and a third of the client's", ours, theirs)
	}
}

// CounterVec and GaugeVec expose exactly what the client's expose for the same changes; a
// counter refuses to go down, as the client's does.
func TestValueVecsExposeAsTheClients(t *testing.T) {
	type change struct {
		game, kind string
		op         string // inc, add, set, dec, sub
		v          float64
	}
	cases := []struct {
		name    string
		gauge   bool
		changes []change
	}{
		{"counter: none", false, nil},
		{"counter: incs and adds", false, []change{{"g1", "flood", "inc", 0}, {"g1", "flood", "add", 2.5}, {"g2", "store", "inc", 0}, {"g1", "store", "add", 0}}},
		{"gauge: sets, incs and decs", true, []change{{"g1", "reply", "set", 3}, {"g1", "reply", "dec", 0}, {"g2", "pm", "inc", 0}, {"g2", "pm", "sub", 4}, {"g3", "reply", "set", -0.25}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, theirs := prometheus.NewRegistry(), prometheus.NewRegistry()
			var ourG, theirG func(...string) prometheus.Gauge
			var ourC, theirC func(...string) prometheus.Counter
			if c.gauge {
				opts := prometheus.GaugeOpts{Name: "forumgm_test", Help: "A test."}
				g, cg := NewGaugeVec(opts, []string{"game", "kind"}), prometheus.NewGaugeVec(opts, []string{"game", "kind"})
				ours.MustRegister(g)
				theirs.MustRegister(cg)
				ourG, theirG = g.WithLabelValues, cg.WithLabelValues
			} else {
				opts := prometheus.CounterOpts{Name: "forumgm_test_total", Help: "A test."}
				v, cv := NewCounterVec(opts, []string{"game", "kind"}), prometheus.NewCounterVec(opts, []string{"game", "kind"})
				ours.MustRegister(v)
				theirs.MustRegister(cv)
				ourC, theirC = v.WithLabelValues, cv.WithLabelValues
			}
			for _, ch := range c.changes {
				for _, side := range []int{0, 1} {
					if c.gauge {
						g := []func(...string) prometheus.Gauge{ourG, theirG}[side](ch.game, ch.kind)
						switch ch.op {
						case "inc":
							g.Inc()
						case "dec":
							g.Dec()
						case "add":
							g.Add(ch.v)
						case "sub":
							g.Sub(ch.v)
						case "set":
							g.Set(ch.v)
						}
						continue
					}
					cn := []func(...string) prometheus.Counter{ourC, theirC}[side](ch.game, ch.kind)
					if ch.op == "inc" {
						cn.Inc()
					} else {
						cn.Add(ch.v)
					}
				}
			}
			got, want := exposition(t, ours), exposition(t, theirs)
			if got != want {
				t.Fatalf("exposition:\n%s\nwant (the client's):\n%s", got, want)
			}
		})
	}
	v := NewCounterVec(prometheus.CounterOpts{Name: "forumgm_test_total", Help: "A test."}, []string{"game"})
	defer func() {
		if recover() == nil {
			t.Fatal("a counter went down")
		}
	}()
	v.WithLabelValues("g1").Add(-1)
}
