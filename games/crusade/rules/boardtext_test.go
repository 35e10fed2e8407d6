package rules

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// seedBoard is the seed's example board (seeds/004, "Пример расположения армий") with its typo
// fixed: the second ш2 on row K is ш3.
const seedBoard = `_____________________________________________________________
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

func mustCell(t testing.TB, s string) Cell {
	t.Helper()
	c, err := ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// seedPosition is the seed's example position.
func seedPosition(t testing.TB) map[Cell]string {
	pos := map[string]string{
		"C17": "а1", "D17": "а2", "F17": "л1", "G17": "л2", "H17": "л3", "I19": "с1", "J19": "с2",
		"K17": "к1", "L17": "к2", "M17": "к3", "N17": "к4", "O17": "к5", "P18": "р1", "R18": "р2", "S18": "р3",
		"I2": "ш1", "J2": "ш2", "K2": "ш3",
		"E4": "в1", "F4": "в2", "G4": "в3", "H4": "в4", "I4": "в5", "J4": "в6", "K4": "в7", "L4": "в8",
		"O1": "н1", "O2": "н2", "P1": "н3", "P2": "н4",
		"J1": FlagToken, "J20": FlagToken,
	}
	out := map[Cell]string{}
	for k, v := range pos {
		out[mustCell(t, k)] = v
	}
	return out
}

func TestRenderSeedBoard(t *testing.T) {
	got := Render(seedPosition(t))
	if got != seedBoard {
		gl, wl := strings.Split(got, "\n"), strings.Split(seedBoard, "\n")
		for i := range wl {
			if i >= len(gl) || gl[i] != wl[i] {
				g := ""
				if i < len(gl) {
					g = gl[i]
				}
				t.Fatalf("line %d:\n got %s\nwant %s", i+1, g, wl[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(gl), len(wl))
	}
	if n := utf8.RuneCountInString(strings.Split(got, "\n")[0]); n != 61 {
		t.Errorf("top line has %d underscores, want 61", n)
	}
}

// TestSeedFileBoard checks seedBoard against the seed file itself (a copy in testdata/, see its
// README.md): identical but for the one typo.
func TestSeedFileBoard(t *testing.T) {
	b, err := os.ReadFile("../docs/seed.txt")
	if err != nil {
		t.Fatal("the seed file must be in testdata/:", err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if l == BoardTopLine {
			start = i
			break
		}
	}
	if start < 0 || start+22 > len(lines) {
		t.Fatal("seed board not found")
	}
	seed := strings.Join(lines[start:start+22], "\n")
	fixed := strings.Replace(seed, "|__|ш2|__|в7|", "|__|ш3|__|в7|", 1)
	if fixed == seed {
		t.Fatal("seed typo not found")
	}
	if fixed != seedBoard {
		t.Fatal("seedBoard differs from the seed file")
	}
	// The seed as written reads too (with its duplicate ш2).
	bt, err := ParseBoard(seed)
	if err != nil {
		t.Fatal(err)
	}
	if bt.Cells[mustCell(t, "K2")] != "ш2" {
		t.Errorf("K2 = %q", bt.Cells[mustCell(t, "K2")])
	}
}

func TestParseSeedBoard(t *testing.T) {
	bt, err := ParseBoard(seedBoard)
	if err != nil {
		t.Fatal(err)
	}
	want := seedPosition(t)
	if !equalCells(bt.Cells, want) {
		t.Fatalf("got %v\nwant %v", bt.Cells, want)
	}
	if bt.String() != seedBoard {
		t.Fatal("String() differs from the seed")
	}
}

func equalCells(a, b map[Cell]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRenderForestWarriorAndMarks(t *testing.T) {
	got := Render(map[Cell]string{
		mustCell(t, "A2"): "в1", mustCell(t, "B20"): "р3", mustCell(t, "T1"): "н2", mustCell(t, "U3"): "Ф",
		mustCell(t, "C4"): "9", mustCell(t, "D5"): "10", mustCell(t, "E6"): "Р1", mustCell(t, "F7"): "",
		{Row: 25, Col: 3}: "в1",
	})
	lines := strings.Split(got, "\n")
	check := func(i int, want string) {
		t.Helper()
		if lines[i] != want {
			t.Errorf("line %d:\n got %s\nwant %s", i, lines[i], want)
		}
	}
	check(1, "|__<в1<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__|-A")
	check(2, "|__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>р3|-B")
	check(3, "|__|__|__|_9|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-C")
	check(4, "|__|__|__|__|10|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-D")
	check(5, "|__|__|__|__|__|??|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-E")
	check(19, "|н2>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__>__|-T")
	check(20, "|__<__<Ф_<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__<__|-U")
}

// A board as players and forums mangle it.
func TestParseBoardTolerant(t *testing.T) {
	mangled := strings.Split(seedBoard, "\n")[1:]                                     // no top line
	mangled[2] = strings.Replace(mangled[2], "а1", "a1", 1)                           // Latin a
	mangled[3] = strings.Replace(mangled[3], "|-D", "| -d ", 1)                       // lower case, spaces
	mangled[4] = strings.Replace(mangled[4], "в1", "B1", 1)                           // Latin B
	mangled[6] = strings.Replace(mangled[6], "|-G", "|-G&nbsp;", 1)                   // entity
	mangled[7] = strings.Replace(mangled[7], "|__|__|__|в4|", "| __ |__|__| В4 |", 1) // spaces, upper Cyrillic
	mangled[8] = strings.ReplaceAll(mangled[8], "__", "\u00a0\u00a0")                 // nbsp instead of underscores
	mangled[15] = strings.Replace(mangled[15], "р1", "p1", 1)                         // Latin p
	mangled[15] = strings.Replace(mangled[15], "|-P", "|-Р", 1)
	mangled[14] = strings.Replace(mangled[14], "н1", "H1", 1)
	mangled[11] = strings.Replace(mangled[11], "|-L", "|-l", 1)
	text := "Мой ход!\r\n[board follows]\r\n\r\n" + strings.Join(mangled, "\r\n") + "\r\n\r\nвсё"
	bt, err := ParseBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	if !equalCells(bt.Cells, seedPosition(t)) {
		t.Fatalf("got %v", bt.Cells)
	}
	// Blank lines between rows (forums doubling <br>) and no labels at all.
	var nolabel []string
	for _, l := range strings.Split(seedBoard, "\n") {
		if i := strings.LastIndex(l, "|-"); i > 0 {
			l = l[:i+1]
		}
		nolabel = append(nolabel, l, "")
	}
	bt, err = ParseBoard(strings.Join(nolabel, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !equalCells(bt.Cells, seedPosition(t)) {
		t.Fatalf("no labels: got %v", bt.Cells)
	}
}

func TestParseBoardLast(t *testing.T) {
	other := Render(map[Cell]string{mustCell(t, "G5"): "н2"})
	bt, err := ParseBoard(seedBoard + "\nи вот новая:\n" + other)
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Cells) != 1 || bt.Cells[mustCell(t, "G5")] != "н2" {
		t.Fatalf("got %v", bt.Cells)
	}
}

func TestParseBoardNone(t *testing.T) {
	for _, s := range []string{
		"",
		"1-й ход сарацина н2 на G5",
		// The rules' own diagrams and tables are not the board.
		"_________________________\n|__|__|__|_9|_9|_9|__|__|-C\n|__|__|__|_9|р1|_9|__|__|-D\n|__|__|__|_9|_9|_9|__|р1|-E\n|_1|_2|_3|_4|_5|_6|_7|_8|",
		"|___Виды войск___|_Ч|СД|САК|АМ|АК|___АС___|ДМ|_ДК|_ДС|_З|\n|Рыцари__________|_3|_3|_4_|_9|10|________|_1|4+2|___|_9|\n|Арбалетчики_____|_2|_4|___|_5|__|10-8-7-6|_1|___|1-4|_5|\n|Лучники_________|_3|_2|___|_4|__|_9-7-6-5|_1|___|1-4|_3|",
		BoardTopLine,
		strings.Split(seedBoard, "\n")[5], // one row alone
	} {
		if _, err := ParseBoard(s); !errors.Is(err, ErrNoBoard) {
			t.Errorf("%q: err %v, want ErrNoBoard", s, err)
		}
	}
}

func TestParseBoardErrors(t *testing.T) {
	lines := func(f func(l []string) []string) string {
		return strings.Join(f(strings.Split(seedBoard, "\n")), "\n")
	}
	for _, tc := range []struct {
		name   string
		text   string
		reason BoardReason
		row    string
		col    int
		token  string
	}{
		{"short row", lines(func(l []string) []string { l[5] = strings.Replace(l[5], "|__", "", 1); return l }), BoardCellCount, "E", 0, ""},
		{"bad token", lines(func(l []string) []string { l[7] = strings.Replace(l[7], "в3", "zz", 1); return l }), BoardBadToken, "G", 4, "zz"},
		{"unknown warrior", lines(func(l []string) []string { l[7] = strings.Replace(l[7], "в3", "х3", 1); return l }), BoardBadToken, "G", 4, "х3"},
		{"wide token", lines(func(l []string) []string { l[7] = strings.Replace(l[7], "в3", "в33", 1); return l }), BoardBadToken, "G", 4, "в33"},
		{"bad label", lines(func(l []string) []string { l[7] = strings.Replace(l[7], "|-G", "|-Q", 1); return l }), BoardBadLabel, "", 0, "-Q"},
		{"duplicate", lines(func(l []string) []string { l[7] = strings.Replace(l[7], "|-G", "|-F", 1); return l }), BoardDuplicate, "F", 0, ""},
		{"missing", lines(func(l []string) []string { return append(l[:7], l[9:]...) }), BoardMissingRows, "", 0, "G H"},
		{"no label", lines(func(l []string) []string {
			l[7] = strings.Replace(l[7], "|-G", "|", 1)
			return append(l[:3], l[4:]...)
		}), BoardNoLabel, "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBoard(tc.text)
			var be *BoardError
			if !errors.As(err, &be) {
				t.Fatalf("err %v, want *BoardError", err)
			}
			if be.Reason != tc.reason || be.Row != tc.row || be.Col != tc.col || be.Token != tc.token {
				t.Fatalf("got %+v (%v)", *be, be)
			}
			if be.Error() == "" {
				t.Fatal("empty message")
			}
		})
	}
}

func TestReadBoardToken(t *testing.T) {
	for in, want := range map[string]string{
		"__": "", "_Ф": "Ф", "Ф_": "Ф", "ф": "Ф", "_9": "9", "10": "10", "в1": "в1", "B1": "в1", "b1": "в1",
		"В1": "в1", "p2": "р2", "P2": "р2", "Р2": "р2", "H3": "н3", "h3": "н3", "K4": "к4", "k4": "к4",
		"c1": "с1", "C1": "с1", "a2": "а2", "A2": "а2", "Л3": "л3", "Ш1": "ш1", "w1": "ш1", " в 1 ": "в1",
	} {
		got, ok := ReadBoardToken(in)
		if !ok || got != want {
			t.Errorf("ReadBoardToken(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"x1", "в", "1в", "abc", "в12", "Z"} {
		if _, ok := ReadBoardToken(in); ok {
			t.Errorf("ReadBoardToken(%q) ok", in)
		}
	}
}

var fuzzTokens = func() []string {
	out := []string{"", FlagToken, "1", "9", "10", "99"}
	for _, w := range AllWarriors() {
		out = append(out, string(w))
	}
	return append(out, "в9", "р0")
}()

// FuzzBoardRoundTrip draws a board from fuzzed placements and reads it back.
func FuzzBoardRoundTrip(f *testing.F) {
	f.Add([]byte{0, 0, 1, 9, 9, 2, 19, 19, 3})
	f.Add([]byte{9, 0, 1, 9, 19, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		cells := map[Cell]string{}
		for i := 0; i+2 < len(data); i += 3 {
			c := Cell{Row: int(data[i]) % Size, Col: int(data[i+1])%Size + 1}
			tok := fuzzTokens[int(data[i+2])%len(fuzzTokens)]
			if tok == "" {
				delete(cells, c)
				continue
			}
			cells[c] = tok
		}
		text := Render(cells)
		bt, err := ParseBoard(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if !equalCells(bt.Cells, cells) {
			t.Fatalf("round trip: got %v want %v\n%s", bt.Cells, cells, text)
		}
		if again := Render(bt.Cells); again != text {
			t.Fatal("render not stable")
		}
	})
}

// FuzzParseBoard feeds arbitrary text: ParseBoard never panics, answers a board or an error, and a
// board it reads draws and reads back the same.
func FuzzParseBoard(f *testing.F) {
	f.Add(seedBoard)
	f.Add(strings.ReplaceAll(seedBoard, "\n", "\r\n"))
	f.Add(strings.Join(strings.Split(seedBoard, "\n")[3:8], "\n"))
	f.Add("|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-Ё\n|_1|_2|")
	f.Fuzz(func(t *testing.T, s string) {
		bt, err := ParseBoard(s)
		if err != nil {
			if bt != nil {
				t.Fatal("board and error")
			}
			_ = err.Error()
			return
		}
		for c, tok := range bt.Cells {
			if !c.Valid() || !Drawable(tok) {
				t.Fatalf("bad cell %v %q", c, tok)
			}
		}
		bt2, err := ParseBoard(bt.String())
		if err != nil || !equalCells(bt.Cells, bt2.Cells) {
			t.Fatalf("re-read: %v", err)
		}
	})
}

// TestBoardFlagsAnywhere: with the flags in any column (the defaults stand in the edge columns),
// the board text is Render of the tokens, each flag padded towards its own edge.
func TestBoardFlagsAnywhere(t *testing.T) {
	for col := 1; col <= Size; col++ {
		s := testSettings()
		s.SaracenFlag = Cell{Row: 9, Col: col}
		s.CrusaderFlag = Cell{Row: 10, Col: Size + 1 - col}
		g, err := New(s, testRoster(), Setup{Mode: SetupDefault, At: at(2, 9, 0)})
		if err != nil {
			t.Fatalf("flags in columns %d and %d: %v", col, Size+1-col, err)
		}
		if got, want := g.Board(), Render(g.Tokens()); got != want {
			t.Fatalf("flags in columns %d and %d:\n%s\nwant:\n%s", col, Size+1-col, got, want)
		}
	}
}
