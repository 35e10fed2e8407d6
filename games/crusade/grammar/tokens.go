package grammar

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"forumgm/russian"
)

// tokKind is the kind of a token of a line.
type tokKind int

const (
	tWord  tokKind = iota // letters ("на", "мечом", "g")
	tNum                  // digits ("5")
	tCode                 // one letter and digits: a warrior code or a cell ("н2", "G5", "Z9")
	tOrd                  // a numeric or word ordinal ("1-й", "1ый", "первый")
	tPunct                // punctuation ("->", ",", "+", ".")
)

// token is one token of a line: its kind, its text as written, its folded text (lower case,
// ё -> е), and where it stands in the line (byte offsets).
type token struct {
	kind       tokKind
	raw        string
	fold       string
	start, end int
	ord        int    // tOrd: the number
	letter     rune   // tCode: the letter as written
	digits     string // tCode: the digits
}

func isLetter(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	case 'А' <= r && r <= 'я': // the Russian alphabet but ё and Ё
		return true
	}
	return unicode.IsLetter(r)
}
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// arrows and dashes that read as "to" between a warrior and a cell, or between two cells.
var arrows = []string{"->", "-->", "=>", "→", "⇒", "—>", "–>", "-", "–", "—", ">"}

// tokenize splits a line into tokens. Spaces separate tokens and are dropped; every other rune
// belongs to a token.
func tokenize(line string) []token {
	out := make([]token, 0, strings.Count(line, " ")+2) // most tokens stand between spaces
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case isLetter(r):
			j := i
			for j < len(line) {
				r2, s2 := utf8.DecodeRuneInString(line[j:])
				if !isLetter(r2) {
					break
				}
				j += s2
			}
			k := j
			for k < len(line) && isDigit(rune(line[k])) {
				k++
			}
			if utf8.RuneCountInString(line[i:j]) == 1 && k > j {
				out = append(out, token{kind: tCode, raw: line[i:k], fold: russian.Fold(line[i:k]), start: i, end: k, letter: r, digits: line[j:k]})
				i = k
				continue
			}
			w := line[i:j]
			t := token{kind: tWord, raw: w, fold: russian.Fold(w), start: i, end: j}
			if n, ok := russian.FoldedOrdinal(t.fold); ok {
				t.kind, t.ord = tOrd, n
			}
			out = append(out, t)
			i = j
		case isDigit(r):
			j := i
			for j < len(line) && isDigit(rune(line[j])) {
				j++
			}
			// An ordinal suffix: "1-й", "1ый", "2-ой", "3-ий" (the dash optional).
			k := j
			if k < len(line) {
				if r2, s2 := utf8.DecodeRuneInString(line[k:]); r2 == '-' || r2 == '–' {
					k += s2
				}
			}
			m := k
			for m < len(line) {
				r2, s2 := utf8.DecodeRuneInString(line[m:])
				if !isLetter(r2) {
					break
				}
				m += s2
			}
			if m > k {
				if n, ok := russian.ParseOrdinal(line[i:m]); ok && unicode.Is(unicode.Cyrillic, firstRune(line[k:m])) {
					out = append(out, token{kind: tOrd, raw: line[i:m], fold: russian.Fold(line[i:m]), start: i, end: m, ord: n})
					i = m
					continue
				}
			}
			out = append(out, token{kind: tNum, raw: line[i:j], fold: line[i:j], start: i, end: j})
			i = j
		default:
			p := ""
			for _, a := range arrows {
				if strings.HasPrefix(line[i:], a) && len(a) > len(p) {
					p = a
				}
			}
			if p == "" {
				p = line[i : i+size]
			}
			out = append(out, token{kind: tPunct, raw: p, fold: p, start: i, end: i + len(p)})
			i += len(p)
		}
	}
	return out
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func isArrow(t token) bool {
	if t.kind != tPunct {
		return false
	}
	for _, a := range arrows {
		if t.raw == a {
			return true
		}
	}
	return false
}
