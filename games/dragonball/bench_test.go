package dragonball

import (
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/dragonball/picture"
	"forumgm/games/dragonball/rules"
	"forumgm/parser"
)

// BenchmarkJudgeOrders: an orders message read, checked, applied and answered.
func BenchmarkJudgeOrders(b *testing.B) {
	r := newRef(b, teamsYAML+"deployment: {players: {Гарри: {cell: 57, height: 2, balls: [красный]}}}\n")
	in := game.Input{Source: game.PM, PostID: "1", Author: "Гарри", At: at(1, 11, 0),
		Post: parser.FromBBCode("Такт 1: 58 в3\nТакт 2: пас 61 в2\nТакт 3: 58 в3 отбираю у Драко\nДракон такт 1: вперёд, пасть закрыта\nОписание: вперёд!")}
	b.ReportAllocs()
	for b.Loop() {
		if out, err := r.Judge(in); err != nil || out.Verdict != game.Accepted {
			b.Fatal(out.Verdict, err)
		}
	}
}

// BenchmarkRound: a round of six players' orders resolved at the deadline and its report
// rendered (a fresh game each time; the report's picture is drawn once, then cached).
func BenchmarkRound(b *testing.B) {
	orders := map[string]string{
		"Гарри": "Такт 1: 17 в2\nДракон такт 1: вперёд", "Рон": "Такт 1: 18 в3", "Джинни": "Такт 1: ловлю",
		"Драко": "Такт 1: 27 в2", "Крэбб": "Такт 1: 28 в1", "Гойл": "Такт 1: отбираю",
	}
	b.ReportAllocs()
	for b.Loop() {
		r := newRef(b, teamsYAML)
		for _, name := range []string{"Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл"} {
			r.send(name, true, at(1, 11, 0), orders[name])
		}
		n := 0
		if _, err := r.Advance(at(1, 11, 0), at(2, 0, 0), func(_ time.Time, o game.Outcome) error {
			n += len(o.Messages)
			return nil
		}); err != nil || n == 0 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkReportPicture: the picture of a resolved round drawn from its event (uncached: what a
// live game pays once per round; BenchmarkRound's pictures come from the cache after the first).
func BenchmarkReportPicture(b *testing.B) {
	r := newRef(b, teamsYAML)
	r.send("Драко", true, at(1, 11, 0), "Дракон такт 3: пламя")
	var ev *rules.RoundResolved
	if _, err := r.Advance(at(1, 11, 0), at(2, 0, 0), func(_ time.Time, o game.Outcome) error {
		ev = o.Events[0].(*rules.RoundResolved)
		return nil
	}); err != nil || ev == nil {
		b.Fatal(err)
	}
	rules := r.rules()
	f := fieldAfter(ev, rules.game.Teams(), "Раунд 1, после 3-го такта")
	b.ReportAllocs()
	var size int
	for b.Loop() {
		data, err := picture.PNG(f)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "png-bytes")
}
