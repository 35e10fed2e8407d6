package rules

import (
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kind is a kind of cell. A cell not listed in the board file is ordinary; a cell may be of
// several kinds (a question cell that is also an attack cell).
type Kind string

const (
	KindQuestion Kind = "question" // +1 point for a correct answer, once per lap per cell
	KindYellow   Kind = "yellow"   // −1 point, once per lap per cell
	KindAttack   Kind = "attack"   // a group's teams may attack from here (Cell.Attack names the groups)
)

// Cell is one cell of the ring as the board file describes it.
type Cell struct {
	Number   int   `json:"number"`
	Question bool  `json:"question,omitempty"`
	Yellow   bool  `json:"yellow,omitempty"`
	Attack   []int `json:"attack,omitempty"` // the groups whose teams may attack from here, ascending
}

// Ordinary reports whether the cell has no kind.
func (c Cell) Ordinary() bool { return !c.Question && !c.Yellow && len(c.Attack) == 0 }

// AttackFor reports whether teams of group g may attack from the cell.
func (c Cell) AttackFor(g int) bool {
	for _, x := range c.Attack {
		if x == g {
			return true
		}
	}
	return false
}

// Board is the ring of cells 1..Size (after Size comes 1) and each group's start cell.
type Board struct {
	Size   int         `json:"cells"`
	Starts map[int]int `json:"starts"` // group -> start cell
	cells  []Cell      // index 0 = cell 1
}

// Cell is cell n (1..Size); an out-of-range n gives an ordinary cell numbered n.
func (b *Board) Cell(n int) Cell {
	if n < 1 || n > b.Size {
		return Cell{Number: n}
	}
	return b.cells[n-1]
}

// Cells lists every cell in order.
func (b *Board) Cells() []Cell { return append([]Cell(nil), b.cells...) }

// Groups is how many groups the board has start cells for (groups are 1..Groups).
func (b *Board) Groups() int { return len(b.Starts) }

// Advance is the cell reached from `from` after `steps` steps forward.
func (b *Board) Advance(from, steps int) int { return (from-1+steps)%b.Size + 1 }

// Laps counts how many times a team moving `steps` steps forward from `from` reaches or passes
// `start` (the contract: a lap is completed each time the team reaches or passes its group's
// start cell moving forward).
func (b *Board) Laps(from, steps, start int) int {
	if steps <= 0 {
		return 0
	}
	// distance from `from` to the first arrival at start, 1..Size
	d := (start - from + b.Size) % b.Size
	if d == 0 {
		d = b.Size
	}
	if steps < d {
		return 0
	}
	return 1 + (steps-d)/b.Size
}

//go:embed board.yaml
var defaultBoardYAML []byte

// DefaultBoardYAML is the shipped default board file (documented in board.yaml and
// games/football/docs/decisions.md).
func DefaultBoardYAML() []byte { return append([]byte(nil), defaultBoardYAML...) }

// DefaultBoard is the shipped default board.
func DefaultBoard() *Board {
	b, err := ParseBoard(defaultBoardYAML, "default board")
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return b
}

// BoardError is a board file that cannot be used: where (the file's name and line, 0 when the
// problem is not on one line) and what.
type BoardError struct {
	Name string
	Line int
	Msg  string
}

func (e *BoardError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("football: board %s, line %d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("football: board %s: %s", e.Name, e.Msg)
}

// ParseBoard reads a board file (see the contract, "The board file"): `cells` (the ring's
// size), `starts` (group -> start cell), `kinds` (cell -> kind, or a list of kinds; a kind is
// `question`, `yellow` or `{attack: G}`). Unknown keys, cells off the ring, unknown kinds, a group
// without a start, two groups on one start cell and duplicate cells are errors naming the line.
// name says where the data came from (a path, "default board").
func ParseBoard(data []byte, name string) (*Board, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		// yaml's syntax errors read "yaml: line N: what".
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if i := strings.IndexByte(rest, ':'); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					line, msg = n, strings.TrimSpace(rest[i+1:])
				}
			}
		}
		return nil, &BoardError{Name: name, Line: line, Msg: "not YAML: " + msg}
	}
	if len(root.Content) == 0 {
		return nil, &BoardError{Name: name, Msg: "the file is empty"}
	}
	doc := root.Content[0]
	bad := func(n *yaml.Node, format string, args ...any) error {
		return &BoardError{Name: name, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
	}
	if doc.Kind != yaml.MappingNode {
		return nil, bad(doc, "want a mapping with cells, starts and kinds")
	}
	b := &Board{Starts: map[int]int{}}
	var startsNode, kindsNode *yaml.Node
	seenKey := map[string]bool{}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		if seenKey[k.Value] {
			return nil, bad(k, "%q given twice", k.Value)
		}
		seenKey[k.Value] = true
		switch k.Value {
		case "cells":
			n, err := intOf(v)
			if err != nil || n < 2 || n > 1000 {
				return nil, bad(v, "cells: want the ring's size, a whole number 2..1000, not %q", v.Value)
			}
			b.Size = n
		case "starts":
			startsNode = v
		case "kinds":
			kindsNode = v
		default:
			return nil, bad(k, "unknown key %q (want cells, starts, kinds)", k.Value)
		}
	}
	if b.Size == 0 {
		return nil, bad(doc, "cells: the ring's size is missing")
	}
	if startsNode == nil {
		return nil, bad(doc, "starts: the groups' start cells are missing (e.g. starts: {1: 1, 2: 18})")
	}
	b.cells = make([]Cell, b.Size)
	for i := range b.cells {
		b.cells[i].Number = i + 1
	}
	if startsNode.Kind != yaml.MappingNode {
		return nil, bad(startsNode, "starts: want group -> start cell, e.g. {1: 1, 2: 18}")
	}
	startOf := map[int]int{}
	for i := 0; i+1 < len(startsNode.Content); i += 2 {
		k, v := startsNode.Content[i], startsNode.Content[i+1]
		g, err := intOf(k)
		if err != nil || g < 1 {
			return nil, bad(k, "starts: group %q is not a number 1, 2, ...", k.Value)
		}
		if _, dup := b.Starts[g]; dup {
			return nil, bad(k, "starts: group %d given twice", g)
		}
		c, err := intOf(v)
		if err != nil || c < 1 || c > b.Size {
			return nil, bad(v, "starts: group %d: start cell %q is not on the ring 1..%d", g, v.Value, b.Size)
		}
		if o, dup := startOf[c]; dup {
			return nil, bad(v, "starts: groups %d and %d both start on cell %d", o, g, c)
		}
		startOf[c] = g
		b.Starts[g] = c
	}
	if len(b.Starts) == 0 {
		return nil, bad(startsNode, "starts: no group listed")
	}
	for g := 1; g <= len(b.Starts); g++ {
		if _, ok := b.Starts[g]; !ok {
			return nil, bad(startsNode, "starts: groups must be 1..%d, group %d is missing", len(b.Starts), g)
		}
	}
	if kindsNode != nil && !(kindsNode.Kind == yaml.ScalarNode && kindsNode.Tag == "!!null") {
		if kindsNode.Kind != yaml.MappingNode {
			return nil, bad(kindsNode, "kinds: want cell -> kind, e.g. {3: question, 12: {attack: 1}}")
		}
		seen := map[int]bool{}
		for i := 0; i+1 < len(kindsNode.Content); i += 2 {
			k, v := kindsNode.Content[i], kindsNode.Content[i+1]
			n, err := intOf(k)
			if err != nil || n < 1 || n > b.Size {
				return nil, bad(k, "kinds: cell %q is not on the ring 1..%d", k.Value, b.Size)
			}
			if seen[n] {
				return nil, bad(k, "kinds: cell %d given twice (list several kinds as [question, {attack: 1}])", n)
			}
			seen[n] = true
			items := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				items = v.Content
				if len(items) == 0 {
					return nil, bad(v, "kinds: cell %d: empty list of kinds", n)
				}
			}
			c := &b.cells[n-1]
			for _, it := range items {
				if err := addKind(c, it, len(b.Starts)); err != nil {
					return nil, bad(it, "kinds: cell %d: %s", n, err)
				}
			}
			sort.Ints(c.Attack)
		}
	}
	return b, nil
}

// addKind adds one kind item (`question`, `yellow`, `{attack: G}`) to c.
func addKind(c *Cell, it *yaml.Node, groups int) error {
	switch it.Kind {
	case yaml.ScalarNode:
		switch strings.ToLower(strings.TrimSpace(it.Value)) {
		case "question":
			if c.Question {
				return errors.New("question given twice")
			}
			c.Question = true
			return nil
		case "yellow":
			if c.Yellow {
				return errors.New("yellow given twice")
			}
			c.Yellow = true
			return nil
		case "ordinary", "":
			return nil
		case "attack":
			return errors.New("an attack cell names its group: {attack: 1}")
		}
		return fmt.Errorf("unknown kind %q (want question, yellow or {attack: G})", it.Value)
	case yaml.MappingNode:
		if len(it.Content) != 2 || it.Content[0].Value != "attack" {
			return errors.New("a mapping kind must be {attack: G}")
		}
		g, err := intOf(it.Content[1])
		if err != nil || g < 1 || g > groups {
			return fmt.Errorf("attack: group %q is not one of the board's groups 1..%d", it.Content[1].Value, groups)
		}
		if c.AttackFor(g) {
			return fmt.Errorf("attack cell of group %d given twice", g)
		}
		c.Attack = append(c.Attack, g)
		return nil
	}
	return errors.New("want question, yellow or {attack: G}")
}

func intOf(n *yaml.Node) (int, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, errors.New("not a number")
	}
	return strconv.Atoi(strings.TrimSpace(n.Value))
}
