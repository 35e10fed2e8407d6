package rules

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// destinationsRef is destinations as first written (breadth-first search over maps), the reference
// the array search must agree with.
func destinationsRef(p *position, w WarriorID, from Cell) []Cell {
	reach := func(speed int, passable func(Cell) bool) map[Cell]int {
		side := w.Side()
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
						dist[n] = d
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
	speed := Table[w.Kind()].Speed
	ok := map[Cell]bool{}
	if inForest(from) {
		for c := range reach(min(speed, 2), func(Cell) bool { return true }) {
			if inForest(c) || (northForest(from) && c.Row == 2) || (!northForest(from) && c.Row == Size-3) {
				ok[c] = true
			}
		}
	} else {
		for c := range reach(speed, func(c Cell) bool { return !inForest(c) }) {
			if !inForest(c) {
				ok[c] = true
			}
		}
		for c := range reach(min(speed, 2), func(Cell) bool { return true }) {
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

// TestDestinationsProperty: on crowded random positions (every warrior somewhere, forests and
// flags included), every warrior's destinations are those of the map search, and reaches tells
// every cell (off the board too) as they do.
func TestDestinationsProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		p := &position{saracenFlag: Cell{Row: 9, Col: 1}, crusaderFlag: Cell{Row: 9, Col: 20}}
		for _, w := range allWarriors {
			if rng.Intn(6) == 0 {
				continue // off the board
			}
			c := Cell{Row: rng.Intn(Size), Col: 1 + rng.Intn(Size)}
			if p.occupant(c) == "" && c != p.saracenFlag && c != p.crusaderFlag {
				p.place(w, c)
			}
		}
		for _, w := range allWarriors {
			from, on := p.where(w)
			if !on {
				continue
			}
			want := destinationsRef(p, w, from)
			if got := p.destinations(w, from); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %s on %s: %v, want %v", round, w, from, got, want)
			}
			for r := -1; r <= Size; r++ {
				for c := 0; c <= Size+1; c++ {
					to := Cell{Row: r, Col: c}
					if got := p.reaches(w, from, to); got != slices.Contains(want, to) {
						t.Fatalf("round %d, %s on %s: reaches %s %v, want %v", round, w, from, to, got, !got)
					}
				}
			}
		}
	}
}
