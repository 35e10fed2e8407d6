package russian

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

// FuzzCleanText: CleanText, which skips the replacer when no byte can start what it replaces,
// gives the replacer's text, whatever the bytes.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "ход\r\nк1", "a&nbsp;b", "a\u00a0b\u200bc", "x\ufeffy", "к1 — K16", "«а»", "a\u00adb", "&#xa0;", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CleanText(s), cleaner.Replace(s); got != want {
			t.Fatalf("CleanText(%q) = %q, want %q", s, got, want)
		}
	})
}
