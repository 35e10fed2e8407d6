// Package dragonball reads Dragonball orders as players write them (the contract's order
// language) into the engine's Orders: tact lines ("Такт 1: 57 в2 ловлю"), dragon lines ("Дракон
// такт 1: вперёд, выше, пасть закрыта, залп") and the description. It is tolerant: case, ё,
// Cyrillic/Latin look-alike letters, stray words, Russian direction words, several header
// forms ("Такт 1:", "1 такт", "1)", "1.").
package grammar

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	db "forumgm/games/dragonball/rules"

	"forumgm/forum"
	"forumgm/russian"
)

// ParsePost reads the poster's own text (never quotes) and own code blocks.
func ParsePost(p forum.Post) *db.Orders {
	text := p.Text
	for _, c := range p.Code {
		if !strings.Contains(text, c) {
			text += "\n" + c
		}
	}
	return Parse(text)
}

// norm is the form lines are read in: folded (lower case, ё as е) with Latin look-alike letters
// read as Cyrillic ("Takт" is "такт", "h2" is "н2"). It maps rune for rune, so rune offsets in
// the normal form are offsets in the original.
func norm(s string) string { return russian.ToCyrillicLower(russian.Fold(s)) }

// headers: "[дракон] такт N", "[дракон] N[-й] такт", "[дракон] N)" or "N." or "N:".
var (
	reTakt   = regexp.MustCompile(`^(дракон[а-я]*\s*[:,\-–—]?\s*)?(?:такт\s*[№#]?\s*(\d+)|(\d+)\s*(?:-?[а-я]{1,3})?\s*такт[а-я]*|(\d+)\s*[).:])\s*[:.\-–—)]*\s*`)
	reDragon = regexp.MustCompile(`^дракон[а-я]*\s*[:,\-–—]?\s*`)
	reDescr  = regexp.MustCompile(`^(описание|описани|опис)[а-я]*\s*[:\-–—]?\s*`)
)

// Parse reads the text of a message.
func Parse(text string) *db.Orders {
	o := &db.Orders{}
	lines := strings.Split(russian.CleanText(text), "\n")
	var descr []string
	inDescr := false
	dragonNext := false // a "Дракон:" line alone: the following tact lines are the dragon's
	for _, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" {
			inDescr = false
			continue
		}
		n := norm(line)
		if m := reDescr.FindStringIndex(n); m != nil {
			o.HasDescription = true
			inDescr = true
			if rest := runeSlice(line, n, m[1]); rest != "" {
				descr = append(descr, rest)
			}
			continue
		}
		m := reTakt.FindStringSubmatchIndex(n)
		if m == nil {
			if reDragon.MatchString(n) && strings.TrimSpace(reDragon.ReplaceAllString(n, "")) == "" {
				dragonNext, inDescr = true, false
				continue
			}
			if inDescr {
				descr = append(descr, line)
				continue
			}
			if looksLikeOrder(n) {
				o.Unreadable = append(o.Unreadable, db.Problem{Code: db.CodeUnreadable, Line: line, Detail: "no_tact"})
			}
			continue
		}
		tact := 0
		for _, g := range []int{4, 6, 8} {
			if m[g] >= 0 {
				tact, _ = strconv.Atoi(n[m[g]:m[g+1]])
			}
		}
		body := n[m[1]:]
		dragon := m[2] >= 0 || dragonNext
		// A bare "N)", "N." or "N:" is a header only for tacts 1..3 and a body that reads as an
		// order: "23:00 всем удачи" and "1. Привет" are chatter (or description).
		if m[8] >= 0 && m[2] < 0 {
			if _, prob := readTact(tact, line, body); tact < 1 || tact > 3 || (prob != nil && !dragon) {
				if inDescr {
					descr = append(descr, line)
				}
				continue
			}
		}
		inDescr = false
		if dragon {
			d, prob := readDragon(tact, line, body)
			if prob != nil {
				o.Unreadable = append(o.Unreadable, *prob)
			} else {
				o.Dragon = append(o.Dragon, d)
			}
			continue
		}
		t, prob := readTact(tact, line, body)
		if prob != nil {
			o.Unreadable = append(o.Unreadable, *prob)
		} else {
			o.Tacts = append(o.Tacts, t)
		}
	}
	o.Description = strings.Join(descr, "\n")
	return o
}

// runeSlice is the original line from the rune offset of byte offset i in its normal form n.
func runeSlice(line, n string, i int) string {
	k := len([]rune(n[:i]))
	r := []rune(line)
	if k > len(r) {
		return ""
	}
	return strings.TrimSpace(string(r[k:]))
}

// looksLikeOrder: a line without a tact header that still reads like an order.
func looksLikeOrder(n string) bool {
	for _, w := range words(n) {
		if actionOf(w) != "" || w == "такт" {
			return true
		}
	}
	return false
}

type token struct {
	word string // letters (and inner hyphens), or digits
	num  int    // the number, when digits
	isN  bool
}

// tokens splits a normal-form body into words and numbers ("в2" is "в", 2).
func tokens(s string) []token {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && unicode.IsDigit(rs[j]) {
				j++
			}
			n, _ := strconv.Atoi(string(rs[i:j]))
			out = append(out, token{word: string(rs[i:j]), num: n, isN: true})
			i = j
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || (rs[j] == '-' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]))) {
				j++
			}
			out = append(out, token{word: string(rs[i:j])})
			i = j
		default:
			i++
		}
	}
	return out
}

func words(s string) []string {
	var out []string
	for _, t := range tokens(s) {
		if !t.isN {
			out = append(out, t.word)
		}
	}
	return out
}

// heightWords precede a height: "в2", "выс 2", "высота 2", "h2" (read as н2).
var heightWords = map[string]bool{"в": true, "выс": true, "высота": true, "высоте": true, "высоту": true,
	"высоты": true, "н": true, "вы": true, "уровень": true, "ур": true}

// dirWords are the six directions in Russian and English (English codes after the look-alike
// mapping: e -> е, w -> ш, ne -> пе, nw -> пш, se -> се, sw -> сш).
var dirWords = withDirCodes(map[string]db.Dir{
	"восток": db.E, "вправо": db.E, "направо": db.E, "е": db.E, "в": db.E,
	"запад": db.W, "влево": db.W, "налево": db.W, "ш": db.W, "з": db.W,
	"св": db.NE, "северо-восток": db.NE, "пе": db.NE,
	"сз": db.NW, "северо-запад": db.NW, "пш": db.NW,
	"юв": db.SE, "юго-восток": db.SE, "се": db.SE,
	"юз": db.SW, "юго-запад": db.SW, "сш": db.SW,
})

// withDirCodes adds each direction's own code to words.
func withDirCodes(words map[string]db.Dir) map[string]db.Dir {
	for _, d := range db.Dirs {
		words[norm(d.String())] = d
	}
	return words
}

var cellWords = map[string]bool{"клетка": true, "клетку": true, "клетке": true, "кл": true, "на": true, "в": true}

func actionOf(w string) db.Action {
	switch {
	case strings.HasPrefix(w, "лов"), strings.HasPrefix(w, "пойма"), strings.HasPrefix(w, "хвата"):
		return db.Catch
	case w == "пас", w == "пасс", strings.HasPrefix(w, "пасу"), strings.HasPrefix(w, "пасова"), strings.HasPrefix(w, "переда"), strings.HasPrefix(w, "бросаю"):
		return db.Pass
	case strings.HasPrefix(w, "отбира"), strings.HasPrefix(w, "отбор"), strings.HasPrefix(w, "отбер"), strings.HasPrefix(w, "отним"), strings.HasPrefix(w, "отнят"), strings.HasPrefix(w, "отнима"), strings.HasPrefix(w, "отобра"):
		return db.Steal
	}
	return ""
}

func isStay(w string) bool {
	return strings.HasPrefix(w, "сто") || w == "остаюсь" || w == "месте" || w == "вишу" || w == "зависаю"
}

// spellKeys maps a spell written without hyphens and spaces to its canonical form.
var spellKeys = func() map[string]string {
	m := map[string]string{}
	for _, p := range db.Spells {
		for _, s := range p {
			m[strings.ReplaceAll(norm(s), "-", "")] = s
		}
	}
	return m
}()

// takeSpell finds a spell among toks (written with a hyphen, a space or neither) and removes it.
func takeSpell(toks []token) ([]token, string) {
	for i := range toks {
		if toks[i].isN {
			continue
		}
		one := strings.ReplaceAll(toks[i].word, "-", "")
		if s, ok := spellKeys[one]; ok {
			return append(toks[:i:i], toks[i+1:]...), s
		}
		if i+1 < len(toks) && !toks[i+1].isN {
			if s, ok := spellKeys[one+strings.ReplaceAll(toks[i+1].word, "-", "")]; ok {
				return append(toks[:i:i], toks[i+2:]...), s
			}
		}
	}
	return toks, ""
}

// heightNext reports whether the next number of a tact's line can only be a height: the
// player's (or the pass's) cell is already given.
func heightNext(t db.TactOrder) bool {
	if t.Action == db.Pass {
		return t.To != 0 && t.ToHeight == 0
	}
	return t.Action == "" && (t.Cell != 0 || t.Dir != "") && t.Height == 0
}

func readTact(tact int, line, body string) (db.TactOrder, *db.Problem) {
	t := db.TactOrder{Tact: tact, Line: line}
	bad := func(code db.Code, detail string) (db.TactOrder, *db.Problem) {
		return t, &db.Problem{Code: code, Tact: tact, Line: line, Detail: detail}
	}
	toks, spell := takeSpell(tokens(body))
	t.Spell = spell
	something := spell != ""
	var rest []string // words after a steal's "у"
	for i := 0; i < len(toks); i++ {
		tk := toks[i]
		nextNum := i+1 < len(toks) && toks[i+1].isN
		switch {
		case t.Action == db.Steal && !tk.isN && (tk.word == "у" || len(rest) > 0):
			if tk.word != "у" || len(rest) > 0 {
				rest = append(rest, tk.word)
			} else {
				rest = append(rest, "")
			}
		case tk.isN:
			switch {
			case t.Action == db.Pass && t.To == 0:
				t.To = db.Cell(tk.num)
			case t.Action == db.Pass && t.ToHeight == 0 && tk.num <= 3:
				t.ToHeight = tk.num
			case t.Action == "" && t.Cell == 0 && t.Dir == "":
				t.Cell = db.Cell(tk.num)
			case t.Action == "" && t.Height == 0 && tk.num <= 3:
				t.Height = tk.num
			default:
				return bad(db.CodeUnreadable, tk.word)
			}
			something = true
		case heightWords[tk.word] && nextNum && (toks[i+1].num <= 3 || tk.word != "в" || heightNext(t)):
			// "в 62" after "пас" is the pass's cell; "в5" after the cell is a height out of
			// range, read as a height so that the rules name the legal ones (1, 2 and 3).
			h := toks[i+1].num
			i++
			if t.Action == db.Pass {
				t.ToHeight = h
			} else {
				t.Height = h
			}
			something = true
		case cellWords[tk.word] && nextNum:
			// "клетка 57", "на 57": the number follows
		case actionOf(tk.word) != "":
			a := actionOf(tk.word)
			if t.Action != "" && t.Action != a {
				return bad(db.CodeTwoActions, tk.word)
			}
			t.Action = a
			something = true
		case t.Action == db.Pass && colorOK(tk.word):
			c, _ := db.ColorOf(tk.word)
			t.Ball = c
		case t.Action == "" && t.Cell == 0 && dirOK(tk.word):
			t.Dir = dirWords[tk.word].String()
			something = true
		case isStay(tk.word):
			something = true
		}
	}
	if t.Action == db.Steal && len(rest) > 0 {
		t.Target = strings.TrimSpace(strings.Join(rest, " "))
		t.Target = originalName(line, t.Target)
	}
	if t.Action == db.Pass && t.To == 0 {
		return bad(db.CodeUnreadable, "no_pass_target")
	}
	if t.Spell != "" && t.Action == "" {
		t.Action = db.Catch // a counter-spell alone is a catch with it
	}
	if !something {
		return bad(db.CodeUnreadable, "empty")
	}
	return t, nil
}

func colorOK(w string) bool {
	_, ok := db.ColorOf(w)
	return ok
}

func dirOK(w string) bool {
	_, ok := dirWords[w]
	return ok
}

// originalName is the name as written in the original line (the normal form lost its case and
// its look-alike letters): the same runes as its last occurrence in the normal form.
func originalName(line, normName string) string {
	n := norm(line)
	i := strings.LastIndex(n, normName)
	if i < 0 {
		return normName
	}
	k := len([]rune(n[:i]))
	r := []rune(line)
	return string(r[k : k+len([]rune(normName))])
}

func readDragon(tact int, line, body string) (db.DragonOrder, *db.Problem) {
	d := db.DragonOrder{Tact: tact, Line: line}
	bad := func(detail string) (db.DragonOrder, *db.Problem) {
		return d, &db.Problem{Code: db.CodeUnreadable, Dragon: true, Tact: tact, Line: line, Detail: detail}
	}
	toks := tokens(body)
	something := false
	for i := 0; i < len(toks); i++ {
		tk := toks[i]
		w := tk.word
		nextNum := i+1 < len(toks) && toks[i+1].isN
		switch {
		case tk.isN:
			if tk.num < 1 || tk.num > 3 || d.Height != 0 {
				return bad(w)
			}
			d.Height = tk.num
		case heightWords[w] && nextNum:
			d.Height = toks[i+1].num
			i++
		case strings.HasPrefix(w, "впер"), w == "прямо", strings.HasPrefix(w, "лет"):
			d.Move = db.MoveForward
		case w == "налево", w == "влево", strings.HasPrefix(w, "лев"):
			d.Move = db.MoveLeft
		case w == "направо", w == "вправо", strings.HasPrefix(w, "прав"):
			d.Move = db.MoveRight
		case isStay(w):
			d.Move = db.MoveStay
		case w == "выше", strings.HasPrefix(w, "вверх"), strings.HasPrefix(w, "подним"), strings.HasPrefix(w, "набира"):
			d.Climb = 1
		case w == "ниже", strings.HasPrefix(w, "вниз"), strings.HasPrefix(w, "опуска"), strings.HasPrefix(w, "снижа"):
			d.Climb = -1
		case strings.HasPrefix(w, "откр"), strings.HasPrefix(w, "разин"), strings.HasPrefix(w, "распах"):
			d.Mouth = db.MouthOpen
		case strings.HasPrefix(w, "закр"):
			d.Mouth = db.MouthClosed
		case strings.HasPrefix(w, "плам"), strings.HasPrefix(w, "огон"), strings.HasPrefix(w, "огн"):
			if d.Fire == "" {
				d.Fire = db.FireFlame
			}
		case strings.HasPrefix(w, "залп"):
			d.Fire = db.FireVolley
		default:
			continue
		}
		something = true
	}
	if !something {
		return bad("empty")
	}
	return d, nil
}

// IsHelp reports whether a message asks for the help text ("помощь", "справка", "help", "как
// писать приказы?").
func IsHelp(text string) bool {
	switch strings.Trim(russian.Fold(strings.TrimSpace(text)), "!?.… ") {
	case "помощь", "справка", "help", "как ходить", "как писать приказы", "как играть", "правила":
		return true
	}
	return false
}
