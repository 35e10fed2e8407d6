package grammar

import (
	"fmt"
	"strconv"
	"strings"

	cr "forumgm/games/crusade/rules"

	"forumgm/russian"
)

// Reason says why a line that looks like a move, an attack, a wound allocation or a placement could
// not be read. Templates turn it into Russian.
type Reason string

const (
	ReasonUnknownRow      Reason = "unknown-row"       // a cell's letter is not a row (Q, Z, Д): rows are A–U without Q
	ReasonBadColumn       Reason = "bad-column"        // a cell's column is outside 1..20
	ReasonUnknownWarrior  Reason = "unknown-warrior"   // not one of the 30 warrior codes (р4, х1, G5 as a warrior)
	ReasonNoWarrior       Reason = "no-warrior"        // "1-й ход сарацина" and no warrior named
	ReasonNoDestination   Reason = "no-destination"    // a move with no cell to go to
	ReasonNoTarget        Reason = "no-target"         // an attack with no cell or warrior to hit
	ReasonChargeNeedsCell Reason = "charge-needs-cell" // a charge or formation names a warrior instead of the cell to go to
	ReasonManyWarriors    Reason = "many-warriors"     // several warriors, one destination: one move per warrior
	ReasonNoStat          Reason = "no-stat"           // a wound without "атака" or "защита"
	ReasonBadCount        Reason = "bad-count"         // a wound count that is not 1..99
	ReasonUnknownWord     Reason = "unknown-word"      // "1-й ход сарацна н2": a word not understood before the warrior
)

// AllReasons lists every Reason (the conformance suite checks each has a template).
var AllReasons = []Reason{ReasonUnknownRow, ReasonBadColumn, ReasonUnknownWarrior, ReasonNoWarrior, ReasonNoDestination,
	ReasonNoTarget, ReasonChargeNeedsCell, ReasonManyWarriors, ReasonNoStat, ReasonBadCount,
	ReasonUnknownWord}

// LineError is one line that looks like a move (or an attack, a wound, a placement) but cannot be
// read: the line, the token not understood ("" when something is missing), and why. For a bad
// cell Row or Col says what is wrong with it.
type LineError struct {
	LineNo int    // 1-based line of the text it came from (the own text, or a code block)
	Line   string // the line as written, trimmed
	Token  string // the token not understood, as written; "" when something is missing
	Reason Reason
	Row    string // ReasonUnknownRow: the letter as written ("Z")
	Col    int    // ReasonBadColumn: the column as written (21); -1 for a number too long to be one
}

func (e *LineError) Error() string {
	var why string
	switch e.Reason {
	case ReasonUnknownRow:
		why = fmt.Sprintf("cell %q: no row %q on the board (rows are A-U without Q)", e.Token, e.Row)
	case ReasonBadColumn:
		if e.Col < 0 {
			why = fmt.Sprintf("cell %.20q: no such column on the board (columns are 1-20)", e.Token)
		} else {
			why = fmt.Sprintf("cell %q: no column %d on the board (columns are 1-20)", e.Token, e.Col)
		}
	case ReasonUnknownWarrior:
		why = fmt.Sprintf("%q is not a warrior code", e.Token)
	case ReasonNoWarrior:
		why = "no warrior named"
	case ReasonNoDestination:
		why = "no cell to move to"
	case ReasonNoTarget:
		why = "no cell or warrior to attack"
	case ReasonChargeNeedsCell:
		why = fmt.Sprintf("a charge goes to a cell, not to %q", e.Token)
	case ReasonManyWarriors:
		why = "several warriors with one destination (one move per warrior)"
	case ReasonNoStat:
		why = "a wound takes from \"атака\" or \"защита\""
	case ReasonBadCount:
		why = fmt.Sprintf("bad wound count %q", e.Token)
	case ReasonUnknownWord:
		why = fmt.Sprintf("word %q not understood before the warrior", e.Token)
	default:
		why = fmt.Sprintf("%s %q", e.Reason, e.Token)
	}
	return fmt.Sprintf("line %d %q: %s", e.LineNo, e.Line, why)
}

// tokErr is a LineError before the line is known.
func tokErr(t *token, r Reason) *LineError {
	e := &LineError{Reason: r}
	if t != nil {
		e.Token = t.raw
	}
	return e
}

// ReadCell reads a cell as a player writes it: a row letter (Latin in either case, or a Cyrillic
// look-alike: С, Е, Р, ...) and a column 1..20, with spaces allowed between them ("G5", "g 5",
// "С5"). The error is a *LineError (without the line) with ReasonUnknownRow or ReasonBadColumn.
func ReadCell(s string) (cr.Cell, error) {
	toks := tokenize(russian.CleanText(strings.TrimSpace(s)))
	switch {
	case len(toks) == 1 && toks[0].kind == tCode:
		c, e := cellOf(toks[0])
		if e != nil {
			return c, e
		}
		return c, nil
	case len(toks) == 2 && toks[0].kind == tWord && len([]rune(toks[0].raw)) == 1 && toks[1].kind == tNum:
		c, e := cellOf(joinCode(toks[0], toks[1]))
		if e != nil {
			return c, e
		}
		return c, nil
	}
	return cr.Cell{}, &LineError{Token: s, Reason: ReasonUnknownRow, Row: s}
}

// cellOf reads a code token as a cell.
func cellOf(t token) (cr.Cell, *LineError) {
	l, _ := russian.LatinUpper(t.letter)
	row := strings.IndexRune(cr.Rows, l)
	if row < 0 {
		return cr.Cell{}, &LineError{Token: t.raw, Reason: ReasonUnknownRow, Row: string(t.letter)}
	}
	col, err := strconv.Atoi(t.digits)
	if err != nil || col < 1 || col > cr.Size {
		if err != nil || len(t.digits) > 6 {
			col = -1
		}
		return cr.Cell{}, &LineError{Token: t.raw, Reason: ReasonBadColumn, Col: col}
	}
	return cr.Cell{Row: row, Col: col}, nil
}

// ReadWarrior reads a warrior code as a player writes it: the kind letter in either case or a
// Latin look-alike ("н2", "Н2", "H2", "p1", "B3") and the number. The error is a *LineError
// (without the line) with ReasonUnknownWarrior.
func ReadWarrior(s string) (cr.WarriorID, error) {
	toks := tokenize(russian.CleanText(strings.TrimSpace(s)))
	if len(toks) == 1 && toks[0].kind == tCode {
		w, e := warriorOf(toks[0])
		if e != nil {
			return w, e
		}
		return w, nil
	}
	return "", &LineError{Token: s, Reason: ReasonUnknownWarrior}
}

// warriorOf reads a code token as a warrior.
func warriorOf(t token) (cr.WarriorID, *LineError) {
	k, ok := russian.CyrillicLower(t.letter)
	if ok && len(t.digits) <= 2 {
		n, _ := strconv.Atoi(t.digits)
		w := cr.WarriorID(string(k) + strconv.Itoa(n))
		if w.Valid() && strconv.Itoa(n) == t.digits {
			return w, nil
		}
	}
	return "", &LineError{Token: t.raw, Reason: ReasonUnknownWarrior}
}

// kindLetter reports whether the token's letter reads as a warrior kind letter (after look-alike
// mapping), whatever its number.
func kindLetter(t token) bool {
	k, ok := russian.CyrillicLower(t.letter)
	if !ok {
		return false
	}
	_, known := cr.Table[cr.Kind(k)]
	return known
}

// prefersWarrior reports whether an ambiguous code ("с2": dismounted knight с2 or cell C2) is read
// as a warrior: when it is written with a lower-case Cyrillic kind letter.
func prefersWarrior(t token) bool {
	_, known := cr.Table[cr.Kind(t.letter)]
	return known
}

func joinCode(letter, num token) token {
	r := firstRune(letter.raw)
	return token{kind: tCode, raw: letter.raw + " " + num.raw, fold: letter.fold + " " + num.fold, start: letter.start, end: num.end, letter: r, digits: num.raw}
}
