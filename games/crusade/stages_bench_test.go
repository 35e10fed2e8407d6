package crusade

import (
	"testing"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

// BenchmarkJudgeStages splits BenchmarkJudgeMovePost into its stages, each on the state it meets
// there, so a profile can be read stage by stage: read (the grammar, the known board and its
// cells built afresh), decide (the engine) and reply (the turn's words and the templates, the new
// board built afresh).
func BenchmarkJudgeStages(b *testing.B) {
	c := newRef(&testing.T{})
	in := post("Джелу", at(19, 5), "[quote=gm-bot][code]\n"+rules.Render(c.game().Tokens())+"\n[/code][/quote]\nПоехали!\n1-й ход крестоносца к1 на K16")
	rd := c.rules().Read(in)
	intent := game.Act{At: in.At, Author: in.Author, Body: rd.Intent, Rand: game.NewRand("1", 0, game.Mix{})}
	evs, err := c.rules().Decide(intent)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			r := newRef(&testing.T{}).rules()
			b.StartTimer()
			if rd := r.Read(in); rd.Kind != game.Intent {
				b.Fatal(rd.Kind)
			}
		}
	})
	b.Run("decide", func(b *testing.B) {
		b.ReportAllocs()
		r := c.rules()
		for b.Loop() {
			if _, err := r.Decide(intent); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			r := newRef(&testing.T{}).rules()
			if err := r.Apply(evs[0]); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := r.Messages(game.Context{In: &in}, evs[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
