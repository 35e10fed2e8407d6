package rules

import (
	"encoding/json"
	"testing"
	"time"

	"forumgm/game"
)

var msk = time.FixedZone("MSK", 3*3600)

// t0 is the game's start; deadline1 the first round's deadline (23:00 MSK).
var (
	t0        = time.Date(2026, 12, 1, 10, 0, 0, 0, msk)
	deadline1 = time.Date(2026, 12, 1, 23, 0, 0, 0, msk)
)

func testTeams() []Team {
	return []Team{
		{Name: "Грифоны", Side: SideA, Players: []string{"Гарри", "Рон", "Джинни"}, Handler: "Гарри"},
		{Name: "Змеи", Side: SideB, Players: []string{"Драко", "Крэбб", "Гойл"}, Handler: "Драко"},
	}
}

// newGame starts a game with the settings and deployment given.
func newGame(t testing.TB, s Settings, dep *Deployment, seed string) (*Game, *game.Rand) {
	t.Helper()
	g, err := New(s, testTeams(), dep)
	if err != nil {
		t.Fatal(err)
	}
	rnd := game.NewRand(seed, 0, game.Mix{})
	evs, err := g.Start(t0, rnd)
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, g, evs)
	return g, rnd
}

func applyAll(t testing.TB, g *Game, evs []game.Event) {
	t.Helper()
	for _, ev := range evs {
		if err := g.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
}

// send decides an orders message by author (private) and applies it.
func send(t testing.TB, g *Game, author string, o *Orders) (*OrdersAccepted, error) {
	t.Helper()
	evs, err := g.Decide(game.Act{At: t0.Add(time.Hour), Author: author, Private: true, Body: o})
	if err != nil {
		return nil, err
	}
	applyAll(t, g, evs)
	return evs[0].(*OrdersAccepted), nil
}

// resolve ticks the next deadline.
func resolve(t testing.TB, g *Game, rnd *game.Rand) *RoundResolved {
	t.Helper()
	at, ok := g.NextTimer(g.st.At)
	if !ok {
		t.Fatal("no timer")
	}
	evs, err := g.Tick(at, rnd)
	if err != nil || len(evs) != 1 {
		t.Fatalf("tick: %v %v", evs, err)
	}
	applyAll(t, g, evs)
	return evs[0].(*RoundResolved)
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
