package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"forumgm/game"
)

// Phase is the stage of the game.
type Phase string

const (
	PhaseDeploying Phase = "deploying" // waiting for the private deployments
	PhasePlaying   Phase = "playing"
	PhaseOver      Phase = "over" // a side won (or the moderator ended the game)
)

// WarriorState is one warrior in the state.
type WarriorState struct {
	Cell          Cell `json:"cell"`
	InPlay        bool `json:"in_play"`
	Alive         bool `json:"alive"`
	AttackWounds  int  `json:"attack_wounds,omitempty"`  // applied wounds on the attack values
	DefenceWounds int  `json:"defence_wounds,omitempty"` // applied wounds on the defence
	Actions       int  `json:"actions,omitempty"`        // actions today
	Charges       int  `json:"charges,omitempty"`        // lance charges used (knights)
	Front         Dir  `json:"front"`                    // pikemen: direction of the last formation charge
}

// OpenQuestion is today's question and the first correct answer of each side.
type OpenQuestion struct {
	Number  int                   `json:"number"` // 1 for the game's first question
	Index   int                   `json:"index"`  // index in the bank
	Text    string                `json:"text"`
	AskedAt time.Time             `json:"asked_at"`
	Answers map[Side]AnswerRecord `json:"answers,omitempty"`
}

// AnswerRecord is a side's first correct answer.
type AnswerRecord struct {
	Author string    `json:"author"`
	At     time.Time `json:"at"`
	Seq    int       `json:"seq"` // 1 = first of the two sides
}

// State is the whole game state: a fold of the events over New's initial state. It is plain data
// (its JSON is the replay snapshot).
type State struct {
	Phase             Phase                       `json:"phase"`
	ToMove            Side                        `json:"to_move"`
	ToMoveSince       time.Time                   `json:"to_move_since"`       // when the side to move got the move
	LimitChargedUntil time.Time                   `json:"limit_charged_until"` // the last time-limit violation charged
	Turns             int                         `json:"turns"`
	Warriors          map[WarriorID]*WarriorState `json:"warriors"`
	Owed              map[Side]int                `json:"owed"`      // wounds not yet allocated
	Allocated         map[Side][]Wound            `json:"allocated"` // allocated, applied at 00:00
	Killed            map[Side]int                `json:"killed"`    // warriors of the side killed
	Victory           *Victory                    `json:"victory,omitempty"`
	MovedToday        map[string]bool             `json:"moved_today"` // normalised player names
	HadMoveToday      map[Side]bool               `json:"had_move_today"`
	Question          *OpenQuestion               `json:"question,omitempty"`
	QuestionsAsked    int                         `json:"questions_asked"`
	AskedCycle        []int                       `json:"asked_cycle,omitempty"` // bank places asked in this round of the bank
	LastClose         time.Time                   `json:"last_close"`
	StartedAt         time.Time                   `json:"started_at"`
	Deployments       map[Side]map[WarriorID]Cell `json:"deployments,omitempty"`
}

func (s *State) clone() *State {
	c := *s
	c.Warriors = make(map[WarriorID]*WarriorState, len(s.Warriors))
	states := make([]WarriorState, 0, len(s.Warriors))
	for k, v := range s.Warriors {
		states = append(states, *v)
		c.Warriors[k] = &states[len(states)-1]
	}
	c.Owed = cloneMap(s.Owed)
	c.Killed = cloneMap(s.Killed)
	c.MovedToday = cloneMap(s.MovedToday)
	c.HadMoveToday = cloneMap(s.HadMoveToday)
	c.AskedCycle = append([]int(nil), s.AskedCycle...)
	c.Allocated = map[Side][]Wound{}
	for k, v := range s.Allocated {
		c.Allocated[k] = append([]Wound(nil), v...)
	}
	if s.Victory != nil {
		v := *s.Victory
		c.Victory = &v
	}
	if s.Question != nil {
		q := *s.Question
		q.Answers = cloneMap(s.Question.Answers)
		c.Question = &q
	}
	if s.Deployments != nil {
		c.Deployments = map[Side]map[WarriorID]Cell{}
		for k, v := range s.Deployments {
			c.Deployments[k] = cloneMap(v)
		}
	}
	return &c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Game is a running game of Crusade. It implements game.Engine.
type Game struct {
	settings Settings
	clk      clockSettings
	roster   Roster
	setup    Setup
	st       *State
	// memo holds what is derived from st and asked for often (the position, the board text);
	// Apply clears it. It is never part of the state.
	memo memo
	// drawn is the last board text drawn, kept across states: a move changes a row or two, and
	// the next board copies the rows that did not change.
	drawn *drawnBoard
	spare *drawnBoard // the one before, drawn over next
}

// drawnBoard is a board text with what it was drawn from.
type drawnBoard struct {
	text string
	// line is where each row's line starts in text (after its '\n'), and line[Size] the
	// footer's: row r is text[line[r]:line[r+1]-1].
	line [Size + 1]uint16
	// pos is the position it was drawn from: a state's, which nothing changes.
	pos  *position
	hide bool
}

// memo is derived from the state once per state.
type memo struct {
	pos   *position // read-only: a judge that moves warriors works on a clone
	board string    // the public board's text (Render of Tokens)
}

// New starts a game: the settings, the roster and the starting position. With SetupPrivate the
// game waits for both sides' Deployment; otherwise it starts at once with FirstSide to move.
func New(settings Settings, roster Roster, setup Setup) (*Game, error) {
	if err := settings.Validate(); err != nil {
		return nil, fmt.Errorf("crusade: new game: %w", err)
	}
	clk, err := settings.clock()
	if err != nil {
		return nil, fmt.Errorf("crusade: new game: %w", err)
	}
	if err := roster.Validate(); err != nil {
		return nil, fmt.Errorf("crusade: new game: %w", err)
	}
	g := &Game{settings: settings, clk: clk, roster: roster, setup: setup}
	st := &State{
		Warriors:     make(map[WarriorID]*WarriorState, len(allWarriors)),
		Owed:         map[Side]int{Crusaders: 0, Saracens: 0},
		Allocated:    map[Side][]Wound{},
		Killed:       map[Side]int{Crusaders: 0, Saracens: 0},
		MovedToday:   map[string]bool{},
		HadMoveToday: map[Side]bool{},
		ToMove:       settings.FirstSide,
	}
	states := make([]WarriorState, len(allWarriors))
	for i, w := range allWarriors {
		st.Warriors[w] = &states[i]
	}
	g.st = st
	switch setup.Mode {
	case SetupDefault, "":
		g.startWith(defaultDeployment(), setup.At)
	case SetupCustom:
		if err := g.checkPlacement(setup.Cells); err != nil {
			return nil, fmt.Errorf("crusade: new game: custom setup: %w", err)
		}
		g.startWith(setup.Cells, setup.At)
	case SetupPrivate:
		st.Phase = PhaseDeploying
		st.Deployments = map[Side]map[WarriorID]Cell{}
	default:
		return nil, fmt.Errorf("crusade: new game: unknown setup mode %q", setup.Mode)
	}
	return g, nil
}

func (g *Game) checkPlacement(cells map[WarriorID]Cell) error {
	taken := map[Cell]WarriorID{}
	for _, w := range allWarriors {
		c, ok := cells[w]
		if !ok {
			continue
		}
		if !c.Valid() {
			return fmt.Errorf("%s: cell off the board", w)
		}
		if c == g.settings.SaracenFlag || c == g.settings.CrusaderFlag {
			return fmt.Errorf("%s: %s is a flag", w, c)
		}
		if o, ok := taken[c]; ok {
			return fmt.Errorf("%s and %s are both on %s", o, w, c)
		}
		taken[c] = w
	}
	for w := range cells {
		if !w.Valid() {
			return fmt.Errorf("%q is not a warrior", w)
		}
	}
	return nil
}

// startWith places the armies and opens play (used by New and by Apply(GameStarted)).
func (g *Game) startWith(cells map[WarriorID]Cell, at time.Time) {
	st := g.st
	for _, w := range allWarriors {
		ws := st.Warriors[w]
		if c, ok := cells[w]; ok {
			ws.Cell, ws.InPlay, ws.Alive = c, true, true
		} else {
			ws.Cell, ws.InPlay, ws.Alive = Cell{}, false, false
		}
	}
	st.Phase = PhasePlaying
	st.ToMove = g.settings.FirstSide
	st.ToMoveSince = at
	st.LimitChargedUntil = at
	st.StartedAt = at
	st.HadMoveToday = map[Side]bool{st.ToMove: true}
	st.Deployments = nil
}

// Name is the game's identifier.
func (g *Game) Name() string { return "crusade" }

// Settings returns the game's settings.
func (g *Game) Settings() Settings { return g.settings }

// Roster returns the game's roster.
func (g *Game) Roster() Roster { return g.roster }

// position is the judging position of the state, built once per state. It is shared: callers
// that change it take a clone.
func (g *Game) position() *position {
	if g.memo.pos == nil {
		g.memo.pos = g.buildPosition()
	}
	return g.memo.pos
}

// buildPosition builds the judging position from the state.
func (g *Game) buildPosition() *position {
	p := &position{saracenFlag: g.settings.SaracenFlag, crusaderFlag: g.settings.CrusaderFlag}
	for i, w := range allWarriors {
		ws := g.st.Warriors[w]
		if ws != nil && ws.InPlay && ws.Alive && ws.Cell.Valid() {
			p.cell[i] = pack(ws.Cell)
			p.at[ws.Cell.Row][ws.Cell.Col] = uint8(i + 1)
		}
	}
	return p
}

// ---- values after wounds ----

func (g *Game) swordOf(w WarriorID) int {
	return max(0, Table[w.Kind()].Sword-g.st.Warriors[w].AttackWounds)
}

func (g *Game) lanceOf(w WarriorID) int {
	l := Table[w.Kind()].Lance
	if l == 0 {
		return 0
	}
	return max(0, l-g.st.Warriors[w].AttackWounds)
}

func (g *Game) shotOf(w WarriorID, dist int) int {
	st := Table[w.Kind()]
	if dist < 1 || dist > 4 || st.Shot[dist-1] == 0 {
		return 0
	}
	return max(0, st.Shot[dist-1]-g.st.Warriors[w].AttackWounds)
}

func (g *Game) defenceOf(w WarriorID) int {
	return max(0, Table[w.Kind()].Defence-g.st.Warriors[w].DefenceWounds)
}

// maxAttack is the largest table attack value of a kind (a warrior whose attack wounds reach it
// has every attack value at 0).
func maxAttack(k Kind) int {
	st := Table[k]
	m := max(st.Sword, st.Lance)
	for _, v := range st.Shot {
		m = max(m, v)
	}
	return m
}

// ---- queries ----

// Phase is the stage of the game.
func (g *Game) Phase() Phase { return g.st.Phase }

// SideToMove is the side whose turn it is.
func (g *Game) SideToMove() Side { return g.st.ToMove }

// Victory is the game's result, nil while it runs.
func (g *Game) Victory() *Victory {
	if g.st.Victory == nil {
		return nil
	}
	v := *g.st.Victory
	return &v
}

// Winner is the winning side ("" while the game runs; Draw for a draw).
func (g *Game) Winner() Side {
	if g.st.Victory == nil {
		return ""
	}
	return g.st.Victory.Winner
}

// Killed is how many warriors of side s were killed.
func (g *Game) Killed(s Side) int { return g.st.Killed[s] }

// Tokens is what the public board shows: warrior codes and "Ф" on the flags (forest warriors are
// hidden when forest_invisible is on). During deployment only the flags are shown.
func (g *Game) Tokens() map[Cell]string {
	return g.tokensOf(g.position(), g.settings.ForestInvisible)
}

// Rest drops what is derived from the state only to answer faster (the position, the board's
// text, the last boards drawn): they are derived again when next asked (game.Rester).
func (g *Game) Rest() {
	g.memo = memo{}
	g.drawn, g.spare = nil, nil
}

// Board is the public board's text, Render(Tokens()), built once per state.
func (g *Game) Board() string {
	if g.memo.board == "" {
		g.memo.board = g.renderPosition(g.position(), g.settings.ForestInvisible)
	}
	return g.memo.board
}

func (g *Game) tokensOf(p *position, hideForest bool) map[Cell]string {
	out := make(map[Cell]string, len(p.cell)+2)
	out[g.settings.SaracenFlag], out[g.settings.CrusaderFlag] = flagMark, flagMark
	for i, v := range p.cell {
		c := v.cell()
		if v == 0 || hideForest && inForest(c) {
			continue
		}
		out[c] = string(allWarriors[i])
	}
	return out
}

// renderPosition is Render(g.tokensOf(p, hideForest)), drawn straight from the position; the
// rows that stand as on the last board drawn are copied from it. p is a state's position, which
// nothing changes (it is kept to compare the next board with).
func (g *Game) renderPosition(p *position, hideForest bool) string {
	prev := g.drawn
	if prev != nil && prev.hide != hideForest {
		prev = nil
	}
	d := g.spare
	if d == nil {
		d = &drawnBoard{}
	}
	d.pos, d.hide = p, hideForest
	var b strings.Builder
	b.Grow(boardBytesOf(p, hideForest, g.settings.SaracenFlag, g.settings.CrusaderFlag))
	b.WriteString(BoardTopLine)
	sf, cf := g.settings.SaracenFlag, g.settings.CrusaderFlag
	for r := 0; r < Size; r++ {
		b.WriteByte('\n')
		d.line[r] = uint16(b.Len())
		if prev != nil && prev.pos.at[r] == p.at[r] {
			b.WriteString(prev.text[prev.line[r] : prev.line[r+1]-1])
			continue
		}
		b.WriteByte('|')
		sep := rowSeparator(r)
		hide := hideForest && inForest(Cell{Row: r})
		for c := 1; c <= Size; c++ {
			if c > 1 {
				b.WriteByte(sep)
			}
			if n := p.at[r][c]; n != 0 && !hide {
				b.WriteString(drawnWarrior[n]) // a warrior code is drawn as it is
				continue
			}
			if (r == sf.Row && c == sf.Col) || (r == cf.Row && c == cf.Col) {
				b.WriteString(drawnFlag[c > Size/2])
				continue
			}
			b.WriteString("__")
		}
		b.WriteString("|-")
		b.WriteByte(Rows[r])
	}
	b.WriteByte('\n')
	d.line[Size] = uint16(b.Len())
	b.WriteString(BoardFooter)
	d.text = b.String()
	g.drawn, g.spare = d, g.drawn
	return d.text
}

// drawnFlag is the flag as drawn in a column of the west half (false) or the east half (true).
var drawnFlag = map[bool]string{false: drawToken(flagMark, 1), true: drawToken(flagMark, Size)}

// boardBytesOf is the length of the board text renderPosition draws (a size hint: it need not be
// exact).
func boardBytesOf(p *position, hideForest bool, flags ...Cell) int {
	n := len(BoardTopLine) + Size*(1+1+Size*2+(Size-1)+3) + 1 + len(BoardFooter) // every cell "__"
	for i, v := range p.cell {
		if v != 0 && !(hideForest && inForest(v.cell())) {
			n += len(drawnWarrior[i+1]) - 2
		}
	}
	for _, f := range flags {
		if p.occupant(f) == "" {
			n += len(drawnFlag[f.Col > Size/2]) - 2
		}
	}
	return n
}

// drawnWarrior is how Render draws each warrior (by its number in position.at): its code, which
// is two letters wide.
var drawnWarrior = func() []string {
	out := make([]string, len(allWarriors)+1)
	for i, w := range allWarriors {
		out[i+1] = drawToken(string(w), 1)
	}
	return out
}()

// flagMark is the flag's board token.
const flagMark = "Ф"

// WarriorView is one warrior as replies and the replay JSON show it.
type WarriorView struct {
	ID      WarriorID      `json:"id"`
	Side    Side           `json:"side"`
	Cell    *Cell          `json:"cell,omitempty"` // nil when dead or not in play
	Attack  map[string]int `json:"attack"`         // "sword", "lance", "shot" (at 1 cell): only the ones it has
	Defence int            `json:"defence"`
	Alive   bool           `json:"alive"`
	InPlay  bool           `json:"in_play"`
	// ActionsToday is how many times it acted today; ChargesLeft (knights) its lance charges left.
	ActionsToday int `json:"actions_today"`
	ChargesLeft  int `json:"charges_left,omitempty"`
}

// Warrior is one warrior's view; false for a code that names no warrior.
func (g *Game) Warrior(w WarriorID) (WarriorView, bool) {
	ws, ok := g.st.Warriors[w]
	if !ok {
		return WarriorView{}, false
	}
	v := WarriorView{ID: w, Side: w.Side(), Attack: map[string]int{}, Defence: g.defenceOf(w),
		Alive: ws.Alive, InPlay: ws.InPlay, ActionsToday: ws.Actions}
	st := Table[w.Kind()]
	v.Attack["sword"] = g.swordOf(w)
	if st.Lance > 0 {
		v.Attack["lance"] = g.lanceOf(w)
	}
	if st.Shot[0] > 0 {
		v.Attack["shot"] = g.shotOf(w, 1)
	}
	if ws.Alive && ws.InPlay {
		v.Cell = cellPtr(ws.Cell)
	}
	if w.Kind() == Knight {
		v.ChargesLeft = g.ChargesLeft(w)
	}
	return v, true
}

// Standing reports whether w is alive and in play, with its defence after the wounds applied
// (Warrior without building the whole view).
func (g *Game) Standing(w WarriorID) (defence int, ok bool) {
	ws, found := g.st.Warriors[w]
	if !found || !ws.Alive || !ws.InPlay {
		return 0, false
	}
	return g.defenceOf(w), true
}

// Warriors lists every warrior's view in the fixed order.
func (g *Game) Warriors() []WarriorView {
	var out []WarriorView
	for _, w := range allWarriors {
		v, _ := g.Warrior(w)
		out = append(out, v)
	}
	return out
}

// ActionsToday is how many times w acted today.
func (g *Game) ActionsToday(w WarriorID) int {
	if ws, ok := g.st.Warriors[w]; ok {
		return ws.Actions
	}
	return 0
}

// ChargesLeft is how many lance charges knight w has left (0 for others).
func (g *Game) ChargesLeft(w WarriorID) int {
	ws, ok := g.st.Warriors[w]
	if !ok || w.Kind() != Knight {
		return 0
	}
	return max(0, maxCharges-ws.Charges)
}

// maxCharges is how many lance charges a knight has per game.
const maxCharges = 2

// Owed is what side s owes: wounds not yet allocated and wounds allocated but not yet applied
// (they apply at 00:00).
type Owed struct {
	Unallocated int     `json:"unallocated"`
	Allocated   []Wound `json:"allocated,omitempty"`
	Total       int     `json:"total"`
}

// WoundsOwed is side s's wounds not yet applied.
func (g *Game) WoundsOwed(s Side) Owed {
	o := Owed{Unallocated: g.st.Owed[s], Allocated: append([]Wound(nil), g.st.Allocated[s]...)}
	o.Total = o.Unallocated
	for _, w := range o.Allocated {
		o.Total += w.Count
	}
	return o
}

// CurrentQuestion is today's open question (nil when none).
func (g *Game) CurrentQuestion() *OpenQuestion {
	if g.st.Question == nil {
		return nil
	}
	return g.st.clone().Question
}

// LegalMoves lists the cells w can move to now (empty when it cannot act: dead, not in play).
func (g *Game) LegalMoves(w WarriorID) []Cell {
	ws, ok := g.st.Warriors[w]
	if !ok || !ws.Alive || !ws.InPlay || g.st.Phase != PhasePlaying {
		return nil
	}
	return g.position().destinations(w, ws.Cell)
}

// Snapshot is a deep copy of the state.
func (g *Game) Snapshot() State { return *g.st.clone() }

// SnapshotJSON is the state as JSON (map keys sorted): equal states give equal bytes.
func (g *Game) SnapshotJSON() ([]byte, error) {
	b, err := json.Marshal(g.st)
	if err != nil {
		return nil, fmt.Errorf("crusade: snapshot: %w", err)
	}
	return b, nil
}

// PlayerSide is the side of the named player (case-insensitive).
func (g *Game) PlayerSide(name string) (Side, bool) {
	p, ok := g.roster.player(name)
	return p.Side, ok
}

var _ game.Engine = (*Game)(nil)

// Controls reports whether the named player may act with w (the roster gives it to them).
func (g *Game) Controls(name string, w WarriorID) bool {
	p, ok := g.roster.player(name)
	if !ok {
		return false
	}
	ok, _ = g.roster.controls(p, w)
	return ok && w.Side() == p.Side
}

// Try judges in on the current position as if the author's side had the move, and changes
// nothing: what a reply may show as an example is tried with it.
func (g *Game) Try(in game.Act) ([]game.Event, error) {
	c := &Game{settings: g.settings, clk: g.clk, roster: g.roster, setup: g.setup, st: g.st.clone()}
	if p, ok := c.roster.player(in.Author); ok && c.st.Phase == PhasePlaying {
		c.st.ToMove = p.Side
	}
	return c.Decide(in)
}
