package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultBoardLayout(t *testing.T) {
	b := DefaultBoard()
	if b.Size != 32 || b.Starts[1] != 1 || b.Starts[2] != 18 || b.Groups() != 2 {
		t.Fatalf("default board: %d cells, starts %v", b.Size, b.Starts)
	}
	count := map[string]int{}
	for _, c := range b.Cells() {
		if c.Question {
			count["question"]++
		}
		if c.Yellow {
			count["yellow"]++
		}
		for _, g := range c.Attack {
			count["attack"+string(rune('0'+g))]++
		}
	}
	if count["question"] != 6 || count["yellow"] != 4 || count["attack1"] != 3 || count["attack2"] != 3 {
		t.Errorf("kinds: %v", count)
	}
	// Balanced: offset o from group 1's start has the kind offset o from group 2's start has,
	// with the group's own attack cells.
	for o := 0; o <= 14; o++ {
		c1, c2 := b.Cell(1+o), b.Cell(18+o)
		if c1.Question != c2.Question || c1.Yellow != c2.Yellow || c1.AttackFor(1) != c2.AttackFor(2) ||
			c1.AttackFor(2) || c2.AttackFor(1) {
			t.Errorf("offset %d: cell %d %+v, cell %d %+v", o, c1.Number, c1, c2.Number, c2)
		}
	}
	for _, n := range []int{16, 17, 1, 18} {
		if !b.Cell(n).Ordinary() {
			t.Errorf("cell %d should be ordinary", n)
		}
	}
}

func TestParseBoardErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"unknown kind", "cells: 32\nstarts: {1: 1, 2: 18}\nkinds:\n  3: question\n  7: red\n", 5, `unknown kind "red"`},
		{"cell off the ring", "cells: 32\nstarts: {1: 1, 2: 18}\nkinds:\n  33: yellow\n", 4, "not on the ring"},
		{"attack group", "cells: 32\nstarts: {1: 1, 2: 18}\nkinds:\n  12: {attack: 3}\n", 4, "group"},
		{"attack without group", "cells: 32\nstarts: {1: 1}\nkinds:\n  12: attack\n", 4, "names its group"},
		{"start off the ring", "cells: 32\nstarts: {1: 1, 2: 40}\n", 2, "start cell"},
		{"shared start", "cells: 32\nstarts:\n  1: 1\n  2: 1\n", 4, "both start"},
		{"duplicate cell", "cells: 32\nstarts: {1: 1}\nkinds:\n  3: question\n  3: yellow\n", 5, "given twice"},
		{"unknown key", "cells: 32\nstarts: {1: 1}\ncolours: {}\n", 3, "unknown key"},
		{"bad size", "cells: many\nstarts: {1: 1}\n", 1, "cells"},
		{"not yaml", "cells: 32\nstarts: {1: 1}\nkinds:\n\t3: question\n", 4, "not YAML"},
		{"no starts", "cells: 32\n", 1, "starts"},
		{"groups not 1..n", "cells: 32\nstarts: {2: 18}\n", 2, "group 1 is missing"},
		{"twice in a list", "cells: 32\nstarts: {1: 1}\nkinds:\n  3: [question, question]\n", 4, "twice"},
	}
	for _, c := range cases {
		_, err := ParseBoard([]byte(c.src), "my.yaml")
		var be *BoardError
		if !errors.As(err, &be) {
			t.Errorf("%s: want a *BoardError, got %v", c.name, err)
			continue
		}
		if be.Line != c.line || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "my.yaml") {
			t.Errorf("%s: got line %d %q, want line %d containing %q", c.name, be.Line, err, c.line, c.msg)
		}
		if c.line > 0 && !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: the message does not name the line: %q", c.name, err)
		}
	}
}

func TestParseBoardSeveralKinds(t *testing.T) {
	b, err := ParseBoard([]byte("cells: 10\nstarts: {1: 1, 2: 6}\nkinds:\n  4: [question, {attack: 2}, {attack: 1}]\n  5: Yellow\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	c := b.Cell(4)
	if !c.Question || !c.AttackFor(1) || !c.AttackFor(2) || c.Yellow || jsonOf(c.Attack) != "[1,2]" {
		t.Errorf("cell 4: %+v", c)
	}
	if !b.Cell(5).Yellow || !b.Cell(1).Ordinary() {
		t.Error("cell 5 should be yellow, cell 1 ordinary")
	}
}

func TestAdvanceAndLaps(t *testing.T) {
	b := DefaultBoard()
	cases := []struct{ from, steps, start, to, laps int }{
		{1, 4, 1, 5, 0},
		{30, 6, 1, 4, 1},     // passes 1
		{28, 5, 1, 1, 1},     // reaches 1
		{30, 6, 18, 4, 0},    // group 2: 1 is not its start
		{15, 3, 18, 18, 1},   // reaches 18
		{1, 32, 1, 1, 1},     // a full circle
		{2, 64, 1, 2, 2},     // two circles
		{18, 6, 18, 24, 0},   // leaving the start is no lap
		{17, 100, 18, 21, 4}, // 1 + (100-1)/32
	}
	for _, c := range cases {
		if got := b.Advance(c.from, c.steps); got != c.to {
			t.Errorf("Advance(%d, %d) = %d, want %d", c.from, c.steps, got, c.to)
		}
		if got := b.Laps(c.from, c.steps, c.start); got != c.laps {
			t.Errorf("Laps(%d, %d, start %d) = %d, want %d", c.from, c.steps, c.start, got, c.laps)
		}
	}
}
