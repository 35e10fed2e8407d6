package daemon

import (
	"testing"
	"time"
)

// While the game may still receive a private message (football points, any open private window:
// its PrivateExpecter), the inbox is polled on the clock at the poll interval however quiet the
// thread is: a message sent after a long quiet spell is answered within one poll interval, not
// when the idle back-off ends or someone posts in the thread. A game expecting none backs off.
func TestInboxPolledOnTheClock(t *testing.T) {
	r, _, expects := idleRig(t)
	floor := time.Second // the rig's poll floor; its ceiling is a minute
	busy := false
	quiet := func(n int) time.Duration {
		var wait time.Duration
		for range n {
			wait = r.d.interval(busy)
			r.clock.Advance(wait)
			var err error
			if busy, err = r.d.Cycle(r.ctx); err != nil {
				t.Fatal(err)
			}
		}
		return r.d.interval(busy)
	}
	if wait := quiet(12); wait <= floor {
		t.Fatalf("no private message expected: the wait after 12 quiet polls is %s, want the idle back-off", wait)
	}
	expects.Store(true)
	if wait := quiet(12); wait > floor {
		t.Fatalf("a private message expected: the wait after 12 quiet polls is %s, want the poll floor %s", wait, floor)
	}
	if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "очки", "добавляю 2 очка"); err != nil {
		t.Fatal(err)
	}
	sent := r.clock.Now()
	for {
		ids, _ := botPMs(t, r, "snovaya")
		if len(ids) > 0 {
			break
		}
		if late := r.clock.Now().Sub(sent); late > 5*floor {
			t.Fatalf("the private message is still unanswered %s after it was sent", late)
		}
		quiet(1)
	}
	if late := r.clock.Now().Sub(sent); late > 2*floor {
		t.Errorf("the private message was answered %s after it was sent, want within a poll interval (%s)", late, floor)
	}
}
