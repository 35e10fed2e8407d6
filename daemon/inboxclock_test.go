package daemon

import (
	"strings"
	"testing"
	"time"
)

// While the game may still receive a private message (football points, any open private window:
// its PrivateExpecter), the forum is polled on the clock at the poll interval however quiet the
// thread is, and MyBB's signal for an unread message (the header's counter, forum.PMWatcher) is
// looked at at least every PMLookEvery: a message sent after a long quiet spell is answered within
// PMLookEvery and a poll interval, not when the idle back-off ends or someone posts in the thread,
// and the inbox is not read in full on every poll meanwhile. A game expecting none backs off.
func TestInboxPolledOnTheClock(t *testing.T) {
	r, c, expects := idleRig(t)
	floor := time.Second // the rig's poll floor; its ceiling is a minute
	busy := false
	quiet := func(n int) time.Duration {
		var wait time.Duration
		for range n {
			wait = r.d.intervalFrom(busy, time.Time{})
			r.clock.Advance(wait)
			var err error
			if busy, err = r.d.Cycle(r.ctx); err != nil {
				t.Fatal(err)
			}
		}
		return r.d.intervalFrom(busy, time.Time{})
	}
	if wait := quiet(12); wait <= floor {
		t.Fatalf("no private message expected: the wait after 12 quiet polls is %s, want the idle back-off", wait)
	}
	expects.Store(true)
	quiet(1)
	c.reset()
	if wait := quiet(12); wait > floor {
		t.Fatalf("a private message expected: the wait after 12 quiet polls is %s, want the poll floor %s", wait, floor)
	}
	inbox := 0
	for _, q := range c.seen() {
		if strings.Contains(q, "private.php") {
			inbox++
		}
	}
	if inbox != 0 {
		t.Fatalf("a private message expected, none came: %d inbox reads in 12 polls, want none (the header's counter tells): %q", inbox, c.seen())
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
		if late := r.clock.Now().Sub(sent); late > PMLookEvery+5*floor {
			t.Fatalf("the private message is still unanswered %s after it was sent", late)
		}
		quiet(1)
	}
	if late := r.clock.Now().Sub(sent); late > PMLookEvery+2*floor {
		t.Errorf("the private message was answered %s after it was sent, want within %s and a poll interval (%s)", late, PMLookEvery, floor)
	}
}
