package grammar

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"forumgm/forum"
	cr "forumgm/games/crusade/rules"
	"forumgm/parser"
)

func cell(t testing.TB, s string) *cr.Cell {
	t.Helper()
	c, err := cr.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

// mv and at build expected intents (Line is not compared).
func mv(t testing.TB, w string, ord int, from, to string) cr.Move {
	m := cr.Move{Warrior: cr.WarriorID(w), Ordinal: ord, To: *cell(t, to)}
	if from != "" {
		m.From = cell(t, from)
	}
	return m
}

func at(t testing.TB, kind cr.AttackKind, ord int, target, to string, ws ...string) cr.Attack {
	a := cr.Attack{Kind: kind, Ordinal: ord}
	for _, w := range ws {
		a.Attackers = append(a.Attackers, cr.WarriorID(w))
	}
	switch {
	case target == "":
	case strings.ContainsAny(target[:1], "ABCDEFGHIJKLMNOPRSTU"):
		a.Target.Cell = cell(t, target)
	default:
		a.Target.Warrior = cr.WarriorID(target)
	}
	if to != "" {
		a.To = cell(t, to)
	}
	return a
}

// stripLines drops the Line fields and the board, for comparison.
func stripLines(tn *cr.Turn) cr.Turn {
	if tn == nil {
		return cr.Turn{}
	}
	out := cr.Turn{}
	for _, m := range tn.Moves {
		m.Line = ""
		out.Moves = append(out.Moves, m)
	}
	for _, a := range tn.Attacks {
		a.Line = ""
		out.Attacks = append(out.Attacks, a)
	}
	return out
}

func TestMoveAndAttackLines(t *testing.T) {
	type want struct {
		moves   []cr.Move
		attacks []cr.Attack
	}
	for _, tc := range []struct {
		in   string
		want want
	}{
		// The seed's example and the rulings' variants.
		{"1-й ход сарацина н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"1 ход н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"первый ход н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"Второй ход сарацина н2 на G5", want{moves: []cr.Move{mv(t, "н2", 2, "", "G5")}}},
		{"третий ход н2 на G5", want{moves: []cr.Move{mv(t, "н2", 3, "", "G5")}}},
		{"1-ый ход н2 G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"1й ход н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"2-ой ход крестоносца р1 на D5", want{moves: []cr.Move{mv(t, "р1", 2, "", "D5")}}},
		{"н2 -> G5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},
		{"н2->G5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},
		{"н2 → G5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},
		{"н2 G4-G5", want{moves: []cr.Move{mv(t, "н2", 0, "G4", "G5")}}},
		{"н2 G4 -> G5", want{moves: []cr.Move{mv(t, "н2", 0, "G4", "G5")}}},
		{"к1 K17 K16", want{moves: []cr.Move{mv(t, "к1", 0, "K17", "K16")}}},
		{"1-й ход к1 K17 K16", want{moves: []cr.Move{mv(t, "к1", 1, "K17", "K16")}}},
		{"к1 на K-16", want{moves: []cr.Move{mv(t, "к1", 0, "", "K16")}}},
		{"к1 K-16", want{moves: []cr.Move{mv(t, "к1", 0, "", "K16")}}},
		{"1-й ход к1 с K-17 на K-16", want{moves: []cr.Move{mv(t, "к1", 1, "K17", "K16")}}},
		{"1-й ход н2 с G4 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "G4", "G5")}}},
		{"н2 идёт на G5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},
		{"1-й ход к1 на K16, 2-й ход к2 на L16", want{moves: []cr.Move{mv(t, "к1", 1, "", "K16"), mv(t, "к2", 2, "", "L16")}}},
		{"1-й ход к1 на K16; к2 на L16 и к3 на M16", want{moves: []cr.Move{mv(t, "к1", 1, "", "K16"), mv(t, "к2", 0, "", "L16"), mv(t, "к3", 0, "", "M16")}}},
		{"1-Й ХОД САРАЦИНА Н2 НА G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"н2 на С5", want{moves: []cr.Move{mv(t, "н2", 0, "", "C5")}}},  // Cyrillic С
		{"н2 на Е4", want{moves: []cr.Move{mv(t, "н2", 0, "", "E4")}}},  // Cyrillic Е
		{"н2 на g5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},  // lower case
		{"н2 на G 5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}}, // space
		{"H2 на G5", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},  // Latin H
		{"p1 на P17", want{moves: []cr.Move{mv(t, "р1", 0, "", "P17")}}},
		{"gl hf. 2-й ход сарацина н1 на D6", want{moves: []cr.Move{mv(t, "н1", 2, "", "D6")}}},
		{"ну что ж: 2-й ход сарацина н1 на D6!!! жду", want{moves: []cr.Move{mv(t, "н1", 2, "", "D6")}}},
		{"- н2 на G5.", want{moves: []cr.Move{mv(t, "н2", 0, "", "G5")}}},
		// Misspelt side words keep the ordinal.
		{"1-й ход сарацна н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"2-й ход сорацина н2 на G5", want{moves: []cr.Move{mv(t, "н2", 2, "", "G5")}}},
		{"1-й ход крестонсца к1 на K16", want{moves: []cr.Move{mv(t, "к1", 1, "", "K16")}}},
		{"3-й ход Крестоносцы р1 на D5", want{moves: []cr.Move{mv(t, "р1", 3, "", "D5")}}},
		{"1-й ход воина н2 на G5", want{moves: []cr.Move{mv(t, "н2", 1, "", "G5")}}},
		{"ход №2: н2 на G5", want{moves: []cr.Move{mv(t, "н2", 2, "", "G5")}}},
		// Attacks.
		{"р1 атакует мечом с2", want{attacks: []cr.Attack{at(t, cr.AttackSword, 0, "с2", "", "р1")}}},
		{"р1 мечом D6", want{attacks: []cr.Attack{at(t, cr.AttackSword, 0, "D6", "", "р1")}}},
		{"р1 бьёт мечом по D6", want{attacks: []cr.Attack{at(t, cr.AttackSword, 0, "D6", "", "р1")}}},
		{"р2 копьём на H4", want{attacks: []cr.Attack{at(t, cr.AttackCharge, 0, "", "H4", "р2")}}},
		{"р2 копьем на H4", want{attacks: []cr.Attack{at(t, cr.AttackCharge, 0, "", "H4", "р2")}}},
		{"ш2 копьём в р3", want{attacks: []cr.Attack{at(t, cr.AttackLance, 0, "р3", "", "ш2")}}},
		{"ш2 бьёт копьём D5", want{attacks: []cr.Attack{at(t, cr.AttackLance, 0, "D5", "", "ш2")}}},
		{"л1 стреляет в в3", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "в3", "", "л1")}}},
		{"л1 стреляет в В3", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "B3", "", "л1")}}},
		{"в2 стреляет по E5", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "E5", "", "в2")}}},
		{"а1+а2 стреляют в K5", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "K5", "", "а1", "а2")}}},
		{"а1 и а2 стреляют в K5", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "K5", "", "а1", "а2")}}},
		{"к1,к2 строем на C6", want{attacks: []cr.Attack{at(t, cr.AttackFormation, 0, "", "C6", "к1", "к2")}}},
		{"к1, к2, к3 атакуют строем на C6", want{attacks: []cr.Attack{at(t, cr.AttackFormation, 0, "", "C6", "к1", "к2", "к3")}}},
		{"к1+к2 копьями на C6", want{attacks: []cr.Attack{at(t, cr.AttackFormation, 0, "", "C6", "к1", "к2")}}},
		{"р1 атакует с2", want{attacks: []cr.Attack{at(t, cr.AttackUnstated, 0, "с2", "", "р1")}}},
		{"р1 атакует C2", want{attacks: []cr.Attack{at(t, cr.AttackUnstated, 0, "C2", "", "р1")}}},
		{"3-й ход р1 атакует мечом с2", want{attacks: []cr.Attack{at(t, cr.AttackSword, 3, "с2", "", "р1")}}},
		{"выстрел: л1 по E5", want{attacks: []cr.Attack{at(t, cr.AttackShot, 0, "E5", "", "л1")}}},
		// Move then attack.
		{"2-й ход р1 на D5 и атакует мечом D6", want{moves: []cr.Move{mv(t, "р1", 2, "", "D5")}, attacks: []cr.Attack{at(t, cr.AttackSword, 2, "D6", "", "р1")}}},
		{"в1 на E8, стреляет по E5", want{moves: []cr.Move{mv(t, "в1", 0, "", "E8")}, attacks: []cr.Attack{at(t, cr.AttackShot, 0, "E5", "", "в1")}}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			r := Parse(parser.FromBBCode(tc.in))
			if r.Class != TurnPost {
				t.Fatalf("class %s, problems %v", r.Class, r.Problems)
			}
			got := stripLines(r.Turn)
			w := cr.Turn{Moves: tc.want.moves, Attacks: tc.want.attacks}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("got  %+v\nwant %+v", got, w)
			}
			for _, m := range r.Turn.Moves {
				if m.Line == "" {
					t.Error("move without its line")
				}
			}
		})
	}
}

func TestSeveralLines(t *testing.T) {
	r := Parse(parser.FromBBCode("Мой ход.\n1-й ход к1 на K16\n2-й ход к2 на L16\nр1 атакует мечом D6\nудачи"))
	if r.Class != TurnPost || len(r.Turn.Moves) != 2 || len(r.Turn.Attacks) != 1 {
		t.Fatalf("%+v", r)
	}
	if r.Turn.Moves[1].Line != "2-й ход к2 на L16" {
		t.Errorf("line %q", r.Turn.Moves[1].Line)
	}
}

func TestChatter(t *testing.T) {
	for _, s := range []string{
		"Играю за сарацинов..", "оки. пиши", "Ход принят", "Играю.", "играю.", "Джелу, оторвись от МИФ-ологии...",
		"Предлагаю поиграть пока вдвоём (проверим), т.к. две полные команды не соберём. Встречу назначаю в воскресенье в 22:00.",
		"Беру на себя сарацин. Сейчас буду квотить. давай в 23.45 по москве выкладывать.",
		"(snovaya @ 11.02.2007 - время: 23:22) Заметь, как я Джелу во всём уступаю...",
		"ш1 силён, его так просто не взять", "р1 на месте стоит", "первый ход за вами", "мой 1-й ход будет завтра",
		"Кстати, в воскресенье могу опаздать немнго, так что ждите около 23.", "", "   ",
		"у меня р1, р2 и р3", "F5 обновил", "ранение моё, а не твоё",
	} {
		if r := Parse(parser.FromBBCode(s)); r.Class != Chatter {
			t.Errorf("%q: %s %+v", s, r.Class, r.Problems)
		}
	}
}

func TestUnreadable(t *testing.T) {
	for _, tc := range []struct {
		in     string
		token  string
		reason Reason
		row    string
		col    int
	}{
		{"2-й ход крестоносца в1 на Z9", "Z9", ReasonUnknownRow, "Z", 0},
		{"в1 на Q5", "Q5", ReasonUnknownRow, "Q", 0},
		{"н2 на Д5", "Д5", ReasonUnknownRow, "Д", 0},
		{"н2 на G21", "G21", ReasonBadColumn, "", 21},
		{"н2 на G0", "G0", ReasonBadColumn, "", 0},
		{"н2 -> G21", "G21", ReasonBadColumn, "", 21},
		{"р4 на G5", "р4", ReasonUnknownWarrior, "", 0},
		{"1-й ход х1 на G5", "х1", ReasonUnknownWarrior, "", 0},
		{"2-й ход крестоносца на G5", "на", ReasonNoWarrior, "", 0},
		{"в1 на", "", ReasonNoDestination, "", 0},
		{"1-й ход в1", "", ReasonNoDestination, "", 0},
		{"р1 атакует мечом", "", ReasonNoTarget, "", 0},
		{"л1 стреляет в Z3", "Z3", ReasonUnknownRow, "Z", 0},
		{"р2 копьём на ш2", "ш2", ReasonChargeNeedsCell, "", 0},
		{"р2 копьём", "", ReasonNoDestination, "", 0},
		{"1-й ход н1 и н2 на G5", "н1 и н2 на G5", ReasonManyWarriors, "", 0},
		// A word not understood before the warrior: asked about, the ordinal is not dropped.
		{"1-й ход гостя н2 на G5", "гостя", ReasonUnknownWord, "", 0},
		{"2-й ход кристьян к1 на K16", "кристьян", ReasonUnknownWord, "", 0},
	} {
		t.Run(tc.in, func(t *testing.T) {
			r := Parse(parser.FromBBCode("привет\n" + tc.in))
			if r.Class != Unreadable || len(r.Problems) != 1 {
				t.Fatalf("class %s, problems %v, turn %+v", r.Class, r.Problems, r.Turn)
			}
			p := r.Problems[0]
			if p.Token != tc.token || p.Reason != tc.reason || p.Row != tc.row || p.Col != tc.col || p.LineNo != 2 || p.Line != tc.in {
				t.Fatalf("got %+v", *p)
			}
			if p.Error() == "" {
				t.Fatal("no message")
			}
		})
	}
}

// A good line next to a bad one: the post is unreadable, and the good part is kept for context.
func TestUnreadableKeepsReadable(t *testing.T) {
	r := Parse(parser.FromBBCode("1-й ход к1 на K16\n2-й ход к2 на Q16"))
	if r.Class != Unreadable || len(r.Problems) != 1 || r.Turn == nil || len(r.Turn.Moves) != 1 {
		t.Fatalf("%+v", r)
	}
}

const gameBoard = `_____________________________________________________________
|__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__|-A
|__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__|-B
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|а1|__|__|__|-C
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|а2|__|__|__|-D
|__|__|__|в1|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-E
|__|__|__|в2|__|__|__|__|__|__|__|__|__|__|__|__|л1|__|__|__|-F
|__|__|__|в3|__|__|__|__|__|__|__|__|__|__|__|__|л2|__|__|__|-G
|__|__|__|в4|__|__|__|__|__|__|__|__|__|__|__|__|л3|__|__|__|-H
|__|ш1|__|в5|__|__|__|__|__|__|__|__|__|__|__|__|__|__|с1|__|-I
|Ф_|ш2|__|в6|__|__|__|__|__|__|__|__|__|__|__|__|__|__|с2|_Ф|-J
|__|ш3|__|в7|__|__|__|__|__|__|__|__|__|__|__|__|к1|__|__|__|-K
|__|__|__|в8|__|__|__|__|__|__|__|__|__|__|__|__|к2|__|__|__|-L
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|к3|__|__|__|-M
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|к4|__|__|__|-N
|н1|н2|__|__|__|__|__|__|__|__|__|__|__|__|__|__|к5|__|__|__|-O
|н3|н4|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|р1|__|__|-P
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|р2|__|__|-R
|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|р3|__|__|-S
|__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__|-T
|__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__|-U
|_1|_2|_3|_4|_5|_6|_7|_8|_9|10|11|12|13|14|15|16|17|18|19|20|`

// movePost is a realistic move post: chatter, the quoted board edited (н2 from O2 to N3), two
// move lines and an attack line.
var movePost = "Ну, поехали. gl hf!\n[quote=\"Ведущий\" pid='42' dateline='1170000000']Ход сарацин.\n[code]" +
	strings.Replace(strings.Replace(gameBoard, "|н1|н2|__|", "|н1|__|__|", 1), "|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|к4|", "|__|__|н2|__|__|__|__|__|__|__|__|__|__|__|__|__|к4|", 1) +
	"[/code]\n1-й ход крестоносца н1 на G5 (это цитата, не мой ход)[/quote]\n" +
	"1-й ход сарацина н2 на N3\n2-й ход сарацина в3 -> G8\nв1 стреляет по E7\nжду ответа :)"

func TestMovePostWithQuotedBoard(t *testing.T) {
	r := Parse(parser.FromBBCode(movePost))
	if r.Class != TurnPost {
		t.Fatalf("class %s %v", r.Class, r.Problems)
	}
	want := cr.Turn{
		Moves:   []cr.Move{mv(t, "н2", 1, "", "N3"), mv(t, "в3", 2, "", "G8")},
		Attacks: []cr.Attack{at(t, cr.AttackShot, 0, "E7", "", "в1")},
	}
	if got := stripLines(r.Turn); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	if r.Turn.Board == nil || r.Turn.Board.Cells[*cell(t, "N3")] != "н2" || r.Turn.Board.Cells[*cell(t, "O2")] != "" {
		t.Fatalf("board %v", r.Turn.Board)
	}
	if r.Board != r.Turn.Board || r.BoardErr != nil {
		t.Fatal("Result.Board")
	}
}

func TestQuotedMovesAreNotMine(t *testing.T) {
	r := Parse(parser.FromBBCode("[quote=Вася]1-й ход крестоносца р1 на D5[/quote]Ничего себе!"))
	if r.Class != Chatter || r.Turn != nil {
		t.Fatalf("%+v", r)
	}
	// Scraped posts: the same shape by hand.
	r = Parse(forum.Post{Text: "согласен", Quotes: []forum.Quote{{Author: "x", Text: "н2 на Z9"}}})
	if r.Class != Chatter {
		t.Fatalf("%+v", r)
	}
}

func TestBoardSources(t *testing.T) {
	// No board: Turn.Board nil.
	r := Parse(parser.FromBBCode("н2 на G5"))
	if r.Turn.Board != nil {
		t.Fatal("board out of nowhere")
	}
	// The own code block after the quote wins.
	edited := strings.Replace(gameBoard, "|__|__|__|в1|", "|__|__|__|__|в1|", 1)
	edited = strings.Replace(edited, "|__|__|__|__|в1|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-E", "|__|__|__|__|в1|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-E", 1)
	r = Parse(parser.FromBBCode("[quote=gm][code]" + gameBoard + "[/code][/quote]в1 на E5\n[code]" + edited + "[/code]"))
	if r.Class != TurnPost || r.Turn.Board == nil || r.Turn.Board.Cells[*cell(t, "E5")] != "в1" {
		t.Fatalf("%+v %v", r, r.BoardErr)
	}
	// A broken board: BoardErr, the move still read.
	broken := strings.Replace(gameBoard, "|в3|", "|в3|__|", 1)
	r = Parse(parser.FromBBCode("[quote=gm][code]" + broken + "[/code][/quote]в1 на E5"))
	var be *cr.BoardError
	if r.Class != TurnPost || r.Turn.Board != nil || !errors.As(r.BoardErr, &be) || be.Row != "G" {
		t.Fatalf("%+v", r)
	}
}

func TestAllocation(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []cr.Wound
	}{
		{"ранение: в3 защита", []cr.Wound{{Warrior: "в3", Stat: cr.StatDefence, Count: 1}}},
		{"Ранения: в3 атака, н1 защита x2", []cr.Wound{{Warrior: "в3", Stat: cr.StatAttack, Count: 1}, {Warrior: "н1", Stat: cr.StatDefence, Count: 2}}},
		{"ранения:\nв3 атака\nн1 защита х2\nш2 - атаку 2 раза", []cr.Wound{{Warrior: "в3", Stat: cr.StatAttack, Count: 1}, {Warrior: "н1", Stat: cr.StatDefence, Count: 2}, {Warrior: "ш2", Stat: cr.StatAttack, Count: 2}}},
		{"Ранения сарацин: защита в3 и атака н1", []cr.Wound{{Warrior: "в3", Stat: cr.StatDefence, Count: 1}, {Warrior: "н1", Stat: cr.StatAttack, Count: 1}}},
		{"ранение: H1 защиту дважды", []cr.Wound{{Warrior: "н1", Stat: cr.StatDefence, Count: 2}}},
		{"Привет! ранение: к1 защита", []cr.Wound{{Warrior: "к1", Stat: cr.StatDefence, Count: 1}}},
		{"Всем доброго вечера.\nНу что ж. Ранения: к1 защита, к2 атака", []cr.Wound{{Warrior: "к1", Stat: cr.StatDefence, Count: 1}, {Warrior: "к2", Stat: cr.StatAttack, Count: 1}}},
	} {
		r := Parse(parser.FromBBCode(tc.in))
		if r.Class != AllocationPost || !reflect.DeepEqual(r.Allocation.Wounds, tc.want) {
			t.Errorf("%q: %s %+v %v", tc.in, r.Class, r.Allocation, r.Problems)
		}
	}
	for _, tc := range []struct {
		in     string
		reason Reason
	}{
		{"ранение: в3", ReasonNoStat},
		{"ранение: в9 защита", ReasonUnknownWarrior},
		{"ранение: в3 защита x0", ReasonBadCount},
	} {
		r := Parse(parser.FromBBCode(tc.in))
		if r.Class != Unreadable || len(r.Problems) != 1 || r.Problems[0].Reason != tc.reason {
			t.Errorf("%q: %s %v", tc.in, r.Class, r.Problems)
		}
	}
}

func TestDeployment(t *testing.T) {
	r := Parse(parser.FromBBCode("Расстановка:\nр1 P18, р2 R18\nр3: S18\nа1 - C17"))
	want := map[cr.WarriorID]cr.Cell{"р1": *cell(t, "P18"), "р2": *cell(t, "R18"), "р3": *cell(t, "S18"), "а1": *cell(t, "C17")}
	if r.Class != DeploymentPost || !reflect.DeepEqual(r.Deployment.Cells, want) {
		t.Fatalf("%s %+v %v", r.Class, r.Deployment, r.Problems)
	}
	// Bare lines, no header.
	r = Parse(parser.FromBBCode("р1 P18\nр2 R18\nр3 S18\nа1 C17\nа2 D17"))
	if r.Class != DeploymentPost || len(r.Deployment.Cells) != 5 {
		t.Fatalf("%s %+v", r.Class, r.Deployment)
	}
	// A board of one side drawn in a message.
	own := map[cr.Cell]string{}
	for c, tok := range mustBoard(t, gameBoard).Cells {
		if w := cr.WarriorID(tok); w.Valid() && w.Side() == cr.Saracens {
			own[c] = tok
		}
	}
	r = Parse(parser.FromBBCode("моя расстановка\n[code]" + cr.Render(own) + "[/code]"))
	if r.Class != DeploymentPost || len(r.Deployment.Cells) != 15 || r.Deployment.Cells["н4"] != *cell(t, "P2") {
		t.Fatalf("%s %+v", r.Class, r.Deployment)
	}
	r = Parse(parser.FromBBCode("[code]" + cr.Render(own) + "[/code]"))
	if r.Class != DeploymentPost || len(r.Deployment.Cells) != 15 {
		t.Fatalf("%s %+v", r.Class, r.Deployment)
	}
	// Bad placement.
	r = Parse(parser.FromBBCode("Расстановка:\nр1 Q18"))
	if r.Class != Unreadable || r.Problems[0].Reason != ReasonUnknownRow {
		t.Fatalf("%s %v", r.Class, r.Problems)
	}
}

func mustBoard(t testing.TB, s string) *cr.BoardText {
	b, err := cr.ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadCellAndWarrior(t *testing.T) {
	for in, want := range map[string]string{"G5": "G5", "g5": "G5", "С5": "C5", "с5": "C5", "Е4": "E4", "G 5": "G5", "u20": "U20", "Р1": "P1"} {
		c, err := ReadCell(in)
		if err != nil || c.String() != want {
			t.Errorf("ReadCell(%q) = %v, %v", in, c, err)
		}
	}
	for _, in := range []string{"Q5", "Z9", "G21", "G0", "", "G"} {
		if _, err := ReadCell(in); err == nil {
			t.Errorf("ReadCell(%q) ok", in)
		}
	}
	for in, want := range map[string]cr.WarriorID{"н2": "н2", "Н2": "н2", "H2": "н2", "h2": "н2", "p1": "р1", "B3": "в3", "a1": "а1", "c1": "с1", "K5": "к5", "w1": "ш1", "Л3": "л3"} {
		w, err := ReadWarrior(in)
		if err != nil || w != want {
			t.Errorf("ReadWarrior(%q) = %v, %v", in, w, err)
		}
	}
	for _, in := range []string{"р4", "в9", "х1", "G5", "н02", ""} {
		if _, err := ReadWarrior(in); err == nil {
			t.Errorf("ReadWarrior(%q) ok", in)
		}
	}
}

func TestExamplesParse(t *testing.T) {
	for _, e := range Examples {
		if strings.Contains(e, "...") {
			continue
		}
		r := Parse(parser.FromBBCode(e))
		if r.Class == Chatter || r.Class == Unreadable {
			t.Errorf("example %q: %s %v", e, r.Class, r.Problems)
		}
	}
}

func TestHeadersNeedItems(t *testing.T) {
	for _, s := range []string{"Ранение получено. 1-й ход н2 на G5", "расстановку пришлю завтра\nн2 на G5", "Ход 1: н2 на G5"} {
		r := Parse(parser.FromBBCode(s))
		if r.Class != TurnPost || len(r.Turn.Moves) != 1 || r.Turn.Moves[0].Warrior != "н2" {
			t.Errorf("%q: %s %+v %v", s, r.Class, r.Turn, r.Problems)
		}
	}
	if r := Parse(parser.FromBBCode("расстановку пришлю завтра")); r.Class != Chatter {
		t.Errorf("got %s", r.Class)
	}
	if r := Parse(parser.FromBBCode("Ход 1: н2 на G5")); r.Turn.Moves[0].Ordinal != 1 {
		t.Errorf("ordinal %d", r.Turn.Moves[0].Ordinal)
	}
}
