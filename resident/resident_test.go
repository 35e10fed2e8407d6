package resident

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The daemon collects garbage at DefaultGCPercent unless the environment's GOGC says otherwise,
// and samples the heap for profiles only when GODEBUG asks.
func TestTune(t *testing.T) {
	old, oldRate := debug.SetGCPercent(100), runtime.MemProfileRate
	defer func() { debug.SetGCPercent(old); runtime.MemProfileRate = oldRate }()
	runtime.MemProfileRate = 4096
	Tune(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != DefaultGCPercent {
		t.Errorf("GOGC unset: the collector's target is %d, want %d", got, DefaultGCPercent)
	}
	if runtime.MemProfileRate != 0 {
		t.Errorf("GODEBUG unset: the heap is sampled every %d bytes, want not at all", runtime.MemProfileRate)
	}
	runtime.MemProfileRate = 4096
	Tune(func(k string) string {
		return map[string]string{"GOGC": "100", "GODEBUG": "madvdontneed=1,memprofilerate=4096"}[k]
	})
	if runtime.MemProfileRate != 4096 {
		t.Errorf("GODEBUG=memprofilerate=4096: the rate was changed to %d", runtime.MemProfileRate)
	}
	Tune(func(k string) string { return map[string]string{"GOGC": "80", "MALLOC_ARENA_MAX": "4"}[k] }) // the runtime read GOGC itself; it is left alone
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the collector's target was changed to %d", got)
	}
}

// GiveBack gives back on its schedule, hearing each round, and ends with the daemon's context
// (no goroutine left behind by a stopped run).
func TestGiveBack(t *testing.T) {
	old := giveBack
	giveBack = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}
	defer func() { giveBack = old }()
	ctx, cancel := context.WithCancel(context.Background())
	rounds := make(chan error, 8)
	done := make(chan struct{})
	go func() {
		GiveBack(ctx, func(_ int64, err error) {
			select {
			case rounds <- err:
			default:
			}
		})
		close(done)
	}()
	for i := range 2 {
		select {
		case err := <-rounds:
			if err != nil {
				t.Errorf("round %d: %v", i+1, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d of the give-back did not come", i+1)
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("GiveBack still runs after its context ended")
	}
}
