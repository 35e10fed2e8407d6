package signup

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/referee"
)

var msk = time.FixedZone("MSK", 3*3600)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, msk)

// table is a sign-up game under the real referee, on the fake game.
type table struct {
	t   *testing.T
	ref *referee.Referee
	now time.Time
	n   int
}

// newTable sets up the fake game with signup block (YAML flow mapping).
func newTable(t *testing.T, g fakeGame, block string) *table {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("signup: "+block), &n); err != nil {
		t.Fatal(err)
	}
	setup, err := Wrap(g).Setup(game.Spec{Node: *n.Content[0], Start: t0, Staff: []string{"gm-bot", "Модератор"}})
	if err != nil {
		t.Fatal(err)
	}
	if !setup.SignUp {
		t.Fatal("a signup: block must give a sign-up setup")
	}
	ref, err := referee.New(setup, referee.Options{Bot: "gm-bot", Seed: "s", Salt: "salt"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := ref.Start(t0)
	if err != nil || !strings.Contains(out.Messages[0].Body, "открыта запись") {
		t.Fatalf("start: %v %+v", err, out)
	}
	return &table{t: t, ref: ref, now: t0}
}

// post is a post (or, pm, a private message) at minutes after the start; the clock's rules
// due before it fire first.
func (tb *table) post(min int, who, text string, pm bool) game.Outcome {
	tb.t.Helper()
	at := t0.Add(time.Duration(min) * time.Minute)
	tb.advance(at)
	tb.n++
	src := game.Thread
	if pm {
		src = game.PM
	}
	out, err := tb.ref.Judge(game.Input{Source: src, PostID: fmt.Sprint(tb.n), Author: who, At: at, Post: forum.Post{Author: who, Text: text}})
	if err != nil {
		tb.t.Fatalf("%s: %q: %v", who, text, err)
	}
	return out
}

// advance fires the timers up to at; it returns what they posted.
func (tb *table) advance(at time.Time) []string {
	tb.t.Helper()
	var said []string
	last, err := tb.ref.Advance(tb.now, at, func(_ time.Time, out game.Outcome) error {
		for _, m := range out.Messages {
			said = append(said, m.Body)
		}
		return nil
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.now = at
	_ = last
	return said
}

func (tb *table) rules() *Rules { return tb.ref.Rules().(*Rules) }

func body(out game.Outcome) string {
	var b []string
	for _, m := range out.Messages {
		b = append(b, m.Body)
	}
	return strings.Join(b, "\n")
}

// The grammar: what each post reads as, in each phase (an intent, or "chatter", "help").
func TestRead(t *testing.T) {
	cases := []struct {
		text  string
		phase phase
		want  any
	}{
		{"записываюсь", signing, &Join{}},
		{"Записываюсь!", signing, &Join{}},
		{"ЗАПИСЫВАЮСЬ за A", signing, &Join{Team: "A"}},
		{"записываюсь в команду b", signing, &Join{Team: "B"}},
		{"в команду команда A", signing, &Join{Team: "A"}},
		{"хочу в команду Z", signing, &Join{Asked: "z"}},
		{"записываюсь, если можно", signing, &Join{}},
		{"выхожу", signing, &Leave{}},
		{"выхожу из игры", signing, &Depart{}},
		{"как записаться?", signing, "help"},
		{"привет всем", signing, "chatter"},
		{"ход", signing, &Early{}},
		{"ход", organising, &Early{}},
		{"выхожу", playing, "chatter"},
		{"ход", playing, &fakeMove{}},
		{"записываюсь на замену Петя", playing, &Takeover{Old: "Петя"}},
		{"записываюсь на замену", playing, &Takeover{}},
		{"Игроки-воины\nВася: a1, a2\nбез двоеточия", organising, &SendPieces{Lines: []PieceLine{{Player: "Вася", Pieces: []string{"a1", "a2"}}}, Bad: []string{"без двоеточия"}}},
		{"капитан: Вася", organising, &NameRole{Player: "Вася"}},
		{"Капитан — вася", organising, &NameRole{Player: "Вася"}},
		{"капитан: Вася", signing, "chatter"},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			p, err := Wrap(fakeGame{role: "капитан", pieces: 2}).(*Game).prepare(game.Spec{Start: t0}, Config{Deadline: t0.Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			r := p.rules()
			r.phase = c.phase
			r.teams = []game.Formed{{Key: "A", Players: []string{"Вася"}}, {Key: "B", Players: []string{"Петя"}}}
			if c.phase == playing {
				r.inner = &fakeRules{players: []string{"Вася", "Петя"}}
			}
			rd := r.Read(game.Input{Source: game.Thread, Author: "Вася", Post: forum.Post{Text: c.text}})
			var got any = map[game.ReadKind]string{game.Chatter: "chatter", game.Help: "help", game.Unreadable: "unreadable"}[rd.Kind]
			if rd.Kind == game.Intent {
				got = rd.Intent
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%q reads as %#v, want %#v", c.text, got, c.want)
			}
		})
	}
}

// Forming the teams: chosen teams kept, unassigned players placed by a seeded draw recorded in
// the event, equal teams evened out, too few players extend the sign-up, full teams and staff
// refused with the reason and nothing changed.
func TestFormation(t *testing.T) {
	type post struct {
		min       int
		who, text string
		refused   string // a part of the refusal wanted
	}
	cases := []struct {
		name     string
		g        fakeGame
		block    string
		posts    []post
		until    int // minutes after the start to run the clock to
		teams    string
		drawn    int // draws recorded in the Formed event
		moved    []string
		extended bool
	}{
		{name: "full", g: fakeGame{size: 2}, block: "{deadline: 2026-12-02T10:00:00+03:00, until_full: true}",
			posts: []post{{1, "Вася", "записываюсь за A", ""}, {3, "Петя", "в команду A", ""}, {4, "Оля", "в команду b", ""},
				{5, "Гоша", "записываюсь за А", "уже полная"}, {6, "Гоша", "записываюсь", ""}, {8, "Маша", "записываюсь", "Запись уже закрыта"}},
			teams: "A: Вася, Петя; B: Оля, Гоша"},
		{name: "drawn", g: fakeGame{equal: true}, block: "{deadline: 2026-12-01T12:00:00+03:00}",
			posts: []post{{1, "Вася", "записываюсь за A", ""}, {2, "Петя", "записываюсь", ""}, {3, "Оля", "записываюсь", ""}, {4, "Гоша", "записываюсь", ""},
				{5, "Модератор", "записываюсь", "служебная"}, {6, "Оля", "записываюсь за B", "уже записаны"}},
			until: 121, drawn: 2},
		{name: "evened", g: fakeGame{equal: true}, block: "{deadline: 2026-12-01T12:00:00+03:00}",
			posts: []post{{1, "Вася", "записываюсь за A", ""}, {2, "Петя", "записываюсь за A", ""}, {3, "Оля", "записываюсь за A", ""}},
			until: 121, teams: "A: Вася, Петя; B: Оля", moved: []string{"Оля"}},
		{name: "too few", g: fakeGame{}, block: "{deadline: 2026-12-01T12:00:00+03:00, extend: 2h}",
			posts: []post{{1, "Вася", "записываюсь за A", ""}, {2, "Петя", "выхожу", "не записаны"}, {125, "Петя", "записываюсь", ""}},
			until: 241, teams: "A: Вася; B: Петя", extended: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, c.g, c.block)
			var said []string
			for _, p := range c.posts {
				said = append(said, tb.advance(t0.Add(time.Duration(p.min)*time.Minute))...)
				before := fmt.Sprintf("%+v", tb.rules().Snapshot())
				out := tb.post(p.min, p.who, p.text, false)
				if p.refused != "" {
					if out.Verdict != game.Refused || !strings.Contains(body(out), p.refused) {
						t.Fatalf("%s: %q: want a refusal with %q, got %s %q", p.who, p.text, p.refused, out.Verdict, body(out))
					}
					if after := fmt.Sprintf("%+v", tb.rules().Snapshot()); after != before {
						t.Fatalf("a refusal changed the state:\n%s\n%s", before, after)
					}
					continue
				}
				if out.Verdict != game.Accepted {
					t.Fatalf("%s: %q: %s %q", p.who, p.text, out.Verdict, body(out))
				}
				said = append(said, body(out))
			}
			if c.until > 0 {
				said = append(said, tb.advance(t0.Add(time.Duration(c.until)*time.Minute))...)
			}
			r := tb.rules()
			if r.phase != playing {
				t.Fatalf("phase %d after the sign-up; said %q", r.phase, said)
			}
			var parts []string
			for _, f := range r.teams {
				parts = append(parts, f.Key+": "+strings.Join(f.Players, ", "))
			}
			if got := strings.Join(parts, "; "); c.teams != "" && got != c.teams {
				t.Errorf("teams %s, want %s", got, c.teams)
			}
			if d := len(r.teams[0].Players) - len(r.teams[1].Players); c.g.equal && (d > 1 || d < -1) {
				t.Errorf("unequal teams %v", r.teams)
			}
			all := strings.Join(said, "\n")
			if !strings.Contains(all, "команды сформированы") || !strings.Contains(all, "Игра начинается") {
				t.Errorf("no formation or start announced: %q", said)
			}
			if c.drawn > 0 && !strings.Contains(all, "вытянута жребием") {
				t.Errorf("the draw is not announced: %q", said)
			}
			if c.extended != strings.Contains(all, "Запись продлена") {
				t.Errorf("extension announced: %v, want %v: %q", !c.extended, c.extended, said)
			}
			if len(c.moved) > 0 && !strings.Contains(all, "переведены последние записавшиеся в большую команду: "+strings.Join(c.moved, ", ")) {
				t.Errorf("the move is not announced: %q", said)
			}
		})
	}
}

// Organisation and replacements: a wrong pieces list is answered with what is valid and changes
// nothing; the game starts when every team has organised (or at the deadline, the defaults
// announced); a player who leaves is replaced by a newcomer, another's place closes at the
// deadline by the game's rule; a moderator's replace and remove go the same way, logged; the
// state re-folded from the log is the live one.
func TestOrganiseAndReplace(t *testing.T) {
	tb := newTable(t, fakeGame{role: "капитан", pieces: 4, size: 2}, "{deadline: 2026-12-02T10:00:00+03:00, until_full: true, organise: 3h, replace: 24h}")
	for i, w := range []string{"Вася", "Петя", "Оля", "Гоша"} {
		team := map[bool]string{true: "A", false: "B"}[i < 2]
		if out := tb.post(i+1, w, "записываюсь за "+team, false); out.Verdict != game.Accepted {
			t.Fatalf("%s: %s", w, body(out))
		}
	}
	if tb.rules().phase != organising {
		t.Fatal("not organising once full")
	}
	steps := []struct {
		min       int
		who, text string
		pm        bool
		verdict   game.Verdict
		want      string
	}{
		{9, "Оля", "помощь", false, game.Accepted, "Вася: a1, a2"},
		{9, "Оля", "ход", false, game.Refused, "Игра ещё не началась: команды договариваются до 01.12 в 13:04"},
		{10, "Вася", "Игроки-воины\nВася: a1, a2, a3\nПетя: a4", true, game.Refused, "каждому игроку команды по 2"},
		{11, "Вася", "Игроки-воины\nВася: a1, a2\nОля: a3, a4", true, game.Refused, "Оля не в вашей команде"},
		{12, "Вася", "Игроки-воины\nВася: а1, А2\nПетя: a3, a4", true, game.Accepted, "Петя: a3, a4"},
		{13, "Петя", "капитан: Оля", false, game.Refused, "Оля не в вашей команде"},
		{14, "Петя", "капитан: Петя", false, game.Accepted, "капитан — Петя"},
		{15, "Гоша", "игроки-воины\nОля: b1, b2\nГоша: b3, b4", true, game.Accepted, "Гоша: b3, b4"},
		{15, "Оля", "капитан: Гоша", false, game.Accepted, "капитан — Гоша"},
		{16, "Оля", "ход", false, game.Accepted, "fake.moved"},
		{17, "Оля", "помощь", false, game.Accepted, "[help]\nУйти из игры: «выхожу из игры»"},
		{190, "Вася", "ход", false, game.Accepted, "fake.moved"},
		{200, "Вася", "выхожу из игры", false, game.Accepted, "найдите ему замену: новый игрок пишет в теме «записываюсь на замену Вася»"},
		{201, "Вася", "выхожу из игры", false, game.Refused, "уже вышел"},
		{202, "Петя", "записываюсь на замену Вася", false, game.Refused, "Вы уже записаны"},
		{203, "Модератор", "записываюсь на замену", false, game.Refused, "служебная"},
		{204, "Маша", "записываюсь на замену Оля", false, game.Refused, "«записываюсь на замену Вася»"},
		{205, "Маша", "записываюсь", false, game.Accepted, "Вася → Маша"},
		{206, "Маша", "ход", false, game.Accepted, "fake.moved"},
		{207, "Вася", "ход", false, game.Flagged, "not_in_roster"},
		{210, "Оля", "выхожу из игры", false, game.Accepted, "до 02.12 в 13:30"},
	}
	for i, s := range steps {
		out := tb.post(s.min, s.who, s.text, s.pm)
		if out.Verdict != s.verdict || !strings.Contains(body(out), s.want) {
			t.Fatalf("step %d (%s: %q): %s %q, want %s with %q", i, s.who, s.text, out.Verdict, body(out), s.verdict, s.want)
		}
		if i == 4 && strings.Contains(body(out), "Игра начинается") {
			t.Fatal("started before every team organised")
		}
		if i == 8 && !strings.Contains(body(out), "Игра начинается") {
			t.Fatalf("not started when the last team organised: %q", body(out))
		}
	}
	said := strings.Join(tb.advance(t0.Add(48*time.Hour)), "\n")
	if !strings.Contains(said, "Замены для Оля") || !strings.Contains(said, "fake.removed") {
		t.Fatalf("the place did not close at the deadline: %q", said)
	}
	if tb.rules().IsPlayer("Оля") || !tb.rules().IsPlayer("Маша") {
		t.Fatal("the roster after the replacement and the removal is wrong")
	}
	// A moderator replaces and removes.
	out, err := tb.ref.Moderate(game.ModCommand{Action: game.ModReplace, By: "Модератор", Reason: "уехал", At: t0.Add(49 * time.Hour), Player: "Гоша", Replacement: "Лена"})
	if err != nil || !strings.Contains(body(out), "Гоша → Лена (решение модератора Модератор: уехал)") {
		t.Fatalf("replace: %v %q", err, body(out))
	}
	out, err = tb.ref.Moderate(game.ModCommand{Action: game.ModRemove, By: "Модератор", Reason: "молчит", At: t0.Add(50 * time.Hour), Player: "Петя"})
	if err != nil || !strings.Contains(body(out), "решение модератора Модератор: молчит") {
		t.Fatalf("remove: %v %q", err, body(out))
	}
	if _, err := tb.ref.Moderate(game.ModCommand{Action: game.ModReplace, By: "Модератор", Reason: "x", At: t0.Add(51 * time.Hour), Player: "Никто", Replacement: "Лена2"}); err == nil {
		t.Fatal("replacing someone who does not play must fail")
	}
}

// A replacement the game forbids (the fake's «проглочен», as Dragonball's swallowed player) is
// refused in the game's words and changes nothing.
func TestReplaceRefusedByTheGame(t *testing.T) {
	tb := newTable(t, fakeGame{size: 1}, "{deadline: 2026-12-02T10:00:00+03:00, until_full: true}")
	tb.post(1, "проглочен", "записываюсь за A", false)
	tb.post(2, "Петя", "записываюсь за B", false)
	if out := tb.post(3, "проглочен", "выхожу из игры", false); out.Verdict != game.Accepted {
		t.Fatalf("depart: %q", body(out))
	}
	out := tb.post(4, "Маша", "записываюсь на замену", false)
	if out.Verdict != game.Refused || !strings.Contains(body(out), "swallowed") {
		t.Fatalf("want the game's refusal, got %s %q", out.Verdict, body(out))
	}
	if tb.rules().IsPlayer("Маша") || len(tb.rules().open) != 1 {
		t.Fatal("a refused replacement changed the state")
	}
}

// FuzzRead: the sign-up grammar reads any post in any phase without panicking, and what it
// reads as a sign-up names a team of the game or none.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"записываюсь", "записываюсь за A", "в команду ", "выхожу из игры", "Игроки-воины\n:\n—", "капитан:", "записываюсь на замену  "} {
		f.Add(s, 0)
	}
	p, err := Wrap(fakeGame{role: "капитан", pieces: 2}).(*Game).prepare(game.Spec{Start: t0}, Config{Deadline: t0.Add(time.Hour)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, ph int) {
		r := p.rules()
		r.phase = phase(uint(ph) % 3)
		r.teams = []game.Formed{{Key: "A", Players: []string{"Вася"}}, {Key: "B", Players: []string{"Петя"}}}
		if r.phase == playing {
			r.inner = &fakeRules{players: []string{"Вася", "Петя"}}
		}
		rd := r.Read(game.Input{Source: game.Thread, Author: "Вася", Post: forum.Post{Text: text}})
		if j, ok := rd.Intent.(*Join); ok && j.Team != "" && j.Team != "A" && j.Team != "B" {
			t.Fatalf("%q joins team %q", text, j.Team)
		}
	})
}

// Every sign-up event has words for the moderators' log.
func TestDescribe(t *testing.T) {
	tb := newTable(t, fakeGame{role: "капитан", size: 1}, "{deadline: 2026-12-02T10:00:00+03:00, until_full: true}")
	r := tb.rules()
	for _, ev := range []game.Event{&Joined{Player: "Вася", Team: "A"}, &Left{Player: "Вася"}, &Extended{Until: t0}, &Formed{},
		&RoleNamed{Team: "A", Player: "Вася"}, &PiecesSent{Team: "A", By: "Вася"}, &Started{}, &Departed{Player: "Вася", By: "Мод"},
		&Replaced{Old: "Вася", New: "Петя"}, &Removed{Player: "Вася"}, &Cancelled{}} {
		if d := r.Describe(ev); d == "" || strings.Contains(d, "signup.") {
			t.Errorf("%s: %q", ev.EventKind(), d)
		}
	}
	if d := r.Describe(&RoleNamed{Team: "A", Player: "Вася"}); d != "капитан «команда A»: Вася" {
		t.Errorf("role: %q", d)
	}
}

// A sign-up block is checked when the game is set up: the deadline after the start, sizes for
// until_full, durations.
func TestSetupChecked(t *testing.T) {
	cases := []struct{ block, want string }{
		{"{deadline: 2026-11-30T10:00:00+03:00}", "is not after the game's start"},
		{"{team_size: 2}", "signup.deadline: missing"},
		{"{deadline: 2026-12-02T10:00:00+03:00, until_full: true}", "signup.until_full"},
		{"{deadline: 2026-12-02T10:00:00+03:00, organise: -1h}", "signup.organise"},
		{"{deadline: 2026-12-02T10:00:00+03:00, extend: 0s}", "signup.extend"},
		{"{deadline: 2026-12-02T10:00:00+03:00, colour: red}", "colour"},
	}
	for _, c := range cases {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("signup: "+c.block), &n); err != nil {
			t.Fatal(err)
		}
		_, err := Wrap(fakeGame{}).Setup(game.Spec{Node: *n.Content[0], Start: t0})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error with %q, got %v", c.block, c.want, err)
		}
	}
}

// A moderator's end before play calls the sign-up off: announced, the game over, the seed
// revealed; nothing is judged after.
func TestCancelledBeforePlay(t *testing.T) {
	tb := newTable(t, fakeGame{}, "{deadline: 2026-12-02T10:00:00+03:00}")
	tb.post(1, "Вася", "записываюсь", false)
	out, err := tb.ref.Moderate(game.ModCommand{Action: game.ModEnd, By: "Модератор", Reason: "мало желающих", At: t0.Add(time.Hour)})
	if err != nil || !strings.Contains(body(out), "Игра отменена модератором") {
		t.Fatalf("end: %v %q", err, body(out))
	}
	if !tb.rules().Over() {
		t.Fatal("the game is not over")
	}
	revealed := false
	for _, ev := range out.Events {
		revealed = revealed || ev.EventKind() == referee.KindRevealed
	}
	if !revealed {
		t.Error("the seed is not revealed at the end")
	}
	if o := tb.post(70, "Петя", "записываюсь", false); o.Verdict != game.Refused || !strings.Contains(body(o), "Запись уже закрыта") {
		t.Errorf("a sign-up after the end: %s %q", o.Verdict, body(o))
	}
}

// A team emptied before play: the start waits (announced) until a newcomer takes the place; a
// second sign-up from a team member is refused.
func TestEmptiedBeforePlay(t *testing.T) {
	tb := newTable(t, fakeGame{role: "капитан", size: 1}, "{deadline: 2026-12-02T10:00:00+03:00, until_full: true, organise: 1h, extend: 2h}")
	tb.post(1, "Вася", "записываюсь за A", false)
	tb.post(2, "Петя", "записываюсь", false)
	if tb.rules().phase != organising {
		t.Fatal("not organising")
	}
	if o := tb.post(3, "Вася", "записываюсь", false); o.Verdict != game.Refused || !strings.Contains(body(o), "Вы уже записаны") {
		t.Fatalf("a member signs up again: %s %q", o.Verdict, body(o))
	}
	if o := tb.post(4, "Петя", "выхожу", false); o.Verdict != game.Accepted {
		t.Fatalf("leave: %q", body(o))
	}
	said := strings.Join(tb.advance(t0.Add(90*time.Minute)), "\n")
	if !strings.Contains(said, "Начало игры откладывается до 01.12 в 13:02") || tb.rules().phase != organising {
		t.Fatalf("the start did not wait: %q", said)
	}
	if o := tb.post(100, "Маша", "записываюсь", false); o.Verdict != game.Accepted || !strings.Contains(body(o), "в команду «команда B»") {
		t.Fatalf("a newcomer: %s %q", o.Verdict, body(o))
	}
	said = strings.Join(tb.advance(t0.Add(4*time.Hour)), "\n")
	if !strings.Contains(said, "Игра начинается") || !strings.Contains(said, "команда B»: Маша; капитан — Маша") {
		t.Fatalf("no start with the newcomer: %q", said)
	}
}
