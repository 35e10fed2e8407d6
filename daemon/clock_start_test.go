package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	cr "forumgm/games/crusade/rules"

	"forumgm/game"
	"forumgm/referee"
)

// A move's reply held up by the board's flood control starts the opponent's clock when it is
// posted: it states the deadline that follows from its posting minute, the move is in time until
// then, and the time-limit violation comes a limit after the reply, not after the move.
func TestLateReplyStartsTheClock(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 4, 30, 0, msk) // a Tuesday evening
	r := newRigWith(t, start, crusadeFactory(t, start), rigOptions{floodSeconds: 60})
	r.cycle(t) // the opening post at 19:04:30: the bot's flood clock starts
	before := len(r.botTexts(t))
	r.clock.Set(time.Date(2026, 12, 1, 19, 5, 0, 0, msk))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(10 * time.Second)
	r.cycle(t) // judged at 19:05:10; the reply waits for the flood control
	if n := len(r.botTexts(t)); n != before {
		t.Fatalf("the reply must wait for the flood control: %d bot posts", n)
	}
	r.clock.Set(time.Date(2026, 12, 1, 19, 6, 5, 0, msk))
	r.cycle(t) // posted at 19:06:05
	texts := r.botTexts(t)
	reply := texts[len(texts)-1]
	if !strings.Contains(reply, "Ход принят") || !strings.Contains(reply, "Следующий ход: сарацины, срок хода — до 20:06.") {
		t.Fatalf("the reply does not state the deadline from its posting time:\n%s", reply)
	}
	if strings.Contains(reply, game.DeadlineSlot) {
		t.Fatalf("the slot went out:\n%s", reply)
	}
	evs, err := r.st.Events(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
	}
	got := strings.Join(kinds, " ")
	if !strings.HasSuffix(got, cr.KindTurnPlayed+" "+referee.KindDelivered+" "+cr.KindClockStarted) {
		t.Fatalf("events: %s", got)
	}
	last := evs[len(evs)-1]
	if !last.At.Equal(time.Date(2026, 12, 1, 19, 6, 0, 0, msk)) || !strings.HasPrefix(last.Cause, "outbox:fgm-g1-") {
		t.Fatalf("clock_started at %v cause %q", last.At, last.Cause)
	}
	// 20:06:30: the move's own limit (19:05 + 1 h) has passed, the reply's has not.
	r.clock.Set(time.Date(2026, 12, 1, 20, 6, 30, 0, msk))
	r.cycle(t)
	for _, b := range r.botTexts(t)[len(texts):] {
		if strings.Contains(b, "думают над ходом") {
			t.Fatalf("charged a limit counted from the move:\n%s", b)
		}
	}
	r.clock.Set(time.Date(2026, 12, 1, 20, 7, 30, 0, msk))
	r.cycle(t)
	var charged bool
	for _, b := range r.botTexts(t)[len(texts):] {
		charged = charged || strings.Contains(b, "Сарацины думают над ходом")
	}
	if !charged {
		t.Fatalf("no violation a limit after the reply: %q", r.botTexts(t)[len(texts):])
	}
	// The state rebuilt from the log is the daemon's.
	r.d.invalidate()
	ref, _, err := r.d.referee(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	// (The game's own next timer: the referee's reminder of that limit comes 15 minutes before.)
	if at, ok := ref.Rules().NextTimer(time.Date(2026, 12, 1, 20, 7, 0, 0, msk)); !ok || !at.Equal(time.Date(2026, 12, 1, 21, 7, 0, 0, msk)) {
		t.Fatalf("rebuilt next timer %v %v, want the second violation at 21:07", at, ok)
	}
}

// A reply posted the minute of the move changes nothing in the log and states the deadline from
// the move.
func TestPromptReplyMovesNothing(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t)
	r.clock.Set(time.Date(2026, 12, 1, 19, 5, 0, 0, msk))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(30 * time.Second)
	r.cycle(t)
	texts := r.botTexts(t)
	if !strings.Contains(texts[len(texts)-1], "Следующий ход: сарацины, срок хода — до 20:05.") {
		t.Fatalf("reply:\n%s", texts[len(texts)-1])
	}
	evs, _ := r.st.Events(context.Background(), "g1")
	for _, e := range evs {
		if e.Kind == referee.KindDelivered || e.Kind == cr.KindClockStarted {
			t.Fatalf("a prompt reply logged %s", e.Kind)
		}
	}
}

// A crash after the reply reached the forum and before it was marked posted: the poster finds it
// by its marker and reports the forum's time of the post (not the restart's) to the game.
func TestFoundReplyTakesTheForumTime(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRigWith(t, start, crusadeFactory(t, start), rigOptions{noMerge: true})
	r.cycle(t)
	r.clock.Set(time.Date(2026, 12, 1, 19, 5, 0, 0, msk))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	crashed := &struct{}{}
	r.d.o.Hook = func(step string) {
		if step == "sent" {
			panic(crashed)
		}
	}
	func() {
		defer func() {
			if p := recover(); p != crashed {
				t.Fatalf("want the simulated crash, got %v", p)
			}
		}()
		r.clock.Set(time.Date(2026, 12, 1, 19, 6, 20, 0, msk))
		_, _ = r.d.Cycle(r.ctx)
	}()
	r.clock.Set(time.Date(2026, 12, 1, 19, 30, 0, 0, msk))
	r.d = r.newDaemon(t, crusadeFactory(t, start))
	r.cycle(t)
	if !strings.Contains(r.logText(), "already on the forum") {
		t.Fatalf("the poster should have found the marker:\n%s", r.logText())
	}
	texts := r.botTexts(t)
	if !strings.Contains(texts[len(texts)-1], "срок хода — до 20:06.") {
		t.Fatalf("reply:\n%s", texts[len(texts)-1])
	}
	evs, _ := r.st.Events(context.Background(), "g1")
	last := evs[len(evs)-1]
	if last.Kind != cr.KindClockStarted || !last.At.Equal(time.Date(2026, 12, 1, 19, 6, 0, 0, msk)) {
		t.Fatalf("last event %s at %v, want %s at 19:06", last.Kind, last.At, cr.KindClockStarted)
	}
}
