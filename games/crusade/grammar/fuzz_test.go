package grammar

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	cr "forumgm/games/crusade/rules"

	"forumgm/parser"
	"forumgm/russian"
)

// FuzzParse: Parse never panics, is deterministic, and its result is consistent.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		movePost, "1-й ход сарацина н2 на G5", "2-й ход крестоносца в1 на Z9", "а1+а2 стреляют в K5",
		"к1,к2 строем на C6", "ранения: в3 атака, н1 защита x2", "Расстановка:\nр1 P18", "н2 G4-G5",
		"[quote=a]н2 на G5[/quote][code]" + gameBoard + "[/code]", "Играю за сарацинов..",
		"р1 P18\nр2 R18\nр3 S18\nа1 C17\nа2 D17", "2-й ход р1 на D5 и атакует мечом D6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		post := parser.FromBBCode(s)
		a, b := Parse(post), Parse(post)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("not deterministic")
		}
		checkResult(t, a)
	})
}

func checkResult(t *testing.T, r Result) {
	t.Helper()
	switch r.Class {
	case TurnPost:
		if r.Turn == nil || len(r.Turn.Moves)+len(r.Turn.Attacks) == 0 || len(r.Problems) > 0 {
			t.Fatalf("turn post without a turn: %+v", r)
		}
	case Unreadable:
		if len(r.Problems) == 0 {
			t.Fatal("unreadable without problems")
		}
	case AllocationPost:
		if r.Allocation == nil || len(r.Allocation.Wounds) == 0 {
			t.Fatal("allocation without wounds")
		}
	case DeploymentPost:
		if r.Deployment == nil {
			t.Fatal("deployment without cells")
		}
	case Chatter:
		if r.Turn != nil || len(r.Problems) > 0 {
			t.Fatal("chatter with content")
		}
	default:
		t.Fatalf("class %q", r.Class)
	}
	if r.Board != nil && r.BoardErr != nil {
		t.Fatal("board and board error")
	}
	for _, p := range r.Problems {
		_ = p.Error()
	}
	if r.Turn != nil {
		for _, m := range r.Turn.Moves {
			if !m.Warrior.Valid() || !m.To.Valid() || (m.From != nil && !m.From.Valid()) {
				t.Fatalf("bad move %+v", m)
			}
		}
		for _, a := range r.Turn.Attacks {
			if len(a.Attackers) == 0 {
				t.Fatal("attack without attackers")
			}
			for _, w := range a.Attackers {
				if !w.Valid() {
					t.Fatalf("bad attacker %q", w)
				}
			}
			if a.Kind == cr.AttackCharge || a.Kind == cr.AttackFormation {
				if a.To == nil || !a.To.Valid() {
					t.Fatalf("charge without destination %+v", a)
				}
			} else if (a.Target.Cell == nil) == (a.Target.Warrior == "") {
				t.Fatalf("attack target %+v", a.Target)
			}
		}
	}
}

// moveForms are the move line templates: ordinal words, warrior, cell.
var moveForms = []string{
	"%[1]d-й ход сарацина %[2]s на %[3]s",
	"%[1]d ход %[2]s на %[3]s",
	"%[1]d-ый ход %[2]s %[3]s",
	"%[1]dй ход крестоносца %[2]s -> %[3]s",
	"%[4]s ход %[2]s на %[3]s",
}

var ordWords = []string{"", "первый", "второй", "третий"}

// FuzzMoveLine builds a move line from fuzzed parts (form, ordinal, warrior, cell, spelling and
// some punctuation around) and checks that it reads back as that move.
func FuzzMoveLine(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint8(3), uint8(6), uint8(4), uint8(0), ". ")
	f.Add(uint8(4), uint8(3), uint8(29), uint8(19), uint8(19), uint8(3), "!!")
	f.Fuzz(func(t *testing.T, form, ord, wi, row, col, spell uint8, noise string) {
		ws := cr.AllWarriors()
		w := ws[int(wi)%len(ws)]
		o := int(ord)%3 + 1
		c := cr.Cell{Row: int(row) % cr.Size, Col: int(col)%cr.Size + 1}
		cellText := c.String()
		warText := string(w)
		switch spell % 4 {
		case 1:
			cellText = strings.ToLower(cellText)
			warText = strings.ToUpper(warText)
		case 2:
			cellText = russian.ToCyrillicLower(cellText[:1]) + cellText[1:] // may stay Latin
			cellText = strings.ToUpper(cellText)
		case 3:
			cellText = cellText[:1] + " " + cellText[1:]
		}
		// Noise: punctuation only, so it cannot be read as words.
		noise = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) || r == '|' || r == '_' || r == '[' || unicode.IsMark(r) {
				return -1
			}
			return r
		}, noise)
		if len(noise) > 8 {
			noise = noise[:8]
		}
		line := fmt.Sprintf(moveForms[int(form)%len(moveForms)], o, warText, cellText, ordWords[o])
		post := parser.FromBBCode(noise + " " + line + " " + noise)
		r := Parse(post)
		if r.Class != TurnPost || len(r.Turn.Moves) != 1 || len(r.Turn.Attacks) != 0 {
			t.Fatalf("%q: class %s %v %+v", post.Text, r.Class, r.Problems, r.Turn)
		}
		m := r.Turn.Moves[0]
		if m.Warrior != w || m.Ordinal != o || m.To != c || m.From != nil {
			t.Fatalf("%q: got %+v want %s %d %s", post.Text, m, w, o, c)
		}
	})
}

// BenchmarkParseMovePost: chatter, a quoted board, two move lines and an attack line.
func BenchmarkParseMovePost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := Parse(parser.FromBBCode(movePost))
		if r.Class != TurnPost {
			b.Fatal(r.Class)
		}
	}
}

// BenchmarkParseChatter: an ordinary chat post.
func BenchmarkParseChatter(b *testing.B) {
	p := parser.FromBBCode("Предлагаю поиграть пока вдвоём (проверим), т.к. две полные команды не соберём. Встречу назначаю в воскресенье в 22:00.")
	b.ReportAllocs()
	for b.Loop() {
		Parse(p)
	}
}

// FuzzParseKnown: a post read with the known board (the one the bot posted) gives Parse's result,
// whatever surrounds the board, precedes it or follows it.
func FuzzParseKnown(f *testing.F) {
	known, err := cr.ParseBoard(gameBoard)
	if err != nil {
		f.Fatal(err)
	}
	text := cr.Render(known.Cells)
	edited := strings.Replace(text, "|н1|н2|", "|н1|__|", 1)
	for _, s := range [][2]string{
		{"[quote=gm-bot][code]\n", "\n[/code][/quote]\nПоехали!\n1-й ход крестоносца к1 на K16"},
		{"[quote=gm-bot][code]", "[/code][/quote]1-й ход н2 на G5"},
		{"[quote=gm-bot]Ход 3 принят.\n[code]\n", "\n[/code]\nСледующий ход: сарацины.[/quote]\nн2 на G5\n[code]" + edited + "[/code]"},
		{"[quote]", "\n|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-A\n[/quote]н2 на G5"},
		{"[quote]x", "[/quote]н2 на G5"},
		{"[quote]\r\n", "\r\n[/quote]н2 на G5"},
		{"[code]" + edited + "\n", "[/code]н2 на G5"},
		{"", "\n|н1|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-Z\n"},
		{"расстановка\n", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		post := parser.FromBBCode(before + text + after)
		got := ParseKnown(post, Known{Text: text, Cells: known.Cells})
		want := Parse(post)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("with the known board:\n%+v\nparsed:\n%+v", got, want)
		}
	})
}
