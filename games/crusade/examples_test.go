package crusade

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/grammar"
	"forumgm/games/crusade/rules"
	"forumgm/parser"
)

var italic = regexp.MustCompile(`(?s)\[i\](.*?)\[/i\]`)

// exampleChecker reads every [i]…[/i] of the replies a player sees back through the parser and
// the engine, in the position the reply was shown in.
type exampleChecker struct {
	t       *testing.T
	c       *tref
	checked int
}

// check judges every example of body for author (the reader) on the current position: a move
// must be accepted (as if the reader's side had the move) with no sloppiness but the quoted board;
// an allocation must name a living warrior of the reader's side with the value left.
func (x *exampleChecker) check(where, author, body string) {
	x.t.Helper()
	for _, m := range italic.FindAllStringSubmatch(body, -1) {
		ex := m[1]
		r := grammar.Parse(parser.FromBBCode(ex))
		switch r.Class {
		case grammar.Chatter:
			if strings.Contains(ex, "sha256") || strings.Contains(ex, "Зерно партии") {
				continue // the fairness lines
			}
			x.t.Errorf("%s: example %q is not read as a move", where, ex)
		case grammar.TurnPost:
			x.checked++
			evs, err := x.c.game().Try(game.Act{Author: author, Body: r.Turn})
			if err != nil {
				x.t.Errorf("%s: example %q for %s is refused: %v", where, ex, author, err)
				continue
			}
			for _, s := range evs[0].(*rules.TurnPlayed).Sloppy {
				if s.Code != rules.SloppyBoardMissing && s.Code != rules.SloppyBoardMismatch {
					x.t.Errorf("%s: example %q for %s is sloppy: %s", where, ex, author, s.Code)
				}
			}
		case grammar.AllocationPost:
			x.checked++
			side, _ := x.c.game().PlayerSide(author)
			for _, w := range r.Allocation.Wounds {
				v, ok := x.c.game().Warrior(w.Warrior)
				if !ok || v.Side != side || !v.Alive || !v.InPlay || (w.Stat == rules.StatDefence && v.Defence < w.Count) {
					x.t.Errorf("%s: allocation example %q for %s names %+v", where, ex, author, v)
				}
			}
			_, err := x.c.game().Try(game.Act{Author: author, Body: r.Allocation})
			if ref, ok := rules.AsRefusal(err); err != nil && (!ok || len(ref.Problems) != 1 || ref.Problems[0].Code != rules.CodeNothingOwed) {
				x.t.Errorf("%s: allocation example %q for %s refused: %v", where, ex, author, err)
			}
		default:
			x.t.Errorf("%s: example %q reads as %s %v", where, ex, r.Class, r.Problems)
		}
	}
}

// say renders a referee template for author as the referee would.
func (x *exampleChecker) say(name, author string, lines any) string {
	x.t.Helper()
	in := post(author, at(18, 0), "")
	body, err := x.c.rules().Say(name, game.Context{In: &in, Lines: lines})
	if err != nil {
		x.t.Fatal(err)
	}
	return body
}

// sayAll checks the examples of every template a player may see now, for both players.
func (x *exampleChecker) sayAll(when string) {
	x.t.Helper()
	unread := grammar.Parse(parser.FromBBCode("1-й ход к1 на Q16")).Problems
	start, err := x.c.rules().Say(game.SayStart, game.Context{})
	if err != nil {
		x.t.Fatal(err)
	}
	toMove := "Джелу"
	if x.c.game().SideToMove() == rules.Saracens {
		toMove = "snovaya"
	}
	x.check(when+" start", toMove, start)
	for _, author := range []string{"Джелу", "snovaya"} {
		for _, name := range []string{game.SayHelp, game.SayUnreadable, game.SayPMUnknown} {
			x.check(when+" "+name, author, x.say(name, author, unread))
		}
	}
}

// replies checks the examples of an outcome's messages for author; a line about one side
// ("Сарацины должны распределить …") is for that side's player.
func (x *exampleChecker) replies(where, author string, out game.Outcome) {
	x.t.Helper()
	for _, m := range out.Messages {
		for _, l := range strings.Split(m.Body, "\n") {
			reader := author
			switch {
			case strings.HasPrefix(l, "Крестоносцы"):
				reader = "Джелу"
			case strings.HasPrefix(l, "Сарацины"):
				reader = "snovaya"
			}
			x.check(where, reader, l)
		}
	}
}

// Every example the game shows, in every template, parsed and judged in the position where it
// is shown, is accepted: the opening post, the help, the unreadable hint, the private-message
// hint, and the wound replies (sloppiness, time limit, the daily close), for both sides, at the
// start, after moves (second actions of the day) and with enemies in reach (attack examples).
func TestEveryExampleIsLegal(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Settings.BoardRequired = true })
	x := &exampleChecker{t: t, c: c}
	x.sayAll("default position")

	// the examples are legal moves: play them, and check again in each new position
	for i, author := range []string{"Джелу", "snovaya", "Джелу", "snovaya", "Джелу", "snovaya"} {
		help := x.say(game.SayHelp, author, nil)
		ms := italic.FindAllStringSubmatch(help, -1)
		if len(ms) < 2 {
			t.Fatalf("help for %s shows no examples: %s", author, help)
		}
		// the two-warrior example: two warriors' first (or next) actions in one post
		out := mustJudge(t, c, post(author, at(18, 1+i), ms[1][1]), game.Accepted)
		x.replies("sloppy turn", author, out)
		x.sayAll("after turn " + ms[1][1])
	}
	_, err := c.Advance(at(18, 10), at(20, 1), func(_ time.Time, o game.Outcome) error {
		x.replies("time limit", "Джелу", o)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Advance(at(20, 1), at(23, 59).Add(time.Minute), func(_ time.Time, o game.Outcome) error {
		x.replies("close (crusaders)", "Джелу", o)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	x.sayAll("new day")

	// enemies in reach: the attack examples
	near := newRef(t, func(o *CrusadeOptions) {
		o.Setup = rules.Setup{Mode: rules.SetupCustom, At: at(18, 0), Cells: map[rules.WarriorID]rules.Cell{
			"р1": {Row: 15, Col: 18}, "л1": {Row: 6, Col: 10}, "к1": {Row: 10, Col: 10},
			"ш1": {Row: 8, Col: 2}, "в1": {Row: 6, Col: 7}, "н1": {Row: 10, Col: 9}}}
	})
	y := &exampleChecker{t: t, c: near}
	y.sayAll("enemies in reach")
	help := y.say(game.SayHelp, "Джелу", nil)
	if !strings.Contains(help, "атакует мечом") && !strings.Contains(help, "стреляет в") {
		t.Errorf("no attack example with enemies in reach: %s", help)
	}
	if x.checked+y.checked < 40 {
		t.Fatalf("only %d examples checked", x.checked+y.checked)
	}
}

// BenchmarkHelpExamples renders the help, whose examples are tried with the engine.
func BenchmarkHelpExamples(b *testing.B) {
	c := newRef(b)
	in := post("snovaya", at(18, 0), "помощь")
	for i := 0; i < b.N; i++ {
		body, err := c.rules().Say(game.SayHelp, game.Context{In: &in})
		if err != nil || !strings.Contains(body, "[i]") {
			b.Fatal(body, err)
		}
	}
}

// TestExamplesFollowTheState: the examples kept per state are dropped when an event is applied:
// after a move the reply's example is the one found afresh on the new position.
func TestExamplesFollowTheState(t *testing.T) {
	c := newRef(t)
	in := post("Джелу", at(19, 5), "помощь")
	v := c.rules().view(game.Context{In: &in})
	first := v.ExampleMove()
	if first == nil {
		t.Fatal("no example move at the start")
	}
	mustJudge(t, c, post("Джелу", at(19, 6), fmt.Sprintf("%d-й ход крестоносца %s на %s", first.Ordinal, first.Warrior, first.To)), game.Accepted)
	v = c.rules().view(game.Context{In: &in})
	s := v.ExampleSide()
	fresh := v.findMoves(s, v.exampleAuthor(s), 1)
	got := v.ExampleMove()
	if len(fresh) != 1 || got == nil || *got != fresh[0] {
		t.Fatalf("after the move the example is %+v, found afresh %+v", got, fresh)
	}
	if *got == *first {
		t.Fatalf("the example %+v did not change with the position", got)
	}
}
