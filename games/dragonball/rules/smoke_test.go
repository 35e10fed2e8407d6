package rules

import (
	"testing"

	"forumgm/game"
)

func TestDefaultStartAndRound(t *testing.T) {
	g, rnd := newGame(t, DefaultSettings(), nil, "1")
	f := g.Final()
	if f.Players["Гарри"].Cell != 1 || f.Players["Рон"].Cell != 2 || f.Players["Драко"].Cell != 11 || f.Players["Гойл"].Cell != 13 {
		t.Errorf("default start: %s", jsonOf(f.Players))
	}
	if d := f.Dragons["Грифоны"]; d.Head != 103 || d.Body != 102 || d.Tail != 101 || d.Height != 2 || d.Volleys != 3 || d.Flames != 7 {
		t.Errorf("dragon A: %+v", d)
	}
	if d := f.Dragons["Змеи"]; d.Head != 109 || d.Body != 110 || d.Tail != 111 {
		t.Errorf("dragon B: %+v", d)
	}
	for c, b := range f.Balls {
		if b.Cell != 106 || b.Status != BallFree || b.Height < 1 || b.Height > 3 {
			t.Errorf("ball %s: %+v", c, b)
		}
	}
	if _, err := send(t, g, "Гарри", &Orders{Tacts: []TactOrder{{Tact: 1, Cell: 17, Height: 2}}}); err != nil {
		t.Fatal(err)
	}
	ev := resolve(t, g, rnd)
	if g.Round() != 1 || ev.Round != 1 {
		t.Errorf("round %d", g.Round())
	}
	if len(ev.Draws) == 0 {
		t.Error("no draws recorded")
	}
}

// TestReplay: folding the encoded log into a fresh game gives the same state and never draws.
func TestReplay(t *testing.T) {
	g, err := New(DefaultSettings(), testTeams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rnd := game.NewRand("replay", 0, game.Mix{})
	var log []game.Record
	keep := func(evs []game.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			rec, err := game.Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, rec)
			if err := g.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	keep(g.Start(t0, rnd))
	keep(g.Decide(game.Act{At: t0, Author: "Драко", Private: true, Body: &Orders{
		Tacts:  []TactOrder{{Tact: 1, Cell: 12, Height: 3}, {Tact: 2, Cell: 28}},
		Dragon: []DragonOrder{{Tact: 1, Move: MoveLeft, Mouth: MouthClosed}, {Tact: 2, Fire: FireFlame}}}}))
	for i := 0; i < 3; i++ {
		at, _ := g.NextTimer(g.st.At)
		keep(g.Tick(at, rnd))
	}
	g2, _ := New(DefaultSettings(), testTeams(), nil)
	if err := game.Replay(g2, log); err != nil {
		t.Fatal(err)
	}
	if a, b := jsonOf(g.Final()), jsonOf(g2.Final()); a != b {
		t.Errorf("replay differs:\n%s\n%s", a, b)
	}
	if g2.Round() != 3 {
		t.Errorf("round %d after replay", g2.Round())
	}
}
