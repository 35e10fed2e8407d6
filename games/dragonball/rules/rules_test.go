package rules

import (
	"slices"
	"testing"

	"forumgm/game"
)

// TestNotNeighbourAlternatives: the contract's example refusal names the cells one can go to.
func TestNotNeighbourAlternatives(t *testing.T) {
	g, _ := newGame(t, DefaultSettings(), &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 57, Height: 2}}}, "x")
	_, err := send(t, g, "Гарри", &Orders{Tacts: []TactOrder{{Tact: 1, Cell: 60, Line: "Такт 1: 60"}}})
	r, ok := AsRefusal(err)
	if !ok || len(r.Problems) != 1 {
		t.Fatalf("want one problem, got %v", err)
	}
	p := r.Problems[0]
	if p.Code != CodeNotNeighbour || p.From != 57 || p.Cell != 60 || !slices.Equal(p.Cells, []Cell{40, 41, 56, 58, 73, 74}) || p.Line != "Такт 1: 60" {
		t.Errorf("problem: %+v", p)
	}
}

// TestSomeLinesRefused: a message with a good and a bad line is accepted, naming the bad one.
func TestSomeLinesRefused(t *testing.T) {
	g, _ := newGame(t, DefaultSettings(), &Deployment{Players: map[string]PlayerPlace{"Гарри": {Cell: 57, Height: 2}}}, "x")
	ev, err := send(t, g, "Гарри", &Orders{Tacts: []TactOrder{{Tact: 1, Cell: 58}, {Tact: 2, Cell: 61}}, HasDescription: true, Description: "вперёд!"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Accepted) != 1 || len(ev.Refused) != 1 || ev.Refused[0].Code != CodeNotNeighbour || ev.Refused[0].From != 58 {
		t.Errorf("event: %s", jsonOf(ev))
	}
	if o := g.st.Orders["Гарри"]; o.Tacts[0] == nil || o.Tacts[1] != nil || o.Description != "вперёд!" {
		t.Errorf("standing orders: %s", jsonOf(o))
	}
}

// TestFireEveryOrientation: for each of the six facings, a flame burns exactly the cone: every
// player on a cone cell falls, the players beside the cone do not burn.
func TestFireEveryOrientation(t *testing.T) {
	// dragon A's body on 71 (row 5, x 12): room for every facing on the left half
	for _, f := range Dirs {
		body := Cell(71)
		head, _ := body.Step(f)
		s := DefaultSettings()
		for _, p := range s.percents() {
			*p = 0
		}
		cone := Cone(head, f, FlameDepth)
		dep := &Deployment{Dragons: map[string]DragonPlace{"Грифоны": {Body: body, Head: head, Height: 2}}, Players: map[string]PlayerPlace{}}
		names := []string{"Рон", "Джинни", "Драко", "Крэбб", "Гойл"}
		victims := map[string]Cell{}
		for i, c := range cone[:5] {
			dep.Players[names[i]] = PlayerPlace{Cell: c, Height: 1 + i%3}
			victims[names[i]] = c
		}
		g, rnd := newGame(t, s, dep, "fire")
		for n := range victims {
			if _, err := send(t, g, n, &Orders{Tacts: []TactOrder{{Tact: 1}}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := send(t, g, "Гарри", &Orders{Dragon: []DragonOrder{{Tact: 1, Fire: FireFlame}}}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ev := resolve(t, g, rnd)
		var fire *Happening
		fell := map[string]bool{}
		for i, h := range ev.Tacts[0] {
			if h.What == WFire {
				fire = &ev.Tacts[0][i]
			}
			if h.What == WFell && h.Detail == "fire" {
				fell[h.Player] = true
			}
		}
		if fire == nil || !slices.Equal(fire.Cells, cone) || len(cone) != 8 {
			t.Errorf("%s: fire %v, cone %v", f, fire, cone)
		}
		for n := range victims {
			if !fell[n] {
				t.Errorf("%s: %s on %d did not burn", f, n, victims[n])
			}
		}
		if len(fell) != len(victims) {
			t.Errorf("%s: burned %v", f, fell)
		}
	}
}

// TestDecideNeverDraws: checking orders uses no chance; Tick needs a Rand.
func TestDecideNeverDraws(t *testing.T) {
	g, rnd := newGame(t, DefaultSettings(), nil, "x")
	before := rnd.Next()
	if _, err := send(t, g, "Гарри", &Orders{Tacts: []TactOrder{{Tact: 1, Cell: 17}}}); err != nil {
		t.Fatal(err)
	}
	if rnd.Next() != before {
		t.Error("Decide drew")
	}
	at, _ := g.NextTimer(t0)
	if !at.Equal(deadline1) {
		t.Errorf("first deadline %v, want %v", at, deadline1)
	}
	if _, err := g.Tick(at, nil); err == nil {
		t.Error("Tick without a Rand should fail")
	}
	if evs, err := g.Tick(at.Add(1), game.NewRand("x", 0, game.Mix{})); err != nil || len(evs) != 0 {
		t.Errorf("Tick off the deadline: %v %v", evs, err)
	}
}

// TestDragonRefusalOptions: a dragon order stopped by the midline names the moves that are legal.
func TestDragonRefusalOptions(t *testing.T) {
	dep := &Deployment{Dragons: map[string]DragonPlace{"Змеи": {Body: 107, Head: 106, Height: 2}}}
	g, _ := newGame(t, DefaultSettings(), dep, "x")
	_, err := send(t, g, "Драко", &Orders{Dragon: []DragonOrder{{Tact: 1, Move: MoveForward}}})
	r, ok := AsRefusal(err)
	if !ok || len(r.Problems) != 1 || r.Problems[0].Code != CodeDragonMidline {
		t.Fatalf("got %v", err)
	}
	// facing west on the midline: a turn either way keeps the dragon on its half
	if got := r.Problems[0].Options; !slices.Equal(got, []string{"left", "right"}) {
		t.Errorf("options %v", got)
	}
}
