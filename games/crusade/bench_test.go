package crusade

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/rules"
	"forumgm/referee"
)

// shuffleGame plays n move posts of a long game: each side moves one warrior a cell out and back,
// ten warriors a side, three actions each a day, the clock running through the daily closes.
// It returns the event log (timed events included) and the referee.
func shuffleGame(tb testing.TB, n int) ([]game.Record, *tref) {
	tb.Helper()
	c := newRef(&testing.T{})
	crus := []string{"к1", "к2", "к3", "к4", "к5", "л1", "л2", "л3", "а1", "а2"}
	sara := []string{"в1", "в2", "в3", "в4", "в5", "в6", "в7", "в8", "н1", "н3"}
	home := map[string]rules.Cell{}
	away := map[string]rules.Cell{}
	for w, cell := range rules.DefaultDeployment() {
		home[string(w)] = cell
		d := 1
		if w.Side() == rules.Crusaders {
			d = -1
		}
		away[string(w)] = rules.Cell{Row: cell.Row, Col: cell.Col + d}
	}
	away["н1"] = rules.Cell{Row: home["н1"].Row - 1, Col: 1}
	away["н3"] = rules.Cell{Row: home["н3"].Row + 1, Col: 1}
	out := map[string]bool{}
	var recs []game.Record
	keep := func(evs []game.Event) {
		for _, ev := range evs {
			r, err := game.Encode(ev)
			if err != nil {
				tb.Fatal(err)
			}
			recs = append(recs, r)
		}
	}
	last := at(18, 0)
	for i := 0; i < n; i++ {
		day, k := i/60, i%60
		when := at(19, 0).AddDate(0, 0, day).Add(time.Duration(k) * time.Minute)
		var err error
		last, err = c.Advance(last, when, func(_ time.Time, o game.Outcome) error { keep(o.Events); return nil })
		if err != nil {
			tb.Fatal(err)
		}
		side, author := crus, "Джелу"
		if k%2 == 1 {
			side, author = sara, "snovaya"
		}
		w := side[(k/2)%10]
		to := away[w]
		if out[w] {
			to = home[w]
		}
		o, err := c.Judge(post(author, when, fmt.Sprintf("%d-й ход %s на %s", k/20+1, w, to)))
		if err != nil || o.Verdict != game.Accepted {
			tb.Fatalf("post %d (%s %s→%s): %v %+v", i, author, w, to, err, o.Messages)
		}
		out[w] = !out[w]
		keep(o.Events)
	}
	return recs, c
}

func TestLongGameRestores(t *testing.T) {
	recs, c := shuffleGame(t, 300)
	c2 := newRef(t)
	if err := c2.Restore(recs); err != nil {
		t.Fatal(err)
	}
	a, _ := c.game().SnapshotJSON()
	b, _ := c2.game().SnapshotJSON()
	if string(a) != string(b) {
		t.Fatal("the state rebuilt from the log differs from the live one")
	}
}

// BenchmarkJudgeMovePost: one realistic move post (chatter, the quoted board, a move line) through
// parse, validate, apply and render.
func BenchmarkJudgeMovePost(b *testing.B) {
	c := newRef(&testing.T{})
	board := rules.Render(c.game().Tokens())
	moved := func(text string) string { return text }
	txt := moved("[quote=gm-bot][code]\n" + board + "\n[/code][/quote]\nПоехали!\n1-й ход крестоносца к1 на K16")
	in := post("Джелу", at(19, 5), txt)
	judgeFresh(b, in, nil)
}

// judgeFresh judges in on b.N fresh referees (a move on a new state, as every move is). The
// referees are built untimed in batches: stopping the timer around each judgement would time
// the benchmark's own bookkeeping (each StopTimer/StartTimer pair reads the memory statistics,
// stopping the world) more than the judgement. check looks at the first outcome.
func judgeFresh(b *testing.B, in game.Input, check func(game.Outcome)) {
	const batch = 64
	refs := make([]*referee.Referee, batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; {
		b.StopTimer()
		n := min(batch, b.N-i)
		for k := range n {
			refs[k] = newRef(&testing.T{}).Referee
		}
		b.StartTimer()
		for k := range n {
			out, err := refs[k].Judge(in)
			if err != nil || out.Verdict != game.Accepted {
				b.Fatal(err, out.Verdict)
			}
			if i == 0 && k == 0 && check != nil {
				check(out)
			}
		}
		i += n
	}
}

// BenchmarkJudgeEditedBoardPost: a move post as the rules want it — the quoted board edited to
// show the move — so the quote is not the bot's board and is parsed in full.
func BenchmarkJudgeEditedBoardPost(b *testing.B) {
	c := newRef(&testing.T{})
	tokens := c.game().Tokens()
	from, to := rules.Cell{Row: 10, Col: 17}, rules.Cell{Row: 10, Col: 16} // к1: K17 -> K16
	if tokens[from] != "к1" {
		b.Fatalf("к1 is not on K17: %q", tokens[from])
	}
	delete(tokens, from)
	tokens[to] = "к1"
	in := post("Джелу", at(19, 5), "[quote=gm-bot][code]\n"+rules.Render(tokens)+"\n[/code][/quote]\nПоехали!\n1-й ход крестоносца к1 на K16")
	judgeFresh(b, in, func(out game.Outcome) {
		if strings.Contains(out.Messages[0].Body, "Неаккуратность") {
			b.Fatalf("the edited board is taken for sloppy:\n%s", out.Messages[0].Body)
		}
	})
}

// BenchmarkReplay300: rebuild a 300-post game's state from its event log.
func BenchmarkReplay300(b *testing.B) {
	recs, _ := shuffleGame(b, 300)
	b.ReportMetric(float64(len(recs)), "events")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := newRef(&testing.T{})
		b.StartTimer()
		if err := c.Restore(recs); err != nil {
			b.Fatal(err)
		}
	}
}
