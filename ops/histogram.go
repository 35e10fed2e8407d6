package ops

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// HistogramVec is a histogram by labels, as prometheus.HistogramVec exposes it (the same name,
// help, labels, buckets, sum and count), that keeps each series in a few words: its label values,
// a count per bucket and the sum. The client's histogram keeps about a kilobyte per series (two
// bucket arrays, exemplars, label pairs), which a process of thousands of games pays for each
// game's series of a metric labelled by game (issue 23: memory).
type HistogramVec struct {
	desc    *prometheus.Desc
	buckets []float64 // upper bounds, ascending
	labels  int

	mu     sync.RWMutex
	series map[string]*histSeries // by label values joined by \xff
}

type histSeries struct {
	vec    *HistogramVec
	values []string
	mu     sync.Mutex
	counts []uint64 // observations in each bucket (not cumulative); the last: above every bound
	sum    float64
}

// NewHistogramVec is a HistogramVec of opts (Name, Help, Buckets; none of the other options) with
// the labels.
func NewHistogramVec(opts prometheus.HistogramOpts, labels []string) *HistogramVec {
	b := append([]float64(nil), opts.Buckets...)
	if len(b) == 0 {
		b = prometheus.DefBuckets
	}
	sort.Float64s(b)
	return &HistogramVec{desc: prometheus.NewDesc(opts.Name, opts.Help, labels, nil), buckets: b, labels: len(labels),
		series: map[string]*histSeries{}}
}

// WithLabelValues is the series of the label values (made on first use); it panics on a wrong
// number of values, as the client's does.
func (h *HistogramVec) WithLabelValues(values ...string) prometheus.Observer {
	return seriesOf(&h.mu, h.series, h.labels, values, func(values []string) *histSeries {
		return &histSeries{vec: h, values: values, counts: make([]uint64, len(h.buckets)+1)}
	})
}

// Describe is prometheus.Collector's.
func (h *HistogramVec) Describe(ch chan<- *prometheus.Desc) { ch <- h.desc }

// Collect is prometheus.Collector's: each series as a constant histogram of cumulative buckets.
func (h *HistogramVec) Collect(ch chan<- prometheus.Metric) {
	h.mu.RLock()
	all := slices.Collect(maps.Values(h.series))
	h.mu.RUnlock()
	for _, s := range all {
		s.mu.Lock()
		cum := make(map[float64]uint64, len(h.buckets))
		var n uint64
		for i, b := range h.buckets {
			n += s.counts[i]
			cum[b] = n
		}
		n += s.counts[len(h.buckets)]
		sum := s.sum
		s.mu.Unlock()
		ch <- prometheus.MustNewConstHistogram(h.desc, n, sum, cum, s.values...)
	}
}

// Observe counts v in the first bucket whose upper bound is at least v.
func (s *histSeries) Observe(v float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[sort.SearchFloat64s(s.vec.buckets, v)]++
	s.sum += v
}

// seriesOf is the series of the label values in m, made by mk (with copies of the values: a label
// value may be a part of a longer string) on first use under mu; it panics on a wrong number of
// values, as the client's vectors do.
func seriesOf[T any](mu *sync.RWMutex, m map[string]*T, labels int, values []string, mk func(values []string) *T) *T {
	if len(values) != labels {
		panic(fmt.Sprintf("ops: %d label values for a metric of %d labels", len(values), labels))
	}
	key := strings.Join(values, "\xff")
	mu.RLock()
	s := m[key]
	mu.RUnlock()
	if s != nil {
		return s
	}
	mu.Lock()
	defer mu.Unlock()
	if s = m[key]; s == nil {
		own := make([]string, len(values))
		for i, v := range values {
			own[i] = strings.Clone(v)
		}
		s = mk(own)
		m[strings.Clone(key)] = s
	}
	return s
}
