package rules

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"forumgm/game"
)

var msk = func() *time.Location {
	l, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		return time.FixedZone("MSK", 3*3600)
	}
	return l
}()

// day is the test game's day; the first turn opens at 20:00 Moscow time.
var day = time.Date(2026, 12, 1, 0, 0, 0, 0, msk)

// hm is a time on the test day: "20:03" or "20:03:30".
func hm(t testing.TB, s string) time.Time {
	t.Helper()
	var h, m, sec int
	n, _ := fmt.Sscanf(s, "%d:%d:%d", &h, &m, &sec)
	if n < 2 {
		t.Fatalf("bad time %q", s)
	}
	return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second)
}

var testBank = []Question{
	{Text: "Сколько игроков одной команды на поле?", Answers: []string{"11", "одиннадцать"}},
	{Text: "Кто выиграл чемпионат мира 2018 года?", Answers: []string{"Франция", "сборная Франции"}},
	{Text: "Сколько минут длится тайм?", Answers: []string{"45", "сорок пять"}},
}

func testSettings() Settings {
	s := DefaultSettings()
	s.Location = msk
	s.FirstTurn = day.Add(20 * time.Hour)
	s.Questions = testBank
	return s
}

// testTeams are n teams "Команда i" with captain "Кэп i" and member "Игрок i".
func testTeams(n int) []Team {
	out := make([]Team, n)
	for i := range out {
		out[i] = Team{Name: fmt.Sprintf("Команда %d", i+1), Captain: fmt.Sprintf("Кэп %d", i+1),
			Members: []string{fmt.Sprintf("Игрок %d", i+1)}}
	}
	return out
}

// harness is a game with its Rand, driven like the referee drives it.
type harness struct {
	t   testing.TB
	g   *Game
	rnd *game.Rand
	log []game.Event
	now time.Time
}

func newHarness(t testing.TB, s Settings, teams []Team) *harness {
	t.Helper()
	return newHarnessOn(t, s, DefaultBoard(), teams)
}

func newHarnessOn(t testing.TB, s Settings, b *Board, teams []Team) *harness {
	t.Helper()
	g, err := New(s, b, teams)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, g: g, rnd: game.NewRand("test-seed", 0, game.Mix{}), now: day.Add(19 * time.Hour)}
	ev, err := g.Begin(h.now, h.rnd)
	if err != nil {
		t.Fatal(err)
	}
	h.apply(ev)
	return h
}

func (h *harness) apply(evs ...game.Event) {
	h.t.Helper()
	for _, ev := range evs {
		if err := h.g.Apply(ev); err != nil {
			h.t.Fatalf("apply %s: %v", ev.EventKind(), err)
		}
		h.log = append(h.log, ev)
	}
}

// until fires every timer due up to and including `to`, in order, and returns the events.
func (h *harness) until(to time.Time) []game.Event {
	h.t.Helper()
	var out []game.Event
	for {
		at, ok := h.g.NextTimer(h.now)
		if !ok || at.After(to) {
			break
		}
		evs, err := h.g.Tick(at, h.rnd)
		if err != nil {
			h.t.Fatalf("tick %s: %v", at, err)
		}
		if h.rnd.Pending() != 0 {
			h.t.Fatalf("tick %s left %d draws unrecorded", at, h.rnd.Pending())
		}
		h.apply(evs...)
		out = append(out, evs...)
		h.now = at
	}
	if to.After(h.now) {
		h.now = to
	}
	return out
}

// decide judges an input at `at` (firing the timers due first); on acceptance it applies the
// events. A refusal must leave the state unchanged.
func (h *harness) decide(at time.Time, author string, private bool, body any) ([]game.Event, error) {
	h.t.Helper()
	h.until(at)
	before := h.snap()
	evs, err := h.g.Decide(game.Act{At: at, Author: author, Private: private, Body: body, Rand: h.rnd})
	if h.rnd.Pending() != 0 {
		h.t.Fatalf("decide left %d draws unrecorded", h.rnd.Pending())
	}
	if err != nil {
		if after := h.snap(); after != before {
			h.t.Fatalf("a refused input changed the state")
		}
		return nil, err
	}
	h.apply(evs...)
	return evs, nil
}

func (h *harness) play(at time.Time, author string, body any) game.Event {
	h.t.Helper()
	evs, err := h.decide(at, author, false, body)
	if err != nil {
		h.t.Fatalf("%s %+v: %v", author, body, err)
	}
	return evs[0]
}

func (h *harness) snap() string {
	b, err := h.g.SnapshotJSON()
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

func refusalOf(t testing.TB, err error) *Refusal {
	t.Helper()
	if err == nil {
		t.Fatal("want a refusal, got acceptance")
	}
	r, ok := AsRefusal(err)
	if !ok {
		t.Fatalf("want a *Refusal, got %v", err)
	}
	return r
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
