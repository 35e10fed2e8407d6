package scrape

import (
	"regexp"
	"testing"

	"forumgm/forum"
)

// A table's merge_sep_re splits a post's text into the parts the engine merged; the quotes,
// code and spoilers stay with the first part; a mark with nothing on one side, or no mark,
// leaves the post whole.
func TestMergedParts(t *testing.T) {
	sep := regexp.MustCompile(`(?m)^Добавлено \([^)]*\)\n-{10,}$`)
	q := []forum.Quote{{Author: "Джелу", Text: "доска"}}
	cases := []struct {
		name, text string
		want       []string
	}{
		{"two", "Защищаемся 58\nДобавлено (2026-12-01, 12:00)\n----------\nЗащищаемся 77", []string{"Защищаемся 58", "Защищаемся 77"}},
		{"three", "а\nДобавлено (1)\n----------\nб\nДобавлено (2)\n----------\nв", []string{"а", "б", "в"}},
		{"mark last", "Защищаемся 58\nДобавлено (1)\n----------\n", nil},
		{"no mark", "Защищаемся 58\n----------\nЗащищаемся 77", nil},
		{"mark mid-line", "я написал Добавлено (1)\n----------\nвот", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mergedParts(forum.Post{Text: c.text, Quotes: q, Code: []string{"x"}}, sep)
			if len(got) != len(c.want) {
				t.Fatalf("%d parts %+v, want %q", len(got), got, c.want)
			}
			for i, w := range c.want {
				if got[i].Text != w {
					t.Errorf("part %d: %q, want %q", i+1, got[i].Text, w)
				}
				if first := i == 0; (len(got[i].Quotes) == 1) != first || (len(got[i].Code) == 1) != first || got[i].Quotes == nil {
					t.Errorf("part %d: quotes %v code %v: the post's go with its first part alone", i+1, got[i].Quotes, got[i].Code)
				}
			}
		})
	}
	if got := mergedParts(forum.Post{Text: "а\nДобавлено (1)\n----------\nб"}, nil); got != nil {
		t.Errorf("no merge_sep_re: %+v", got)
	}
}
