package football

import (
	"fmt"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
)

// openTurn is the log of a game whose turn 1 has just opened (the start and the opening).
func openTurn(b *testing.B) []game.Record {
	g := newGame(b, "", false)
	g.advance(at(20, 0))
	var recs []game.Record
	for _, ev := range g.log {
		rec, err := game.Encode(ev)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// benchJudge judges one post per iteration on a fresh referee restored to turn 1's window (the
// restore is not timed).
func benchJudge(b *testing.B, author, text string) {
	recs := openTurn(b)
	setup := setupOf(b)
	fresh := func() *referee.Referee {
		r, err := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "7", Salt: "s"})
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Restore(recs); err != nil {
			b.Fatal(err)
		}
		return r
	}
	in := game.Input{Source: game.Thread, PostID: "1", Author: author, At: at(20, 1), Post: parser.FromBBCode(text)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r := fresh()
		b.StartTimer()
		out, err := r.Judge(in)
		if err != nil || out.Verdict != game.Accepted {
			b.Fatal(err, out.Verdict, out.Messages)
		}
	}
}

// setupOf is the set-up newGame uses.
func setupOf(b *testing.B) *game.Setup {
	src := teamsYAML + `settings:
  first_turn: "2026-12-01T20:00:00+03:00"
  start_cells: {Команда 1: 6}
  points: {Команда 1: 3}
  dice: {58: 4, 12: 3, 37: 3, 40: 2}
`
	s, err := Game{}.Setup(specOf(b, src))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkJudgeRollPost: one roll post ("Ну что, поехали!\nБросаю N") through the referee:
// read, decide, commit, render the reply. Four teams roll every turn of a long game (the clock
// is advanced between turns, untimed) of games of 25 turns, every number 1..100 in turn, so the
// posts land on every kind of cell (questions drawn and sent, yellow cards) and the last roll of
// a game redraws the die table. Target: ≤ 50 µs.
func BenchmarkJudgeRollPost(b *testing.B) {
	authors := []string{"Петя", "Саша", "Катя", "Дима"}
	src := teamsYAML + "settings: {first_turn: \"2026-12-01T20:00:00+03:00\", turns_max: 25, turns_early: 0}\n"
	setup, err := Game{}.Setup(specOf(b, src))
	if err != nil {
		b.Fatal(err)
	}
	var r *referee.Referee
	var last time.Time
	turn := 0
	next := func() {
		if r == nil || turn == 25 {
			if r, err = referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "7", Salt: "s"}); err != nil {
				b.Fatal(err)
			}
			if _, err := r.Start(at(19, 0)); err != nil {
				b.Fatal(err)
			}
			last, turn = at(19, 0), 0
		}
		turn++
		open := at(20, 0).Add(time.Duration(turn-1) * 30 * time.Minute)
		if last, err = r.Advance(last, open, func(time.Time, game.Outcome) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	posts := make([]forum.Post, 100)
	for n := range posts {
		posts[n] = parser.FromBBCode(fmt.Sprintf("Ну что, поехали!\nБросаю %d", n+1))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%4 == 0 {
			b.StopTimer()
			next()
			b.StartTimer()
		}
		in := game.Input{Source: game.Thread, PostID: "p", Author: authors[i%4], At: last.Add(time.Minute), Post: posts[i%100]}
		out, err := r.Judge(in)
		if err != nil || out.Verdict != game.Accepted {
			b.Fatal(i, err, out.Verdict, out.Messages)
		}
	}
}

// BenchmarkJudgeQuestionRoll: a roll onto a question cell (37: 18 → 21): the question drawn and
// sent to the captain as well.
func BenchmarkJudgeQuestionRoll(b *testing.B) { benchJudge(b, "Катя", "Бросаю 37") }

// BenchmarkJudgeAttackPost: an attack (the face to the captain privately).
func BenchmarkJudgeAttackPost(b *testing.B) {
	benchJudge(b, "Петя", "Атакуем Команда 2, 58")
}

// BenchmarkSetup: decoding a configured game (every replay, restore and undo starts with it).
func BenchmarkSetup(b *testing.B) {
	src := teamsYAML + "settings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n"
	sp := specOf(b, src)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := (Game{}).Setup(sp); err != nil {
			b.Fatal(err)
		}
	}
}
