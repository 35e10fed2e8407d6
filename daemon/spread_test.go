package daemon

import (
	"fmt"
	"testing"
	"time"
)

// TestSpreadCoversTheInterval: the games' rare work (rescans, whole rescans, verifying reads,
// the start of their polls) is spread over the whole interval, not bunched at its start: 500
// games' shares of an interval reach into each of its tenths, stay inside it, and are the same
// for a game every time (a restart does not move them).
func TestSpreadCoversTheInterval(t *testing.T) {
	for _, every := range []time.Duration{time.Second, 5 * time.Second, time.Minute, 3 * time.Minute, time.Hour, 24 * time.Hour} {
		t.Run(every.String(), func(t *testing.T) {
			var tenths [10]int
			for i := 1; i <= 500; i++ {
				key := fmt.Sprintf("g%d", i)
				s := Spread(key, every)
				if s < 0 || s >= every {
					t.Fatalf("Spread(%s, %s) = %s: outside [0, %s)", key, every, s, every)
				}
				if again := Spread(key, every); again != s {
					t.Fatalf("Spread(%s, %s) = %s, then %s", key, every, s, again)
				}
				tenths[int(s*10/every)]++
			}
			for i, n := range tenths {
				// 50 expected in each tenth; a fair hash keeps every tenth well above 20.
				if n < 20 {
					t.Errorf("%d of 500 games in tenth %d of %s (by tenth: %v): the work bunches", n, i+1, every, tenths)
				}
			}
		})
	}
	if s := Spread("g1", 0); s != 0 {
		t.Errorf("Spread over no interval = %s, want 0", s)
	}
}
