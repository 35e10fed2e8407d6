//go:build unix

package store

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time. The benchmarks report it per op besides ns/op,
// because wall time on a shared machine includes time spent waiting for a CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCommit: one post judged, two events, one reply, the cursor moved (synchronous=FULL,
// so each commit is an fsync of the WAL).
func BenchmarkCommit(b *testing.B) {
	ctx := context.Background()
	s, _ := openTest(b)
	ensureGame(b, s, "g")
	i := 0
	start := cpuTime()
	for b.Loop() {
		i++
		if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(i), "cpu-ns/op")
}

// BenchmarkLoadEvents300: loading a 300-event log, what a daemon does to rebuild a game's state.
func BenchmarkLoadEvents300(b *testing.B) {
	ctx := context.Background()
	s, _ := openTest(b)
	ensureGame(b, s, "g")
	for i := range 150 {
		if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
	n := 0
	start := cpuTime()
	for b.Loop() {
		n++
		recs, err := s.Records(ctx, "g")
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) != 300 {
			b.Fatalf("%d records", len(recs))
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}
