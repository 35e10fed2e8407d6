package rules

import (
	"testing"

	"forumgm/game"
)

// TestEndGame: a moderator's end names the winner (or lets the score decide), folds from the
// log, stops the clock and refuses orders and a second end afterwards.
func TestEndGame(t *testing.T) {
	cases := []struct {
		name, winner, want string
		score              [2]int
		refused            bool
	}{
		{"score decides", "", "Змеи", [2]int{1, 3}, false},
		{"equal scores draw", "", "draw", [2]int{2, 2}, false},
		{"named winner", "Грифоны", "Грифоны", [2]int{0, 5}, false},
		{"named draw", "draw", "draw", [2]int{0, 5}, false},
		{"unknown team", "Вороны", "", [2]int{0, 0}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, _ := newGame(t, DefaultSettings(), nil, "end")
			g.st.Score = c.score
			evs, err := g.Decide(game.Act{At: t0, Author: "Moderator", Body: &EndGame{Winner: c.winner, Reason: "тест"}})
			if c.refused {
				if r, ok := AsRefusal(err); !ok || r.Problems[0].Code != CodeUnknownTeam || len(r.Problems[0].Options) != 3 {
					t.Fatalf("want unknown_team, got %v", err)
				}
				return
			}
			if err != nil || len(evs) != 1 {
				t.Fatalf("%v %v", evs, err)
			}
			rec, err := game.Encode(evs[0])
			if err != nil {
				t.Fatal(err)
			}
			back, err := g.DecodeEvent(rec.Kind, rec.Data)
			if err != nil {
				t.Fatal(err)
			}
			applyAll(t, g, []game.Event{back})
			if !g.Over() || g.Winner() != c.want || g.Final().Winner != c.want {
				t.Errorf("over %v winner %q, want %q", g.Over(), g.Winner(), c.want)
			}
			if _, ok := g.NextTimer(t0); ok {
				t.Error("the clock runs on after the end")
			}
			if _, err := send(t, g, "Гарри", &Orders{Tacts: []TactOrder{{Tact: 1}}}); err == nil {
				t.Error("orders accepted after the end")
			}
			if _, err := g.Decide(game.Act{At: t0, Author: "Moderator", Body: EndGame{}}); err == nil {
				t.Error("a second end accepted")
			}
		})
	}
}
