package rules

import (
	"slices"
	"testing"
)

func TestFieldShape(t *testing.T) {
	starts := []Cell{1, 16, 32, 49, 65, 82, 98, 115, 131, 148, 164, 181, 197}
	for r, s := range starts {
		if got := s.Row(); got != r+1 {
			t.Errorf("cell %d: row %d, want %d", s, got, r+1)
		}
		want := 17 - rowLens[r]
		if s.X() != want {
			t.Errorf("row %d starts at x=%d, want %d", r+1, s.X(), want)
		}
	}
	if n := Cell(211); !n.Valid() || Cell(212).Valid() || Cell(0).Valid() {
		t.Error("valid range is 1..211")
	}
	if c := Cell(211); c.Row() != 13 || c.X() != 30 {
		t.Errorf("211: row %d x %d", c.Row(), c.X())
	}
	for _, c := range []Cell{8, 106, 204} {
		if !c.OnMidline() || c.Half() != "" {
			t.Errorf("%d should be on the midline", c)
		}
	}
	if Centre.Row() != 7 || Centre.X() != 16 {
		t.Errorf("centre at row %d x %d", Centre.Row(), Centre.X())
	}
	if Cell(102).Half() != SideA || Cell(110).Half() != SideB || Cell(105).Half() != SideA || Cell(107).Half() != SideB {
		t.Error("halves")
	}
}

func TestNeighbours(t *testing.T) {
	if got := Cell(57).Neighbours(); !slices.Equal(sorted(got), []Cell{40, 41, 56, 58, 73, 74}) {
		t.Errorf("57: %v (the contract's example: 40, 41, 56, 58, 73, 74)", got)
	}
	want := map[Dir]Cell{E: 107, W: 105, NE: 90, NW: 89, SE: 123, SW: 122}
	for d, c := range want {
		if got, ok := Centre.Step(d); !ok || got != c {
			t.Errorf("106 %s: %d, want %d", d, got, c)
		}
	}
	if _, ok := Cell(1).Step(NW); ok {
		t.Error("1 has no north-west neighbour")
	}
	if n := len(Cell(1).Neighbours()); n != 3 {
		t.Errorf("1 has %d neighbours, want 3 (e, se, sw)", n)
	}
	// symmetry: b is a's neighbour in d iff a is b's in the opposite direction
	for c := Cell(1); c <= NumCells; c++ {
		for _, d := range Dirs {
			if n, ok := c.Step(d); ok {
				if back, ok := n.Step(d.Opposite()); !ok || back != c {
					t.Fatalf("%d %s -> %d, back %d", c, d, n, back)
				}
				if Distance(c, n) != 1 {
					t.Fatalf("distance %d-%d", c, n)
				}
			}
		}
	}
}

func TestEdgesAndReentry(t *testing.T) {
	n := 0
	for c := Cell(1); c <= NumCells; c++ {
		if c.IsEdge() {
			n++
		}
	}
	// rows 1 and 13 (15 each) plus 2 cells of each of the 11 rows between
	if n != 15+15+22 {
		t.Errorf("%d edge cells, want 52", n)
	}
	for _, s := range []Side{SideA, SideB} {
		cells := Reentry(s)
		if len(cells) != 21 {
			t.Errorf("side %s: %d re-entry cells", s, len(cells))
		}
		for _, c := range cells {
			if !c.IsEdge() || c.Half() != s {
				t.Errorf("re-entry %d of %s: edge %v half %q", c, s, c.IsEdge(), c.Half())
			}
		}
	}
}

func TestDistanceAndLine(t *testing.T) {
	cases := []struct {
		a, b Cell
		d    int
	}{{106, 106, 0}, {106, 107, 1}, {106, 110, 4}, {102, 110, 8}, {1, 211, 20}, {8, 204, 12}, {98, 114, 16}, {1, 197, 12}}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("distance %d-%d = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	for a := Cell(1); a <= NumCells; a += 7 {
		for b := Cell(1); b <= NumCells; b += 5 {
			l := Line(a, b)
			if len(l) != Distance(a, b)+1 || l[0] != a || l[len(l)-1] != b {
				t.Fatalf("line %d-%d: %v", a, b, l)
			}
			for i := 1; i < len(l); i++ {
				if Distance(l[i-1], l[i]) != 1 {
					t.Fatalf("line %d-%d not connected: %v", a, b, l)
				}
			}
		}
	}
	if got := Line(106, 110); !slices.Equal(got, []Cell{106, 107, 108, 109, 110}) {
		t.Errorf("line 106-110: %v", got)
	}
}

func TestNearestDir(t *testing.T) {
	cases := []struct {
		a, b Cell
		d    Dir
	}{{106, 110, E}, {106, 102, W}, {106, 90, NE}, {106, 89, NW}, {106, 123, SE}, {106, 122, SW},
		{106, 74, NE} /* 2 rows up, x 18: between ne and nw? x+2 over 2 rows: ne */, {106, 140, SE}}
	for _, c := range cases {
		if got := NearestDir(c.a, c.b); got != c.d {
			t.Errorf("%d->%d: %s, want %s", c.a, c.b, got, c.d)
		}
	}
	// exactly between e and se (one row down, three half-cells right): the first clockwise from e
	if got := NearestDir(106, 124); got != E {
		t.Errorf("tie 106->124: %s, want e", got)
	}
}

func TestCones(t *testing.T) {
	for _, d := range Dirs {
		head := Centre
		f, v := Cone(head, d, FlameDepth), Cone(head, d, VolleyDepth)
		if len(f) != 8 || len(v) != 15 {
			t.Errorf("%s: flame %d cells, volley %d (want 8 and 15)", d, len(f), len(v))
		}
		seen := map[Cell]bool{}
		for i, c := range v {
			if seen[c] {
				t.Errorf("%s: %d twice", d, c)
			}
			seen[c] = true
			dist := Distance(head, c)
			want := 1
			if i >= 3 {
				want = 2
			}
			if i >= 8 {
				want = 3
			}
			if dist != want {
				t.Errorf("%s: cell %d at distance %d, want %d", d, c, dist, want)
			}
			// within 60 degrees of the facing: never behind or beside the body
			if nd := NearestDir(head, c); nd != d && nd != d.Rotate(1) && nd != d.Rotate(-1) {
				t.Errorf("%s: cell %d bears %s", d, c, nd)
			}
		}
		if seen[head] {
			t.Errorf("%s: the head's cell burns", d)
		}
		for _, side := range []Dir{d.Rotate(2), d.Rotate(-2), d.Opposite()} {
			if n, _ := head.Step(side); seen[n] {
				t.Errorf("%s: the cell beside the body (%d) burns", d, n)
			}
		}
		for _, c := range f {
			if !seen[c] {
				t.Errorf("%s: flame cell %d not in the volley", d, c)
			}
		}
	}
	// team A's default dragon: head 103 facing east
	if got := Cone(103, E, FlameDepth); !slices.Equal(sorted(got), []Cell{71, 87, 88, 104, 105, 120, 121, 137}) {
		t.Errorf("flame of 103 east: %v", sorted(got))
	}
	// clipped at the edge
	if got := Cone(1, NW, VolleyDepth); len(got) != 0 {
		t.Errorf("cone off the field: %v", got)
	}
}
