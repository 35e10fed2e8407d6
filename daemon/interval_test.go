package daemon

import (
	"testing"
	"time"
)

// The poll interval counts from a cycle's start: a cycle that waited for the forum (a reply's
// requests at 1 request/s) does not push the next look back by as long, yet at least half the
// interval passes after its end.
func TestIntervalCountsFromTheCyclesStart(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	d := r.newDaemon(t, fakeFactory, func(o *Options) { o.Poll = PollPolicy{Floor: 5 * time.Second, Ceiling: 5 * time.Second, Loc: msk} })
	for _, c := range []struct{ took, want time.Duration }{
		{0, 5 * time.Second},
		{1200 * time.Millisecond, 3800 * time.Millisecond},
		{2500 * time.Millisecond, 2500 * time.Millisecond},
		{4 * time.Second, 2500 * time.Millisecond},
		{time.Minute, 2500 * time.Millisecond},
	} {
		began := r.clock.Now()
		r.clock.Advance(c.took)
		if got := d.intervalFrom(true, began); got != c.want {
			t.Errorf("a cycle of %s: the next in %s, want %s", c.took, got, c.want)
		}
	}
}
