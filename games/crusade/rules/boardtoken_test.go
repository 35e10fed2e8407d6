package rules

import (
	"strings"
	"testing"
	"unicode"
)

// readBoardTokenRef is ReadBoardToken as first written (every cell through strings.Map and a
// rune slice): the quick one must read every cell as it does.
func readBoardTokenRef(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return "", true
	}
	rs := []rune(s)
	digits := func(rs []rune) bool {
		for _, r := range rs {
			if r < '0' || r > '9' {
				return false
			}
		}
		return len(rs) > 0
	}
	switch {
	case len(rs) == 1 && (rs[0] == 'Ф' || rs[0] == 'ф' || rs[0] == 'Φ' || rs[0] == 'φ'):
		return FlagToken, true
	case len(rs) <= 2 && digits(rs):
		return s, true
	case len(rs) == 2 && rs[1] >= '0' && rs[1] <= '9':
		k := rs[0]
		if m, ok := kindLookalikes[k]; ok {
			k = m
		}
		if _, ok := Table[Kind(k)]; ok {
			return string([]rune{k, rs[1]}), true
		}
	}
	return s, false
}

// FuzzReadBoardToken: the quick ReadBoardToken reads every cell as the first one did.
func FuzzReadBoardToken(f *testing.F) {
	for _, s := range []string{"__", "в1", "_Ф", "Ф_", "ф", "Φ", "_9", "10", "B1", "b 1", "р_1", " к2 ", "\u00a0в1", "\tа2",
		"x", "в10", "вв", "_", "", "1 0", "\xff1", "в\xff", "Р1", "P1", "ш3", "W3", "__ __", "7\u200b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gt, gok := ReadBoardToken(s)
		wt, wok := readBoardTokenRef(s)
		if gt != wt || gok != wok {
			t.Fatalf("ReadBoardToken(%q) = %q, %v; want %q, %v", s, gt, gok, wt, wok)
		}
	})
}

// FuzzMayReplace: a text mayReplace passes over is one the replacer leaves as it is.
func FuzzMayReplace(f *testing.F) {
	for _, s := range []string{"|__|в1|", "a&nbsp;b", "a\r\nb", "\u00a0", "x\u200by", "\ufeff|", "Ф│", "&amp;", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !mayReplace(s) && boardReplacer.Replace(s) != s {
			t.Fatalf("%q: the replacer changes it, mayReplace says no", s)
		}
	})
}
