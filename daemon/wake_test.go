package daemon

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"forumgm/internal/testkit"
)

// Wake cuts the loop's wait short: the next cycle runs at once, not when the poll interval ends.
func TestWakeCutsTheWaitShort(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	clock := testkit.NewStillClock(start) // time stands still: only a wake ends a wait
	cycles := make(chan struct{}, 10)
	d := r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Clock = clock
		o.Poll.Floor, o.Poll.Ceiling = time.Hour, time.Hour
		o.Hook = func(step string) {
			if step == "cycle" {
				cycles <- struct{}{}
			}
		}
	})
	ctx, cancel := context.WithCancel(r.ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	wait := func(what string) {
		t.Helper()
		select {
		case <-cycles:
		case <-time.After(10 * time.Second):
			t.Fatalf("no cycle %s", what)
		}
	}
	wait("at start")
	select {
	case <-cycles:
		t.Fatal("a second cycle before the hour passed or a wake")
	case <-time.After(200 * time.Millisecond):
	}
	d.Wake()
	wait("after Wake")
}

// On the real clock an idle game holds no goroutine between cycles (a timer starts the next
// cycle: Start); a Wake still cuts the wait short, and the end of the context ends every loop at
// once. Many games started together: after their first cycle the process has fewer goroutines
// more than before than there are games (a parked goroutine each would be one a game).
func TestIdleGamesHoldNoGoroutineOnTheRealClock(t *testing.T) {
	const games = 40
	r := newRig(t, time.Now(), fakeFactory)
	var mu sync.Mutex
	cycles := map[string]int{}
	cycled := make(chan struct{}, 10*games)
	var ds []*Daemon
	for i := range games {
		game := fmt.Sprintf("idle%d", i)
		ds = append(ds, r.newDaemon(t, fakeFactory, func(o *Options) {
			o.Game, o.Clock = game, RealClock{}
			o.Poll.Floor, o.Poll.Ceiling = time.Hour, time.Hour
			o.Hook = func(step string) {
				if step == "cycle" {
					mu.Lock()
					cycles[game]++
					mu.Unlock()
					cycled <- struct{}{}
				}
			}
		}))
	}
	waitCycles := func(n int, what string) {
		t.Helper()
		for range n {
			select {
			case <-cycled:
			case <-time.After(30 * time.Second):
				t.Fatalf("cycles %s: %v", what, cycles)
			}
		}
	}
	runtime.GC()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	ended := make(chan error, games)
	for _, d := range ds {
		d.Start(ctx, func(err error) { ended <- err })
	}
	waitCycles(games, "at start")
	time.Sleep(100 * time.Millisecond) // the cycles' goroutines end
	if n := runtime.NumGoroutine(); n-before >= games/2 {
		t.Fatalf("%d goroutines with %d idle games started, %d before: a goroutine waits for each game", n, games, before)
	}
	select {
	case <-cycled:
		t.Fatalf("a second cycle before the hour passed or a wake: %v", cycles)
	case <-time.After(200 * time.Millisecond):
	}
	ds[3].Wake()
	waitCycles(1, "after Wake")
	mu.Lock()
	if cycles["idle3"] != 2 {
		t.Fatalf("after waking game idle3: cycles %v", cycles)
	}
	mu.Unlock()
	cancel()
	for range games {
		select {
		case err := <-ended:
			if err != nil {
				t.Fatalf("a loop ended with %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the loops did not end when their context ended")
		}
	}
}
