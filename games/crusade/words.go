package crusade

import (
	"time"

	"forumgm/games/crusade/rules"
	"forumgm/templates"
)

// The words of the commonest replies, written in Go from the event and the state so that their
// templates read fields only (text/template calls a function or a method through reflection, many
// times slower than it reads a field). The sentences stay in the templates; the words come from
// the tables the template functions use (sideWords, the "months" template, the "sloppy.*"
// templates), and player text is escaped here as esc would.

// Count is a number with its Russian plural form picked (templates.Plural): One for 1, 21, …;
// Few for 2–4, 22–24, …; neither for the rest ("{{if .One}}ранение{{else if .Few}}ранения{{else}}ранений{{end}}").
type Count struct {
	N        int
	One, Few bool
}

func count(n int) Count {
	switch templates.Plural(n, "one", "few", "many") {
	case "one":
		return Count{N: n, One: true}
	case "few":
		return Count{N: n, Few: true}
	}
	return Count{N: n}
}

// Date is a day as the "date" template writes it («1 декабря»; it takes a time.Time too).
type Date struct {
	Day   int
	Month time.Month
}

func dateOf(t time.Time) Date { return Date{Day: t.Day(), Month: t.Month()} }

// TurnWords are a played turn as the "turn" and "turn_hidden" replies write it (with the
// event's own parts the templates write themselves), and the view they are part of.
type TurnWords struct {
	Number  int
	Author  string // the author, escaped
	Side    string // the side that moved (nominative) ...
	SideDat string // ... and in the dative
	Next    string // the side to move next (nominative)
	Moves   []MoveWords
	// Sloppy are the turn's sloppiness, each in the words of its "sloppy.CODE" template.
	Sloppy    []Listed
	BoardDiff []DiffWords
	Wounds    Count // wounds added for sloppiness
	// Owe is what the side owes after the turn (the "owe" template's data).
	Owe      SideView
	Attacks  []rules.AttackResult
	Revealed []rules.Reveal
	Removed  []rules.Removed
	Victory  *rules.Victory
	View     *View
}

// Listed is a text in a list: Sep is set for all but the first (a separator goes before it).
type Listed struct {
	Text string
	Sep  bool
}

// MoveWords are one move: the warrior, the cells it left and reached, whether it charged.
type MoveWords struct {
	Warrior, From, To string
	Charge            bool
}

// DiffWords are a cell the quoted board has wrong: the cell, what the quote has there (escaped;
// NoQuoted: nothing) and what stands there ("" nothing); Sep is set for all but the first.
type DiffWords struct {
	Cell, Quoted, Actual string
	NoQuoted, Sep        bool
}

func (v *View) turnWords(e *rules.TurnPlayed) (*TurnWords, error) {
	t := &TurnWords{Number: e.Number, Author: templates.Escape(v.Author), Side: sideName(e.Side),
		SideDat: sideDative(e.Side), Next: sideName(e.Next), Wounds: count(e.Wounds),
		Attacks: e.Attacks, Revealed: e.Revealed, Removed: e.Removed, Victory: e.Victory, View: v}
	if len(e.Moves) > 0 {
		t.Moves = make([]MoveWords, len(e.Moves))
		for i, m := range e.Moves {
			t.Moves[i] = MoveWords{Warrior: string(m.Warrior), From: m.From.String(), To: m.To.String(), Charge: m.Charge}
		}
	}
	for i, s := range e.Sloppy {
		text, err := renderSloppy(s)
		if err != nil {
			return nil, err
		}
		t.Sloppy = append(t.Sloppy, Listed{Text: text, Sep: i > 0})
	}
	if len(e.BoardDiff) > 0 {
		t.BoardDiff = make([]DiffWords, len(e.BoardDiff))
		for i, d := range e.BoardDiff {
			t.BoardDiff[i] = DiffWords{Cell: d.Cell.String(), Quoted: templates.Escape(d.Quoted), Actual: d.Actual,
				NoQuoted: d.Quoted == "", Sep: i > 0}
		}
	}
	if e.Wounds > 0 {
		t.Owe = forSide(v, e.Side)
	}
	return t, nil
}
