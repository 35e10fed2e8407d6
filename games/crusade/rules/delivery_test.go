package rules

import (
	"encoding/json"
	"testing"
	"time"

	"forumgm/game"
)

// The board reply that shows a move starts the opponent's clock when it is posted later than the
// move: the first deadline and the violations count from the reply's posting time, while the wait
// is the current one and its first deadline has not passed.
func TestDeliveredStartsTheClock(t *testing.T) {
	cases := []struct {
		name      string
		move      time.Time // the crusaders' move (the saracens' wait begins)
		key       string    // the reply's clock key ("": the saracens' wait after the move)
		delivered time.Time // the reply's posting time
		charge    bool      // the timers are fired up to delivered first (a catch-up)
		moved     bool      // a ClockStarted is decided
		deadline  time.Time // the deadline the reply states (zero: none)
		violation time.Time // the first violation charged afterwards
	}{
		{name: "flood delay", move: at(2, 19, 30), delivered: at(2, 19, 31), moved: true,
			deadline: at(2, 20, 31), violation: at(2, 20, 32)},
		{name: "posted the same minute", move: at(2, 19, 30), delivered: at(2, 19, 30),
			deadline: at(2, 20, 30), violation: at(2, 20, 31)},
		{name: "before the evening window: the deadline stays", move: at(2, 14, 0), delivered: at(2, 14, 5),
			deadline: at(2, 20, 0), violation: at(2, 20, 1)},
		{name: "into the evening window", move: at(2, 18, 50), delivered: at(2, 19, 10), moved: true,
			deadline: at(2, 20, 10), violation: at(2, 20, 11)},
		{name: "at the deadline's minute", move: at(2, 19, 30), delivered: at(2, 20, 30), moved: true,
			deadline: at(2, 21, 30), violation: at(2, 21, 31)},
		{name: "after the deadline", move: at(2, 19, 30), delivered: at(2, 20, 31),
			violation: at(2, 20, 31)},
		{name: "after the limit fired in a catch-up", move: at(2, 19, 30), delivered: at(2, 20, 40), charge: true,
			violation: at(2, 20, 31)},
		{name: "a stale reply (an earlier wait)", move: at(2, 19, 30), key: ClockKey(0, Crusaders), delivered: at(2, 19, 31),
			violation: at(2, 20, 31)},
		{name: "late evening: the deadline is the next evening's", move: at(2, 23, 20), delivered: at(2, 23, 30),
			deadline: at(3, 20, 0), violation: at(3, 20, 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, questionGame(t), at(2, 14, 0))
			d.decide(turnIn(Crusaders, tc.move, Turn{Moves: []Move{{Warrior: "р1", Ordinal: 1, To: *cellPtrS("E6")}}}))
			key := tc.key
			if key == "" {
				key = ClockKey(1, Saracens)
			}
			if tc.charge {
				d.advance(tc.delivered)
			}
			dl, ok := d.g.Deadline(key, tc.delivered)
			if ok != !tc.deadline.IsZero() || ok && !dl.Equal(tc.deadline) {
				t.Fatalf("deadline %v %v, want %v", dl, ok, tc.deadline)
			}
			evs := d.g.Delivered(key, tc.delivered)
			if (len(evs) == 1) != tc.moved || len(evs) > 1 {
				t.Fatalf("delivered: %s", jsonOf(evs))
			}
			if tc.moved {
				cs := evs[0].(*ClockStarted)
				if !cs.At.Equal(tc.delivered) || cs.Side != Saracens || cs.Turn != 1 || !cs.Was.Equal(tc.move) {
					t.Fatalf("clock started %s", jsonOf(cs))
				}
			}
			d.apply(evs)
			// Delivered twice changes nothing more.
			if again := d.g.Delivered(key, tc.delivered); len(again) != 0 {
				t.Fatalf("delivered again: %s", jsonOf(again))
			}
			var first *TimeLimitExceeded
			if tc.charge {
				first = firstViolation(d.log)
			} else {
				for _, e := range d.advance(tc.violation.Add(time.Hour)) {
					if tl, ok := e.(*TimeLimitExceeded); ok && first == nil {
						first = tl
					}
				}
			}
			if first == nil || !first.At.Equal(tc.violation) || first.Side != Saracens {
				t.Fatalf("first violation %s, want at %v", jsonOf(first), tc.violation)
			}
			d.replayEqual()
		})
	}
}

func firstViolation(log []game.Record) *TimeLimitExceeded {
	for _, r := range log {
		if r.Kind == KindTimeLimitExceeded {
			var tl TimeLimitExceeded
			if err := json.Unmarshal(r.Data, &tl); err == nil {
				return &tl
			}
		}
	}
	return nil
}

// A ClockStarted of a wait that is no longer the current one (the turn that began it was undone
// and the log folded again without it) changes nothing.
func TestClockStartedOfAnotherWaitIsANoOp(t *testing.T) {
	g := questionGame(t)()
	before := snap(t, g)
	if err := g.Apply(&ClockStarted{At: at(2, 19, 31), Side: Saracens, Turn: 1, Was: at(2, 19, 30)}); err != nil {
		t.Fatal(err)
	}
	if after := snap(t, g); after != before {
		t.Fatalf("state changed:\n%s\n%s", before, after)
	}
	// The game's own start: the crusaders' wait 0.
	if err := g.Apply(&ClockStarted{At: at(2, 14, 2), Side: Crusaders, Turn: 0, Was: at(2, 14, 0)}); err != nil {
		t.Fatal(err)
	}
	if dl, ok := g.Deadline(ClockKey(0, Crusaders), at(2, 14, 2)); !ok || !dl.Equal(at(2, 20, 0)) {
		t.Fatalf("deadline %v %v", dl, ok)
	}
}
