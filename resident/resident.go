// Package resident owns the memory a running daemon keeps resident beyond its live data: the
// collector's target, the heap and stacks the start took, and the pages of its own executable
// that it no longer touches.
package resident

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// DefaultGCPercent is the daemon's garbage collector target unless GOGC says otherwise: a heap of
// many idle games is small and grows slowly, so collecting when it grew by a quarter (not Go's
// doubling) keeps about 10 MB less resident for 500 games at no CPU cost that shows (measured:
// docs/operations.md). Unlike a memory limit (GOMEMLIMIT) it scales with the heap, so the
// collector never runs back to back.
const DefaultGCPercent = 25

// Tune sets the memory policy of a daemon process from its environment (getenv): the collector's
// target is DefaultGCPercent unless GOGC sets one; the heap is not sampled for profiles unless
// GODEBUG names a memprofilerate (the runtime's samples keep a table of stacks, 1.5 MB resident
// with 500 games: GODEBUG=memprofilerate=524288 brings Go's default back for /debug/pprof/heap);
// and the C allocator keeps two arenas unless MALLOC_ARENA_MAX says otherwise. Call it first thing.
func Tune(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(DefaultGCPercent)
	}
	if !strings.Contains(getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
	if getenv("MALLOC_ARENA_MAX") == "" {
		mallocArenas()
	}
}

// giveBack is when, after the games started, the memory the start took (every game's first read
// and set-up at once, the executable's start-up code) is given back: a minute after the start,
// again two minutes later (each collection halves the parked stacks the first cycles grew), and
// then every ten minutes.
var giveBack = []time.Duration{time.Minute, 2 * time.Minute}

const giveBackEvery = 10 * time.Minute

// trimEvery is how many give-backs apart the executable is trimmed after the first ones (hourly):
// once marked for random access its pages come back one by one, as they are used, so what grows
// after the start's trims is code really run; each trim makes the working set fault in again.
const trimEvery = 6

// GiveBack returns what the daemon no longer uses to the system until ctx ends: the free heap (a
// collection that also shrinks the games' parked stacks), the C allocator's free memory, and the
// executable's pages it does not touch (TrimExecutable). The runtime's own scavenger returns the
// heap too, but slowly (measured: 5,000 games kept 55 MB of idle heap and 50 MB of stacks two
// minutes after the start), and the kernel keeps every page of the executable it ever mapped. One
// full collection of the idle heap every ten minutes costs well under 0.1% of a core. The
// executable is trimmed at the first give-backs and then hourly; trimmed, when not nil, hears
// what each trim went over (or why it could not).
func GiveBack(ctx context.Context, trimmed func(bytes int64, err error)) {
	for i := 0; ; i++ {
		wait := giveBackEvery
		if i < len(giveBack) {
			wait = giveBack[i]
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		debug.FreeOSMemory()
		mallocTrim()
		if i < len(giveBack) || i%trimEvery == 0 {
			n, err := TrimExecutable()
			if trimmed != nil {
				trimmed(n, err)
			}
		}
	}
}
