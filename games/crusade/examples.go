package crusade

import (
	"sync"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/grammar"
	"forumgm/games/crusade/rules"
)

// The view's examples: every example a reply shows is computed for the reader's side on the
// current position and tried with the engine (as if that side had the move), so that a player who
// copies it is not refused or charged a wound. Templates write them out; the test reads every
// [i]…[/i] of every template back through the parser and the engine.

// MoveExample is a move legal now: the warrior's action number today, the warrior, where to.
type MoveExample struct {
	Side    rules.Side
	Ordinal int
	Warrior rules.WarriorID
	To      rules.Cell
}

// AttackExample is an attack legal now: a sword blow on a neighbour or a shot.
type AttackExample struct {
	Kind     rules.AttackKind // AttackSword or AttackShot
	Attacker rules.WarriorID
	Target   rules.WarriorID
}

// SideView is a view with the side a part of a reply is about (template data): what the side
// owes now and, when it has wounds to allocate (Due: some unallocated, the game not over), its
// name for the start of a sentence, how many, the penalty for not allocating them and the warrior
// an allocation example names.
type SideView struct {
	V           *View
	Side        rules.Side
	Owed        rules.Owed
	Due         bool
	Title       string
	Unallocated Count
	Penalty     Count
	Example     rules.WarriorID
}

func forSide(v *View, s rules.Side) SideView {
	sv := SideView{V: v, Side: s, Owed: v.game.WoundsOwed(s)}
	if sv.Due = sv.Owed.Unallocated > 0 && !v.Over; sv.Due {
		sv.Title = title(sideName(s))
		sv.Unallocated = count(sv.Owed.Unallocated)
		sv.Penalty = count(v.Settings.WoundsAllocation)
		sv.Example = v.ExampleWarrior(s)
	}
	return sv
}

// ExampleSide is the side the reply's examples are for: the author's when they play, else the
// side to move.
func (v *View) ExampleSide() rules.Side {
	if s, ok := v.game.PlayerSide(v.Author); ok {
		return s
	}
	if s := v.game.SideToMove(); s != "" {
		return s
	}
	return v.game.Settings().FirstSide
}

// exampleAuthor is the player the examples are tried for: the author when they play on side s,
// else the first player of side s in the roster.
func (v *View) exampleAuthor(s rules.Side) string {
	if ps, ok := v.game.PlayerSide(v.Author); ok && ps == s {
		return v.Author
	}
	for _, p := range v.game.Roster().Players {
		if p.Side == s {
			return p.Name
		}
	}
	return ""
}

// tryTurn reports whether the turn is accepted for author as if their side had the move, with no
// sloppiness but a missing or mismatching quoted board (the example is only the move text).
func (v *View) tryTurn(author string, t rules.Turn) bool {
	evs, err := v.game.Try(game.Act{At: v.now(), Author: author, Body: &t})
	if err != nil || len(evs) == 0 {
		return false
	}
	tp, ok := evs[0].(*rules.TurnPlayed)
	if !ok {
		return false
	}
	for _, s := range tp.Sloppy {
		if s.Code != rules.SloppyBoardMissing && s.Code != rules.SloppyBoardMismatch {
			return false
		}
	}
	return tp.Victory == nil
}

// now is the time examples are tried at (the engine judges no clock for turns; any time works).
func (v *View) now() time.Time { return time.Time{} }

// actors are the warriors of side s the example author may act with now, in the fixed order,
// the commander last (an example need not risk him).
func (v *View) actors(s rules.Side, author string) []rules.WarriorView {
	var out, cmd []rules.WarriorView
	for _, w := range v.game.Warriors() {
		if w.Side == s && w.Alive && w.InPlay && w.Cell != nil && w.ActionsToday < 3 && v.game.Controls(author, w.ID) {
			if w.ID.Commander() {
				cmd = append(cmd, w)
			} else {
				out = append(out, w)
			}
		}
	}
	return append(out, cmd...)
}

// forward orders destinations: towards the enemy first, then nearest the warrior's row.
func forward(s rules.Side, from rules.Cell, cells []rules.Cell) []rules.Cell {
	best := make([]rules.Cell, 0, len(cells))
	for _, c := range cells {
		if c.Row <= 1 || c.Row >= rules.Size-2 { // never an example into the forest
			continue
		}
		best = append(best, c)
	}
	gain := func(c rules.Cell) int {
		g := c.Col - from.Col
		if s == rules.Crusaders {
			g = -g
		}
		return g*100 - abs(c.Row-from.Row)
	}
	for i := 1; i < len(best); i++ {
		for j := i; j > 0 && gain(best[j]) > gain(best[j-1]); j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// exampleKey names an example found on a state: what kind, for which side and player.
type exampleKey struct {
	kind   string
	side   rules.Side
	author string
}

// example is an example found on a state, by what it is (a reply finds a few at most).
type example struct {
	key exampleKey
	val any
}

// memo gives the example of key k found on the current state, finding it with find once per
// state (a reply may show an example several times, and several replies answer one state).
func (v *View) memo(k exampleKey, find func() any) any {
	if v.rules == nil {
		return find()
	}
	for _, e := range v.rules.examples {
		if e.key == k {
			return e.val
		}
	}
	got := find()
	v.rules.examples = append(v.rules.examples, example{k, got})
	return got
}

// moveExamples finds up to n moves of n different warriors that are legal together now.
func (v *View) moveExamples(n int) []MoveExample {
	if v.game.Phase() != rules.PhasePlaying {
		return nil
	}
	s := v.ExampleSide()
	author := v.exampleAuthor(s)
	ms, _ := v.memo(exampleKey{kind: "move" + string(rune('0'+n)), side: s, author: author}, func() any {
		return v.findMoves(s, author, n)
	}).([]MoveExample)
	return ms
}

func (v *View) findMoves(s rules.Side, author string, n int) []MoveExample {
	var out []MoveExample
	var turn rules.Turn
	for _, w := range v.actors(s, author) {
		for _, to := range forward(s, *w.Cell, v.game.LegalMoves(w.ID)) {
			m := rules.Move{Warrior: w.ID, Ordinal: w.ActionsToday + 1, To: to}
			try := turn
			try.Moves = append(append([]rules.Move(nil), turn.Moves...), m)
			if v.tryTurn(author, try) {
				turn = try
				out = append(out, MoveExample{Side: s, Ordinal: m.Ordinal, Warrior: w.ID, To: to})
				break
			}
		}
		if len(out) == n {
			return out
		}
	}
	return nil
}

// ExampleMove is a move the reader's side can make now (nil when it has none).
func (v *View) ExampleMove() *MoveExample {
	if ms := v.moveExamples(1); len(ms) == 1 {
		return &ms[0]
	}
	return nil
}

// ExampleTwo are moves of two warriors the reader's side can make together now (nil: none).
func (v *View) ExampleTwo() []MoveExample { return v.moveExamples(2) }

// ExampleAttack is an attack the reader's side can make now (nil when it has none).
func (v *View) ExampleAttack() *AttackExample {
	if v.game.Phase() != rules.PhasePlaying {
		return nil
	}
	s := v.ExampleSide()
	author := v.exampleAuthor(s)
	a, _ := v.memo(exampleKey{kind: "attack", side: s, author: author}, func() any {
		return v.findAttack(s, author)
	}).(*AttackExample)
	return a
}

func (v *View) findAttack(s rules.Side, author string) *AttackExample {
	var enemies []rules.WarriorView
	for _, w := range v.game.Warriors() {
		if w.Side != s && w.Alive && w.InPlay && w.Cell != nil {
			enemies = append(enemies, w)
		}
	}
	for _, w := range v.actors(s, author) {
		for _, e := range enemies {
			dr, dc := abs(e.Cell.Row-w.Cell.Row), abs(e.Cell.Col-w.Cell.Col)
			d := max(dr, dc)
			kinds := []rules.AttackKind{}
			if d == 1 {
				kinds = append(kinds, rules.AttackSword)
			}
			if (dr == 0 || dc == 0 || dr == dc) && d <= rules.Table[w.ID.Kind()].Range() {
				kinds = append(kinds, rules.AttackShot)
			}
			for _, k := range kinds {
				a := rules.Attack{Kind: k, Attackers: []rules.WarriorID{w.ID}, Target: rules.Target{Warrior: e.ID}}
				if v.tryTurn(author, rules.Turn{Attacks: []rules.Attack{a}}) {
					return &AttackExample{Kind: k, Attacker: w.ID, Target: e.ID}
				}
			}
		}
	}
	return nil
}

// sideWarriors are each side's warriors in the fixed order (cr.AllWarriors), listed once.
var sideWarriors = sync.OnceValue(func() map[rules.Side][]rules.WarriorID {
	out := map[rules.Side][]rules.WarriorID{}
	for _, id := range rules.AllWarriors() {
		out[id.Side()] = append(out[id.Side()], id)
	}
	return out
})

// ExampleWarrior is a warrior of side s a wound can go to now (an allocation example): the living
// one with the highest defence left, commanders last.
func (v *View) ExampleWarrior(s rules.Side) rules.WarriorID {
	w, _ := v.memo(exampleKey{kind: "wound", side: s}, func() any { return v.findWounded(s) }).(rules.WarriorID)
	return w
}

func (v *View) findWounded(s rules.Side) rules.WarriorID {
	var best rules.WarriorID
	bestDef := -1
	allocated := v.game.WoundsOwed(s).Allocated
	for _, cmd := range []bool{false, true} {
		for _, id := range sideWarriors()[s] {
			if id.Commander() != cmd {
				continue
			}
			def, ok := v.game.Standing(id)
			if !ok {
				continue
			}
			for _, a := range allocated {
				if a.Warrior == id && a.Stat == rules.StatDefence {
					def -= a.Count
				}
			}
			if def > bestDef {
				best, bestDef = id, def
			}
		}
		if bestDef > 0 {
			return best
		}
	}
	return best
}

// LimitHours and LimitMinutes split the evening move limit for the texts ("дольше 20 минут").
func (v *View) LimitHours() int   { return int(v.moveLimit() / time.Hour) }
func (v *View) LimitMinutes() int { return int(v.moveLimit() % time.Hour / time.Minute) }

func (v *View) moveLimit() time.Duration {
	d, err := time.ParseDuration(v.game.Settings().MoveLimit)
	if err != nil {
		return time.Hour
	}
	return d
}

// HasProblem reports whether the refusal holds a problem with the code.
func (v *View) HasProblem(code string) bool {
	for _, p := range v.Problems {
		if string(p.Code) == code {
			return true
		}
	}
	return false
}

// maxQuoted is how many unreadable lines a reply quotes back.
const maxQuoted = 3

// ShownLines are the unreadable lines the reply quotes (at most maxQuoted).
func (v *View) ShownLines() []*grammar.LineError {
	if len(v.Lines) > maxQuoted {
		return v.Lines[:maxQuoted]
	}
	return v.Lines
}

// MoreLines is how many unreadable lines are not quoted.
func (v *View) MoreLines() int { return max(0, len(v.Lines)-maxQuoted) }

// dueDay is the day whose end (00:00) the wounds owed now must be allocated by: the day of the
// event answered (a turn, a time-limit notice, the daily close at the new day's 00:00); nil when
// the reply answers no timed event.
func dueDay(c game.Context, loc *time.Location) *Date {
	var at time.Time
	switch e := c.Event.(type) {
	case *rules.TurnPlayed:
		at = e.At
	case *rules.TimeLimitExceeded:
		at = e.At
	case *rules.DayClosed:
		at = e.At
	case *rules.WoundsAllocated:
		at = e.At
	case *rules.AnswerAccepted:
		at = e.At
	}
	if at.IsZero() {
		return nil
	}
	d := dateOf(c.RealTime(at).In(loc)) // a holiday moves the day
	return &d
}
