package ops

import (
	"maps"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// CounterVec and GaugeVec are counters and gauges by labels, exposed as the client's
// prometheus.CounterVec and GaugeVec expose them (name, help, labels, value), that keep each
// series in a few words: its label values and its value. The client's keep about 350 bytes a
// series (label pairs, a self-collector, a created time), which a process of thousands of games
// pays for each game's series of every metric labelled by game (issue 23: memory).
type (
	CounterVec struct{ v valueVec }
	GaugeVec   struct{ v valueVec }
)

// NewCounterVec is a CounterVec of opts (Name and Help; none of the other options) with the
// labels.
func NewCounterVec(opts prometheus.CounterOpts, labels []string) *CounterVec {
	return &CounterVec{newValueVec(opts.Name, opts.Help, labels, prometheus.CounterValue)}
}

// NewGaugeVec is a GaugeVec of opts (Name and Help; none of the other options) with the labels.
func NewGaugeVec(opts prometheus.GaugeOpts, labels []string) *GaugeVec {
	return &GaugeVec{newValueVec(opts.Name, opts.Help, labels, prometheus.GaugeValue)}
}

// WithLabelValues is the counter of the label values (made on first use); it panics on a wrong
// number of values, as the client's does.
func (c *CounterVec) WithLabelValues(values ...string) prometheus.Counter { return c.v.get(values) }

// WithLabelValues is the gauge of the label values (made on first use); it panics on a wrong
// number of values, as the client's does.
func (g *GaugeVec) WithLabelValues(values ...string) prometheus.Gauge { return g.v.get(values) }

// Describe is prometheus.Collector's.
func (c *CounterVec) Describe(ch chan<- *prometheus.Desc) { ch <- c.v.desc }

// Collect is prometheus.Collector's.
func (c *CounterVec) Collect(ch chan<- prometheus.Metric) { c.v.collect(ch) }

// Describe is prometheus.Collector's.
func (g *GaugeVec) Describe(ch chan<- *prometheus.Desc) { ch <- g.v.desc }

// Collect is prometheus.Collector's.
func (g *GaugeVec) Collect(ch chan<- prometheus.Metric) { g.v.collect(ch) }

// valueVec is the series of a counter or gauge vector.
type valueVec struct {
	desc   *prometheus.Desc
	kind   prometheus.ValueType
	labels int

	mu     sync.RWMutex
	series map[string]*valueSeries // by label values joined by \xff
}

func newValueVec(name, help string, labels []string, kind prometheus.ValueType) valueVec {
	return valueVec{desc: prometheus.NewDesc(name, help, labels, nil), kind: kind, labels: len(labels),
		series: map[string]*valueSeries{}}
}

func (v *valueVec) get(values []string) *valueSeries {
	return seriesOf(&v.mu, v.series, v.labels, values, func(values []string) *valueSeries {
		return &valueSeries{vec: v, values: values}
	})
}

func (v *valueVec) collect(ch chan<- prometheus.Metric) {
	v.mu.RLock()
	all := slices.Collect(maps.Values(v.series))
	v.mu.RUnlock()
	for _, s := range all {
		ch <- s.metric()
	}
}

// valueSeries is one counter or gauge: prometheus.Counter and prometheus.Gauge both.
type valueSeries struct {
	vec    *valueVec
	values []string
	bits   atomic.Uint64 // the value's float64 bits
}

func (s *valueSeries) metric() prometheus.Metric {
	return prometheus.MustNewConstMetric(s.vec.desc, s.vec.kind, math.Float64frombits(s.bits.Load()), s.values...)
}

// Add adds d (a counter panics on a negative d, as the client's does).
func (s *valueSeries) Add(d float64) {
	if d < 0 && s.vec.kind == prometheus.CounterValue {
		panic("counter cannot decrease in value")
	}
	for {
		old := s.bits.Load()
		if s.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

// Inc adds 1.
func (s *valueSeries) Inc() { s.Add(1) }

// Dec subtracts 1 (gauges).
func (s *valueSeries) Dec() { s.Add(-1) }

// Sub subtracts d (gauges).
func (s *valueSeries) Sub(d float64) { s.Add(-d) }

// Set sets the value (gauges).
func (s *valueSeries) Set(v float64) { s.bits.Store(math.Float64bits(v)) }

// SetToCurrentTime sets the value to the Unix time in seconds (gauges).
func (s *valueSeries) SetToCurrentTime() {
	s.Set(float64(time.Now().UnixNano()) / 1e9)
}

// Desc is prometheus.Metric's.
func (s *valueSeries) Desc() *prometheus.Desc { return s.vec.desc }

// Write is prometheus.Metric's.
func (s *valueSeries) Write(m *dto.Metric) error { return s.metric().Write(m) }

// Describe is prometheus.Collector's.
func (s *valueSeries) Describe(ch chan<- *prometheus.Desc) { ch <- s.vec.desc }

// Collect is prometheus.Collector's.
func (s *valueSeries) Collect(ch chan<- prometheus.Metric) { ch <- s.metric() }
