// Package dragonball owns the rules of Dragonball ("Драконбол"): the 211-cell hex field, the
// teams, dragons and balls, the players' orders as the engine judges them, and the resolution of
// a round's three tacts in the order of the seed's section 9. It is pure: chance comes only from
// the *game.Rand it is handed, and every draw is recorded in the event it decides.
package rules

import "slices"

// Cell is a field cell, 1..211; 0 is "no cell" (a player off the field, a swallowed ball).
type Cell int

// NumCells is the number of cells of the field.
const NumCells = 211

// Midline is the x (in half-cells) of the midline through cells 8, 106 and 204.
const Midline = 16

// Centre is the cell balls are dropped and thrown in at.
const Centre Cell = 106

var rowLens = [13]int{15, 16, 17, 16, 17, 16, 17, 16, 17, 16, 17, 16, 15}

// geometry tables, built once: each cell's 0-based row and x in half-cells, the cell at a row and
// x (0 where there is none), each row's first cell.
var cellRow, cellX, cellAt, rowStart = layOut()

// layOut numbers the cells row by row.
func layOut() (cellRow, cellX [NumCells + 1]int, cellAt [13][33]Cell, rowStart [13]Cell) {
	c := Cell(1)
	for r, n := range rowLens {
		rowStart[r] = c
		x0 := (17 - n) // 17 -> 0, 16 -> 1, 15 -> 2
		for i := 0; i < n; i++ {
			x := x0 + 2*i
			cellRow[c], cellX[c] = r, x
			cellAt[r][x] = c
			c++
		}
	}
	return cellRow, cellX, cellAt, rowStart
}

// Valid reports whether c is a field cell.
func (c Cell) Valid() bool { return c >= 1 && c <= NumCells }

// Row is the cell's row, 1..13 (row 1 at the top).
func (c Cell) Row() int { return cellRow[c] + 1 }

// X is the cell's x in half-cells (0..32).
func (c Cell) X() int { return cellX[c] }

// CellAt is the cell at row (1..13) and x, if there is one.
func CellAt(row, x int) (Cell, bool) {
	if row < 1 || row > 13 || x < 0 || x > 32 {
		return 0, false
	}
	c := cellAt[row-1][x]
	return c, c != 0
}

// Dir is one of the six directions of the hex grid, numbered clockwise from east (row 1 at the
// top): e, se, sw, w, nw, ne. NoDir is "none".
type Dir int

const (
	E Dir = iota
	SE
	SW
	W
	NW
	NE
	NoDir Dir = -1
)

// Dirs are the six directions, clockwise from east.
var Dirs = [6]Dir{E, SE, SW, W, NW, NE}

var dirCodes = [6]string{"e", "se", "sw", "w", "nw", "ne"}

// dirDelta is each direction's step: rows, half-cells.
var dirDelta = [6][2]int{{0, 2}, {1, 1}, {1, -1}, {0, -2}, {-1, -1}, {-1, 1}}

// String is the contract's English code (e, se, ...), "" for NoDir.
func (d Dir) String() string {
	if d < 0 || d > 5 {
		return ""
	}
	return dirCodes[d]
}

// ParseDir reads an English direction code.
func ParseDir(s string) (Dir, bool) {
	for i, c := range dirCodes {
		if c == s {
			return Dir(i), true
		}
	}
	return NoDir, false
}

// Rotate turns d by n steps of 60 degrees, clockwise for n > 0.
func (d Dir) Rotate(n int) Dir { return Dir(((int(d)+n)%6 + 6) % 6) }

// Opposite is the direction 180 degrees from d.
func (d Dir) Opposite() Dir { return d.Rotate(3) }

// MarshalText writes the code.
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the code ("" is NoDir).
func (d *Dir) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = NoDir
		return nil
	}
	v, ok := ParseDir(string(b))
	if !ok {
		return errf("unknown direction %q", string(b))
	}
	*d = v
	return nil
}

// Step is the neighbour of c in direction d, if it is on the field.
func (c Cell) Step(d Dir) (Cell, bool) {
	if !c.Valid() || d < 0 || d > 5 {
		return 0, false
	}
	dd := dirDelta[d]
	return CellAt(c.Row()+dd[0], c.X()+dd[1])
}

// Neighbours are c's neighbours on the field, in direction order.
func (c Cell) Neighbours() []Cell {
	out := make([]Cell, 0, 6)
	for _, d := range Dirs {
		if n, ok := c.Step(d); ok {
			out = append(out, n)
		}
	}
	return out
}

// DirTo is the direction from a to its neighbour b.
func (a Cell) DirTo(b Cell) (Dir, bool) {
	for _, d := range Dirs {
		if n, ok := a.Step(d); ok && n == b {
			return d, true
		}
	}
	return NoDir, false
}

// IsEdge reports whether c is an edge cell: rows 1 and 13 and each row's first and last cell.
func (c Cell) IsEdge() bool {
	r := cellRow[c]
	if r == 0 || r == 12 {
		return true
	}
	return c == rowStart[r] || c == rowStart[r]+Cell(rowLens[r]-1)
}

// Side is a half of the field: SideA (left, x < 16) or SideB (right, x > 16).
type Side string

const (
	SideA Side = "A"
	SideB Side = "B"
)

// Half is the half c lies on; "" on the midline.
func (c Cell) Half() Side {
	switch {
	case cellX[c] < Midline:
		return SideA
	case cellX[c] > Midline:
		return SideB
	}
	return ""
}

// OnMidline reports whether c is on the midline (x = 16).
func (c Cell) OnMidline() bool { return cellX[c] == Midline }

// reentryCells are the seed's re-entry cells of each half.
var reentryCells = map[Side][]Cell{
	SideA: {1, 2, 3, 4, 5, 16, 32, 49, 65, 82, 98, 115, 131, 148, 164, 181, 197, 198, 199, 200, 201},
	SideB: {11, 12, 13, 14, 15, 31, 48, 64, 81, 97, 114, 130, 147, 163, 180, 196, 207, 208, 209, 210, 211},
}

// Reentry lists the re-entry cells of side s in the seed's order.
func Reentry(s Side) []Cell { return slices.Clone(reentryCells[s]) }

// IsReentry reports whether c is a re-entry cell of side s.
func IsReentry(s Side, c Cell) bool { return slices.Contains(reentryCells[s], c) }

// cube coordinates of a cell (axial q, r; s = -q-r).
func cube(c Cell) (q, r, s int) {
	r = cellRow[c]
	q = (cellX[c] - r) / 2
	return q, r, -q - r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Distance is the hex distance between two cells (steps between neighbours).
func Distance(a, b Cell) int {
	q1, r1, s1 := cube(a)
	q2, r2, s2 := cube(b)
	return max(abs(q1-q2), abs(r1-r2), abs(s1-s2))
}

// Line is the hex line from a to b, both included (cube linear interpolation, nudged so ties fall
// the same way every time).
func Line(a, b Cell) []Cell {
	n := Distance(a, b)
	out := []Cell{a}
	if n == 0 {
		return out
	}
	q1, r1, _ := cube(a)
	q2, r2, _ := cube(b)
	const eps = 1e-6
	fq1, fr1 := float64(q1)+eps, float64(r1)+2*eps
	fq2, fr2 := float64(q2)+eps, float64(r2)+2*eps
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		q := fq1 + (fq2-fq1)*t
		r := fr1 + (fr2-fr1)*t
		s := -q - r
		rq, rr, rs := roundf(q), roundf(r), roundf(s)
		dq, dr, ds := absf(float64(rq)-q), absf(float64(rr)-r), absf(float64(rs)-s)
		switch {
		case dq > dr && dq > ds:
			rq = -rr - rs
		case dr > ds:
			rr = -rq - rs
		}
		c, _ := CellAt(rr+1, 2*rq+rr)
		out = append(out, c)
	}
	return out
}

func roundf(f float64) int {
	if f < 0 {
		return -int(-f + 0.5)
	}
	return int(f + 0.5)
}

func absf(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// NearestDir is the one of the six directions nearest to the bearing from a to b (ties: the
// first clockwise from e). NoDir when a == b.
func NearestDir(a, b Cell) Dir {
	if a == b {
		return NoDir
	}
	// Work in a plane where a hex step east is (2, 0) and a step south-east is (1, 1.732).
	dx := float64(cellX[b] - cellX[a])
	dy := float64(cellRow[b]-cellRow[a]) * 1.7320508075688772
	best, bestScore := NoDir, -1e18
	for _, d := range Dirs {
		ux := float64(dirDelta[d][1])
		uy := float64(dirDelta[d][0]) * 1.7320508075688772
		score := (dx*ux + dy*uy) // cos * |v| * 2
		if score > bestScore+1e-9 {
			best, bestScore = d, score
		}
	}
	return best
}

// Cone is the fire cone of a head at head facing d, depth cells deep: the 120-degree sector
// between d-60° and d+60°, 3 cells at distance 1, 5 at 2, 7 at 3 (cells off the field are left
// out). A short flame is 2 deep (8 cells), a volley 3 deep (15 cells).
func Cone(head Cell, d Dir, depth int) []Cell {
	var out []Cell
	q0, r0, _ := cube(head)
	for k := 1; k <= depth; k++ {
		// the ring k cells away: walk from the corner in direction d-1 to the corner d+1
		corner := d.Rotate(-1)
		q, r := q0+k*axialDelta(corner)[0], r0+k*axialDelta(corner)[1]
		// along the ring, the side from corner d-1 to corner d is walked in direction d+1
		for side := 0; side < 2; side++ {
			walk := d.Rotate(1 + side)
			for i := 0; i < k; i++ {
				out = appendAxial(out, q, r)
				q, r = q+axialDelta(walk)[0], r+axialDelta(walk)[1]
			}
		}
		out = appendAxial(out, q, r)
	}
	return out
}

func axialDelta(d Dir) [2]int {
	dd := dirDelta[d]
	// x = 2q + r  =>  dq = (dx - dr) / 2
	return [2]int{(dd[1] - dd[0]) / 2, dd[0]}
}

func appendAxial(out []Cell, q, r int) []Cell {
	if c, ok := CellAt(r+1, 2*q+r); ok {
		return append(out, c)
	}
	return out
}

// FlameDepth and VolleyDepth are the cones' depths.
const (
	FlameDepth  = 2
	VolleyDepth = 3
)

// sorted is a sorted copy of cs.
func sorted(cs []Cell) []Cell {
	cs = slices.Clone(cs)
	slices.Sort(cs)
	return cs
}
