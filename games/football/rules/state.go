package rules

import (
	"encoding/json"
	"fmt"
	"time"

	"forumgm/game"
)

// Phase is the stage of the game.
type Phase string

const (
	PhaseNew     Phase = "new"     // created; Begin (at the first player post) splits the teams and commits the dice; turns may open before it
	PhasePlaying Phase = "playing" // turns are opened and closed
	PhaseEnding  Phase = "ending"  // no more turns; the final table waits for open questions
	PhaseOver    Phase = "over"
)

// OpenQuestion is a question sent to a team and not yet answered.
type OpenQuestion struct {
	Index    int       `json:"index"`
	Text     string    `json:"text"`
	AskedAt  time.Time `json:"asked_at"`
	Deadline time.Time `json:"deadline"`
}

// TeamState is one team in the state.
type TeamState struct {
	Name         string `json:"name"`
	Group        int    `json:"group"`
	Start        int    `json:"start"` // the group's start cell (laps count from it)
	Cell         int    `json:"cell"`
	Lap          int    `json:"lap"`
	Points       int    `json:"points"`
	GoalsFor     int    `json:"goals_for"`
	GoalsAgainst int    `json:"goals_against"`
	// QuestionLap and YellowLap: cell -> the lap in which the cell last gave its question or its
	// card (once per lap per cell).
	QuestionLap map[int]int `json:"question_lap,omitempty"`
	YellowLap   map[int]int `json:"yellow_lap,omitempty"`
	// Moved is the team's own move this turn: "", "advance" or "attack".
	Moved     string         `json:"moved,omitempty"`
	Questions []OpenQuestion `json:"questions,omitempty"` // open, oldest first
	// LastDeadline is the deadline of the team's last question that closed unanswered (an
	// answer after it is "late" rather than "no question").
	LastDeadline time.Time `json:"last_deadline,omitzero"`
}

// TurnAttack is an attack of the open turn.
type TurnAttack struct {
	Attacker      string `json:"attacker"`
	Target        string `json:"target"`
	Number        int    `json:"number"`
	Face          int    `json:"face"`
	Points        int    `json:"points"`
	Defended      bool   `json:"defended"`
	DefenceNumber int    `json:"defence_number,omitempty"`
	DefenceFace   int    `json:"defence_face,omitempty"`
	DefencePoints int    `json:"defence_points,omitempty"`
}

// State is the whole game state, a fold of the events over New's. It is plain data.
type State struct {
	Phase   Phase         `json:"phase"`
	Turn    int           `json:"turn"` // the last turn opened
	Open    bool          `json:"open"` // the turn's window is open
	Teams   []TeamState   `json:"teams"`
	Attacks []*TurnAttack `json:"attacks,omitempty"` // this turn's, in the order accepted
	Dice    *Dice         `json:"dice,omitempty"`    // the current mapping (secret)
	Epochs  []Dice        `json:"epochs,omitempty"`  // every mapping drawn, for the reveal
	Used    []int         `json:"used"`              // numbers named on the current mapping, in order
	Asked   []int         `json:"asked,omitempty"`   // bank indexes asked, in order
	Checked bool          `json:"checked,omitempty"` // the early end was checked
	Decided bool          `json:"decided,omitempty"` // places 1-3 were decided then
	Ended   *GameEnded    `json:"ended,omitempty"`
	used    [Numbers + 1]bool
	asked   map[int]bool
}

func (s *State) clone() *State {
	c := *s
	c.Teams = make([]TeamState, len(s.Teams))
	for i, t := range s.Teams {
		t.QuestionLap = cloneMap(t.QuestionLap)
		t.YellowLap = cloneMap(t.YellowLap)
		t.Questions = append([]OpenQuestion(nil), t.Questions...)
		c.Teams[i] = t
	}
	c.Attacks = make([]*TurnAttack, len(s.Attacks))
	for i, a := range s.Attacks {
		aa := *a
		c.Attacks[i] = &aa
	}
	c.Epochs = append([]Dice(nil), s.Epochs...)
	if s.Dice != nil {
		d := c.Epochs[len(c.Epochs)-1]
		c.Dice = &d
	}
	c.Used = append([]int{}, s.Used...)
	c.Asked = append([]int(nil), s.Asked...)
	c.asked = cloneMap(s.asked)
	if s.Ended != nil {
		e := *s.Ended
		c.Ended = &e
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

// Game is a running game of the football dice quiz. Its Decide, Apply, NextTimer and
// DecodeEvent have game.Engine's shapes; Tick takes the game's Rand as well (see Tick).
type Game struct {
	settings Settings
	board    *Board
	roster   []Team
	clk      clock
	member   map[string]int // normName(user) -> roster index
	st       *State
	team     map[string]int // TeamKey(name) -> index in st.Teams (set at the start)
}

// New creates a game: settings, the board (DefaultBoard() or a parsed file) and the teams in
// roster order. The game begins with Begin (the plug-in calls it at the first player post),
// which splits the teams and draws the first die mapping; the clock never draws.
func New(settings Settings, board *Board, teams []Team) (*Game, error) {
	if board == nil {
		return nil, fmt.Errorf("football: new game: no board")
	}
	if err := ValidateTeams(teams); err != nil {
		return nil, fmt.Errorf("football: new game: %w", err)
	}
	if err := settings.Validate(board, teams); err != nil {
		return nil, fmt.Errorf("football: new game: %w", err)
	}
	clk, _ := settings.schedule()
	g := &Game{settings: settings, board: board, roster: append([]Team(nil), teams...), clk: clk,
		member: map[string]int{}, team: map[string]int{}}
	for i, t := range teams {
		for _, m := range append([]string{t.Captain}, t.Members...) {
			if n := normName(m); n != "" {
				g.member[n] = i
			}
		}
	}
	g.st = &State{Phase: PhaseNew, Used: []int{}, asked: map[int]bool{}}
	return g, nil
}

// Name is the game's identifier.
func (g *Game) Name() string { return "football" }

// Settings returns the game's settings.
func (g *Game) Settings() Settings { return g.settings }

// Board returns the game's board.
func (g *Game) Board() *Board { return g.board }

// Teams returns the roster as given to New.
func (g *Game) Teams() []Team { return append([]Team(nil), g.roster...) }

// Begin makes the start's draws at `at`: the teams are split into groups (roster halves, or
// shuffled with rnd first when group_split is random), stand on their start cells (or
// settings.start_cells) with settings.points and settings.goals, and the first die mapping is
// drawn from rnd (the numbers in settings.dice fixed) and committed. The plug-in calls it at the
// first player post in the thread (game.StartDrawer), with that post in the chain; the turns that
// opened before it keep running. The caller applies the event.
func (g *Game) Begin(at time.Time, rnd *game.Rand) (*GameStarted, error) {
	if g.st.Phase != PhaseNew {
		return nil, fmt.Errorf("football: begin: the game has begun")
	}
	if rnd == nil {
		return nil, ErrNoRand
	}
	order := make([]int, len(g.roster))
	for i := range order {
		order[i] = i
	}
	if g.settings.GroupSplit == SplitRandom {
		order = rnd.Perm(len(g.roster))
	}
	ev := &GameStarted{At: at, Teams: g.place(order)}
	ev.Dice = *drawDice(rnd, 1, g.settings.DieFaces, g.settings.Dice, g.settings.Salt)
	ev.Draws = rnd.Take()
	return ev, nil
}

// place is the teams in order (roster indexes) split into groups, as equal as possible (the
// earlier groups one larger), on their start cells with their settings.
func (g *Game) place(order []int) []TeamStart {
	var out []TeamStart
	n, groups := len(order), g.settings.Groups
	pos := 0
	for gr := 1; gr <= groups; gr++ {
		size := n / groups
		if gr <= n%groups {
			size++
		}
		for k := 0; k < size; k++ {
			t := g.roster[order[pos]]
			pos++
			ts := TeamStart{Name: t.Name, Group: gr, Cell: g.board.Starts[gr]}
			if c, ok := lookup(g.settings.StartCells, t.Name); ok {
				ts.Cell = c
			}
			ts.Points, _ = lookup(g.settings.Points, t.Name)
			if gl, ok := lookup(g.settings.Goals, t.Name); ok {
				ts.GoalsFor, ts.GoalsAgainst = gl[0], gl[1]
			}
			out = append(out, ts)
		}
	}
	return out
}

// RosterGroups is the split by the roster (group_split roster), known before the start's draws:
// nil when the split is random (drawn at the start).
func (g *Game) RosterGroups() []TeamStart {
	if g.settings.GroupSplit == SplitRandom {
		return nil
	}
	order := make([]int, len(g.roster))
	for i := range order {
		order[i] = i
	}
	return g.place(order)
}

// OnField is the teams as they stand (the state's own, read only): before the start's draws
// (nobody has posted yet), where the roster split puts them (none when the split is drawn).
func (g *Game) OnField() []TeamState {
	if len(g.st.Teams) > 0 {
		return g.st.Teams
	}
	var out []TeamState
	for _, ts := range g.RosterGroups() {
		out = append(out, TeamState{Name: ts.Name, Group: ts.Group, Start: g.board.Starts[ts.Group], Cell: ts.Cell,
			Points: ts.Points, GoalsFor: ts.GoalsFor, GoalsAgainst: ts.GoalsAgainst})
	}
	return out
}

// lookup finds a team's entry in a settings map keyed by team name as written (TeamKey match).
func lookup[V any](m map[string]V, name string) (V, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	key := TeamKey(name)
	for _, k := range sortedKeys(m) {
		if TeamKey(k) == key {
			return m[k], true
		}
	}
	var zero V
	return zero, false
}

// Apply folds one event into the state. Events are facts: Apply re-judges nothing and never
// draws. Events are pointers (DecodeEvent's).
func (g *Game) Apply(ev game.Event) error {
	st := g.st
	switch e := ev.(type) {
	case *GameStarted:
		if st.Phase != PhaseNew {
			return fmt.Errorf("football: apply %s: phase is %s", KindGameStarted, st.Phase)
		}
		st.Teams = nil
		g.team = map[string]int{}
		for i, t := range e.Teams {
			st.Teams = append(st.Teams, TeamState{Name: t.Name, Group: t.Group, Start: g.board.Starts[t.Group],
				Cell: t.Cell, Points: t.Points, GoalsFor: t.GoalsFor, GoalsAgainst: t.GoalsAgainst})
			g.team[TeamKey(t.Name)] = i
		}
		g.setDice(e.Dice)
		st.Phase = PhasePlaying
	case *TurnOpened:
		if st.Phase != PhasePlaying && st.Phase != PhaseNew || st.Open {
			return fmt.Errorf("football: apply %s: phase %s, open %v", KindTurnOpened, st.Phase, st.Open)
		}
		st.Turn, st.Open = e.Turn, true
		st.Attacks = nil
		for i := range st.Teams {
			st.Teams[i].Moved = ""
		}
	case *Rolled:
		t, err := g.teamState(e.Team, KindRolled)
		if err != nil {
			return err
		}
		t.Cell, t.Lap, t.Points, t.Moved = e.To, e.Lap, e.Points, "advance"
		if e.Question != nil {
			if t.QuestionLap == nil {
				t.QuestionLap = map[int]int{}
			}
			t.QuestionLap[e.To] = e.Lap
			t.Questions = append(t.Questions, OpenQuestion{Index: e.Question.Index, Text: e.Question.Text,
				AskedAt: e.At, Deadline: e.Question.Deadline})
			st.Asked = append(st.Asked, e.Question.Index)
			st.asked[e.Question.Index] = true
		} else if e.NoQuestions {
			if t.QuestionLap == nil {
				t.QuestionLap = map[int]int{}
			}
			t.QuestionLap[e.To] = e.Lap
		}
		if e.Yellow {
			if t.YellowLap == nil {
				t.YellowLap = map[int]int{}
			}
			t.YellowLap[e.To] = e.Lap
		}
		g.useNumber(e.Number, e.Redraw)
	case *AttackDeclared:
		t, err := g.teamState(e.Team, KindAttackDeclared)
		if err != nil {
			return err
		}
		t.Moved = "attack"
		st.Attacks = append(st.Attacks, &TurnAttack{Attacker: e.Team, Target: e.Target, Number: e.Number, Face: e.Face})
		g.useNumber(e.Number, e.Redraw)
	case *DefenceRolled:
		a := st.attackOn(e.Team)
		if a == nil {
			return fmt.Errorf("football: apply %s: no attack on %s", KindDefenceRolled, e.Team)
		}
		a.Defended, a.DefenceNumber, a.DefenceFace = true, e.Number, e.Face
		g.useNumber(e.Number, e.Redraw)
	case *PointsSpent:
		t, err := g.teamState(e.Team, KindPointsSpent)
		if err != nil {
			return err
		}
		var a *TurnAttack
		if e.Role == RoleAttack {
			a = st.attackBy(e.Team)
		} else {
			a = st.attackOn(e.Team)
		}
		if a == nil {
			return fmt.Errorf("football: apply %s: no %s roll of %s", KindPointsSpent, e.Role, e.Team)
		}
		if e.Role == RoleAttack {
			a.Points += e.Spent
		} else {
			a.DefencePoints += e.Spent
		}
		t.Points -= e.Spent
	case *AnswerJudged:
		t, err := g.teamState(e.Team, KindAnswerJudged)
		if err != nil {
			return err
		}
		if len(t.Questions) == 0 {
			return fmt.Errorf("football: apply %s: %s has no open question", KindAnswerJudged, e.Team)
		}
		t.Questions = t.Questions[1:]
		t.Points = e.Balance
	case *QuestionExpired:
		t, err := g.teamState(e.Team, KindQuestionExpired)
		if err != nil {
			return err
		}
		for i, q := range t.Questions {
			if q.Index == e.Index {
				t.LastDeadline = q.Deadline
				t.Questions = append(t.Questions[:i:i], t.Questions[i+1:]...)
				break
			}
		}
	case *TurnClosed:
		for _, r := range e.Results {
			a, err := g.teamState(r.Attacker, KindTurnClosed)
			if err != nil {
				return err
			}
			d, err := g.teamState(r.Target, KindTurnClosed)
			if err != nil {
				return err
			}
			if r.Outcome == OutcomeGoal {
				a.GoalsFor++
				d.GoalsAgainst++
			}
			a.Points = r.Balance
		}
		st.Open = false
		st.Attacks = nil
		if e.Checked {
			st.Checked, st.Decided = true, e.Decided
		}
		if e.Ending {
			st.Phase = PhaseEnding
		}
	case *GameEnded:
		st.Phase = PhaseOver
		st.Open = false
		c := *e
		st.Ended = &c
	case *PlayerReplaced:
		return g.applyReplaced(e)
	case *PlayerRemoved:
		return g.applyRemoved(e)
	case nil:
		return fmt.Errorf("football: apply: nil event")
	default:
		return fmt.Errorf("football: apply %T: %w", ev, ErrUnknownEvent)
	}
	return nil
}

func (g *Game) teamState(name, what string) (*TeamState, error) {
	i, ok := g.team[TeamKey(name)]
	if !ok {
		return nil, fmt.Errorf("football: apply %s: unknown team %q", what, name)
	}
	return &g.st.Teams[i], nil
}

func (g *Game) setDice(d Dice) {
	st := g.st
	st.Epochs = append(st.Epochs, d)
	dd := d
	st.Dice = &dd
	st.Used = []int{}
	st.used = [Numbers + 1]bool{}
}

func (g *Game) useNumber(n int, redraw *Dice) {
	st := g.st
	if n >= 1 && n <= Numbers && !st.used[n] {
		st.used[n] = true
		st.Used = append(st.Used, n)
	}
	if redraw != nil {
		g.setDice(*redraw)
	}
}

func (s *State) attackBy(team string) *TurnAttack {
	for _, a := range s.Attacks {
		if a.Attacker == team {
			return a
		}
	}
	return nil
}

func (s *State) attackOn(team string) *TurnAttack {
	for _, a := range s.Attacks {
		if a.Target == team {
			return a
		}
	}
	return nil
}

// clone is a copy of the game whose state can change without touching g's (Tick decides on it).
func (g *Game) clone() *Game {
	c := *g
	c.st = g.st.clone()
	c.team = g.team // never changes after the start, which Tick applies on the clone first
	if g.st.Phase == PhaseNew {
		c.team = map[string]int{}
	}
	return &c
}

// ---- queries ----

// Phase is the stage of the game.
func (g *Game) Phase() Phase { return g.st.Phase }

// Turn is the last turn opened (0 before the first).
func (g *Game) Turn() int { return g.st.Turn }

// WindowOpen reports whether the current turn's window is open (by the events applied).
func (g *Game) WindowOpen() bool { return g.st.Open }

// Snapshot is a deep copy of the state.
func (g *Game) Snapshot() State { return *g.st.clone() }

// SnapshotJSON is the state as JSON: equal states give equal bytes.
func (g *Game) SnapshotJSON() ([]byte, error) {
	b, err := json.Marshal(g.st)
	if err != nil {
		return nil, fmt.Errorf("football: snapshot: %w", err)
	}
	return b, nil
}

// TeamOf is the team of a forum user (case-insensitive), by roster name.
func (g *Game) TeamOf(user string) (Team, bool) {
	i, ok := g.member[normName(user)]
	if !ok {
		return Team{}, false
	}
	return g.roster[i], true
}

// FindTeam finds a team by a name as players write it (TeamKey: case, look-alike letters,
// "команду 2" for "Команда 2").
func (g *Game) FindTeam(name string) (Team, bool) {
	key := TeamKey(name)
	for _, t := range g.roster {
		if TeamKey(t.Name) == key {
			return t, true
		}
	}
	return Team{}, false
}

// TeamState is a team's state (false before the start or for an unknown team).
func (g *Game) TeamState(name string) (TeamState, bool) {
	i, ok := g.team[TeamKey(name)]
	if !ok {
		return TeamState{}, false
	}
	t := g.st.Teams[i]
	t.QuestionLap, t.YellowLap = cloneMap(t.QuestionLap), cloneMap(t.YellowLap)
	t.Questions = append([]OpenQuestion(nil), t.Questions...)
	return t, true
}

// Used lists the numbers named on the current mapping, in order.
func (g *Game) Used() []int { return append([]int{}, g.st.Used...) }

// Commitment is the current mapping's commitment ("" before the start).
func (g *Game) Commitment() string {
	if g.st.Dice == nil {
		return ""
	}
	return g.st.Dice.Commitment
}

// Opens is when turn n's window opens and closes (false when there is no turn n).
func (g *Game) Opens(n int) (open, close time.Time, ok bool) {
	if n < 1 || n > len(g.clk.opens) {
		return time.Time{}, time.Time{}, false
	}
	return g.clk.open(n), g.clk.close(n), true
}

// Scores are the teams' numbers in roster order (after the split).
func (g *Game) Scores() []Score {
	teams := g.OnField()
	out := make([]Score, len(teams))
	for i, t := range teams {
		out[i] = Score{Team: t.Name, GoalsFor: t.GoalsFor, GoalsAgainst: t.GoalsAgainst, Points: t.Points}
	}
	return out
}

// Standings is the table now: the final one when the game is over, else by the formula.
func (g *Game) Standings() ([]Standing, [][]string) {
	if e := g.st.Ended; e != nil {
		return append([]Standing(nil), e.Standings...), e.Ranking
	}
	return Rank(g.Scores(), RankFormula, g.settings.GoalPoints)
}

// AttackOptions lists the teams that stand on an attack cell of their group with a target in
// it, in roster order. Before the start's draws the teams stand where the roster split puts them
// (none when the split is drawn).
func (g *Game) AttackOptions() []AttackOption {
	teams := g.OnField()
	var out []AttackOption
	for i := range teams {
		t := &teams[i]
		if !g.board.Cell(t.Cell).AttackFor(t.Group) {
			continue
		}
		if ts := rivals(teams, t); len(ts) > 0 {
			out = append(out, AttackOption{Team: t.Name, Cell: t.Cell, Targets: ts})
		}
	}
	return out
}

// targetsFrom lists whom team t may attack standing on cell c (none when c is not an attack
// cell of t's group).
func (g *Game) targetsFrom(t *TeamState, c int) []string {
	if !g.board.Cell(c).AttackFor(t.Group) {
		return nil
	}
	return g.groupRivals(t)
}

func (g *Game) groupRivals(t *TeamState) []string { return rivals(g.st.Teams, t) }

// rivals are the teams of t's group but t.
func rivals(teams []TeamState, t *TeamState) []string {
	var out []string
	for _, o := range teams {
		if o.Group == t.Group && o.Name != t.Name {
			out = append(out, o.Name)
		}
	}
	return out
}

// attackCells lists the attack cells of group gr.
func (g *Game) attackCells(gr int) []int {
	var out []int
	for _, c := range g.board.cells {
		if c.AttackFor(gr) {
			out = append(out, c.Number)
		}
	}
	return out
}

var _ game.Engine = (*Game)(nil)
