package grammar

import (
	"testing"
	"time"

	"forumgm/game"
	fb "forumgm/games/football/rules"
	"forumgm/parser"
)

// TestContractExample runs the contract's example transcript (its settings, teams and two posts)
// through Parse, Decide and Apply: Петя's roll is accepted; Вася's "+2 к атаке" is read as points
// and refused, since his team has not attacked this turn.
func TestContractExample(t *testing.T) {
	s := fb.DefaultSettings()
	msk := time.FixedZone("MSK", 3*3600)
	s.Location = msk
	s.FirstTurn = time.Date(2026, 12, 1, 20, 0, 0, 0, msk)
	s.TurnEvery, s.Window = "30m", "10m"
	teams := []fb.Team{{Name: "Команда 1", Captain: "Вася", Members: []string{"Петя", "Оля"}}, {Name: "Команда 2", Captain: "Гоша", Members: []string{}}}
	g, err := fb.New(s, fb.DefaultBoard(), teams)
	if err != nil {
		t.Fatal(err)
	}
	rnd := game.NewRand("1", 0, game.Mix{})
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	ev, err := g.Begin(start, rnd)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Apply(ev); err != nil {
		t.Fatal(err)
	}
	now := start
	tick := func(to time.Time) {
		for {
			at, ok := g.NextTimer(now)
			if !ok || at.After(to) {
				return
			}
			evs, err := g.Tick(at, rnd)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if err := g.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			now = at
		}
	}
	names := []string{"Команда 1", "Команда 2"}
	judge := func(author string, at time.Time, private bool, text string) ([]game.Event, error) {
		tick(at)
		r := Parse(parser.FromBBCode(text), Options{Teams: names, Private: private})
		if r.Class != Move || len(r.Intents) != 1 {
			t.Fatalf("%q: %s %v", text, r.Class, r.Problems)
		}
		evs, err := g.Decide(game.Act{At: at, Author: author, Private: private, Body: r.Intents[0], Rand: rnd})
		for _, e := range evs {
			if err := g.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		return evs, err
	}
	evs, err := judge("Петя", time.Date(2026, 12, 1, 20, 3, 0, 0, msk), false, "Бросаю 37")
	if err != nil {
		t.Fatal(err)
	}
	roll := evs[0].(*fb.Rolled)
	if roll.Team != "Команда 1" || roll.Number != 37 || roll.Face < 1 || roll.Face > 6 || roll.To != 1+roll.Face {
		t.Errorf("roll %+v", roll)
	}
	_, err = judge("Вася", time.Date(2026, 12, 1, 20, 4, 0, 0, msk), true, "+2 к атаке")
	if r, ok := fb.AsRefusal(err); !ok || !r.Has(fb.CodeNoAttackRoll) {
		t.Errorf("points without an attack: %v", err)
	}
	f := g.Final()
	if f.Turn != 1 || len(f.Used) != 1 || f.Used[0] != 37 || f.Finished || f.Teams["Команда 1"].Cell != roll.To {
		t.Errorf("final %+v", f)
	}
}
