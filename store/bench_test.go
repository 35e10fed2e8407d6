//go:build unix

package store

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"forumgm/forum"
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

// BenchmarkCommitWithPicture: a round report queued with a 200 KB picture (its bytes new each
// time, so each commit stores them), then the pending outbox read back with it, as the poster does.
func BenchmarkCommitWithPicture(b *testing.B) {
	ctx := context.Background()
	s, _ := openTest(b)
	ensureGame(b, s, "g")
	pic := make([]byte, 200<<10)
	i := 0
	start := cpuTime()
	for b.Loop() {
		i++
		pic[0], pic[1], pic[2] = byte(i), byte(i>>8), byte(i>>16)
		c := moveCommit("g", fmt.Sprint(i))
		c.Outbox = []OutboxItem{{Kind: OutboxReply, Body: "report", Attachments: []forum.Attachment{{Name: "round.png", ContentType: "image/png", Data: pic}}}}
		if err := s.Commit(ctx, c); err != nil {
			b.Fatal(err)
		}
		pending, err := s.PendingOutbox(ctx, "g")
		if err != nil || len(pending) != 1 || len(pending[0].Attachments[0].Data) != len(pic) {
			b.Fatalf("%d pending, %v", len(pending), err)
		}
		if err := s.MarkPosted(ctx, pending[0].ID, fmt.Sprint(i), time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(i), "cpu-ns/op")
}
