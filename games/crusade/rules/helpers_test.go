package rules

import (
	"encoding/json"
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

// t0 is a Monday afternoon in Moscow.
var t0 = time.Date(2026, 3, 2, 14, 0, 0, 0, msk)

func testSettings() Settings {
	s := DefaultSettings()
	s.Location = msk
	s.BoardRequired = false
	return s
}

func testRoster() Roster {
	return Roster{Players: []Player{{Name: "Crus", Side: Crusaders}, {Name: "Sara", Side: Saracens}}}
}

func author(s Side) string {
	if s == Crusaders {
		return "Crus"
	}
	return "Sara"
}

func xcell(t testing.TB, s string) Cell {
	t.Helper()
	c, err := ParseCell(s)
	if err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	return c
}

func cp(t testing.TB, s string) *Cell { c := xcell(t, s); return &c }

// place builds a custom game: "р1": "H8" ...
func place(t testing.TB, s Settings, cells map[string]string) *Game {
	t.Helper()
	m := map[WarriorID]Cell{}
	for w, c := range cells {
		m[WarriorID(w)] = xcell(t, c)
	}
	g, err := New(s, testRoster(), Setup{Mode: SetupCustom, Cells: m, At: t0})
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	return g
}

func snap(t testing.TB, g *Game) string {
	t.Helper()
	b, err := g.SnapshotJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// play decides and applies; it fails the test on a refusal.
func play(t testing.TB, g *Game, in game.Act) []game.Event {
	t.Helper()
	evs, err := g.Decide(in)
	if err != nil {
		t.Fatalf("decide %+v: %v", in.Body, err)
	}
	for _, ev := range evs {
		if err := g.Apply(ev); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	return evs
}

// refused decides, expects a refusal, and checks the state did not change.
func refused(t testing.TB, g *Game, in game.Act) *Refusal {
	t.Helper()
	before := snap(t, g)
	evs, err := g.Decide(in)
	if err == nil {
		t.Fatalf("want a refusal, got events %s", jsonOf(evs))
	}
	r, ok := AsRefusal(err)
	if !ok {
		t.Fatalf("want a *Refusal, got %v", err)
	}
	if after := snap(t, g); after != before {
		t.Fatalf("refused decide changed the state")
	}
	return r
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func turnIn(s Side, at time.Time, t Turn) game.Act {
	return game.Act{At: at, Author: author(s), Body: t}
}

func hasCode(r *Refusal, c Code) bool { return r != nil && r.Has(c) }

// testRand is the source of chance the tests' ticks draw from.
var testRand = game.NewRand("test", 0, game.Mix{})
