package grammar

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	fb "forumgm/games/football/rules"
	"forumgm/parser"
)

// FuzzParse: Parse never panics, is deterministic, and its result is consistent with its class.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Бросаю 37", "Атакуем Команда 2, 58", "атака на Команда 2: 58", "Защищаемся 12", "+3 к атаке",
		"Ответ: Пеле", "37", "Атакуем Команда 2", "Бросаю 37 или 38", "[quote=a]Бросаю 1[/quote]ок",
		"Ход 3, бросаю 37; защита 12", "добавляю 3 балла к атаке", "помощь", "+",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, private bool) {
		post := parser.FromBBCode(s)
		opt := Options{Teams: []string{"Команда 1", "Команда 2", "Спартак"}, Private: private}
		a, b := Parse(post, opt), Parse(post, opt)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("not deterministic")
		}
		switch a.Class {
		case Move:
			if len(a.Intents) == 0 || len(a.Problems) > 0 {
				t.Fatalf("move without intents: %+v", a)
			}
		case Unreadable:
			if len(a.Problems) == 0 {
				t.Fatal("unreadable without problems")
			}
		case AnswerPost:
			if len(a.Intents) != 1 || len(a.Problems) > 0 {
				t.Fatalf("answer: %+v", a)
			}
			if _, ok := a.Intents[0].(*fb.Answer); !ok {
				t.Fatalf("answer: %T", a.Intents[0])
			}
		case Chatter, Help:
			if len(a.Intents) > 0 || len(a.Problems) > 0 {
				t.Fatalf("%s with content: %+v", a.Class, a)
			}
		default:
			t.Fatalf("class %q", a.Class)
		}
		for _, in := range a.Intents {
			switch v := in.(type) {
			case *fb.Attack:
				if fb.TeamKey(v.Target) == "" {
					t.Fatalf("attack without a target: %+v", v)
				}
			case *fb.Points:
				if v.Role != fb.RoleAttack && v.Role != fb.RoleDefence {
					t.Fatalf("points role %q", v.Role)
				}
			case *fb.Answer:
				if strings.TrimSpace(v.Text) == "" {
					t.Fatal("empty answer")
				}
			}
		}
		for _, p := range a.Problems {
			_ = p.Error()
		}
	})
}

var rollForms = []string{"Бросаю %d", "бросаем кубик: %d", "кубик %d", "ход %d", "%d", "Кидаю %d!", "ну что, бросаю %d"}
var attackForms = []string{"Атакуем %s, %d", "атака на %s: %d", "атакуем %s — %d", "Атакуем %s %d"}

// FuzzRollAndAttackLines builds a roll or attack line from fuzzed parts (form, number, team,
// letter case, punctuation around) and checks that it reads back as that move.
func FuzzRollAndAttackLines(f *testing.F) {
	f.Add(uint8(0), uint16(37), uint8(1), uint8(0), "!")
	f.Add(uint8(9), uint16(58), uint8(0), uint8(1), "...")
	f.Fuzz(func(t *testing.T, form uint8, num uint16, team, spell uint8, noise string) {
		teams := []string{"Команда 1", "Команда 2", "Спартак"}
		n := int(num)%100 + 1
		noise = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) || r == '[' || r == '+' || r == ';' || r == '.' || unicode.IsMark(r) || !unicode.IsPrint(r) {
				return -1
			}
			return r
		}, noise)
		if len(noise) > 6 {
			noise = noise[:6]
		}
		var line string
		var want fb.Intent
		if int(form) < len(rollForms) {
			line = fmt.Sprintf(rollForms[form], n)
			want = &fb.Roll{Number: n}
		} else {
			tm := teams[int(team)%len(teams)]
			name := tm
			if spell%3 == 1 {
				name = strings.Replace(tm, "Команда", "команду", 1)
			} else if spell%3 == 2 {
				name = strings.ToUpper(tm)
			}
			line = fmt.Sprintf(attackForms[int(form)%len(attackForms)], name, n)
			want = &fb.Attack{Target: tm, Number: n}
		}
		if spell%2 == 1 {
			r := []rune(line)
			line = strings.ToUpper(string(r[:1])) + string(r[1:])
		}
		text := line + " " + noise
		if _, bare := want.(*fb.Roll); bare && rollForms[int(form)%len(rollForms)] == "%d" {
			text = line + noise // a bare number: noise only after it
			if strings.ContainsAny(noise, "-+") || strings.Trim(noise, "№#.!)") != "" {
				return // not a bare number any more
			}
		}
		r := Parse(parser.FromBBCode(text), Options{Teams: teams})
		if r.Class != Move || len(r.Intents) != 1 {
			t.Fatalf("%q: class %s %v %s", text, r.Class, r.Problems, js(r.Intents))
		}
		if js(strip(r.Intents)) != js([]fb.Intent{want}) {
			t.Fatalf("%q: got %s, want %s", text, js(strip(r.Intents)), js(want))
		}
	})
}
