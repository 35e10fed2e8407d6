package football

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/football/rules"
	"forumgm/parser"
	"forumgm/referee"
)

var msk = time.FixedZone("MSK", 3*3600)

func at(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, msk) }

const teamsYAML = `teams:
  - {name: Команда 1, captain: Вася, members: [Петя]}
  - {name: Команда 2, captain: Гоша, members: [Саша]}
  - {name: Команда 3, captain: Катя}
  - {name: Команда 4, captain: Дима}
`

// specOf is a game's own keys as YAML.
func specOf(t testing.TB, src string) game.Spec {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return game.Spec{Node: *doc.Content[0], Start: at(19, 0)}
}

// match is a started referee of a game with the teams above, turn 1 at 20:00, Команда 1 on an
// attack cell and the faces of some numbers fixed.
type match struct {
	t    testing.TB
	ref  *referee.Referee
	last time.Time
	log  []game.Event
}

func newGame(t testing.TB, extra string, noPM bool) *match {
	t.Helper()
	src := teamsYAML + `settings:
  first_turn: "2026-12-01T20:00:00+03:00"
  start_cells: {Команда 1: 6}
  points: {Команда 1: 3}
  dice: {58: 4, 12: 3, 37: 3, 40: 2}
` + extra
	sp := specOf(t, src)
	sp.NoPM = noPM
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "7", Salt: "s", NoPM: noPM})
	if err != nil {
		t.Fatal(err)
	}
	g := &match{t: t, ref: ref, last: at(19, 0)}
	out, err := ref.Start(at(19, 0))
	if err != nil {
		t.Fatal(err)
	}
	g.log = append(g.log, out.Events...)
	return g
}

// post judges a post (advancing the clock to it first).
func (g *match) post(when time.Time, author string, private bool, text string) game.Outcome {
	g.t.Helper()
	g.advance(when)
	src := game.Thread
	if private {
		src = game.PM
	}
	out, err := g.ref.Judge(game.Input{Source: src, PostID: "p", Author: author, At: when, Post: parser.FromBBCode(text)})
	if err != nil {
		g.t.Fatal(err)
	}
	g.log = append(g.log, out.Events...)
	return out
}

// moderate carries out a moderator command, keeping its events.
func (g *match) moderate(cmd game.ModCommand) (game.Outcome, error) {
	out, err := g.ref.Moderate(cmd)
	g.log = append(g.log, out.Events...)
	return out, err
}

func (g *match) advance(to time.Time) {
	g.t.Helper()
	var err error
	g.last, err = g.ref.Advance(g.last, to, func(_ time.Time, o game.Outcome) error {
		g.log = append(g.log, o.Events...)
		return nil
	})
	if err != nil {
		g.t.Fatal(err)
	}
}

func (g *match) final() rules.Final { return g.ref.Snapshot().(rules.Final) }

func TestSetupReportsEveryProblem(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"no teams":          {"board: default\n", "teams: no teams"},
		"unknown key":       {teamsYAML + "colour: red\n", "colour"},
		"unknown setting":   {teamsYAML + "settings: {speed: 3}\n", "speed"},
		"bad zone":          {teamsYAML + "settings: {first_turn: \"2026-12-01T20:00:00+03:00\", timezone: Mars/Olympus}\n", "Mars/Olympus"},
		"no first turn":     {teamsYAML, "first_turn is not set"},
		"board file":        {teamsYAML + "board: nowhere.yaml\nsettings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n", "board:"},
		"question file":     {teamsYAML + "questions: nowhere.yaml\nsettings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n", "question bank"},
		"both first turns":  {teamsYAML + "settings: {first_turn: \"2026-12-01T20:00:00+03:00\", first_turn_after: 2m}\n", "not both"},
		"bad first after":   {teamsYAML + "settings: {first_turn_after: soon}\n", "first_turn_after"},
		"team twice":        {"teams: [{name: А, captain: Вася}, {name: Б, captain: Вася}]\nsettings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n", "in both"},
		"unknown dice team": {teamsYAML + "settings: {first_turn: \"2026-12-01T20:00:00+03:00\", points: {Команда 9: 1}}\n", "no team"},
	}
	for name, c := range cases {
		_, err := Game{}.Setup(specOf(t, c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", name, err, c.want)
		}
	}
	// several problems at once are all reported
	_, err := Game{}.Setup(specOf(t, "board: nowhere.yaml\nsettings: {timezone: Mars/Olympus}\n"))
	for _, want := range []string{"teams", "board", "Mars/Olympus"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not report %s", err, want)
		}
	}
	// config.yaml gives the zone in game.timezone: the settings must not repeat it
	sp := specOf(t, teamsYAML+"settings: {first_turn: \"2026-12-01T20:00:00+03:00\", timezone: Europe/Moscow}\n")
	sp.Timezone = "Europe/Moscow"
	if _, err := (Game{}).Setup(sp); err == nil || !strings.Contains(err.Error(), "game.timezone") {
		t.Errorf("timezone in both places: %v", err)
	}
}

// Files named in the spec resolve against its folder; the players are every captain and member.
func TestSetupFiles(t *testing.T) {
	dir := t.TempDir()
	board := "cells: 12\nstarts: {1: 1, 2: 7}\nkinds: {3: question, 4: {attack: 1}, 10: {attack: 2}}\n"
	bank := "questions: [{text: \"Сколько игроков в команде?\", answers: [\"11\", \"одиннадцать\"]}]\n"
	if err := os.WriteFile(filepath.Join(dir, "board.yaml"), []byte(board), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bank.yaml"), []byte(bank), 0o644); err != nil {
		t.Fatal(err)
	}
	sp := specOf(t, teamsYAML+"board: board.yaml\nquestions: bank.yaml\nsettings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n")
	sp.Dir = dir
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(setup.Players, ","); got != "Вася,Петя,Гоша,Саша,Катя,Дима" {
		t.Errorf("players %s", got)
	}
	rules, err := setup.New()
	if err != nil {
		t.Fatal(err)
	}
	g := rules.(*Rules).Game()
	if g.Board().Size != 12 || len(g.Settings().Questions) != 1 {
		t.Errorf("board of %d cells, %d questions: the files were not read", g.Board().Size, len(g.Settings().Questions))
	}
}

// The sandbox's keys set up a game whose first turn is two minutes after its start, on a minute.
func TestSandboxSpec(t *testing.T) {
	sb := Game{}.Sandbox()
	sp := specOf(t, sb.Spec)
	sp.Start = time.Date(2026, 12, 1, 19, 0, 30, 0, msk)
	sp.Timezone = "Europe/Moscow"
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	logins := map[string]bool{}
	for _, u := range sb.Players {
		logins[u.Name] = true
	}
	for _, p := range setup.Players {
		if !logins[p] {
			t.Errorf("%s plays but has no sandbox login", p)
		}
	}
	if len(setup.Players) != 8 || len(sb.Players) != 8 {
		t.Errorf("want four teams of two with logins: %v", setup.Players)
	}
	rules, _ := setup.New()
	open, close, _ := rules.(*Rules).Game().Opens(1)
	if want := time.Date(2026, 12, 1, 19, 3, 0, 0, msk); !open.Equal(want) || close.Sub(open) != 3*time.Minute {
		t.Errorf("turn 1 %s..%s, want %s for 3 minutes", open, close, want)
	}
}

// The opening post carries the seed's commitment, the groups of a split by the roster (nothing
// random) and the first turn; the die table is drawn and committed in the reply to the first
// player post, not before.
func TestStartPost(t *testing.T) {
	sp := specOf(t, teamsYAML+"settings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n")
	setup, err := Game{}.Setup(sp)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := referee.New(setup, referee.Options{Seed: "7", Salt: "s"})
	out, err := ref.Start(at(19, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Events) != 0 || len(out.Messages) != 1 {
		t.Fatalf("start: %d events (the start draws nothing), %d messages", len(out.Events), len(out.Messages))
	}
	body := out.Messages[0].Body
	if !strings.Contains(body, game.Commitment("7", "s")) || !strings.Contains(body, "«Команда 3» — группа 2") ||
		!strings.Contains(body, "первый ход — в 20:00") || !strings.Contains(body, "Жеребьёвка — по первому посту игрока") {
		t.Errorf("the commitment, the groups, the first turn and when the table is drawn are in the opening post:\n%s", body)
	}
	if strings.Contains(body, "Отпечаток таблицы") {
		t.Errorf("the opening post commits to a die table drawn before any player post:\n%s", body)
	}
	first, err := ref.Judge(game.Input{Source: game.Thread, PostID: "10", Author: "Петя", At: at(19, 30), Post: parser.FromBBCode("Готовы!")})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Events) != 1 || len(first.Messages) != 1 {
		t.Fatalf("the first post: %d events, %d messages", len(first.Events), len(first.Messages))
	}
	started := first.Events[0].(*rules.GameStarted)
	if started.Draws[0].K != 1 {
		t.Errorf("the table was drawn under chain position %d, want 1 (the first post)", started.Draws[0].K)
	}
	reply := first.Messages[0].Body
	if !strings.Contains(reply, started.Dice.Commitment) || strings.Contains(reply, rules.MappingText(started.Dice.Faces)) {
		t.Errorf("the reply to the first post commits to the table without giving it away:\n%s", reply)
	}
	// the next post draws nothing more
	if again, err := ref.Judge(game.Input{Source: game.Thread, PostID: "11", Author: "Гоша", At: at(19, 31), Post: parser.FromBBCode("Мы тоже")}); err != nil || len(again.Events) != 0 {
		t.Errorf("the second post: %v, %d events", err, len(again.Events))
	}
	if next, ok := ref.NextTimer(at(19, 31)); !ok || !next.Equal(at(20, 0)) {
		t.Errorf("next timer %s, want turn 1 at 20:00", next)
	}
}

// TestStartDrawsFollowTheFirstPost: two games with the same seed whose first player posts differ
// split the groups and draw the table differently; the opening post names no group (nothing
// was drawn), and the first post, whatever it says, fixes the draws before it is judged.
func TestStartDrawsFollowTheFirstPost(t *testing.T) {
	const teams8 = `teams:
  - {name: Команда 1, captain: А1}
  - {name: Команда 2, captain: А2}
  - {name: Команда 3, captain: А3}
  - {name: Команда 4, captain: А4}
  - {name: Команда 5, captain: А5}
  - {name: Команда 6, captain: А6}
  - {name: Команда 7, captain: А7}
  - {name: Команда 8, captain: А8}
settings: {first_turn: "2026-12-01T20:00:00+03:00", group_split: random}
`
	start := func(text string) (string, *rules.GameStarted) {
		t.Helper()
		setup, err := Game{}.Setup(specOf(t, teams8))
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := referee.New(setup, referee.Options{Seed: "same-seed", Salt: "s"})
		open, err := ref.Start(at(19, 0))
		if err != nil || len(open.Events) != 0 {
			t.Fatalf("start: %v, %d events", err, len(open.Events))
		}
		if body := open.Messages[0].Body; strings.Contains(body, "» — группа") || strings.Contains(body, "Отпечаток таблицы") {
			t.Errorf("the opening post shows a draw:\n%s", body)
		}
		// a roll before turn 1 is refused, yet the post fixes the start's draws
		out, err := ref.Judge(game.Input{Source: game.Thread, PostID: "5", Author: "А1", At: at(19, 10), Post: parser.FromBBCode(text)})
		if err != nil || len(out.Events) != 1 {
			t.Fatalf("first post: %v, %d events", err, len(out.Events))
		}
		return out.Messages[0].Body, out.Events[0].(*rules.GameStarted)
	}
	b1, s1 := start("Бросаю 37")
	b2, s2 := start("Бросаю 38")
	if !strings.Contains(b1, "время хода закрыто") || !strings.Contains(b1, "Жеребьёвка по первому посту") {
		t.Errorf("the reply announces the draws and refuses the early roll:\n%s", b1)
	}
	split := func(s *rules.GameStarted) string {
		var b strings.Builder
		for _, ts := range s.Teams {
			b.WriteString(ts.Name + ":" + string(rune('0'+ts.Group)) + " ")
		}
		return b.String()
	}
	if split(s1) == split(s2) && rules.MappingText(s1.Dice.Faces) == rules.MappingText(s2.Dice.Faces) {
		t.Errorf("the same seed with different first posts drew the same start: %s", split(s1))
	}
	if rules.MappingText(s1.Dice.Faces) == rules.MappingText(s2.Dice.Faces) {
		t.Error("the first die table does not depend on the first post")
	}
	if !strings.Contains(b1, "» — группа 1") || !strings.Contains(b2, s2.Dice.Commitment) {
		t.Errorf("the reply lists the drawn groups and the table's commitment:\n%s", b1)
	}
}

func TestReadAndAnswer(t *testing.T) {
	g := newGame(t, "", false)
	cases := []struct {
		when         time.Time
		author       string
		private      bool
		text         string
		verdict      game.Verdict
		to, contains string
		moreReplies  int
	}{
		{at(20, 1), "Петя", false, "Атакуем команду 2 — 58", game.Accepted, "", "атакует ворота команды «Команда 2»", 1},
		{at(20, 2), "Петя", true, "+2 к атаке", game.Refused, "Петя", "капитан", 0},
		{at(20, 2), "Вася", false, "+2 к атаке", game.Refused, "", "личным сообщением", 0},
		{at(20, 3), "Вася", true, "добавляю 5 баллов к атаке", game.Accepted, "Вася", "просили 5, но на счету было только 3", 0},
		{at(20, 4), "Саша", false, "Защищаемся 12", game.Accepted, "", "защищается", 1},
		{at(20, 5), "Гоша", true, "+1 к защите", game.Refused, "Гоша", "нет игровых баллов", 0},
		{at(20, 6), "Гоша", true, "как дела?", game.Ignored, "Гоша", "не понял это сообщение", 0},
		{at(20, 6), "Гоша", true, "Ответ: Пеле", game.Refused, "Гоша", "нет открытого вопроса", 0},
		{at(20, 7), "Незнакомец", true, "Пеле", game.Ignored, "Незнакомец", "не понял это сообщение", 0},
		{at(20, 7), "Незнакомец", false, "Бросаю 40", game.Flagged, "", "не записаны", 0},
		{at(20, 8), "Катя", false, "бросаю 37 или 38", game.Flagged, "", "назовите одно", 0},
		{at(20, 8), "Катя", false, "справка", game.Accepted, "", "Как ходить", 0},
		{at(20, 8), "Катя", false, "Ход принят, ждём", game.Ignored, "", "", 0},
		{at(20, 9), "Катя", true, "Бросаю 37", game.Refused, "Катя", "в теме игры", 0},
	}
	for i, c := range cases {
		out := g.post(c.when, c.author, c.private, c.text)
		if out.Verdict != c.verdict {
			t.Errorf("%d %q: verdict %s, want %s (%+v)", i, c.text, out.Verdict, c.verdict, out.Messages)
			continue
		}
		if c.contains == "" {
			if len(out.Messages) != 0 {
				t.Errorf("%d %q: chatter answered: %+v", i, c.text, out.Messages)
			}
			continue
		}
		if len(out.Messages) != 1+c.moreReplies {
			t.Errorf("%d %q: %d messages, want %d", i, c.text, len(out.Messages), 1+c.moreReplies)
			continue
		}
		m := out.Messages[0]
		if m.To != c.to || !strings.Contains(m.Body, c.contains) {
			t.Errorf("%d %q: to %q %q, want to %q with %q", i, c.text, m.To, m.Body, c.to, c.contains)
		}
	}
	// the attack's and the defence's faces went to the captains
	if f := g.final(); f.Teams["Команда 1"].Points != 0 {
		t.Errorf("points after spending all: %d", f.Teams["Команда 1"].Points)
	}
	g.advance(at(20, 10))
	f := g.final()
	if f.Teams["Команда 1"].GoalsFor != 1 { // 4 + 3 against 3
		t.Errorf("attack 7 against defence 3 must score: %+v", f.Teams)
	}
}

// Private faces and questions go to the captain by private message, or to the thread on a forum
// without private messages (where the captain's points come in the thread).
func TestPrivateMessages(t *testing.T) {
	g := newGame(t, "", false)
	out := g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	if len(out.Messages) != 2 || out.Messages[1].To != "Вася" || out.Messages[1].Subject == "" || !strings.Contains(out.Messages[1].Body, "на кубике 4") {
		t.Errorf("the face goes to the captain privately: %+v", out.Messages)
	}
	if strings.Contains(out.Messages[0].Body, "на кубике") {
		t.Errorf("the thread learns the attack's face: %q", out.Messages[0].Body)
	}

	g = newGame(t, "", true)
	out = g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	if len(out.Messages) != 2 || out.Messages[1].To != "" {
		t.Errorf("without private messages the face goes to the thread: %+v", out.Messages)
	}
	out = g.post(at(20, 2), "Вася", false, "+1 к атаке")
	if out.Verdict != game.Accepted || out.Messages[0].To != "" {
		t.Errorf("without private messages points come in the thread: %s %+v", out.Verdict, out.Messages)
	}
}

// A moderator may undo an attack: the number is free again and the team may move.
func TestUndoAttack(t *testing.T) {
	g := newGame(t, "", false)
	before := g.final()
	g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	out, err := g.ref.Moderate(game.ModCommand{Action: game.ModUndo, By: "Мод", Reason: "ошибка", At: at(20, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Messages[0].Body, "Модератор отменил ход команды «Команда 1»: ошибка") {
		t.Errorf("undo reply: %q", out.Messages[0].Body)
	}
	if after := g.final(); len(after.Used) != len(before.Used) {
		t.Errorf("used after the undo %v, before %v", after.Used, before.Used)
	}
	if out := g.post(at(20, 3), "Петя", false, "Бросаю 58"); out.Verdict != game.Accepted {
		t.Errorf("after the undo the team moves again with the same number: %s %+v", out.Verdict, out.Messages)
	}
}

// A moderator may not undo a move whose face is public (issue 20): a roll (posted at once), an
// attack without private messages (posted in the thread), an attack of a closed turn (the close
// posts every face). The number stays used, so the team cannot pick another.
func TestUndoPublicFace(t *testing.T) {
	undo := func(g *match, when time.Time) error {
		_, err := g.ref.Moderate(game.ModCommand{Action: game.ModUndo, By: "Мод", Reason: "ошибка", At: when})
		return err
	}
	g := newGame(t, "", false)
	if out := g.post(at(20, 1), "Катя", false, "Бросаю 37"); out.Verdict != game.Accepted {
		t.Fatalf("roll: %s %+v", out.Verdict, out.Messages)
	}
	if err := undo(g, at(20, 2)); !errors.Is(err, referee.ErrNothingToUndo) {
		t.Errorf("a public roll undone: %v", err)
	}
	if out := g.post(at(20, 3), "Катя", false, "Бросаю 12"); out.Verdict == game.Accepted {
		t.Errorf("after a refused undo the team moved again: %+v", out.Messages)
	}

	g = newGame(t, "", true)
	g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	if err := undo(g, at(20, 2)); !errors.Is(err, referee.ErrNothingToUndo) {
		t.Errorf("an attack whose face went to the thread undone: %v", err)
	}

	g = newGame(t, "", false)
	g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	g.post(at(20, 2), "Вася", true, "+1 к атаке")
	g.advance(at(23, 59))
	closed := false
	for _, ev := range g.log {
		_, ok := ev.(*rules.TurnClosed)
		closed = closed || ok
	}
	if !closed {
		t.Fatal("turn 1 did not close by 23:59")
	}
	if err := undo(g, at(23, 59)); !errors.Is(err, referee.ErrNothingToUndo) {
		t.Errorf("a move of a closed turn undone: %v", err)
	}
}

// A moderator's end ranks by the formula and reveals the table and the seed.
func TestModeratorEnd(t *testing.T) {
	// before any player post nothing was drawn: the end still works, with no table to reveal
	early := newGame(t, "", false)
	early.advance(at(20, 0))
	out, err := early.ref.Moderate(game.ModCommand{Action: game.ModEnd, By: "Мод", Reason: "никто не пришёл", At: at(20, 5)})
	if err != nil || !early.final().Finished || strings.Contains(out.Messages[0].Body, "Таблица кубика №1") {
		t.Fatalf("an end before the start's draws: %v\n%v", err, out.Messages)
	}
	g := newGame(t, "", false)
	g.post(at(20, 1), "Петя", false, "Всем привет")
	out, err = g.ref.Moderate(game.ModCommand{Action: game.ModEnd, By: "Мод", Reason: "все ушли", At: at(20, 5)})
	if err != nil {
		t.Fatal(err)
	}
	body := out.Messages[0].Body
	for _, want := range []string{"окончена модератором: все ушли", "Таблица кубика №1", "Зерно партии: 7, соль: s"} {
		if !strings.Contains(body, want) {
			t.Errorf("end post lacks %q:\n%s", want, body)
		}
	}
	if !g.final().Finished {
		t.Error("not finished")
	}
}

func TestVerify(t *testing.T) {
	g := newGame(t, "", false)
	g.post(at(20, 1), "Петя", false, "Атакуем Команда 2, 58")
	g.post(at(20, 2), "Катя", false, "Бросаю 37")
	if err := Verify(g.log); err != nil {
		t.Fatalf("a running game's log: %v", err)
	}
	g.advance(at(23, 0))
	if _, err := g.moderate(game.ModCommand{Action: game.ModEnd, By: "Мод", At: at(23, 1)}); err != nil {
		t.Fatal(err)
	}
	if err := Verify(g.log); err != nil {
		t.Fatalf("an honest log: %v", err)
	}

	tamper := func(name string, change func(evs []game.Event) []game.Event, want string) {
		t.Helper()
		evs := change(clone(t, g.log))
		if err := Verify(evs); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", name, err, want)
		}
	}
	tamper("a roll's face", func(evs []game.Event) []game.Event {
		for _, ev := range evs {
			if r, ok := ev.(*rules.Rolled); ok {
				r.Face = r.Face%6 + 1
			}
		}
		return evs
	}, "gave")
	tamper("the table drawn", func(evs []game.Event) []game.Event {
		for _, ev := range evs {
			if s, ok := ev.(*rules.GameStarted); ok {
				s.Dice.Faces[36] = s.Dice.Faces[36]%6 + 1
			}
		}
		return evs
	}, "commitment")
	tamper("the revealed table", func(evs []game.Event) []game.Event {
		for _, ev := range evs {
			if e, ok := ev.(*rules.GameEnded); ok {
				e.Reveal[0].Salt = "другая"
			}
		}
		return evs
	}, "do not match")
	tamper("no start", func(evs []game.Event) []game.Event {
		var out []game.Event
		for _, ev := range evs {
			if _, ok := ev.(*rules.GameStarted); !ok {
				out = append(out, ev)
			}
		}
		return out
	}, "never")
}

// clone deep-copies events through their JSON.
func clone(t *testing.T, evs []game.Event) []game.Event {
	t.Helper()
	var out []game.Event
	for _, ev := range evs {
		rec, err := game.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(rec.Kind, "judge.") {
			continue
		}
		back, err := rules.DecodeEvent(rec.Kind, rec.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, back)
	}
	return out
}

func TestRequiredTemplates(t *testing.T) {
	g := newGame(t, "", false)
	rules := g.ref.Rules()
	for _, n := range rules.Required() {
		if !rules.Defined(n) {
			t.Errorf("no template %q", n)
		}
	}
}

// TestExpectsPrivate: before the first turn nothing private is due; with a turn open and points
// to spend (Команда 1 has 3), the captain's points may come privately.
func TestExpectsPrivate(t *testing.T) {
	g := newGame(t, "", false)
	if g.ref.ExpectsPrivate(at(19, 30)) {
		t.Error("before the first turn: a private message expected")
	}
	g.post(at(20, 1), "Петя", false, "Начинаем!") // the start's draws: the teams stand on the field
	if !g.ref.ExpectsPrivate(at(20, 1)) {
		t.Error("a turn open, points to spend: none expected")
	}
}

// The opening post and the help name the attack cells of each group up front (a newcomer should
// not learn them from a refusal), the question and yellow-card cells too.
func TestAttackCellsUpFront(t *testing.T) {
	g := newGame(t, "", false)
	setup, err := Game{}.Setup(specOf(t, teamsYAML+"settings: {first_turn: \"2026-12-01T20:00:00+03:00\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "7", Salt: "s"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := ref.Start(at(19, 0))
	if err != nil {
		t.Fatal(err)
	}
	help := g.post(at(19, 5), "Петя", false, "помощь")
	for where, body := range map[string]string{"opening post": out.Messages[0].Body, "help": help.Messages[0].Body} {
		if !strings.Contains(body, "Ячейки атаки: группа 1 — 6, 12, 15; группа 2 — 23, 29, 32.") {
			t.Errorf("the %s does not name the attack cells:\n%s", where, body)
		}
	}
}
