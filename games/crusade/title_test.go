package crusade

import (
	"strings"
	"testing"
)

// FuzzTitle: title, which capitalises a valid text's first letter without converting it to runes,
// gives what the rune conversion gives, whatever the bytes.
func FuzzTitle(f *testing.F) {
	for _, s := range []string{"", "крестоносцы", "сарацины", "ничья", "a", "ǆ", "ß", "\xff", "ё"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s
		if r := []rune(s); len(r) > 0 {
			want = strings.ToUpper(string(r[:1])) + string(r[1:])
		}
		if got := title(s); got != want {
			t.Fatalf("title(%q) = %q, want %q", s, got, want)
		}
	})
}
