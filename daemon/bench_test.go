package daemon

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkPollJudgePost is one full cycle against the sandbox over loopback HTTP: a player's
// post is read, judged (fake referee), committed, and the reply posted.
func BenchmarkPollJudgePost(b *testing.B) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(b, start, fakeFactory)
	if _, err := r.d.Cycle(r.ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r.clock.Advance(time.Second)
		r.post(b, "Джелу", "ход крестоносца")
		b.StartTimer()
		if _, err := r.d.Cycle(r.ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdleMemory runs idle polls (nothing new in the thread or the inbox) and reports the
// heap in use after them.
func BenchmarkIdleMemory(b *testing.B) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, msk)
	r := newRig(b, start, fakeFactory)
	for i := 0; i < 3; i++ {
		if _, err := r.d.Cycle(r.ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.clock.Advance(time.Second)
		if _, err := r.d.Cycle(r.ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-inuse-MiB")
}
