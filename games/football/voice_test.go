package football

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/football/grammar"
	"forumgm/games/football/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var moscow = time.FixedZone("MSK", 3*3600)

// view is the data the templates get from the plug-in, over game g.
func view(g *rules.Game, author string, ev game.Event) *View {
	return &View{Author: author, Event: ev, Examples: grammar.Examples, game: g}
}

// footballGame plays a short game that produces every kind of event and returns them by kind
// (the first of each kind; "question" and "yellow" are rolls onto such cells) and in order.
func footballGame(t *testing.T) (*rules.Game, map[string]game.Event, []game.Event) {
	t.Helper()
	s := rules.DefaultSettings()
	s.Location = moscow
	s.FirstTurn = time.Date(2026, 12, 1, 20, 0, 0, 0, moscow)
	s.TurnsMax, s.TurnsEarly = 2, 0
	s.Dice = map[int]int{37: 3, 58: 3, 12: 4, 40: 6, 41: 2}
	s.StartCells = map[string]int{"Команда 1": 6}
	s.Points = map[string]int{"Команда 1": 5}
	s.Salt = "соль"
	s.Questions = []rules.Question{{Text: "Сколько минут длится тайм?", Answers: []string{"45"}}, {Text: "Кто выиграл ЧМ-2018?", Answers: []string{"Франция"}}}
	teams := []rules.Team{
		{Name: "Команда 1", Captain: "Вася", Members: []string{"Петя"}},
		{Name: "Команда 2", Captain: "Гоша", Members: []string{"Оля"}},
		{Name: "Команда 3", Captain: "Катя"},
		{Name: "Команда 4", Captain: "Дима"},
	}
	g, err := rules.New(s, rules.DefaultBoard(), teams)
	if err != nil {
		t.Fatal(err)
	}
	rnd := game.NewRand("templates", 0, game.Mix{})
	var all []game.Event
	apply := func(evs ...game.Event) {
		for _, ev := range evs {
			if err := g.Apply(ev); err != nil {
				t.Fatal(err)
			}
			all = append(all, ev)
		}
	}
	start, err := g.Begin(time.Date(2026, 12, 1, 19, 0, 0, 0, moscow), rnd)
	if err != nil {
		t.Fatal(err)
	}
	apply(start)
	now := start.At
	until := func(to time.Time) {
		for {
			at, ok := g.NextTimer(now)
			if !ok || at.After(to) {
				return
			}
			evs, err := g.Tick(at, rnd)
			if err != nil {
				t.Fatal(err)
			}
			apply(evs...)
			now = at
		}
	}
	at := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, moscow) }
	post := func(when time.Time, who string, private bool, body any) {
		until(when)
		evs, err := g.Decide(game.Act{At: when, Author: who, Private: private, Body: body, Rand: rnd})
		if err != nil {
			t.Fatalf("%s %+v: %v", who, body, err)
		}
		apply(evs...)
	}
	post(at(20, 1), "Петя", false, &rules.Attack{Target: "Команда 2", Number: 58})
	post(at(20, 2), "Вася", true, &rules.Points{Role: rules.RoleAttack, Count: 9})
	post(at(20, 3), "Оля", false, &rules.Defence{Number: 12})
	post(at(20, 4), "Катя", false, &rules.Roll{Number: 37}) // 18 -> 21: a question
	post(at(20, 5), "Катя", true, &rules.Answer{Text: "45"})
	post(at(20, 31), "Гоша", false, &rules.Roll{Number: 40}) // 1 -> 7: yellow
	post(at(20, 32), "Дима", false, &rules.Roll{Number: 41}) // 18 -> 20
	until(at(21, 0))
	byKind := map[string]game.Event{}
	for _, ev := range all {
		if _, ok := byKind[ev.EventKind()]; !ok {
			byKind[ev.EventKind()] = ev // the first of each kind
		}
		if r, ok := ev.(*rules.Rolled); ok && r.Question != nil {
			byKind["question"] = ev
		}
		if r, ok := ev.(*rules.Rolled); ok && r.Yellow {
			byKind["yellow"] = ev
		}
	}
	// a question left to expire, in a game of its own
	g2, _ := rules.New(s, rules.DefaultBoard(), teams)
	st2, _ := g2.Begin(start.At, game.NewRand("x", 0, game.Mix{}))
	g2.Apply(st2)
	evs, _ := g2.Tick(at(20, 0), nil)
	for _, ev := range evs {
		g2.Apply(ev)
	}
	evs, err = g2.Decide(game.Act{At: at(20, 1), Author: "Катя", Body: &rules.Roll{Number: 37}, Rand: game.NewRand("y", 0, game.Mix{})})
	if err != nil {
		t.Fatal(err)
	}
	g2.Apply(evs[0])
	for _, when := range []time.Time{at(20, 10), at(20, 11)} {
		evs, err := g2.Tick(when, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			g2.Apply(ev)
			byKind[ev.EventKind()+"/2"] = ev
		}
	}
	byKind[rules.KindQuestionExpired] = byKind[rules.KindQuestionExpired+"/2"]
	return g, byKind, all
}

func TestTemplatesRenderEveryEvent(t *testing.T) {
	set, err := Load(moscow)
	if err != nil {
		t.Fatal(err)
	}
	g, byKind, _ := footballGame(t)
	renders := []struct{ name, kind string }{
		{"game_started", rules.KindGameStarted}, {"turn_opened", rules.KindTurnOpened}, {"rolled", rules.KindRolled}, {"rolled", "yellow"},
		{"question_pm", "question"}, {"attack_declared", rules.KindAttackDeclared}, {"attack_pm", rules.KindAttackDeclared},
		{"defence_rolled", rules.KindDefenceRolled}, {"defence_pm", rules.KindDefenceRolled}, {"points_spent", rules.KindPointsSpent},
		{"answer_judged", rules.KindAnswerJudged}, {"question_expired", rules.KindQuestionExpired},
		{"turn_closed", rules.KindTurnClosed}, {"game_ended", rules.KindGameEnded},
	}
	kinds := map[string]bool{}
	var golden strings.Builder
	for _, r := range renders {
		ev, ok := byKind[r.kind]
		if !ok {
			t.Fatalf("the game produced no %s", r.kind)
		}
		kinds[r.kind] = true
		out, err := set.Render(r.name, view(g, "Петя", ev))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		checkRussian(t, r.name, out)
		golden.WriteString("=== " + r.name + "\n" + out + "\n")
	}
	for _, k := range []string{rules.KindGameStarted, rules.KindTurnOpened, rules.KindRolled, rules.KindAttackDeclared, rules.KindDefenceRolled,
		rules.KindPointsSpent, rules.KindAnswerJudged, rules.KindQuestionExpired, rules.KindTurnClosed, rules.KindGameEnded} {
		if !kinds[k] {
			t.Errorf("no template renders %s", k)
		}
	}
	// the referee's own situations (game.RefereeTemplates)
	for _, name := range []string{"start", "help", "unreadable", "not_in_roster", "dispute", "paused", "pm_unknown",
		"pause", "resume", "undone", "mod_rejected", "mod_accepted", "mod_kept", "seed_reveal"} {
		v := view(g, "Петя", byKind[rules.KindRolled])
		if name == "start" {
			v.Event = byKind[rules.KindGameStarted]
		}
		v.Mod = &game.ModCommand{By: "Модератор", Reason: "проверка", Flag: game.FlagDispute}
		v.Fair = game.Fair{Commitment: "abc123", Seed: "32", Salt: "соль"}
		v.Lines = []*grammar.LineError{{LineNo: 1, Line: "Атакуем Команда 2", Kind: "attack", Reason: grammar.ReasonNoNumber}}
		out, err := set.Render(name, v)
		if err != nil {
			t.Fatal(err)
		}
		checkRussian(t, name, out)
		golden.WriteString("=== " + name + "\n" + out + "\n")
	}
	// spot checks of what the rules need said
	text, _ := set.Render("turn_closed", view(g, "", byKind[rules.KindTurnClosed]))
	if !strings.Contains(text, "атака 3 + 5 = 8, защита 4 = 4") || !strings.Contains(text, "ГОЛ") {
		t.Errorf("turn_closed does not give both totals:\n%s", text)
	}
	end, _ := set.Render("game_ended", view(g, "", byKind[rules.KindGameEnded]))
	e := byKind[rules.KindGameEnded].(*rules.GameEnded)
	if !strings.Contains(end, e.Reveal[0].Salt) || !strings.Contains(end, e.Reveal[0].Commitment) || !strings.Contains(end, " 37:3") {
		t.Errorf("game_ended does not reveal the mapping and salt:\n%s", end)
	}
	goldenCheck(t, "testdata/events.golden", golden.String())
}

func TestEveryProblemAndReason(t *testing.T) {
	set, err := Load(moscow)
	if err != nil {
		t.Fatal(err)
	}
	next := time.Date(2026, 12, 1, 20, 30, 0, 0, moscow)
	var golden strings.Builder
	seen := map[string]string{}
	for _, c := range rules.AllCodes {
		p := rules.Problem{Code: c, Team: "Команда 1", Target: "Команда 2", Other: "Вася", Number: 37, Count: 63,
			Group: 1, Cell: 5, Cells: []int{6, 12, 15}, Teams: []string{"Команда 2"}, Turn: 2, Next: &next, Detail: "advance"}
		v := view(nil, "Петя", nil)
		v.Problems = []rules.Problem{p}
		out, err := set.Render("refused", v)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		checkRussian(t, string(c), out)
		if o, dup := seen[out]; dup {
			t.Errorf("%s and %s render the same text", c, o)
		}
		seen[out] = string(c)
		golden.WriteString("=== " + string(c) + "\n" + out + "\n")
	}
	// the window refusal names the next window's time
	p := rules.Problem{Code: rules.CodeWindowClosed, Next: &next, Turn: 2}
	v := view(nil, "Петя", nil)
	v.Problems = []rules.Problem{p}
	if out, _ := set.Render("refused", v); !strings.Contains(out, "20:30") {
		t.Errorf("window_closed: %s", out)
	}
	for _, r := range grammar.AllReasons {
		for _, kind := range []string{"roll", "attack", "defence", "points"} {
			le := &grammar.LineError{LineNo: 1, Line: "Атакуем [b]Команда 2[/b]", Kind: kind, Reason: r}
			v := view(nil, "Петя", nil)
			v.Lines = []*grammar.LineError{le}
			out, err := set.Render("unreadable", v)
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			checkRussian(t, string(r), out)
			if strings.Contains(out, "[b]") {
				t.Errorf("player text not escaped: %s", out)
			}
			if kind == "attack" {
				golden.WriteString("=== " + string(r) + "\n" + out + "\n")
			}
		}
	}
	goldenCheck(t, "testdata/problems.golden", golden.String())
}

func checkRussian(t *testing.T, name, out string) {
	t.Helper()
	if strings.TrimSpace(out) == "" || strings.Contains(out, "<no value>") || strings.Contains(out, "%!") {
		t.Errorf("%s: bad render %q", name, out)
	}
	cyr := 0
	for _, r := range out {
		if r >= 'а' && r <= 'я' {
			cyr++
		}
	}
	if cyr < 10 {
		t.Errorf("%s: hardly Russian: %q", name, out)
	}
}

func goldenCheck(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update after checking the change):\n%s", path, got)
	}
}

func TestLoadNeedsAZone(t *testing.T) {
	if _, err := Load(nil); err == nil {
		t.Fatal("no zone accepted")
	}
}
