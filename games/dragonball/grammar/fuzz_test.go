package grammar

import "testing"

// FuzzParse: any text parses without panicking, and every order read names a tact line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Такт 1: 57 в2 ловлю", "Дракон такт 1: вперёд, выше, пасть закрыта, залп",
		"Такт 2: 58 в3 пас красный 62 в2 Гуллис-дуллис", "Описание: текст\nещё", "1) юв h3 отбираю у Драко"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o := Parse(s)
		for _, tc := range o.Tacts {
			if tc.Line == "" {
				t.Fatalf("a tact without its line: %q", s)
			}
		}
		for _, d := range o.Dragon {
			if d.Line == "" {
				t.Fatalf("a dragon order without its line: %q", s)
			}
		}
	})
}
