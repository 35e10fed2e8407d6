package templates

import (
	"strings"
	"testing"
)

// tidyRef is tidy as first written (split, trim, collapse, join): the one-pass tidy must give the
// same text.
func tidyRef(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	blank := true
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

func FuzzTidy(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "\n\na\n\n\nb \n", "  a\t\n\r\n b\n\n", "a\n\n", "\n \n\t\nx", "a\r\nb\r\n\r\n\r\nc", " \n a "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tidy(s), tidyRef(s); got != want {
			t.Fatalf("tidy(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzEscapePlain: Escape, which gives a plain text back as it is, gives what sanitizing and the
// escaper give, whatever the bytes.
func FuzzEscapePlain(f *testing.F) {
	for _, s := range []string{"", "Джелу", "snovaya", "[b]", "http://x", "www.x", "Www.", "fgm-1", "FGM-", "a\tb", "\x00", "\x7f", "\xff", "ф"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Escape(s), escaper.Replace(Sanitize(s)); got != want {
			t.Fatalf("Escape(%q) = %q, want %q", s, got, want)
		}
	})
}
