package templates

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func TestPlural(t *testing.T) {
	cases := map[int]string{0: "ранений", 1: "ранение", 2: "ранения", 4: "ранения", 5: "ранений", 11: "ранений",
		12: "ранений", 14: "ранений", 21: "ранение", 22: "ранения", 25: "ранений", 101: "ранение", 111: "ранений", -3: "ранения"}
	for n, want := range cases {
		if got := Plural(n, "ранение", "ранения", "ранений"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestEscapeStopsTags(t *testing.T) {
	for in, want := range map[string]string{
		"[b]Джелу[/b]":                  "[\u200bb]Джелу[\u200b/b]",
		"н2 на G5":                      "н2 на G5",
		"[[":                            "[\u200b[\u200b",
		"[url=http://x.ru]тут[/url]":    "[\u200burl=http:\u200b//x.ru]тут[\u200b/url]",
		"смотри https://evil.example/a": "смотри https:\u200b//evil.example/a",
		"www.example.com и WWW.X.RU":    "www\u200b.example.com и WWW\u200b.X.RU",
		// Not UTF-8, NUL and control characters are dropped; tab and line breaks stay.
		"ход\xff\xfe к1\x00 на\tK16\r\n\x07конец\x7f": "ход к1 на\tK16\r\nконец",
		"\xd0": "",
		// An echoed marker is no longer a marker.
		"fgm-g1-7-0123456789ab": "fgm\u2011g1-7-0123456789ab",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{{"короткая", 20, "короткая"}, {"длинная строка текста", 8, "длинная…"}, {"абв", 3, "абв"}} {
		if got := Cut(tc.in, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// FuzzEscape: whatever a player writes, the echo is valid UTF-8 without NUL, opens no tag and
// holds no marker.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"[b]x[/b]", "\xff\x00fgm-g-1-abc", "ход к1 на K16", "[[fgm-fgm--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) || strings.ContainsRune(got, 0) || strings.Contains(got, "fgm-") ||
			strings.Contains(strings.ReplaceAll(got, "[\u200b", ""), "[") {
			t.Errorf("Escape(%q) = %q", s, got)
		}
	})
}

func TestTidy(t *testing.T) {
	got := tidy("\n\n  line one  \n\n\n\nline two\t\n\n")
	if got != "line one\n\nline two" {
		t.Errorf("tidy: %q", got)
	}
}

// A set with no templates, or whose templates need functions not given, fails to load clearly
// rather than at render time.
func TestLoadFails(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, "chess", nil); err == nil {
		t.Fatal("a set with no templates must be an error")
	}
	fsys := fstest.MapFS{"a.tmpl": {Data: []byte(`{{define "a"}}{{board .}}{{end}}`)}}
	if s, err := Load(fsys, "a", nil); err == nil {
		t.Fatalf("loading without the set's functions should fail, got a set %v", s)
	}
}
