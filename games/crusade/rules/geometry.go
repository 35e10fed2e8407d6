package rules

import "sort"

// Dir is a step between neighbouring cells (each of DR, DC in -1..1), or the zero Dir for none.
type Dir struct {
	DR int `json:"dr" yaml:"dr"`
	DC int `json:"dc" yaml:"dc"`
}

// dirs8 are the 8 queen directions in a fixed order.
var dirs8 = []Dir{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

// orth4 are the 4 orthogonal directions.
var orth4 = []Dir{{-1, 0}, {0, -1}, {0, 1}, {1, 0}}

func (d Dir) zero() bool { return d.DR == 0 && d.DC == 0 }

func (d Dir) dot(e Dir) int { return d.DR*e.DR + d.DC*e.DC }

// step is the cell k steps from c in direction d.
func step(c Cell, d Dir, k int) Cell { return Cell{Row: c.Row + d.DR*k, Col: c.Col + d.DC*k} }

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// kingDist is the number of king steps between two cells on an empty board.
func kingDist(a, b Cell) int { return max(absInt(a.Row-b.Row), absInt(a.Col-b.Col)) }

// lineTo reports whether b lies on one of the 8 straight lines from a, with the direction and the
// distance in cells.
func lineTo(a, b Cell) (Dir, int, bool) {
	dr, dc := b.Row-a.Row, b.Col-a.Col
	if dr == 0 && dc == 0 {
		return Dir{}, 0, false
	}
	if dr != 0 && dc != 0 && absInt(dr) != absInt(dc) {
		return Dir{}, 0, false
	}
	return Dir{sign(dr), sign(dc)}, max(absInt(dr), absInt(dc)), true
}

// inForest reports whether c is a forest cell (rows A, B, T, U).
func inForest(c Cell) bool { return c.Row == 0 || c.Row == 1 || c.Row == Size-2 || c.Row == Size-1 }

// northForest reports whether a forest cell is in the north forest (rows A, B).
func northForest(c Cell) bool { return c.Row <= 1 }

func sortCells(cs []Cell) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Row != cs[j].Row {
			return cs[i].Row < cs[j].Row
		}
		return cs[i].Col < cs[j].Col
	})
}

// position is the board during judging: who stands where. It is a value copy of the state's
// position, so judging never touches the state.
type position struct {
	at [Size][Size + 1]uint8 // 1 + the warrior's index in allWarriors; 0 empty
	// cell is where each warrior stands, by its index in allWarriors (cellAt); 0: off the board.
	cell         [warriorCount]packedCell
	saracenFlag  Cell
	crusaderFlag Cell
}

// packedCell is a cell on the board in two bytes: Row*(Size+1) + Col (never 0: Col >= 1); 0 is
// no cell.
type packedCell uint16

func pack(c Cell) packedCell {
	if !c.Valid() {
		return 0
	}
	return packedCell(c.Row*(Size+1) + c.Col)
}

func (v packedCell) cell() Cell {
	if v == 0 {
		return Cell{}
	}
	return Cell{Row: int(v) / (Size + 1), Col: int(v) % (Size + 1)}
}

// cellAt is where the warrior of index i in allWarriors stands (the zero Cell: off the board).
func (p *position) cellAt(i int) Cell { return p.cell[i].cell() }

// warriorCount is how many warriors there are (allWarriors; checked when the package starts).
const warriorCount = 30

func (p *position) occupant(c Cell) WarriorID {
	if !c.Valid() {
		return ""
	}
	return occupantOf(p.at[c.Row][c.Col])
}

// where is the cell w stands on; on is false when w is not on the board.
func (p *position) where(w WarriorID) (c Cell, on bool) {
	n := warriorNo[w]
	if n == 0 {
		return Cell{}, false
	}
	c = p.cellAt(int(n) - 1)
	return c, c != Cell{}
}

// cellOf is the cell w stands on (the zero Cell when it is not on the board).
func (p *position) cellOf(w WarriorID) Cell {
	c, _ := p.where(w)
	return c
}

// warriorNo numbers the warriors for position.at: 1 + the index in allWarriors.
var warriorNo = func() map[WarriorID]uint8 {
	if len(allWarriors) != warriorCount {
		panic("crusade: warriorCount is not the number of warriors")
	}
	m := make(map[WarriorID]uint8, len(allWarriors))
	for i, w := range allWarriors {
		m[w] = uint8(i + 1)
	}
	return m
}()

// warriorSide is each warrior's side, by its index in allWarriors.
var warriorSide = func() (out [warriorCount]Side) {
	for i, w := range allWarriors {
		out[i] = w.Side()
	}
	return out
}()

func occupantOf(n uint8) WarriorID {
	if n == 0 {
		return ""
	}
	return allWarriors[n-1]
}

// flagAt reports whose flag stands on c.
func (p *position) flagAt(c Cell) (Side, bool) {
	switch c {
	case p.saracenFlag:
		return Saracens, true
	case p.crusaderFlag:
		return Crusaders, true
	}
	return "", false
}

func (p *position) flagOf(s Side) Cell {
	if s == Saracens {
		return p.saracenFlag
	}
	return p.crusaderFlag
}

// empty reports whether c is on the board with no warrior and no flag.
func (p *position) empty(c Cell) bool {
	if !c.Valid() || p.occupant(c) != "" {
		return false
	}
	_, f := p.flagAt(c)
	return !f
}

func (p *position) place(w WarriorID, c Cell) {
	n := warriorNo[w]
	if n == 0 {
		return
	}
	if old := p.cellAt(int(n) - 1); old.Valid() && p.at[old.Row][old.Col] == n {
		p.at[old.Row][old.Col] = 0
	}
	p.cell[n-1] = pack(c)
	p.at[c.Row][c.Col] = n
}

func (p *position) remove(w WarriorID) {
	n := warriorNo[w]
	if n == 0 {
		return
	}
	if c := p.cellAt(int(n) - 1); c.Valid() && p.at[c.Row][c.Col] == n {
		p.at[c.Row][c.Col] = 0
	}
	p.cell[n-1] = 0
}

// forestCount counts the warriors of side s in the forest.
func (p *position) forestCount(s Side) int {
	n := 0
	for i, v := range p.cell {
		if c := v.cell(); v != 0 && warriorSide[i] == s && inForest(c) {
			n++
		}
	}
	return n
}

// grid marks cells of the board (by row and column, as position.at).
type grid [Size][Size + 1]bool

// reach marks in out the cells reachable from `from` in at most `speed` king steps through empty
// cells (from itself is not marked). Through the forest or not (throughForest false: a forest
// cell may not be passed through); the enemy flag of mover side `side` may end a path but not
// be passed.
func (p *position) reach(out *grid, from Cell, speed int, side Side, throughForest bool) {
	var seen grid
	if from.Valid() {
		seen[from.Row][from.Col] = true
	}
	// A frontier is a ring around from, at most 8 cells a step out (4 steps: 32); a longer one
	// would grow on the heap.
	var bufA, bufB [32]Cell
	frontier := append(bufA[:0], from)
	next := bufB[:0]
	enemyFlag := p.flagOf(side.Other())
	for d := 1; d <= speed && len(frontier) > 0; d++ {
		next = next[:0]
		for _, c := range frontier {
			for _, dir := range dirs8 {
				n := step(c, dir, 1)
				if !n.Valid() || seen[n.Row][n.Col] {
					continue
				}
				if n == enemyFlag && p.at[n.Row][n.Col] == 0 {
					seen[n.Row][n.Col] = true
					out[n.Row][n.Col] = true // a destination only: not added to the frontier
					continue
				}
				if !p.empty(n) || (!throughForest && inForest(n)) {
					continue
				}
				seen[n.Row][n.Col] = true
				out[n.Row][n.Col] = true
				next = append(next, n)
			}
		}
		frontier, next = next, frontier
	}
}

// speedAt is w's speed for a move from `from` to `to`: at most 2 when either end is in the forest.
func speedAt(w WarriorID, from, to Cell) int {
	s := Table[w.Kind()].Speed
	if inForest(from) || inForest(to) {
		s = min(s, 2)
	}
	return s
}

// destinations lists every cell w (standing on from) may move to, sorted.
func (p *position) destinations(w WarriorID, from Cell) []Cell {
	side := w.Side()
	speed := Table[w.Kind()].Speed
	var ok grid
	if inForest(from) {
		var r grid
		p.reach(&r, from, min(speed, 2), side, true)
		for row := range Size {
			if !inForest(Cell{Row: row}) && !(northForest(from) && row == 2) && !(!northForest(from) && row == Size-3) {
				continue
			}
			ok[row] = r[row]
		}
	} else {
		var open, forest grid
		p.reach(&open, from, speed, side, false)
		p.reach(&forest, from, min(speed, 2), side, true)
		for row := range Size {
			if inForest(Cell{Row: row}) {
				ok[row] = forest[row]
			} else {
				ok[row] = open[row]
			}
		}
	}
	n := 0
	for row := range Size {
		for col := 1; col <= Size; col++ {
			if ok[row][col] {
				n++
			}
		}
	}
	out := make([]Cell, 0, n)
	for row := range Size {
		for col := 1; col <= Size; col++ {
			if ok[row][col] {
				out = append(out, Cell{Row: row, Col: col})
			}
		}
	}
	return out
}

// reaches reports whether to is one of destinations(w, from), searching only the part of the
// board it needs.
func (p *position) reaches(w WarriorID, from, to Cell) bool {
	if !to.Valid() {
		return false
	}
	speed := Table[w.Kind()].Speed
	if kingDist(from, to) > speed {
		return false
	}
	var r grid
	switch {
	case inForest(from):
		if !inForest(to) && !(northForest(from) && to.Row == 2) && !(!northForest(from) && to.Row == Size-3) {
			return false
		}
		p.reach(&r, from, min(speed, 2), w.Side(), true)
	case inForest(to):
		p.reach(&r, from, min(speed, 2), w.Side(), true)
	default:
		p.reach(&r, from, speed, w.Side(), false)
	}
	return r[to.Row][to.Col]
}

// clone is a copy a judge may change.
func (p *position) clone() *position {
	c := *p
	return &c
}
