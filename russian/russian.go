// Package russian normalises players' Russian text for every game's grammar and rules: cleaning
// forum-mangled whitespace, case folding with ё -> е, Cyrillic/Latin look-alike letters in both
// directions, ordinals ("1-й", "1-ый", "первый") and near-misses (typos). Everything here is a
// pure function: no I/O, no clock, no logging.
package russian

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

var cleaner = strings.NewReplacer(
	"\r\n", "\n", "\r", "\n",
	"&nbsp;", " ", "&NBSP;", " ", "&#160;", " ", "&#xa0;", " ",
	"\u00a0", " ", "\u2007", " ", "\u202f", " ", "\u2009", " ", "\u200a", " ",
	"\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u00ad", "",
)

// CleanText undoes what forums and editors do to plain text: CRLF and CR become LF, &nbsp; and the
// no-break and thin spaces become plain spaces, zero-width characters and soft hyphens vanish.
func CleanText(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r', '&', 0xc2, 0xe2, 0xef: // CR, an entity, the first byte of a space or mark above
			return cleaner.Replace(s)
		}
	}
	return s // nothing to clean, as in most posts
}

// Fold lower-cases s and writes ё as е (players use both).
func Fold(s string) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if foldRune(r) != r || r == utf8.RuneError {
			return strings.Map(foldRune, s)
		}
		i += size
	}
	return s // already folded, as most words players write
}

// foldRune is Fold of one letter: the ASCII and Cyrillic letters without the Unicode tables.
func foldRune(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	case 'а' <= r && r <= 'я':
		return r
	case 'А' <= r && r <= 'Я':
		return r + ('а' - 'А')
	}
	r = unicode.ToLower(r)
	if r == 'ё' {
		return 'е'
	}
	return r
}

// latinOf maps Cyrillic letters that look like a Latin capital letter (in either case) to it.
var latinOf = map[rune]rune{
	'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P', 'Т': 'T', 'Х': 'X',
	'а': 'A', 'в': 'B', 'с': 'C', 'е': 'E', 'н': 'H', 'к': 'K', 'м': 'M', 'о': 'O', 'р': 'P', 'т': 'T', 'х': 'X',
	'Ё': 'E', 'ё': 'E', 'І': 'I', 'і': 'I', 'Ј': 'J', 'ј': 'J', 'Ѕ': 'S', 'ѕ': 'S', 'Ү': 'Y', 'ү': 'Y',
}

// LatinUpper returns the Latin capital letter r stands for in a coordinate: a Latin letter in
// either case, or a Cyrillic look-alike ("С" and "с" -> 'C', "Е" -> 'E', "Р" -> 'P'). ok is false
// for anything else (Д, Q is returned as 'Q': whether it is a row is the game's business).
func LatinUpper(r rune) (rune, bool) {
	if m, ok := latinOf[r]; ok {
		return m, true
	}
	if r < unicode.MaxASCII && unicode.IsLetter(r) {
		return unicode.ToUpper(r), true
	}
	return r, false
}

// ToLatinUpper maps every letter of s with LatinUpper (letters without a Latin reading stay).
func ToLatinUpper(s string) string {
	return strings.Map(func(r rune) rune {
		m, _ := LatinUpper(r)
		return m
	}, s)
}

// cyrillicOf maps Latin letters to the lower-case Cyrillic letter they look like: what a player
// types when the keyboard is on the wrong layout but the eye is on the board ("H2" means н2, "p1"
// means р1, "B1" means в1, "w" stands for ш).
var cyrillicOf = map[rune]rune{
	'a': 'а', 'A': 'а', 'b': 'в', 'B': 'в', 'c': 'с', 'C': 'с', 'e': 'е', 'E': 'е', 'H': 'н', 'h': 'н',
	'K': 'к', 'k': 'к', 'M': 'м', 'm': 'м', 'O': 'о', 'o': 'о', 'P': 'р', 'p': 'р', 'T': 'т', 't': 'т',
	'X': 'х', 'x': 'х', 'Y': 'у', 'y': 'у', 'W': 'ш', 'w': 'ш', 'n': 'п', 'u': 'и',
}

// CyrillicLower returns the lower-case Cyrillic letter r stands for in a warrior code: a Cyrillic
// letter in either case (ё -> е), or a Latin look-alike (see cyrillicOf). ok is false for a
// Latin letter without a Cyrillic look-alike and for anything that is not a letter.
func CyrillicLower(r rune) (rune, bool) {
	if m, ok := cyrillicOf[r]; ok {
		return m, true
	}
	if unicode.Is(unicode.Cyrillic, r) && unicode.IsLetter(r) {
		r = unicode.ToLower(r)
		if r == 'ё' {
			r = 'е'
		}
		return r, true
	}
	return r, false
}

// ToCyrillicLower maps every letter of s with CyrillicLower (other runes stay).
func ToCyrillicLower(s string) string {
	return strings.Map(func(r rune) rune {
		m, _ := CyrillicLower(r)
		return m
	}, s)
}

// ordinalStems are the stems of the Russian ordinal words, 1..10.
var ordinalStems = []struct {
	stem string
	n    int
}{
	{"перв", 1}, {"втор", 2}, {"трет", 3}, {"четверт", 4}, {"пят", 5},
	{"шест", 6}, {"седьм", 7}, {"восьм", 8}, {"девят", 9}, {"десят", 10},
}

// ordinalEndings are the adjective endings an ordinal word or suffix may carry.
var ordinalEndings = map[string]bool{
	"": true, "й": true, "ый": true, "ой": true, "ий": true, "ая": true, "яя": true, "я": true,
	"ое": true, "ее": true, "е": true, "ье": true, "ья": true, "ьей": true, "ого": true, "его": true,
	"го": true, "ому": true, "ему": true, "му": true, "ым": true, "им": true, "ом": true, "м": true,
	"ьего": true, "ьему": true, "ьим": true, "ьем": true, "ей": true, "ую": true, "ю": true,
	"ои": true, "ыи": true, "ии": true, "и": true, // й typed as и
}

// ParseOrdinal reads an ordinal as players write it: "1-й", "1-ый", "1й", "1ый", "2-ой", "3-ий",
// "1-я", "1", "1.", "первый", "второй", "третий", "четвёртый" ... "десятый" (any case, any
// adjective ending). It returns 0, false when s is not an ordinal.
func ParseOrdinal(s string) (int, bool) { return FoldedOrdinal(Fold(strings.TrimSpace(s))) }

// FoldedOrdinal is ParseOrdinal of a text already folded (Fold) and trimmed of spaces.
func FoldedOrdinal(s string) (int, bool) {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return 0, false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		if i > 3 {
			return 0, false
		}
		n, _ := strconv.Atoi(s[:i])
		rest := strings.TrimLeft(s[i:], "-–— ")
		if !ordinalEndings[rest] {
			return 0, false
		}
		return n, true
	}
	for _, st := range ordinalStems {
		if rest, ok := strings.CutPrefix(s, st.stem); ok && ordinalEndings[rest] && rest != "" {
			return st.n, true
		}
	}
	return 0, false
}

// EditDistance is the number of single-letter edits (insert, delete, replace, or swap of two
// neighbouring letters) that turn a into b, counted in runes: "сарацна" is 1 from "сарацина".
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Typos is how many edits a word of n letters may carry and still be read as the word meant:
// none below 5 letters, 1 up to 8, 2 from 9.
func Typos(n int) int {
	switch {
	case n < 5:
		return 0
	case n < 9:
		return 1
	}
	return 2
}

// NearWord reports whether the folded word w is one of words or within Typos of one of them.
func NearWord(w string, words ...string) bool {
	w = Fold(w)
	for _, x := range words {
		if w == x {
			return true
		}
		n := len([]rune(x))
		if d := Typos(n); d > 0 && abs(len([]rune(w))-n) <= d && EditDistance(w, x) <= d {
			return true
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
