package crusade

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
	at           [Size][Size + 1]uint8 // 1 + the warrior's index in allWarriors; 0 empty
	cell         map[WarriorID]Cell
	saracenFlag  Cell
	crusaderFlag Cell
}

func (p *position) occupant(c Cell) WarriorID {
	if !c.Valid() {
		return ""
	}
	return occupantOf(p.at[c.Row][c.Col])
}

// warriorNo numbers the warriors for position.at: 1 + the index in allWarriors.
var warriorNo = func() map[WarriorID]uint8 {
	m := make(map[WarriorID]uint8, len(allWarriors))
	for i, w := range allWarriors {
		m[w] = uint8(i + 1)
	}
	return m
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
	if old, ok := p.cell[w]; ok && old.Valid() && p.at[old.Row][old.Col] == n {
		p.at[old.Row][old.Col] = 0
	}
	p.cell[w] = c
	p.at[c.Row][c.Col] = n
}

func (p *position) remove(w WarriorID) {
	if c, ok := p.cell[w]; ok && p.at[c.Row][c.Col] == warriorNo[w] {
		p.at[c.Row][c.Col] = 0
	}
	delete(p.cell, w)
}

// forestCount counts the warriors of side s in the forest.
func (p *position) forestCount(s Side) int {
	n := 0
	for w, c := range p.cell {
		if w.Side() == s && inForest(c) {
			n++
		}
	}
	return n
}

// reach returns the cells reachable from `from` in at most `speed` king steps through empty cells,
// with the number of steps. Passable reports whether a cell may be passed through (it must also
// be empty); the enemy flag of mover side `side` may end a path but not be passed.
func (p *position) reach(from Cell, speed int, side Side, passable func(Cell) bool) map[Cell]int {
	dist := map[Cell]int{from: 0}
	frontier := []Cell{from}
	enemyFlag := p.flagOf(side.Other())
	for d := 1; d <= speed && len(frontier) > 0; d++ {
		var next []Cell
		for _, c := range frontier {
			for _, dir := range dirs8 {
				n := step(c, dir, 1)
				if !n.Valid() {
					continue
				}
				if _, seen := dist[n]; seen {
					continue
				}
				if n == enemyFlag && p.occupant(n) == "" {
					dist[n] = d // a destination only: not added to the frontier
					continue
				}
				if !p.empty(n) || !passable(n) {
					continue
				}
				dist[n] = d
				next = append(next, n)
			}
		}
		frontier = next
	}
	delete(dist, from)
	return dist
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
	ok := map[Cell]bool{}
	if inForest(from) {
		for c := range p.reach(from, min(speed, 2), side, func(Cell) bool { return true }) {
			if inForest(c) || (northForest(from) && c.Row == 2) || (!northForest(from) && c.Row == Size-3) {
				ok[c] = true
			}
		}
	} else {
		for c := range p.reach(from, speed, side, func(c Cell) bool { return !inForest(c) }) {
			if !inForest(c) {
				ok[c] = true
			}
		}
		for c := range p.reach(from, min(speed, 2), side, func(Cell) bool { return true }) {
			if inForest(c) {
				ok[c] = true
			}
		}
	}
	out := make([]Cell, 0, len(ok))
	for c := range ok {
		out = append(out, c)
	}
	sortCells(out)
	return out
}

// clone is a copy a judge may change.
func (p *position) clone() *position {
	c := *p
	c.cell = make(map[WarriorID]Cell, len(p.cell))
	for w, at := range p.cell {
		c.cell[w] = at
	}
	return &c
}
