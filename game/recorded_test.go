package game

import (
	"strings"
	"testing"
)

// A Recorded source gives back the draws a seeded one made, and says when it is asked otherwise.
func TestRecorded(t *testing.T) {
	src := NewRand("seed", 7, Mix{})
	want := []int{src.Intn(6), src.Intn(100), src.Intn(3)}
	draws := src.Take()
	for _, c := range []struct {
		name   string
		bounds []int
		err    string // "" none
	}{
		{"as recorded", []int{6, 100, 3}, ""},
		{"another bound", []int{6, 50, 3}, "recorded in [0, 100)"},
		{"one more", []int{6, 100, 3, 2}, "draw 4 asked, 3 recorded"},
		{"one fewer", []int{6, 100}, "2 of 3 recorded draws asked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Recorded(draws)
			for i, b := range c.bounds {
				v := r.Intn(b)
				if c.err == "" && v != want[i] {
					t.Errorf("draw %d: %d, recorded %d", i, v, want[i])
				}
				if v < 0 || v >= b {
					t.Errorf("draw %d: %d out of [0, %d)", i, v, b)
				}
			}
			err := r.Replayed()
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("Replayed: %v, want %q", err, c.err)
			}
		})
	}
	if NewRand("seed", 0, Mix{}).Replayed() == nil {
		t.Error("a seeded source says it replayed")
	}
}
