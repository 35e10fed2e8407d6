package rules

import (
	"fmt"
	"testing"

	"forumgm/game"
)

// BenchmarkResolveRound resolves a full round: 2 teams of 7, 2 dragons, 5 balls, 3 tacts, every
// player and both dragons with orders. Target: at most 1 ms a round.
func BenchmarkResolveRound(b *testing.B) {
	teams := []Team{{Name: "Грифоны", Side: SideA}, {Name: "Змеи", Side: SideB}}
	for i := 0; i < 7; i++ {
		teams[0].Players = append(teams[0].Players, fmt.Sprintf("A%d", i))
		teams[1].Players = append(teams[1].Players, fmt.Sprintf("B%d", i))
	}
	g, err := New(DefaultSettings(), teams, nil)
	if err != nil {
		b.Fatal(err)
	}
	rnd := game.NewRand("bench", 0, game.Mix{})
	evs, _ := g.Start(t0, rnd)
	applyAll(b, g, evs)
	for t, team := range g.teams {
		for _, name := range team.Players {
			p := g.st.player(name)
			// move one cell along the edge's inside and try to catch, three tacts
			var tacts []TactOrder
			cell := p.Cell
			for k := 1; k <= 3; k++ {
				for _, n := range cell.Neighbours() {
					if !n.IsEdge() {
						cell = n
						break
					}
				}
				tacts = append(tacts, TactOrder{Tact: k, Cell: cell, Action: Catch})
			}
			if _, err := send(b, g, name, &Orders{Tacts: tacts}); err != nil {
				b.Fatal(err)
			}
		}
		o := &Orders{Dragon: []DragonOrder{{Tact: 1, Move: MoveLeft}, {Tact: 2, Fire: FireFlame}, {Tact: 3, Move: MoveRight, Mouth: MouthOpen}}}
		if _, err := send(b, g, team.Handler, o); err != nil {
			b.Fatalf("team %d: %v", t, err)
		}
	}
	at, _ := g.NextTimer(t0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := game.NewRand("bench", uint64(i), game.Mix{})
		_ = g.Resolve(at, r)
	}
}
