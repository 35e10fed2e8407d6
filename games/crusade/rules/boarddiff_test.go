package rules

import (
	"math/rand"
	"reflect"
	"testing"
	"time"
)

// TestBoardDiffGrid: boardDiff on the grid finds what the map version finds, on the positions of
// random games (forests hidden or not) and quoted boards changed at random (warriors moved,
// dropped or added, marks drawn, a killed warrior still drawn).
func TestBoardDiffGrid(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewSource(seed))
		mk := func() *Game {
			s := testSettings()
			s.ForestInvisible = seed%2 == 0
			g, err := New(s, testRoster(), Setup{Mode: SetupDefault, At: at(2, 9, 0)})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		d := newDriver(t, mk, at(2, 9, 0))
		now := at(2, 9, 0)
		for i := 0; i < 120 && d.g.Phase() == PhasePlaying; i++ {
			now = now.Add(time.Duration(rng.Intn(90)) * time.Minute)
			d.advance(now)
			side := d.g.SideToMove()
			if evs, err := d.g.Decide(turnIn(side, now, randomTurn(rng, d.g, side))); err == nil {
				d.apply(evs)
			}
			j := &turnJudge{g: d.g, pos: d.g.position().clone(), removed: map[WarriorID]Cell{}}
			quoted := &BoardText{Cells: d.g.Tokens()}
			for k := rng.Intn(5); k > 0; k-- {
				c := Cell{Row: rng.Intn(Size+2) - 1, Col: rng.Intn(Size+2) - 1}
				switch rng.Intn(4) {
				case 0:
					delete(quoted.Cells, c)
				case 1:
					quoted.Cells[c] = "в1"
				case 2:
					quoted.Cells[c] = "7"
				case 3:
					j.removed["к2"] = c
					quoted.Cells[c] = "к2"
				}
			}
			if got, want := j.boardDiff(quoted), j.boardDiffMaps(quoted); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, step %d: grid %+v, maps %+v", seed, i, got, want)
			}
		}
	}
}
