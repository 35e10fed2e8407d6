package grammar

import (
	"fmt"
	"testing"
	"time"

	"forumgm/game"
	fb "forumgm/games/football/rules"
	"forumgm/parser"
)

// BenchmarkJudgeRollPost: judging one roll post as the referee does — the post's BBCode split,
// Parse, Decide and Apply — on a running game of 50 teams. Every 50 posts the turn is closed and
// the next opened with the timer stopped; a redraw of the mapping (every 100th number) is timed
// with the post that causes it. Target: 50 µs.
func BenchmarkJudgeRollPost(b *testing.B) {
	const nTeams = 50
	s := fb.DefaultSettings()
	s.FirstTurn = time.Date(2026, 12, 1, 20, 0, 0, 0, s.Location)
	s.TurnsMax, s.TurnsEarly = 10000, 0
	s.TurnEvery, s.Window = "10m", "10m"
	var teams []fb.Team
	var names []string
	for i := 1; i <= nTeams; i++ {
		teams = append(teams, fb.Team{Name: fmt.Sprintf("Команда %d", i), Captain: fmt.Sprintf("Кэп %d", i),
			Members: []string{fmt.Sprintf("Игрок %d", i)}})
		names = append(names, teams[i-1].Name)
	}
	g, err := fb.New(s, fb.DefaultBoard(), teams)
	if err != nil {
		b.Fatal(err)
	}
	rnd := game.NewRand("bench", 0, game.Mix{})
	start, err := g.Begin(s.FirstTurn.Add(-time.Hour), rnd)
	if err != nil {
		b.Fatal(err)
	}
	if err := g.Apply(start); err != nil {
		b.Fatal(err)
	}
	now := s.FirstTurn.Add(-time.Hour)
	nextTurn := func() {
		for {
			at, ok := g.NextTimer(now)
			if !ok {
				b.Fatal("no timer")
			}
			evs, err := g.Tick(at, rnd)
			if err != nil {
				b.Fatal(err)
			}
			for _, ev := range evs {
				if err := g.Apply(ev); err != nil {
					b.Fatal(err)
				}
			}
			now = at
			if g.WindowOpen() {
				return
			}
		}
	}
	nextTurn()
	texts := make([]string, fb.Numbers+1)
	for n := 1; n <= fb.Numbers; n++ {
		texts[n] = fmt.Sprintf("Ну что, бросаем кубик: %d, удачи!", n)
	}
	opt := Options{Teams: names}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		team := i % nTeams
		if team == 0 && i > 0 {
			b.StopTimer()
			nextTurn()
			b.StartTimer()
		}
		n := 1 + (i % fb.Numbers) // every roll is accepted: 1..100, then a new mapping
		res := Parse(parser.FromBBCode(texts[n]), opt)
		if res.Class != Move {
			b.Fatalf("class %s", res.Class)
		}
		evs, err := g.Decide(game.Act{At: now.Add(time.Minute), Author: teams[team].Members[0], Body: res.Intents[0], Rand: rnd})
		if err != nil {
			b.Fatal(err)
		}
		for _, ev := range evs {
			if err := g.Apply(ev); err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
}
