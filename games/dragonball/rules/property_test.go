package rules

import (
	"fmt"
	"slices"
	"testing"

	"forumgm/game"
)

// randomOrders gives every player on the field (and every handler) orders for the round drawn
// from src: moves to random neighbours, random heights, random ball actions. Some are refused;
// that is part of the test.
func randomOrders(g *Game, src *game.Rand) map[string]*Orders {
	out := map[string]*Orders{}
	for _, p := range g.st.Players {
		o := &Orders{}
		cell, h := p.Cell, p.Height
		for tact := 1; tact <= 3; tact++ {
			if p.Status != OnField {
				if p.Status == Hospital && p.Returns == g.st.Round+1 {
					re := Reentry(sideOf(p.Team))
					o.Tacts = append(o.Tacts, TactOrder{Tact: p.ReturnTact, Cell: re[src.Intn(len(re))], Height: src.Intn(3) + 1})
				}
				break
			}
			t := TactOrder{Tact: tact}
			if n := cell.Neighbours(); src.Intn(3) > 0 {
				cell = n[src.Intn(len(n))]
				t.Cell = cell
			}
			if nh := h + src.Intn(3) - 1; nh >= 1 && nh <= 3 {
				h, t.Height = nh, nh
			}
			switch src.Intn(4) {
			case 0:
				t.Action = Catch
			case 1:
				t.Action = Steal
			case 2:
				t.Action, t.To, t.ToHeight = Pass, Cell(src.Intn(NumCells)+1), src.Intn(3)+1
				if src.Intn(4) == 0 {
					t.Spell = Spells[src.Intn(3)][0]
				}
			}
			if src.Intn(6) > 0 {
				o.Tacts = append(o.Tacts, t)
			}
		}
		out[p.Name] = o
	}
	for tm := range g.teams {
		var d []DragonOrder
		for tact := 1; tact <= 3; tact++ {
			d = append(d, DragonOrder{Tact: tact, Move: []DragonMove{MoveForward, MoveLeft, MoveRight, MoveStay}[src.Intn(4)],
				Climb: src.Intn(3) - 1, Mouth: []Mouth{MouthAny, MouthOpen, MouthClosed}[src.Intn(3)],
				Fire: []Fire{FireNone, FireNone, FireFlame, FireVolley}[src.Intn(4)]})
		}
		h := g.handler(tm)
		if out[h] == nil {
			out[h] = &Orders{}
		}
		out[h].Dragon = d
	}
	return out
}

// checkInvariants: every ball is in exactly one place, the hands agree with the balls, players
// on the field stand on the field, dragons fit, the score is the swallowed balls' worth.
func checkInvariants(t *testing.T, g *Game, where string) {
	t.Helper()
	st := g.st
	score := [2]int{}
	for _, d := range st.Dragons {
		if err := g.dragonFits(d.Team, d.Head, d.Body, d.Height); err != nil {
			t.Fatalf("%s: dragon %d: %v", where, d.Team, err)
		}
		for _, c := range d.Swallowed {
			score[other(d.Team)] += c.Value()
		}
		if d.Flames < 0 || d.Volleys < 0 {
			t.Fatalf("%s: dragon %d fire below zero", where, d.Team)
		}
	}
	if score != st.Score {
		t.Fatalf("%s: score %v, swallowed balls are worth %v", where, st.Score, score)
	}
	for _, b := range st.Balls {
		holders := 0
		for _, p := range st.Players {
			if slices.Contains(p.Balls, b.Color) {
				holders++
				if b.Status != BallHeld || b.Holder != p.Name {
					t.Fatalf("%s: %s in %s's hands but %s/%q", where, b.Color, p.Name, b.Status, b.Holder)
				}
			}
		}
		switch b.Status {
		case BallHeld:
			if holders != 1 {
				t.Fatalf("%s: %s held by %d", where, b.Color, holders)
			}
		case BallFree:
			if holders != 0 || !b.Cell.Valid() || b.Height < 1 || b.Height > 3 {
				t.Fatalf("%s: free %s: %+v", where, b.Color, b)
			}
		case BallSwallowed:
			if holders != 0 || !swallowedIn(st, b.Color) {
				t.Fatalf("%s: swallowed %s not in a dragon", where, b.Color)
			}
		}
	}
	for _, p := range st.Players {
		switch p.Status {
		case OnField:
			if !p.Cell.Valid() || p.Height < 1 || p.Height > 3 || len(p.Balls) > 2 {
				t.Fatalf("%s: %s: %+v", where, p.Name, p)
			}
		default:
			if p.Cell != 0 || len(p.Balls) != 0 {
				t.Fatalf("%s: %s off the field: %+v", where, p.Name, p)
			}
		}
	}
	if st.Enchanted[0] > g.settings.EnchantedPasses || st.Enchanted[1] > g.settings.EnchantedPasses {
		t.Fatalf("%s: enchanted passes %v", where, st.Enchanted)
	}
}

// TestRandomGames plays whole games with random orders: the invariants hold after every round,
// every draw is recorded, and replaying the log gives the same game.
func TestRandomGames(t *testing.T) {
	for gi := 0; gi < 40; gi++ {
		src := game.NewRand(fmt.Sprintf("orders-%d", gi), 0, game.Mix{})
		g, err := New(DefaultSettings(), testTeams(), nil)
		if err != nil {
			t.Fatal(err)
		}
		rnd := game.NewRand(fmt.Sprintf("game-%d", gi), 0, game.Mix{})
		var log []game.Record
		keep := func(evs []game.Event, err error) {
			t.Helper()
			if err != nil {
				if _, ok := AsRefusal(err); ok {
					return
				}
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
		keep(g.Decide(game.Act{At: t0, Body: StartGame{}, Rand: rnd}))
		checkInvariants(t, g, "start")
		for !g.Over() {
			orders := randomOrders(g, src)
			for _, p := range g.st.Players {
				if o := orders[p.Name]; o != nil && !o.Empty() {
					keep(g.Decide(game.Act{At: g.st.At.Add(1), Author: p.Name, Private: true, Body: o}))
				}
			}
			at, ok := g.NextTimer(g.st.At)
			if !ok {
				t.Fatal("no deadline while the game goes on")
			}
			keep(g.Tick(at, rnd))
			if rnd.Pending() != 0 {
				t.Fatalf("game %d: %d draws not recorded", gi, rnd.Pending())
			}
			checkInvariants(t, g, fmt.Sprintf("game %d round %d", gi, g.Round()))
			if g.Round() > g.settings.Rounds {
				t.Fatalf("game %d ran past the last round", gi)
			}
		}
		if g.Winner() == "" {
			t.Fatalf("game %d over without a result", gi)
		}
		g2, _ := New(DefaultSettings(), testTeams(), nil)
		if err := game.Replay(g2, log); err != nil {
			t.Fatal(err)
		}
		if a, b := jsonOf(g.Final()), jsonOf(g2.Final()); a != b {
			t.Fatalf("game %d: replay differs", gi)
		}
	}
}
