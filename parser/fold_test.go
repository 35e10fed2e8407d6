package parser

import (
	"strings"
	"testing"
	"unicode"
)

// foldRef is Fold as first written: every letter through unicode.ToLower, ё as е.
func foldRef(s string) string {
	return strings.Map(func(r rune) rune {
		r = unicode.ToLower(r)
		if r == 'ё' {
			return 'е'
		}
		return r
	}, s)
}

// FuzzFold: the fast Fold (ASCII and Cyrillic without the Unicode tables, the text itself when
// nothing changes) gives foldRef's text, whatever the bytes.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"", "ход", "Ход", "ХОД", "Ёлка", "ёж", "K16", "крестоНОСЦА", "ΣΑ", "İ", "\xff\xfeх", "\uFFFDх", "ǅ", "Ԁ", "Ѐ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), foldRef(s); got != want {
			t.Fatalf("Fold(%q) = %q, want %q", s, got, want)
		}
	})
}
