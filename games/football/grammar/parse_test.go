package grammar

import (
	"encoding/json"
	"testing"

	fb "forumgm/games/football/rules"
	"forumgm/parser"
)

var teams = []string{"Команда 1", "Команда 2", "Команда 12", "Спартак Москва", "Team-A"}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// strip drops the Line fields, so tables compare what was read.
func strip(in []fb.Intent) []fb.Intent {
	var out []fb.Intent
	for _, i := range in {
		switch v := i.(type) {
		case *fb.Roll:
			c := *v
			c.Line = ""
			out = append(out, &c)
		case *fb.Attack:
			c := *v
			c.Line = ""
			out = append(out, &c)
		case *fb.Defence:
			c := *v
			c.Line = ""
			out = append(out, &c)
		case *fb.Points:
			c := *v
			c.Line = ""
			out = append(out, &c)
		default:
			out = append(out, i)
		}
	}
	return out
}

func TestParseThread(t *testing.T) {
	roll := func(n int) []fb.Intent { return []fb.Intent{&fb.Roll{Number: n}} }
	att := func(team string, n int) []fb.Intent { return []fb.Intent{&fb.Attack{Target: team, Number: n}} }
	def := func(n int) []fb.Intent { return []fb.Intent{&fb.Defence{Number: n}} }
	cases := []struct {
		text  string
		class Class
		want  []fb.Intent
	}{
		{"Бросаю 37", Move, roll(37)},
		{"бросаю кубик: 37", Move, roll(37)},
		{"кубик 37", Move, roll(37)},
		{"Кубик №37", Move, roll(37)},
		{"ход 37", Move, roll(37)},
		{"37", Move, roll(37)},
		{"  37!  ", Move, roll(37)},
		{"Ну что, бросаю 37, удачи!", Move, roll(37)},
		{"БРОСАЕМ 5", Move, roll(5)},
		{"Бpосаю 37", Move, roll(37)}, // Latin p
		{"кидаю 99", Move, roll(99)},
		{"Ход 3, бросаю 37", Move, roll(37)},
		{"Бросаю 137", Move, roll(137)}, // the engine refuses it
		{"Атакуем Команда 2, 58", Move, att("Команда 2", 58)},
		{"атака на Команда 2: 58", Move, att("Команда 2", 58)},
		{"атакуем команду 2 — 58", Move, att("Команда 2", 58)},
		{"Атакуем КОМАНДУ 2 58", Move, att("Команда 2", 58)},
		{"атакуем 2, 58", Move, att("Команда 2", 58)},
		{"атакуем Kоманду 12 - 7", Move, att("Команда 12", 7)}, // Latin K
		{"атакуем Команда 1, 7", Move, att("Команда 1", 7)},
		{"Атакуем Спартак Москва, 3", Move, att("Спартак Москва", 3)},
		{"нападаем на Team-A 40", Move, att("Team-A", 40)},
		{"атакуем Динамо 40", Move, att("Динамо", 40)}, // unknown: the engine refuses it
		{"Защищаемся 12", Move, def(12)},
		{"защита 12", Move, def(12)},
		{"защищаюсь: 7", Move, def(7)},
		{"Бросаю 37\nЗащищаемся 12", Move, []fb.Intent{&fb.Roll{Number: 37}, &fb.Defence{Number: 12}}},
		{"Бросаю 37; защита 12", Move, []fb.Intent{&fb.Roll{Number: 37}, &fb.Defence{Number: 12}}},
		{"+3 к атаке", Move, []fb.Intent{&fb.Points{Role: fb.RoleAttack, Count: 3}}}, // refused: privately
		// chatter
		{"Всем привет! Удачи командам", Chatter, nil},
		{"Ход принят", Chatter, nil},
		{"защита у нас слабая", Chatter, nil},
		{"+1", Chatter, nil},
		{"в прошлый раз кубик 37 был неудачным", Chatter, nil},
		{"Время 3 хода", Chatter, nil},
		{"атакующий состав 4-4-2", Chatter, nil},
		{"мы бросили 37 и проиграли", Chatter, nil},
		{"Атаковали 5 раз, всё мимо", Chatter, nil},
		{"", Chatter, nil},
		// unreadable
		{"Атакуем Команда 2", Unreadable, nil},
		{"атакуем 58", Unreadable, nil},
		{"Бросаю", Unreadable, nil},
		{"Бросаю 37 или 38", Unreadable, nil},
		{"Защищаемся!", Unreadable, nil},
		{"+ к атаке", Unreadable, nil},
		{"Атакуем", Unreadable, nil},
	}
	for _, c := range cases {
		r := Parse(parser.FromBBCode(c.text), Options{Teams: teams})
		if r.Class != c.class {
			t.Errorf("%q: class %s (problems %v, intents %s), want %s", c.text, r.Class, r.Problems, js(r.Intents), c.class)
			continue
		}
		if c.class != Unreadable && js(strip(r.Intents)) != js(c.want) {
			t.Errorf("%q: intents %s, want %s", c.text, js(strip(r.Intents)), js(c.want))
		}
		if c.class == Unreadable && len(r.Problems) == 0 {
			t.Errorf("%q: unreadable without problems", c.text)
		}
	}
}

func TestUnreadableReasons(t *testing.T) {
	cases := map[string]Reason{
		"Атакуем Команда 2":     ReasonNoNumber,
		"атакуем 58":            ReasonNoTarget,
		"Атакуем":               ReasonNoTarget,
		"Бросаю":                ReasonNoNumber,
		"Бросаю 37 или 38":      ReasonManyNumbers,
		"Защищаемся":            ReasonNoNumber,
		"+ к защите":            ReasonNoNumber,
		"атакуем команду 2":     ReasonNoNumber,
		"Атакуем Команда 2 5 6": ReasonManyNumbers,
	}
	for text, want := range cases {
		r := Parse(parser.FromBBCode(text), Options{Teams: teams})
		if r.Class != Unreadable || len(r.Problems) != 1 || r.Problems[0].Reason != want {
			t.Errorf("%q: %s %v, want %s", text, r.Class, r.Problems, want)
			continue
		}
		if p := r.Problems[0]; p.LineNo != 1 || p.Line != text || p.Error() == "" {
			t.Errorf("%q: problem %+v", text, p)
		}
	}
	// without the team list, "Атакуем Команда 2" is still no attack (the 2 is the name's)
	r := Parse(parser.FromBBCode("Атакуем Команда 2"), Options{})
	if r.Class != Unreadable || r.Problems[0].Reason != ReasonNoNumber {
		t.Errorf("without teams: %s %v", r.Class, r.Problems)
	}
	r = Parse(parser.FromBBCode("Атакуем Команда 2, 58"), Options{})
	if r.Class != Move || js(strip(r.Intents)) != js([]fb.Intent{&fb.Attack{Target: "Команда 2", Number: 58}}) {
		t.Errorf("without teams: %s %s", r.Class, js(r.Intents))
	}
}

func TestParsePrivate(t *testing.T) {
	pts := func(role fb.Role, n int) []fb.Intent { return []fb.Intent{&fb.Points{Role: role, Count: n}} }
	cases := []struct {
		text  string
		class Class
		want  []fb.Intent
	}{
		{"+3 к атаке", Move, pts(fb.RoleAttack, 3)},
		{"+2 к защите", Move, pts(fb.RoleDefence, 2)},
		{"добавляю 3 балла к атаке", Move, pts(fb.RoleAttack, 3)},
		{"+2 защита", Move, pts(fb.RoleDefence, 2)},
		{"Ответ: Пеле", AnswerPost, []fb.Intent{&fb.Answer{Text: "Пеле", Explicit: true}}},
		{"ответ - 1958", AnswerPost, []fb.Intent{&fb.Answer{Text: "1958", Explicit: true}}},
		{"Пеле", AnswerPost, []fb.Intent{&fb.Answer{Text: "Пеле"}}},
		{"45", AnswerPost, []fb.Intent{&fb.Answer{Text: "45"}}},
		{"атакующий полузащитник", AnswerPost, []fb.Intent{&fb.Answer{Text: "атакующий полузащитник"}}},
		{"Ответ: +3 к атаке", Move, pts(fb.RoleAttack, 3)}, // points first
		{"+3", Unreadable, nil},
		{"помощь", Help, nil},
		{"Здравствуйте! Мы хотели бы уточнить правила: можно ли атаковать два раза подряд, если стоим на одной клетке и нас никто не атакует?", Chatter, nil},
	}
	for _, c := range cases {
		r := Parse(parser.FromBBCode(c.text), Options{Teams: teams, Private: true})
		if r.Class != c.class {
			t.Errorf("%q: class %s (problems %v), want %s", c.text, r.Class, r.Problems, c.class)
			continue
		}
		if c.want != nil && js(strip(r.Intents)) != js(c.want) {
			t.Errorf("%q: intents %s, want %s", c.text, js(strip(r.Intents)), js(c.want))
		}
	}
	// an explicit answer in the thread is read (the engine says: privately)
	r := Parse(parser.FromBBCode("Ответ: Пеле"), Options{Teams: teams})
	if r.Class != AnswerPost {
		t.Errorf("thread answer: %s", r.Class)
	}
}

func TestQuotesAreNotRead(t *testing.T) {
	r := Parse(parser.FromBBCode("[quote=Вася]Бросаю 37[/quote]Удачи!"), Options{Teams: teams})
	if r.Class != Chatter {
		t.Errorf("a quoted roll was read: %s %s", r.Class, js(r.Intents))
	}
	r = Parse(parser.FromBBCode("[quote=Вася]Бросаю 37[/quote]А мы бросаем 38"), Options{Teams: teams})
	if r.Class != Move || js(strip(r.Intents)) != js([]fb.Intent{&fb.Roll{Number: 38}}) {
		t.Errorf("own roll after a quote: %s %s", r.Class, js(r.Intents))
	}
}
