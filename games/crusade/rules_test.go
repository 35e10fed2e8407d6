package crusade

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/grammar"
	"forumgm/games/crusade/rules"
	"forumgm/parser"
	"forumgm/referee"
)

// CrusadeOptions build a referee straight from the engine's values (the tests' positions).
type CrusadeOptions struct {
	Settings rules.Settings
	Roster   rules.Roster
	Setup    rules.Setup
	Bot      string
	NoPM     bool
}

// tref is a referee with the test's options and access to the engine.
type tref struct {
	*referee.Referee
	opt CrusadeOptions
}

func (c *tref) rules() *Rules          { return c.Referee.Rules().(*Rules) }
func (c *tref) game() *rules.Game      { return c.rules().game }
func (c *tref) view(*game.Input) *View { return c.rules().view(game.Context{}) }

var msk = time.FixedZone("MSK", 3*3600)

func at(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, msk) }

func newRef(t testing.TB, mut ...func(*CrusadeOptions)) *tref {
	t.Helper()
	s := rules.DefaultSettings()
	s.BoardRequired = false
	s.Questions = []rules.Question{{Text: "Сколько воинов в армии?", Answers: []string{"15", "пятнадцать"}}}
	opt := CrusadeOptions{
		Settings: s,
		Roster: rules.Roster{Players: []rules.Player{
			{Name: "Джелу", Side: rules.Crusaders},
			{Name: "snovaya", Side: rules.Saracens},
		}},
		Setup: rules.Setup{Mode: rules.SetupDefault, At: at(18, 0)},
		Bot:   "gm-bot",
	}
	for _, m := range mut {
		m(&opt)
	}
	set, err := loadVoice()
	if err != nil {
		t.Fatal(err)
	}
	if opt.NoPM {
		opt.Settings.ForestInvisible = false
	}
	setup := &game.Setup{New: func() (game.Rules, error) {
		g, err := rules.New(opt.Settings, opt.Roster, opt.Setup)
		if err != nil {
			return nil, err
		}
		return &Rules{Engine: g, game: g, tmpl: set, noPM: opt.NoPM}, nil
	}}
	for _, p := range opt.Roster.Players {
		setup.Players = append(setup.Players, p.Name) // as the config's setup lists them
	}
	ref, err := referee.New(setup, referee.Options{Bot: opt.Bot, NoPM: opt.NoPM, Seed: "1", Salt: "s"})
	if err != nil {
		t.Fatal(err)
	}
	return &tref{Referee: ref, opt: opt}
}

func post(author string, when time.Time, text string) game.Input {
	return game.Input{Source: game.Thread, PostID: when.Format("1504"), Author: author, At: when, Post: parser.FromBBCode(text)}
}

func mustJudge(t *testing.T, c *tref, in game.Input, want game.Verdict) game.Outcome {
	t.Helper()
	out, err := c.Judge(in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != want {
		t.Fatalf("%q: verdict %s, want %s; messages %+v", in.Post.Text, out.Verdict, want, out.Messages)
	}
	return out
}

// Every refusal code, parser reason and sloppiness code has its Russian template.
func TestTemplatesCoverEveryCode(t *testing.T) {
	c := newRef(t)
	v := c.view(nil)
	cell := rules.Cell{Row: 6, Col: 5}
	for _, code := range rules.AllCodes {
		p := rules.Problem{Code: code, Warrior: "н2", Other: "р1", Side: rules.Saracens, Cell: &cell, From: &cell,
			Cells: []rules.Cell{cell}, Count: 2, Limit: 1, Missing: []rules.WarriorID{"р1"}, Owner: "snovaya"}
		s, err := renderProblem(p, v)
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if s == "" || !hasCyrillic(s) {
			t.Errorf("%s: empty or not Russian: %q", code, s)
		}
	}
	for _, r := range []grammar.Reason{grammar.ReasonUnknownRow, grammar.ReasonBadColumn, grammar.ReasonUnknownWarrior, grammar.ReasonNoWarrior,
		grammar.ReasonNoDestination, grammar.ReasonNoTarget, grammar.ReasonChargeNeedsCell, grammar.ReasonManyWarriors, grammar.ReasonNoStat, grammar.ReasonBadCount, grammar.ReasonUnknownWord} {
		if s, err := renderLineError(&grammar.LineError{Reason: r, Token: "Z9", Row: "Z", Col: 21}); err != nil || !hasCyrillic(s) {
			t.Errorf("reason %s: %q %v", r, s, err)
		}
	}
	for _, sc := range rules.AllSloppyCodes {
		if s, err := renderSloppy(rules.Sloppiness{Code: sc, Warrior: "н2", Stated: 1, Expected: 2}); err != nil || !hasCyrillic(s) {
			t.Errorf("sloppy %s: %q %v", sc, s, err)
		}
	}
}

func hasCyrillic(s string) bool {
	for _, r := range s {
		if r >= 'а' && r <= 'я' {
			return true
		}
	}
	return false
}

func TestJudgeVerdicts(t *testing.T) {
	cases := []struct {
		name, author, text string
		want               game.Verdict
		reply              string // a fragment of the reply ("" = no reply)
		flag               game.FlagKind
	}{
		{"move", "Джелу", "1-й ход крестоносца к1 на K16", game.Accepted, "к1: K17 → K16", ""},
		{"latin look-alikes", "Джелу", "1-й ход крестоносца k1 на К16", game.Accepted, "к1: K17 → K16", ""},
		{"too far", "Джелу", "1-й ход к1 на K14", game.Refused, "к1 ходит не дальше чем на 1 клетку в любую сторону (и по диагонали), а K14 дальше; из K17 можно на", ""},
		{"out of turn", "snovaya", "1-й ход сарацина н2 на N3", game.Refused, "ходят крестоносцы", ""},
		{"chatter", "Джелу", "Всем привет, играем!", game.Ignored, "", ""},
		{"unreadable", "Джелу", "2-й ход крестоносца в1 на Z9", game.Flagged, "нет строки Z", game.FlagUnreadable},
		{"stranger", "Vasya", "1-й ход крестоносца к1 на K16", game.Flagged, "не записаны", game.FlagNotInRoster},
		{"dispute", "snovaya", "#спор ход был неправильный", game.Flagged, "передано модератору", game.FlagDispute},
		{"help", "Джелу", "помощь", game.Accepted, "Как писать ходы", ""},
		{"bot itself", "gm-bot", "1-й ход крестоносца к1 на K16", game.Ignored, "", ""},
		{"escaped", "Джелу", "1-й ход к1 на K14 [b]", game.Refused, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newRef(t)
			out := mustJudge(t, c, post(tc.author, at(19, 5), tc.text), tc.want)
			if tc.reply == "" && len(out.Messages) > 0 && tc.want == game.Ignored {
				t.Fatalf("ignored post got a reply: %+v", out.Messages)
			}
			if tc.reply != "" && (len(out.Messages) == 0 || !strings.Contains(out.Messages[0].Body, tc.reply)) {
				t.Fatalf("reply %+v lacks %q", out.Messages, tc.reply)
			}
			if tc.flag != "" && (len(out.Flags) != 1 || out.Flags[0].Kind != tc.flag) {
				t.Fatalf("flags %+v, want %s", out.Flags, tc.flag)
			}
			if tc.want != game.Accepted && len(out.Events) > 0 {
				t.Fatalf("a %s post produced events %+v", tc.want, out.Events)
			}
		})
	}
}

// Player text echoed back cannot open BBCode tags.
func TestEscapesPlayerNames(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) {
		o.Roster.Players[0].Name = "[url=x]Джелу"
	})
	out := mustJudge(t, c, post("[url=x]Джелу", at(19, 5), "1-й ход к1 на K14"), game.Refused)
	if strings.Contains(out.Messages[0].Body, "[url=x]") {
		t.Fatalf("name not escaped: %q", out.Messages[0].Body)
	}
}

// A private message is answered by private message; a refused post changes nothing.
func TestPrivateAllocationAndRefusalKeepsState(t *testing.T) {
	c := newRef(t)
	mustJudge(t, c, post("Джелу", at(19, 5), "1-й ход к1 на K16"), game.Accepted) // sloppy? no: board not required
	before, _ := c.game().SnapshotJSON()
	mustJudge(t, c, post("snovaya", at(19, 10), "1-й ход н2 на N5"), game.Refused)
	after, _ := c.game().SnapshotJSON()
	if string(before) != string(after) {
		t.Fatal("a refused post changed the state")
	}
	in := post("Джелу", at(19, 15), "ранение: р2 защита")
	in.Source = game.PM
	out, err := c.Judge(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 1 || out.Messages[0].To != "Джелу" {
		t.Fatalf("want a private answer to Джелу, got %+v", out.Messages)
	}
}

// The daily question: the first correct answer is accepted; a wrong explicit answer is told so;
// a wrong casual post is ignored.
func TestDailyQuestion(t *testing.T) {
	c := newRef(t)
	var asked bool
	_, err := c.Advance(at(18, 0), at(21, 15), func(when time.Time, out game.Outcome) error {
		for _, m := range out.Messages {
			if strings.Contains(m.Body, "Сколько воинов в армии?") {
				asked = true
				if !when.Equal(at(21, 10)) {
					t.Errorf("question asked at %s, want 21:10", when)
				}
			}
		}
		return nil
	})
	if err != nil || !asked {
		t.Fatalf("question not asked: %v", err)
	}
	mustJudge(t, c, post("snovaya", at(21, 16), "хм, сложно"), game.Ignored)
	out := mustJudge(t, c, post("snovaya", at(21, 17), "Ответ: двадцать"), game.Refused)
	if !strings.Contains(out.Messages[0].Body, "неверно") {
		t.Fatalf("wrong answer reply: %q", out.Messages[0].Body)
	}
	// a bare wrong answer gets the same "неверно"
	out = mustJudge(t, c, post("snovaya", at(21, 17), "Двадцать"), game.Refused)
	if !strings.Contains(out.Messages[0].Body, "неверно") {
		t.Fatalf("bare wrong answer reply: %q", out.Messages[0].Body)
	}
	// a natural answer is read and answered
	out = mustJudge(t, c, post("snovaya", at(21, 18), "Кажется, пятнадцать!"), game.Accepted)
	if !strings.Contains(out.Messages[0].Body, "Верно, snovaya") || !strings.Contains(out.Messages[0].Body, "первым") {
		t.Fatalf("right answer reply: %q", out.Messages[0].Body)
	}
	// the second side's answer says what it costs at midnight
	out = mustJudge(t, c, post("Джелу", at(21, 19), "15"), game.Accepted)
	if b := out.Messages[0].Body; !strings.Contains(b, "вторым") || !strings.Contains(b, "в 00:00 крестоносцам — 4 ранения") {
		t.Fatalf("second answer reply: %q", b)
	}
}

// The question post says how to answer and what a late answer costs (the settings' value).
func TestQuestionPostSaysHowToAnswer(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Settings.WoundsQuestion = 5 })
	var body string
	_, err := c.Advance(at(18, 0), at(21, 10), func(_ time.Time, out game.Outcome) error {
		for _, m := range out.Messages {
			if strings.Contains(m.Body, "Вопрос дня") {
				body = m.Body
			}
		}
		return nil
	})
	if err != nil || !strings.Contains(body, "«Ответ: …»") || !strings.Contains(body, "5 ранений") {
		t.Fatalf("question post: %q %v", body, err)
	}
}

// The event log rebuilds the same referee; moderator commands are logged and undo restores the
// position before the turn.
func TestRestoreAndModeration(t *testing.T) {
	c := newRef(t)
	var log []game.Event
	keep := func(out game.Outcome, err error) game.Outcome {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, out.Events...)
		return out
	}
	keep(c.Judge(post("Джелу", at(19, 5), "1-й ход к1 на K16")))
	beforeSecond, _ := c.game().SnapshotJSON()
	keep(c.Judge(post("snovaya", at(19, 10), "1-й ход н2 на N3")))
	out := keep(c.Moderate(game.ModCommand{Action: game.ModUndo, By: "Moderator", Reason: "ошибка", At: at(19, 20)}))
	if !strings.Contains(out.Messages[0].Body, "отменил последний ход (snovaya, сарацины)") {
		t.Fatalf("undo reply: %q", out.Messages[0].Body)
	}
	afterUndo, _ := c.game().SnapshotJSON()
	if string(afterUndo) != string(beforeSecond) {
		t.Fatalf("undo did not restore the position before the turn")
	}
	keep(c.Moderate(game.ModCommand{Action: game.ModPause, By: "Moderator", At: at(19, 25)}))
	if !c.Paused() {
		t.Fatal("not paused")
	}
	if _, ok := c.NextTimer(at(19, 25)); ok {
		t.Fatal("a paused game has no timers")
	}
	mustJudge(t, c, post("snovaya", at(19, 26), "1-й ход н2 на N3"), game.Refused)
	if _, err := c.Moderate(game.ModCommand{Action: game.ModPause, By: "Moderator", At: at(19, 27)}); err == nil {
		t.Fatal("pausing a paused game must fail")
	}
	keep(c.Moderate(game.ModCommand{Action: game.ModResume, By: "Moderator", At: at(19, 30)}))
	keep(c.Judge(post("snovaya", at(19, 31), "1-й ход н2 на N3")))

	// Rebuild from the stored form of the log.
	var recs []game.Record
	for _, ev := range log {
		r, err := game.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	c2 := newRef(t)
	if err := c2.Restore(recs); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(c.Snapshot())
	b, _ := json.Marshal(c2.Snapshot())
	if string(a) != string(b) || c2.Paused() != c.Paused() {
		t.Fatalf("restored state differs:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(kinds(log), []string{rules.KindTurnPlayed, rules.KindTurnPlayed, referee.KindUndone, referee.KindPaused, referee.KindResumed, rules.KindTurnPlayed}) {
		t.Fatalf("log kinds %v", kinds(log))
	}
}

func kinds(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventKind())
	}
	return out
}

func TestCellList(t *testing.T) {
	c := func(s string) rules.Cell { x, _ := rules.ParseCell(s); return x }
	cases := []struct {
		in   []rules.Cell
		want string
	}{
		{[]rules.Cell{c("F3"), c("F4"), c("F5"), c("G3"), c("G5"), c("H3"), c("H4"), c("H5"), c("G4")}, "F3..H5"},
		{[]rules.Cell{c("N1"), c("N2")}, "N1, N2"},
		{nil, "никуда"},
	}
	for _, tc := range cases {
		if got := cellList(tc.in); got != tc.want {
			t.Errorf("cellList(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A hidden forest move comes by private message: the player gets the details privately, the
// thread gets a notice and the board without the forest warriors; a meeting is revealed publicly.
func TestHiddenForestTurn(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) {
		o.Settings.ForestInvisible = true
		o.Setup = rules.Setup{Mode: rules.SetupCustom, At: at(18, 0), Cells: map[rules.WarriorID]rules.Cell{
			"р2": {Row: 2, Col: 12}, "р1": {Row: 1, Col: 7}, "ш1": {Row: 0, Col: 5}, "ш2": {Row: 10, Col: 2}}}
	})
	in := post("Джелу", at(19, 5), "1-й ход р2 на B11")
	in.Source = game.PM
	out := mustJudge(t, c, in, game.Accepted)
	if len(out.Messages) != 2 || out.Messages[0].To != "Джелу" || out.Messages[1].To != "" {
		t.Fatalf("want a private detail and a public notice, got %+v", out.Messages)
	}
	if strings.Contains(out.Messages[1].Body, "B11") || strings.Contains(out.Messages[1].Body, "|р2|") {
		t.Fatalf("the public notice gives the hidden move away: %q", out.Messages[1].Body)
	}
	if !strings.Contains(out.Messages[0].Body, "р2: C12 → B11") {
		t.Fatalf("the private reply lacks the move: %q", out.Messages[0].Body)
	}
	// The public notice starts the saracens' clock and states its deadline; the private reply
	// states none.
	if out.Messages[0].Clock != "" || out.Messages[1].Clock != rules.ClockKey(1, rules.Saracens) {
		t.Fatalf("clocks %q %q", out.Messages[0].Clock, out.Messages[1].Clock)
	}
	if got := c.Referee.FillDeadline(out.Messages[1].Body, out.Messages[1].Clock, at(19, 5)); !strings.HasSuffix(got, "Следующий ход: сарацины, срок хода — до 20:05.") {
		t.Fatalf("the notice's deadline: %q", got)
	}
	if got := c.Referee.FillDeadline(out.Messages[0].Body, out.Messages[0].Clock, at(19, 5)); strings.Contains(got, game.DeadlineSlot) || !strings.HasSuffix(got, "Следующий ход: сарацины.") {
		t.Fatalf("the private reply's end: %q", got)
	}
	in = post("snovaya", at(19, 10), "1-й ход ш1 на A6")
	in.Source = game.PM
	out = mustJudge(t, c, in, game.Accepted)
	if !strings.Contains(out.Messages[1].Body, "ш1 на A5, р1 на B7") {
		t.Fatalf("a meeting in the forest must be revealed publicly: %q", out.Messages[1].Body)
	}
}

// On a forum without private messages the game says what falls back to the thread, and a
// deployment posted in the thread is accepted.
func TestForumWithoutPM(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) {
		o.NoPM = true
		o.Settings.ForestInvisible = true
		o.Setup = rules.Setup{Mode: rules.SetupPrivate, At: at(12, 0)}
	})
	if c.opt.Settings.ForestInvisible {
		t.Fatal("invisible forests need private messages")
	}
	start, err := c.Start(at(12, 0))
	if err != nil || !strings.Contains(start.Messages[0].Body, "нет личных сообщений") || !strings.Contains(start.Messages[0].Body, "в тему") {
		t.Fatalf("start: %v %+v", err, start.Messages)
	}
	out := mustJudge(t, c, post("snovaya", at(12, 5), "расстановка: ш1 I1, ш2 J2, ш3 K2, в1 E4, в2 F4, в3 G4, в4 H4, в5 I4, в6 J4, в7 K4, в8 L4, н1 O1, н2 O2, н3 P1, н4 P2"), game.Accepted)
	if out.Messages[0].To != "" {
		t.Fatalf("no PMs: the answer goes to the thread: %+v", out.Messages)
	}
}

func TestUnknownPrivateMessageAnswered(t *testing.T) {
	c := newRef(t)
	in := post("snovaya", at(19, 5), "привет, когда начинаем?")
	in.Source = game.PM
	out := mustJudge(t, c, in, game.Ignored)
	if len(out.Messages) != 1 || out.Messages[0].To != "snovaya" || !strings.Contains(out.Messages[0].Body, "не понял") {
		t.Fatalf("a private message the game cannot use must be answered privately: %+v", out.Messages)
	}
}

// A quoted board that cannot be read is sloppiness, and the reply says where it breaks.
func TestUnreadableQuotedBoard(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Settings.BoardRequired = true })
	board := rules.Render(c.game().Tokens())
	lines := strings.Split(board, "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "-K") {
			lines[i] = strings.Replace(l, "|к1|", "|к1|__|", 1) // 21 cells in row K
		}
	}
	text := "[quote=gm-bot][code]\n" + strings.Join(lines, "\n") + "\n[/code][/quote]\n1-й ход крестоносца к1 на K16"
	out := mustJudge(t, c, post("Джелу", at(19, 5), text), game.Accepted)
	body := out.Messages[0].Body
	if !strings.Contains(body, "Поле в цитате не читается: строка K: 21 клетка вместо 20") {
		t.Fatalf("reply: %q", body)
	}
}

// The victory line names what decided the game: a commander dead of wounds names him; a draw by
// two victories at one close lists both and speaks to the moderators.
func TestVictoryTemplate(t *testing.T) {
	c := newRef(t)
	p18, i2 := rules.Cell{Row: 15, Col: 18}, rules.Cell{Row: 8, Col: 2}
	for _, tc := range []struct {
		vic  rules.Victory
		want []string
		not  []string
	}{
		{rules.Victory{Winner: rules.Saracens, Reason: rules.VictoryCommander, Warrior: "р1", Cell: &p18, Wounds: true},
			[]string{"Победа: сарацины", "Командующий р1 погиб от ранений"}, []string{"Модераторам"}},
		{rules.Victory{Winner: rules.Crusaders, Reason: rules.VictoryKills, Wounds: true},
			[]string{"Победа: крестоносцы", "14-й воин"}, nil},
		{rules.Victory{Winner: rules.Draw, Reason: rules.VictoryCommander, Wounds: true, Moderators: true, Both: []rules.Victory{
			{Winner: rules.Crusaders, Reason: rules.VictoryCommander, Warrior: "ш1", Cell: &i2, Wounds: true},
			{Winner: rules.Saracens, Reason: rules.VictoryCommander, Warrior: "р1", Cell: &p18, Wounds: true}}},
			[]string{"Ничья", "крестоносцы — командующий ш1 погиб", "сарацины — командующий р1 погиб", "Модераторам"},
			[]string{"Победа: ничья", "командующий ."}},
	} {
		s, err := c.rules().tmpl.Render("victory", &tc.vic)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%+v: %q lacks %q", tc.vic, s, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(s, w) {
				t.Errorf("%+v: %q has %q", tc.vic, s, w)
			}
		}
	}
}

// A refusal names the rule that stops the move: a formation moving along its line is told so (not
// "too far"), a guard's blocked lance is a lance (not a shot).
func TestRefusalNamesTheRule(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) {
		o.Setup = rules.Setup{Mode: rules.SetupCustom, At: at(18, 0), Cells: map[rules.WarriorID]rules.Cell{
			"к1": {Row: 2, Col: 8}, "к2": {Row: 3, Col: 8}, "р1": {Row: 15, Col: 18},
			"ш3": {Row: 5, Col: 5}, "ш2": {Row: 5, Col: 6}, "ш1": {Row: 8, Col: 2}, "л1": {Row: 5, Col: 7}}}
	})
	out := mustJudge(t, c, post("Джелу", at(18, 1), "к1,к2 строем на F8"), game.Refused)
	if b := out.Messages[0].Body; !strings.Contains(b, "поперёк своей линии") || strings.Contains(b, "не дальше") {
		t.Errorf("formation along its line: %s", b)
	}
	mustJudge(t, c, post("Джелу", at(18, 2), "1-й ход р1 на P17"), game.Accepted)
	out = mustJudge(t, c, post("snovaya", at(18, 3), "ш3 атакует копьём F7"), game.Refused)
	if b := out.Messages[0].Body; !strings.Contains(b, "копью ш3") || strings.Contains(b, "выстрел") {
		t.Errorf("guard's lance blocked: %s", b)
	}
}

// A misspelt side word keeps the move number (no wound for it); a word not understood before the
// warrior is asked about, not charged.
func TestSideWordTypos(t *testing.T) {
	c := newRef(t)
	for _, tc := range []struct {
		who, text string
	}{
		{"Джелу", "1-й ход крестонсца к1 на K16"},
		{"snovaya", "1-й ход сарацна н2 на N3"},
		{"Джелу", "2-й ход крестоносца к1 на K15"},
		{"snovaya", "2-й ход сорацина н2 на M4"},
	} {
		out := mustJudge(t, c, post(tc.who, at(19, len(tc.text)), tc.text), game.Accepted)
		if b := out.Messages[0].Body; strings.Contains(b, "Неаккуратность") || strings.Contains(b, "ранени") {
			t.Errorf("%q: %s", tc.text, b)
		}
	}
	out := mustJudge(t, c, post("Джелу", at(20, 0), "3-й ход гостя к1 на K14"), game.Flagged)
	if b := out.Messages[0].Body; !strings.Contains(b, "гостя") || strings.Contains(b, "ранени") {
		t.Errorf("unknown word: %s", b)
	}
}

// Every reply that gives a side wounds says how many it owes, how to allocate them (with a
// warrior of that side) and by when; an allocation inside a longer post is read.
func TestWoundRepliesSayHowToAllocate(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Settings.BoardRequired = true })
	out := mustJudge(t, c, post("Джелу", at(18, 10), "1-й ход к1 на K16"), game.Accepted)
	b := out.Messages[0].Body
	for _, want := range []string{"Крестоносцы должны распределить 1 ранение до 00:00 (до конца 1 декабря)", "[i]ранение: р2 защита[/i]"} {
		if !strings.Contains(b, want) {
			t.Errorf("sloppy turn reply lacks %q:\n%s", want, b)
		}
	}
	// the time limit: the saracens got the move at 18:10; the evening hour runs from 19:00
	_, err := c.Advance(at(18, 10), at(20, 1), func(_ time.Time, o game.Outcome) error {
		for _, m := range o.Messages {
			if strings.Contains(m.Body, "думают над ходом") && (!strings.Contains(m.Body, "Сарацины должны распределить 2 ранения до 00:00 (до конца 1 декабря)") ||
				!strings.Contains(m.Body, "[i]ранение: ш2 защита[/i]")) {
				t.Errorf("time-limit notice: %s", m.Body)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out = mustJudge(t, c, post("Джелу", at(20, 5), "Привет всем! ранение: к1 защита"), game.Accepted)
	if w := c.game().WoundsOwed(rules.Crusaders); w.Unallocated != 0 || len(w.Allocated) != 1 || w.Allocated[0].Warrior != "к1" {
		t.Fatalf("allocation inside a longer post: %+v %+v", w, out.Messages)
	}
}

// The time-limit notice says the configured limit, not "an hour".
func TestTimeLimitNoticeUsesSettings(t *testing.T) {
	for _, tc := range []struct{ limit, want string }{{"1h", "дольше часа"}, {"20m", "дольше 20 минут"}, {"2h", "дольше 2 часов"}, {"1h30m", "дольше 1 ч 30 мин"}, {"21m", "дольше 21 минуты"}} {
		c := newRef(t, func(o *CrusadeOptions) { o.Settings.MoveLimit = tc.limit })
		seen := false
		_, err := c.Advance(at(18, 0), at(23, 59), func(_ time.Time, o game.Outcome) error {
			for _, m := range o.Messages {
				if strings.Contains(m.Body, "думают над ходом") {
					seen = true
					if !strings.Contains(m.Body, tc.want) {
						t.Errorf("%s: %s", tc.limit, m.Body)
					}
				}
			}
			return nil
		})
		if err != nil || !seen {
			t.Fatalf("%s: no notice (%v)", tc.limit, err)
		}
	}
}

// Long lists of legal cells are told as the reach; short ones are listed.
func TestLegalCellListsShort(t *testing.T) {
	c := newRef(t)
	out := mustJudge(t, c, post("Джелу", at(18, 1), "1-й ход р2 на R10"), game.Refused)
	b := out.Messages[0].Body
	if !strings.Contains(b, "не дальше чем на 3 клетки в любую сторону") || strings.Contains(b, "и ещё") || strings.Contains(b, "можно на") {
		t.Errorf("knight too far: %s", b)
	}
	out = mustJudge(t, c, post("Джелу", at(18, 2), "1-й ход к1 на K15"), game.Refused)
	if b := out.Messages[0].Body; !strings.Contains(b, "не дальше чем на 1 клетку") || !strings.Contains(b, "можно на J16, J17, J18, K16, K18, L16, L18") {
		t.Errorf("pikeman too far: %s", b)
	}
}

// Out of turn, the refusal says when the player can move (not "send it again"); the daily
// summary writes the date in Russian; "к1 K17 K16" and "K-16" are read.
func TestOutOfTurnAndRussianDate(t *testing.T) {
	c := newRef(t)
	out := mustJudge(t, c, post("snovaya", at(18, 1), "1-й ход н2 на N3"), game.Refused)
	if b := out.Messages[0].Body; strings.Contains(b, "заново") || !strings.Contains(b, "после хода крестоносцев") {
		t.Errorf("out of turn: %s", b)
	}
	mustJudge(t, c, post("Джелу", at(18, 2), "1-й ход к1 K17 K16"), game.Accepted)
	mustJudge(t, c, post("snovaya", at(18, 3), "1-й ход н2 на N-3"), game.Accepted)
	seen := false
	_, err := c.Advance(at(18, 3), at(23, 59).Add(time.Minute), func(_ time.Time, o game.Outcome) error {
		for _, m := range o.Messages {
			if strings.Contains(m.Body, "Итоги дня") {
				seen = true
				if !strings.Contains(m.Body, "Итоги дня 1 декабря") {
					t.Errorf("summary: %s", m.Body)
				}
			}
		}
		return nil
	})
	if err != nil || !seen {
		t.Fatalf("no summary (%v)", err)
	}
}

// A long unreadable post is not repeated back: a few lines, each cut, links not live.
func TestUnreadableQuotesLittle(t *testing.T) {
	c := newRef(t)
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "1-й ход к1 на Q%d и ещё много слов про жизнь https://spam.example/%d [url=http://x.example]тут[/url] %s\n", i%20+1, i, strings.Repeat("ля", 40))
	}
	out := mustJudge(t, c, post("Джелу", at(18, 1), b.String()), game.Flagged)
	body := out.Messages[0].Body
	if n := strings.Count(body, "\n"); n > 8 {
		t.Errorf("reply has %d lines", n)
	}
	if strings.Contains(body, "https://") || strings.Contains(body, "[url") || len([]rune(body)) > 1500 {
		t.Errorf("reply: %s", body)
	}
	if !strings.Contains(body, "и ещё 297 строк") {
		t.Errorf("no count of the lines left out: %s", body)
	}
}

// The dispute keyword is told in the opening post and in the help.
func TestDisputeKeywordTold(t *testing.T) {
	c := newRef(t)
	start, err := c.Start(at(18, 0))
	if err != nil {
		t.Fatal(err)
	}
	help := mustJudge(t, c, post("Джелу", at(18, 1), "помощь"), game.Accepted)
	for name, body := range map[string]string{"start": start.Messages[0].Body, "help": help.Messages[0].Body} {
		if !strings.Contains(body, "#спор") {
			t.Errorf("%s does not mention #спор: %s", name, body)
		}
	}
	// and the keyword, written as told, is a dispute
	mustJudge(t, c, post("Джелу", at(18, 2), "#спор: ход был верный"), game.Flagged)
}

// While the armies deploy there is no position: the hints show forms, not broken examples.
func TestHintsWhileDeploying(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Setup = rules.Setup{Mode: rules.SetupPrivate, At: at(18, 0)} })
	in := game.Input{Source: game.PM, PostID: "pm1", Author: "Джелу", At: at(18, 1), Post: parser.FromBBCode("привет")}
	for _, name := range []string{game.SayStart, game.SayPMUnknown, game.SayHelp} {
		body, err := c.rules().Say(name, game.Context{In: &in})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, "ранение:  ") || strings.Contains(body, "[i][/i]") || strings.Contains(body, "<no value>") {
			t.Errorf("%s: %s", name, body)
		}
	}
}

// TestExpectsPrivate: the inbox matters while a private deployment is due, while a side owes
// wounds to allocate, and all game long with invisible forests; not otherwise.
func TestExpectsPrivate(t *testing.T) {
	c := newRef(t)
	if c.Referee.ExpectsPrivate(at(19, 0)) {
		t.Fatal("a running game with nothing owed and visible forests expects a private message")
	}
	// A move without the quoted board when it is required: sloppy, a wound to allocate.
	c = newRef(t, func(o *CrusadeOptions) { o.Settings.BoardRequired = true })
	mustJudge(t, c, post("Джелу", at(19, 5), "1-й ход крестоносца к1 на K16"), game.Accepted)
	if c.game().WoundsOwed(rules.Crusaders).Unallocated == 0 {
		t.Fatal("test setup: no wound owed")
	}
	if !c.Referee.ExpectsPrivate(at(19, 6)) {
		t.Fatal("wounds to allocate: no private message expected")
	}
	forest := newRef(t, func(o *CrusadeOptions) { o.Settings.ForestInvisible = true })
	if !forest.Referee.ExpectsPrivate(at(19, 0)) {
		t.Fatal("invisible forests: no private message expected")
	}
	private := newRef(t, func(o *CrusadeOptions) { o.Setup.Mode = rules.SetupPrivate })
	if !private.Referee.ExpectsPrivate(at(18, 30)) {
		t.Fatal("a private deployment pending: no private message expected")
	}
}

// TestDateMonths: a date names each month in the genitive («1 декабря»), from the template's list.
func TestDateMonths(t *testing.T) {
	want := []string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}
	if _, err := loadVoice(); err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		d := time.Date(2026, time.Month(i+1), 7, 0, 0, 0, 0, time.UTC)
		got, err := voiceSet.Render("date", d)
		if err != nil || got != "7 "+w {
			t.Errorf("%s: %q %v, want %q", d.Month(), got, err, "7 "+w)
		}
	}
}

// A giant column number is told as no such column, never as "вертикали -1".
func TestGiantColumn(t *testing.T) {
	c := newRef(t)
	out := mustJudge(t, c, post("Джелу", at(19, 5), "1-й ход крестоносца к1 на C99999999999999999999999"), game.Flagged)
	body := out.Messages[0].Body
	if strings.Contains(body, "-1") || !strings.Contains(body, "такой вертикали на поле нет") {
		t.Fatalf("reply: %s", body)
	}
	out = mustJudge(t, c, post("Джелу", at(19, 6), "1-й ход крестоносца к1 на C21"), game.Flagged)
	if !strings.Contains(out.Messages[0].Body, "нет вертикали 21") {
		t.Fatalf("reply: %s", out.Messages[0].Body)
	}
}

// A move from someone not playing whose name reads as a player's once look-alike letters are
// folded (a Latin e in «Джeлу», a Cyrillic о in «snоvaya») is flagged with a warning naming both;
// a stranger's name carries none (issue 19).
func TestImpostorNameWarned(t *testing.T) {
	for _, tc := range []struct{ author, player string }{{"Джeлу", "Джелу"}, {"snоvaya", "snovaya"}, {"ДЖEЛУ", "Джелу"}, {"Дже\u200bлу", "Джелу"}, {"Vasya", ""}} {
		c := newRef(t)
		out := mustJudge(t, c, post(tc.author, at(19, 5), "1-й ход крестоносца к1 на K16"), game.Flagged)
		if len(out.Flags) != 1 || out.Flags[0].Kind != game.FlagNotInRoster {
			t.Fatalf("%s: flags %+v", tc.author, out.Flags)
		}
		f := out.Flags[0]
		if tc.player == "" {
			if f.Warning != "" || f.Detail != "1-й ход крестоносца к1 на K16" {
				t.Errorf("%s: %+v", tc.author, f)
			}
			continue
		}
		for _, s := range []string{f.Warning, f.Detail} {
			if !strings.Contains(s, "«"+tc.author+"»") || !strings.Contains(s, "«"+tc.player+"»") || !strings.Contains(s, "самозванец") {
				t.Errorf("%s: %q", tc.author, s)
			}
		}
		if !strings.HasSuffix(f.Detail, "1-й ход крестоносца к1 на K16") {
			t.Errorf("%s: detail %q", tc.author, f.Detail)
		}
	}
}
