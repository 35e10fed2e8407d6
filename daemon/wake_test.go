package daemon

import (
	"context"
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
