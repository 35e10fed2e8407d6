package crusade

import (
	"sort"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/rules"
	"forumgm/referee"
)

// The reply to a move starts the opponent's clock: it carries the clock's key and states the
// deadline that follows from its posting time (the poster fills game.DeadlineSlot); once posted
// late (flood control), the referee moves the clock's start to the posting minute.
func TestReplyStatesTheDeadlineFromItsPostingTime(t *testing.T) {
	cases := []struct {
		name     string
		move     time.Time
		posted   time.Time
		want     string    // the reply's last line
		moved    bool      // Deliver moves the clock
		violates time.Time // the saracens' first violation afterwards
	}{
		{"posted the same minute", at(19, 5), at(19, 5).Add(40 * time.Second),
			"Следующий ход: сарацины, срок хода — до 20:05.", false, at(20, 6)},
		{"held by flood control", at(19, 5), at(19, 6).Add(10 * time.Second),
			"Следующий ход: сарацины, срок хода — до 20:06.", true, at(20, 7)},
		{"late evening: the next evening's deadline", at(23, 30), at(23, 31),
			"Следующий ход: сарацины, срок хода — до 2 декабря, 20:00.", false, at(20, 1).AddDate(0, 0, 1)},
		{"held past the evening window's start", at(18, 55), at(19, 10),
			"Следующий ход: сарацины, срок хода — до 20:10.", true, at(20, 11)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRef(t)
			st, err := r.Start(at(18, 0))
			if err != nil {
				t.Fatal(err)
			}
			// The opening post shows the board: it starts the crusaders' clock.
			if m := st.Messages[0]; m.Clock != rules.ClockKey(0, rules.Crusaders) ||
				!strings.Contains(r.Referee.FillDeadline(m.Body, m.Clock, at(18, 0)), "\nХодят крестоносцы, срок хода — до 20:00.\n") {
				t.Fatalf("the opening post's clock %q:\n%s", m.Clock, m.Body)
			}
			out, err := r.Judge(post("Джелу", tc.move, "1-й ход крестоносца к1 на K16"))
			if err != nil || out.Verdict != game.Accepted || len(out.Messages) != 1 {
				t.Fatalf("move: %+v %v", out, err)
			}
			m := out.Messages[0]
			if m.Clock != rules.ClockKey(1, rules.Saracens) || strings.Count(m.Body, game.DeadlineSlot) != 1 {
				t.Fatalf("the reply carries no clock (%q) or slot:\n%s", m.Clock, m.Body)
			}
			body := r.Referee.FillDeadline(m.Body, m.Clock, tc.posted)
			if lines := strings.Split(body, "\n"); lines[len(lines)-1] != tc.want {
				t.Fatalf("reply ends %q, want %q", lines[len(lines)-1], tc.want)
			}
			del, err := r.Referee.Delivered(m.Clock, "fgm-x-1", tc.posted)
			if err != nil {
				t.Fatal(err)
			}
			if moved := len(del.Events) > 0; moved != tc.moved {
				t.Fatalf("deliver: %+v", del.Events)
			}
			if tc.moved {
				if len(del.Events) != 2 || del.Events[0].EventKind() != referee.KindDelivered || del.Events[1].EventKind() != rules.KindClockStarted {
					t.Fatalf("deliver events %v", del.Events)
				}
				if again, _ := r.Referee.Delivered(m.Clock, "fgm-x-1", tc.posted); len(again.Events) != 0 {
					t.Fatalf("delivered twice: %v", again.Events)
				}
				// The deadline said after the move is the one said before it.
				if again := r.Referee.FillDeadline(m.Body, m.Clock, tc.posted); again != body {
					t.Fatalf("the deadline changed after delivery:\n%s\n%s", again, body)
				}
			}
			// The log folded again gives the same clock.
			var recs []game.Record
			for _, evs := range [][]game.Event{out.Events, del.Events} {
				for _, ev := range evs {
					rec, err := game.Encode(ev)
					if err != nil {
						t.Fatal(err)
					}
					recs = append(recs, rec)
				}
			}
			fresh := newRef(t)
			if _, err := fresh.Start(at(18, 0)); err != nil {
				t.Fatal(err)
			}
			if err := fresh.Restore(recs); err != nil {
				t.Fatal(err)
			}
			for _, ref := range []*referee.Referee{r.Referee, fresh.Referee} {
				from := tc.posted
				var fired []game.Event
				for len(fired) == 0 {
					next, ok := ref.NextTimer(from)
					if !ok {
						t.Fatal("no timer")
					}
					o, err := ref.Fire(next)
					if err != nil {
						t.Fatal(err)
					}
					for _, ev := range o.Events {
						if tl, ok := ev.(*rules.TimeLimitExceeded); ok {
							fired = append(fired, ev)
							if !tl.At.Equal(tc.violates) || tl.Side != rules.Saracens {
								t.Fatalf("first violation %+v, want at %v", tl, tc.violates)
							}
						}
					}
					from = next
				}
			}
		})
	}
}

// The post that lays out the armies once both deployments are in starts the crusaders' clock and
// states its deadline (before the evening window: its start + the limit).
func TestArmiesLaidOutStateTheDeadline(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) {
		o.NoPM = true
		o.Setup = rules.Setup{Mode: rules.SetupPrivate, At: at(12, 0)}
	})
	if st, err := c.Start(at(12, 0)); err != nil || st.Messages[0].Clock != "" {
		t.Fatalf("a deployment call starts no clock: %v %+v", err, st.Messages)
	}
	var ws []string
	for w := range rules.DefaultDeployment() {
		ws = append(ws, string(w))
	}
	sort.Strings(ws)
	lines := map[rules.Side][]string{}
	for _, w := range ws {
		id := rules.WarriorID(w)
		lines[id.Side()] = append(lines[id.Side()], w+" "+rules.DefaultDeployment()[id].String())
	}
	mustJudge(t, c, post("snovaya", at(12, 5), "расстановка: "+strings.Join(lines[rules.Saracens], ", ")), game.Accepted)
	out := mustJudge(t, c, post("Джелу", at(12, 10), "расстановка: "+strings.Join(lines[rules.Crusaders], ", ")), game.Accepted)
	var laid *game.Message
	for i, m := range out.Messages {
		if strings.Contains(m.Body, "Армии расставлены") {
			laid = &out.Messages[i]
		}
	}
	if laid == nil || laid.Clock != rules.ClockKey(0, rules.Crusaders) {
		t.Fatalf("the armies' post carries no clock: %+v", out.Messages)
	}
	if got := c.Referee.FillDeadline(laid.Body, laid.Clock, at(12, 10)); !strings.HasSuffix(got, "Ходят крестоносцы, срок хода — до 20:00.") {
		t.Fatalf("the armies' post ends %q", got[max(0, len(got)-120):])
	}
}
