// Package crusade owns the rules of Crusade ("Крестовый поход"): the board, the armies, turns,
// combat and its special cases, the forest, deployment, wounds, the daily clock and victory.
// It is a pure engine (see package engine): no I/O, no clock reads, deterministic.
package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rows are the board's row letters top to bottom (Latin; there is no Q).
const Rows = "ABCDEFGHIJKLMNOPRSTU"

// Size is the board's width and height.
const Size = 20

// Cell is a board cell: Row 0..19 (A..U), Col 1..20.
type Cell struct {
	Row int `json:"r"`
	Col int `json:"c"`
}

// Valid reports whether c is on the board.
func (c Cell) Valid() bool { return c.Row >= 0 && c.Row < Size && c.Col >= 1 && c.Col <= Size }

// String is the cell as players write it: row letter then column, "G5".
func (c Cell) String() string {
	if !c.Valid() {
		return fmt.Sprintf("?%d:%d", c.Row, c.Col)
	}
	return cellNames[c.Row][c.Col]
}

// cellNames are the names of the board's cells, written once ("G5" is cellNames[6][5]).
var cellNames = func() (out [Size][Size + 1]string) {
	for r := range Size {
		for c := 1; c <= Size; c++ {
			out[r][c] = Rows[r:r+1] + strconv.Itoa(c)
		}
	}
	return out
}()

// MarshalText writes the cell as "G5" (JSON keys and values stay readable).
func (c Cell) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a canonical cell name ("G5").
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCell reads a canonical cell name: a Latin row letter (upper case) and a column 1..20.
// Player input (look-alike letters, spaces, lower case) is normalised by the parser first.
func ParseCell(s string) (Cell, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return Cell{}, fmt.Errorf("crusade: bad cell %q", s)
	}
	r := strings.IndexByte(Rows, s[0])
	if r < 0 {
		return Cell{}, fmt.Errorf("crusade: bad cell %q: no row %q", s, s[0:1])
	}
	var col int
	if _, err := fmt.Sscanf(s[1:], "%d", &col); err != nil || fmt.Sprint(col) != s[1:] {
		return Cell{}, fmt.Errorf("crusade: bad cell %q: bad column", s)
	}
	c := Cell{Row: r, Col: col}
	if !c.Valid() {
		return Cell{}, fmt.Errorf("crusade: bad cell %q: column outside 1..20", s)
	}
	return c, nil
}

// Side is an army.
type Side string

const (
	Crusaders Side = "crusaders"
	Saracens  Side = "saracens"
)

// Other is the opposing side.
func (s Side) Other() Side {
	if s == Crusaders {
		return Saracens
	}
	return Crusaders
}

// Kind is a kind of warrior, named by the Cyrillic letter of its code.
type Kind rune

const (
	Knight      Kind = 'р' // рыцари; р1 is the emperor
	Crossbowman Kind = 'а' // арбалетчики
	Archer      Kind = 'л' // лучники
	Dismounted  Kind = 'с' // спешенные рыцари
	Pikeman     Kind = 'к' // копейщики
	Guard       Kind = 'ш' // гвардия шейха; ш1 is the sheikh
	MountedArch Kind = 'в' // верховые лучники
	Mercenary   Kind = 'н' // наёмники
)

// Stats is one kind's row of the seed's table.
type Stats struct {
	Side       Side
	Count      int
	Speed      int    // cells per move
	LanceSpeed int    // cells of a lance charge (knights 4, pikemen 2); 0 = none
	Sword      int    // sword attack
	Lance      int    // lance attack; 0 = none
	Shot       [4]int // shot strength at 1, 2, 3, 4 cells; zeros beyond the range
	Defence    int
}

// Range is the shot range: the farthest distance with a non-zero strength.
func (s Stats) Range() int {
	n := 0
	for i, v := range s.Shot {
		if v > 0 {
			n = i + 1
		}
	}
	return n
}

// Table is the seed's table of warriors (rulings/crusade.md, "Armies").
var Table = map[Kind]Stats{
	Knight:      {Side: Crusaders, Count: 3, Speed: 3, LanceSpeed: 4, Sword: 9, Lance: 10, Defence: 9},
	Crossbowman: {Side: Crusaders, Count: 2, Speed: 4, Sword: 5, Shot: [4]int{10, 8, 7, 6}, Defence: 5},
	Archer:      {Side: Crusaders, Count: 3, Speed: 2, Sword: 4, Shot: [4]int{9, 7, 6, 5}, Defence: 3},
	Dismounted:  {Side: Crusaders, Count: 2, Speed: 1, Sword: 8, Defence: 7},
	Pikeman:     {Side: Crusaders, Count: 5, Speed: 1, LanceSpeed: 2, Sword: 2, Lance: 10, Defence: 1},
	Guard:       {Side: Saracens, Count: 3, Speed: 3, Sword: 8, Lance: 7, Defence: 7},
	MountedArch: {Side: Saracens, Count: 8, Speed: 4, Sword: 6, Shot: [4]int{7, 6, 5, 0}, Defence: 5},
	Mercenary:   {Side: Saracens, Count: 4, Speed: 1, Sword: 7, Defence: 3},
}

// KindOrder lists the kinds in the order armies are listed (crusaders first), for deterministic
// iteration.
var KindOrder = []Kind{Knight, Crossbowman, Archer, Dismounted, Pikeman, Guard, MountedArch, Mercenary}

// WarriorID is a warrior's code as written on the board: a Cyrillic lower-case kind letter and a
// number, "н2".
type WarriorID string

// Kind is the warrior's kind letter.
func (w WarriorID) Kind() Kind {
	for _, r := range string(w) {
		return Kind(r)
	}
	return 0
}

// Num is the warrior's number within its kind (0 if malformed).
func (w WarriorID) Num() int {
	_, size := utf8.DecodeRuneInString(string(w))
	n, err := strconv.Atoi(string(w)[size:])
	if err != nil {
		return 0
	}
	return n
}

// Valid reports whether w names one of the 30 warriors.
func (w WarriorID) Valid() bool {
	st, ok := Table[w.Kind()]
	n := w.Num()
	return ok && n >= 1 && n <= st.Count && string(w) == string(rune(w.Kind()))+strconv.Itoa(n)
}

// Side is the warrior's army.
func (w WarriorID) Side() Side { return Table[w.Kind()].Side }

// Commander reports whether w is a commander (р1 or ш1).
func (w WarriorID) Commander() bool { return w == "р1" || w == "ш1" }

// AllWarriors lists the 30 warriors in a fixed order (crusaders then saracens, by kind, by number).
func AllWarriors() []WarriorID {
	return append([]WarriorID(nil), allWarriors...)
}

// allWarriors is AllWarriors, built once.
var allWarriors = func() []WarriorID {
	var out []WarriorID
	for _, k := range KindOrder {
		for i := 1; i <= Table[k].Count; i++ {
			out = append(out, WarriorID(fmt.Sprintf("%c%d", k, i)))
		}
	}
	return out
}()

// ---- Intents: what the parser reads out of a post, and what the engine judges. ----

// AttackKind is the kind of an attack named in an attack line.
type AttackKind string

const (
	AttackUnstated  AttackKind = ""          // the line named no kind: the engine infers it and counts sloppiness
	AttackSword     AttackKind = "sword"     // мечом: a neighbouring cell
	AttackShot      AttackKind = "shot"      // стреляет: along a line, within range
	AttackCharge    AttackKind = "charge"    // a knight's lance charge (копьём на H4): a straight move
	AttackLance     AttackKind = "lance"     // the guard's lance at exactly 2 cells
	AttackFormation AttackKind = "formation" // pikemen formation charge (строем)
)

// Move is a move line: "1-й ход сарацина н2 на G5".
type Move struct {
	Warrior WarriorID `json:"warrior"`
	Ordinal int       `json:"ordinal,omitempty"` // the stated action number today; 0 = not stated
	From    *Cell     `json:"from,omitempty"`    // when the player wrote the start cell ("н2 G4-G5")
	To      Cell      `json:"to"`
	Line    string    `json:"line,omitempty"` // the source line, for replies
}

// Target is what an attack aims at: a cell, or a warrior by code (exactly one is set).
type Target struct {
	Cell    *Cell     `json:"cell,omitempty"`
	Warrior WarriorID `json:"warrior,omitempty"`
}

// Attack is an attack line: "р1 атакует мечом с2", "а1+а2 стреляют в K5", "р2 копьём на H4",
// "к1,к2 строем на C6".
type Attack struct {
	Kind AttackKind `json:"kind"`
	// Attackers: one warrior for a sword, shot, guard lance or knight charge; for a combined shot
	// the named shooter first and then the joiners; for a formation every pikeman in it.
	Attackers []WarriorID `json:"attackers"`
	Ordinal   int         `json:"ordinal,omitempty"` // stated action number of Attackers[0]; 0 = not stated
	Target    Target      `json:"target,omitempty"`  // sword, shot, lance
	// To is where a charge goes: the knight's destination, or the destination of Attackers[0] in
	// a formation charge.
	To   *Cell  `json:"to,omitempty"`
	Line string `json:"line,omitempty"` // the source line, for replies
}

// Turn is everything a player's move post asks for, as the parser read it.
type Turn struct {
	Moves   []Move   `json:"moves,omitempty"`
	Attacks []Attack `json:"attacks,omitempty"`
	// Board is the quoted board as the player edited it (nil: no board in the post). The engine
	// compares it with the position after the turn.
	Board *BoardText `json:"board,omitempty"`
}

// BoardText is a board as read from text: what stands in each non-empty cell. Tokens are the two
// board characters with underscores trimmed ("в1", "Ф", "10").
type BoardText struct {
	Cells map[Cell]string `json:"cells"`
}

// Stat names the value a wound takes a point from.
type Stat string

const (
	StatAttack  Stat = "attack"  // every attack value the warrior has
	StatDefence Stat = "defence" // the defence
)

// Wound is one wound allocation: "ранение: в3 защита" (Count 1 unless the line says more).
type Wound struct {
	Warrior WarriorID `json:"warrior"`
	Stat    Stat      `json:"stat"`
	Count   int       `json:"count"`
}

// Allocation is a post or private message allocating a side's pending wounds.
type Allocation struct {
	Wounds []Wound `json:"wounds"`
}

// Deployment is a side's initial placement, sent privately.
type Deployment struct {
	Cells map[WarriorID]Cell `json:"cells"`
}

// Answer is a post answering the daily question.
type Answer struct {
	Text string `json:"text"`
}
