package crusade

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/engine"
	cr "forumgm/engine/crusade"
	"forumgm/judge"
	"forumgm/parser"
	pcr "forumgm/parser/crusade"
)

// CrusadeOptions build a referee straight from the engine's values (the tests' positions).
type CrusadeOptions struct {
	Settings cr.Settings
	Roster   cr.Roster
	Setup    cr.Setup
	Bot      string
	NoPM     bool
}

// tref is a referee with the test's options and access to the engine.
type tref struct {
	judge.Referee
	opt CrusadeOptions
}

func (c *tref) rules() *Rules           { return judge.RulesOf(c.Referee).(*Rules) }
func (c *tref) game() *cr.Game          { return c.rules().game }
func (c *tref) view(*judge.Input) *View { return c.rules().view(judge.Context{}) }

var msk = time.FixedZone("MSK", 3*3600)

func at(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, msk) }

func newRef(t *testing.T, mut ...func(*CrusadeOptions)) *tref {
	t.Helper()
	s := cr.DefaultSettings()
	s.BoardRequired = false
	s.Questions = []cr.Question{{Text: "Сколько воинов в армии?", Answers: []string{"15", "пятнадцать"}}}
	opt := CrusadeOptions{
		Settings: s,
		Roster: cr.Roster{Players: []cr.Player{
			{Name: "Джелу", Side: cr.Crusaders},
			{Name: "snovaya", Side: cr.Saracens},
		}},
		Setup: cr.Setup{Mode: cr.SetupDefault, At: at(18, 0)},
		Bot:   "gm-bot",
	}
	for _, m := range mut {
		m(&opt)
	}
	set, err := voice()
	if err != nil {
		t.Fatal(err)
	}
	if opt.NoPM {
		opt.Settings.ForestInvisible = false
	}
	setup := &judge.Setup{New: func() (judge.Rules, error) {
		g, err := cr.New(opt.Settings, opt.Roster, opt.Setup)
		if err != nil {
			return nil, err
		}
		return &Rules{game: g, tmpl: set, noPM: opt.NoPM}, nil
	}}
	ref, err := judge.New(setup, judge.Options{Bot: opt.Bot, NoPM: opt.NoPM, Seed: "1", Salt: "s"})
	if err != nil {
		t.Fatal(err)
	}
	return &tref{Referee: ref, opt: opt}
}

func post(author string, when time.Time, text string) judge.Input {
	return judge.Input{Source: judge.Thread, PostID: when.Format("1504"), Author: author, At: when, Post: parser.FromBBCode(text)}
}

func mustJudge(t *testing.T, c *tref, in judge.Input, want judge.Verdict) judge.Outcome {
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
	cell := cr.Cell{Row: 6, Col: 5}
	for _, code := range cr.AllCodes {
		p := cr.Problem{Code: code, Warrior: "н2", Other: "р1", Side: cr.Saracens, Cell: &cell, From: &cell,
			Cells: []cr.Cell{cell}, Count: 2, Limit: 1, Missing: []cr.WarriorID{"р1"}, Owner: "snovaya"}
		s, err := renderProblem(p, v)
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if s == "" || !hasCyrillic(s) {
			t.Errorf("%s: empty or not Russian: %q", code, s)
		}
	}
	for _, r := range []pcr.Reason{pcr.ReasonUnknownRow, pcr.ReasonBadColumn, pcr.ReasonUnknownWarrior, pcr.ReasonNoWarrior,
		pcr.ReasonNoDestination, pcr.ReasonNoTarget, pcr.ReasonChargeNeedsCell, pcr.ReasonManyWarriors, pcr.ReasonNoStat, pcr.ReasonBadCount} {
		if s, err := renderLineError(&pcr.LineError{Reason: r, Token: "Z9", Row: "Z", Col: 21}); err != nil || !hasCyrillic(s) {
			t.Errorf("reason %s: %q %v", r, s, err)
		}
	}
	for _, sc := range cr.AllSloppyCodes {
		if s, err := renderSloppy(cr.Sloppiness{Code: sc, Warrior: "н2", Stated: 1, Expected: 2}); err != nil || !hasCyrillic(s) {
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
		want               judge.Verdict
		reply              string // a fragment of the reply ("" = no reply)
		flag               judge.FlagKind
	}{
		{"move", "Джелу", "1-й ход крестоносца к1 на K16", judge.Accepted, "к1: K17 → K16", ""},
		{"latin look-alikes", "Джелу", "1-й ход крестоносца k1 на К16", judge.Accepted, "к1: K17 → K16", ""},
		{"too far", "Джелу", "1-й ход к1 на K14", judge.Refused, "к1 ходит на 1 клетку; из K17 можно на", ""},
		{"out of turn", "snovaya", "1-й ход сарацина н2 на N3", judge.Refused, "ходят крестоносцы", ""},
		{"chatter", "Джелу", "Всем привет, играем!", judge.Ignored, "", ""},
		{"unreadable", "Джелу", "2-й ход крестоносца в1 на Z9", judge.Flagged, "нет строки Z", judge.FlagUnreadable},
		{"stranger", "Vasya", "1-й ход крестоносца к1 на K16", judge.Flagged, "не записаны", judge.FlagNotInRoster},
		{"dispute", "snovaya", "#спор ход был неправильный", judge.Flagged, "передано модератору", judge.FlagDispute},
		{"help", "Джелу", "помощь", judge.Accepted, "Как писать ходы", ""},
		{"bot itself", "gm-bot", "1-й ход крестоносца к1 на K16", judge.Ignored, "", ""},
		{"escaped", "Джелу", "1-й ход к1 на K14 [b]", judge.Refused, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newRef(t)
			out := mustJudge(t, c, post(tc.author, at(19, 5), tc.text), tc.want)
			if tc.reply == "" && len(out.Messages) > 0 && tc.want == judge.Ignored {
				t.Fatalf("ignored post got a reply: %+v", out.Messages)
			}
			if tc.reply != "" && (len(out.Messages) == 0 || !strings.Contains(out.Messages[0].Body, tc.reply)) {
				t.Fatalf("reply %+v lacks %q", out.Messages, tc.reply)
			}
			if tc.flag != "" && (len(out.Flags) != 1 || out.Flags[0].Kind != tc.flag) {
				t.Fatalf("flags %+v, want %s", out.Flags, tc.flag)
			}
			if tc.want != judge.Accepted && len(out.Events) > 0 {
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
	out := mustJudge(t, c, post("[url=x]Джелу", at(19, 5), "1-й ход к1 на K14"), judge.Refused)
	if strings.Contains(out.Messages[0].Body, "[url=x]") {
		t.Fatalf("name not escaped: %q", out.Messages[0].Body)
	}
}

// A private message is answered by private message; a refused post changes nothing.
func TestPrivateAllocationAndRefusalKeepsState(t *testing.T) {
	c := newRef(t)
	mustJudge(t, c, post("Джелу", at(19, 5), "1-й ход к1 на K16"), judge.Accepted) // sloppy? no: board not required
	before, _ := c.game().SnapshotJSON()
	mustJudge(t, c, post("snovaya", at(19, 10), "1-й ход н2 на N5"), judge.Refused)
	after, _ := c.game().SnapshotJSON()
	if string(before) != string(after) {
		t.Fatal("a refused post changed the state")
	}
	in := post("Джелу", at(19, 15), "ранение: р2 защита")
	in.Source = judge.PM
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
	_, err := judge.Advance(c, at(18, 0), at(21, 15), func(when time.Time, out judge.Outcome) error {
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
	mustJudge(t, c, post("snovaya", at(21, 16), "хм, сложно"), judge.Ignored)
	out := mustJudge(t, c, post("snovaya", at(21, 17), "Ответ: двадцать"), judge.Refused)
	if !strings.Contains(out.Messages[0].Body, "неверно") {
		t.Fatalf("wrong answer reply: %q", out.Messages[0].Body)
	}
	out = mustJudge(t, c, post("snovaya", at(21, 18), "Пятнадцать!"), judge.Accepted)
	if !strings.Contains(out.Messages[0].Body, "Верно, snovaya") {
		t.Fatalf("right answer reply: %q", out.Messages[0].Body)
	}
}

// The event log rebuilds the same referee; moderator commands are logged and undo restores the
// position before the turn.
func TestRestoreAndModeration(t *testing.T) {
	c := newRef(t)
	var log []engine.Event
	keep := func(out judge.Outcome, err error) judge.Outcome {
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
	out := keep(c.Moderate(judge.ModCommand{Action: judge.ModUndo, By: "Moderator", Reason: "ошибка", At: at(19, 20)}))
	if !strings.Contains(out.Messages[0].Body, "отменил ход 2") {
		t.Fatalf("undo reply: %q", out.Messages[0].Body)
	}
	afterUndo, _ := c.game().SnapshotJSON()
	if string(afterUndo) != string(beforeSecond) {
		t.Fatalf("undo did not restore the position before the turn")
	}
	keep(c.Moderate(judge.ModCommand{Action: judge.ModPause, By: "Moderator", At: at(19, 25)}))
	if !c.Paused() {
		t.Fatal("not paused")
	}
	if _, ok := c.NextTimer(at(19, 25)); ok {
		t.Fatal("a paused game has no timers")
	}
	mustJudge(t, c, post("snovaya", at(19, 26), "1-й ход н2 на N3"), judge.Refused)
	if _, err := c.Moderate(judge.ModCommand{Action: judge.ModPause, By: "Moderator", At: at(19, 27)}); err == nil {
		t.Fatal("pausing a paused game must fail")
	}
	keep(c.Moderate(judge.ModCommand{Action: judge.ModResume, By: "Moderator", At: at(19, 30)}))
	keep(c.Judge(post("snovaya", at(19, 31), "1-й ход н2 на N3")))

	// Rebuild from the stored form of the log.
	var recs []engine.Record
	for _, ev := range log {
		r, err := engine.Encode(ev)
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
	if !reflect.DeepEqual(kinds(log), []string{cr.KindTurnPlayed, cr.KindTurnPlayed, judge.KindUndone, judge.KindPaused, judge.KindResumed, cr.KindTurnPlayed}) {
		t.Fatalf("log kinds %v", kinds(log))
	}
}

func kinds(evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventKind())
	}
	return out
}

func TestCellList(t *testing.T) {
	c := func(s string) cr.Cell { x, _ := cr.ParseCell(s); return x }
	cases := []struct {
		in   []cr.Cell
		want string
	}{
		{[]cr.Cell{c("F3"), c("F4"), c("F5"), c("G3"), c("G5"), c("H3"), c("H4"), c("H5"), c("G4")}, "F3..H5"},
		{[]cr.Cell{c("N1"), c("N2")}, "N1, N2"},
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
		o.Setup = cr.Setup{Mode: cr.SetupCustom, At: at(18, 0), Cells: map[cr.WarriorID]cr.Cell{
			"р2": {Row: 2, Col: 12}, "р1": {Row: 1, Col: 7}, "ш1": {Row: 0, Col: 5}, "ш2": {Row: 10, Col: 2}}}
	})
	in := post("Джелу", at(19, 5), "1-й ход р2 на B11")
	in.Source = judge.PM
	out := mustJudge(t, c, in, judge.Accepted)
	if len(out.Messages) != 2 || out.Messages[0].To != "Джелу" || out.Messages[1].To != "" {
		t.Fatalf("want a private detail and a public notice, got %+v", out.Messages)
	}
	if strings.Contains(out.Messages[1].Body, "B11") || strings.Contains(out.Messages[1].Body, "|р2|") {
		t.Fatalf("the public notice gives the hidden move away: %q", out.Messages[1].Body)
	}
	if !strings.Contains(out.Messages[0].Body, "р2: C12 → B11") {
		t.Fatalf("the private reply lacks the move: %q", out.Messages[0].Body)
	}
	in = post("snovaya", at(19, 10), "1-й ход ш1 на A6")
	in.Source = judge.PM
	out = mustJudge(t, c, in, judge.Accepted)
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
		o.Setup = cr.Setup{Mode: cr.SetupPrivate, At: at(12, 0)}
	})
	if c.opt.Settings.ForestInvisible {
		t.Fatal("invisible forests need private messages")
	}
	start, err := c.Start(at(12, 0))
	if err != nil || !strings.Contains(start.Messages[0].Body, "нет личных сообщений") || !strings.Contains(start.Messages[0].Body, "в тему") {
		t.Fatalf("start: %v %+v", err, start.Messages)
	}
	out := mustJudge(t, c, post("snovaya", at(12, 5), "расстановка: ш1 I1, ш2 J2, ш3 K2, в1 E4, в2 F4, в3 G4, в4 H4, в5 I4, в6 J4, в7 K4, в8 L4, н1 O1, н2 O2, н3 P1, н4 P2"), judge.Accepted)
	if out.Messages[0].To != "" {
		t.Fatalf("no PMs: the answer goes to the thread: %+v", out.Messages)
	}
}

func TestUnknownPrivateMessageAnswered(t *testing.T) {
	c := newRef(t)
	in := post("snovaya", at(19, 5), "привет, когда начинаем?")
	in.Source = judge.PM
	out := mustJudge(t, c, in, judge.Ignored)
	if len(out.Messages) != 1 || out.Messages[0].To != "snovaya" || !strings.Contains(out.Messages[0].Body, "не понял") {
		t.Fatalf("a private message the game cannot use must be answered privately: %+v", out.Messages)
	}
}

// A quoted board that cannot be read is sloppiness, and the reply says where it breaks.
func TestUnreadableQuotedBoard(t *testing.T) {
	c := newRef(t, func(o *CrusadeOptions) { o.Settings.BoardRequired = true })
	board := cr.Render(c.game().Tokens())
	lines := strings.Split(board, "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "-K") {
			lines[i] = strings.Replace(l, "|к1|", "|к1|__|", 1) // 21 cells in row K
		}
	}
	text := "[quote=gm-bot][code]\n" + strings.Join(lines, "\n") + "\n[/code][/quote]\n1-й ход крестоносца к1 на K16"
	out := mustJudge(t, c, post("Джелу", at(19, 5), text), judge.Accepted)
	body := out.Messages[0].Body
	if !strings.Contains(body, "Поле в цитате не читается: строка K: 21 клетка вместо 20") {
		t.Fatalf("reply: %q", body)
	}
}
