package rules

import (
	"encoding/json"
	"fmt"
	"time"

	"forumgm/game"
)

// Event kinds (stable: stored in the log).
const (
	KindGameStarted     = "football.game_started"
	KindTurnOpened      = "football.turn_opened"
	KindRolled          = "football.rolled"
	KindAttackDeclared  = "football.attack_declared"
	KindDefenceRolled   = "football.defence_rolled"
	KindPointsSpent     = "football.points_spent"
	KindAnswerJudged    = "football.answer_judged"
	KindQuestionExpired = "football.question_expired"
	KindTurnClosed      = "football.turn_closed"
	KindGameEnded       = "football.game_ended"
)

// TeamStart is one team as the game begins.
type TeamStart struct {
	Name         string `json:"name"`
	Group        int    `json:"group"`
	Cell         int    `json:"cell"`
	Points       int    `json:"points"`
	GoalsFor     int    `json:"goals_for"`
	GoalsAgainst int    `json:"goals_against"`
}

// GameStarted: the teams are split into groups and stand on their start cells; the first die
// mapping is drawn and its commitment posted. It is made at the first player post in the thread
// (game.StartDrawer: that post is in the chain the draws use), not in the opening post, so the
// operator who chose the seed cannot foresee it. Dice holds the secret mapping and salt (the log
// is private; replies show only Dice.Commitment). Draws: the split's shuffle (group_split
// random), then the mapping's faces, then the salt.
type GameStarted struct {
	game.Chance
	At    time.Time   `json:"at"`
	Teams []TeamStart `json:"teams"` // in roster order (after the shuffle, if random)
	Dice  Dice        `json:"dice"`
}

// AttackOption is a team that may attack now: where it stands and whom it may attack.
type AttackOption struct {
	Team    string   `json:"team"`
	Cell    int      `json:"cell"`
	Targets []string `json:"targets"`
}

// TurnOpened: "Время N хода"; the window is open from At until Close (exclusive).
type TurnOpened struct {
	At        time.Time      `json:"at"`
	Turn      int            `json:"turn"`
	Close     time.Time      `json:"close"`
	CanAttack []AttackOption `json:"can_attack,omitempty"`
	// Undrawn: the turn opened before the start's draws (no player has posted yet): the groups
	// and the first die table are drawn at the first player post.
	Undrawn bool `json:"undrawn,omitempty"`
}

// QuestionSent is a question sent privately to a team's captain.
type QuestionSent struct {
	Index    int       `json:"index"` // in the bank
	Text     string    `json:"text"`
	Topic    string    `json:"topic,omitempty"`
	Captain  string    `json:"captain"`
	Deadline time.Time `json:"deadline"` // answers at or after it are late
}

// Rolled: an accepted advance. The team moved Face cells from From to To; Laps laps were
// completed on the way (Lap is the count after). What the new cell holds: Question (sent to the
// captain; nil when the cell has none, when it already gave its question this lap — Repeat — or
// when the bank is used up — NoQuestions), Yellow (−1 point; YellowRepeat when already this
// lap). Targets: whom the team may attack from the new cell. Redraw: the new mapping when this
// roll used the last free number. Draws: the question's pick, then the redraw.
type Rolled struct {
	game.Chance
	At             time.Time     `json:"at"`
	Author         string        `json:"author"`
	Team           string        `json:"team"`
	Turn           int           `json:"turn"`
	Epoch          int           `json:"epoch"`
	Number         int           `json:"number"`
	Face           int           `json:"face"`
	From           int           `json:"from"`
	To             int           `json:"to"`
	Laps           int           `json:"laps,omitempty"`
	Lap            int           `json:"lap"`
	Cell           Cell          `json:"cell"`
	Question       *QuestionSent `json:"question,omitempty"`
	QuestionRepeat bool          `json:"question_repeat,omitempty"`
	NoQuestions    bool          `json:"no_questions,omitempty"`
	Yellow         bool          `json:"yellow,omitempty"`
	YellowRepeat   bool          `json:"yellow_repeat,omitempty"`
	Lost           int           `json:"lost,omitempty"` // points the yellow card took (0 at a floored 0)
	Points         int           `json:"points"`         // the balance after
	Targets        []string      `json:"targets,omitempty"`
	Redraw         *Dice         `json:"redraw,omitempty"`
}

// AttackDeclared: an accepted attack. The face goes to the attacking captain privately; the
// thread is told that Team attacks Target.
type AttackDeclared struct {
	game.Chance
	At      time.Time `json:"at"`
	Author  string    `json:"author"`
	Team    string    `json:"team"`
	Target  string    `json:"target"`
	Turn    int       `json:"turn"`
	Epoch   int       `json:"epoch"`
	Number  int       `json:"number"`
	Face    int       `json:"face"`
	Captain string    `json:"captain"` // the attacking captain, who gets the face
	Points  int       `json:"points"`  // the attacker's balance, for the private reply
	Close   time.Time `json:"close"`   // when the window closes (points may be added until then)
	Redraw  *Dice     `json:"redraw,omitempty"`
}

// DefenceRolled: an accepted defence roll against this turn's attack by Attacker. The face goes
// to the defending captain privately.
type DefenceRolled struct {
	game.Chance
	At       time.Time `json:"at"`
	Author   string    `json:"author"`
	Team     string    `json:"team"`
	Attacker string    `json:"attacker"`
	Turn     int       `json:"turn"`
	Epoch    int       `json:"epoch"`
	Number   int       `json:"number"`
	Face     int       `json:"face"`
	Captain  string    `json:"captain"`
	Points   int       `json:"points"` // the defender's balance, for the private reply
	Close    time.Time `json:"close"`
	Redraw   *Dice     `json:"redraw,omitempty"`
}

// PointsSpent: the captain added points to the team's attack or defence roll. Spent is what the
// balance allowed of Asked; Added the points on that roll so far; Balance what is left.
type PointsSpent struct {
	At      time.Time `json:"at"`
	Author  string    `json:"author"`
	Team    string    `json:"team"`
	Role    Role      `json:"role"`
	Asked   int       `json:"asked"`
	Spent   int       `json:"spent"`
	Added   int       `json:"added"`
	Face    int       `json:"face"` // the roll's face, for the private reply
	Balance int       `json:"balance"`
	Close   time.Time `json:"close"`
}

// AnswerJudged: the team's answer to its question (the first answer is final). Gained: +1 for a
// correct answer.
type AnswerJudged struct {
	At       time.Time `json:"at"`
	Author   string    `json:"author"`
	Team     string    `json:"team"`
	Index    int       `json:"index"`
	Question string    `json:"question"`
	Answer   string    `json:"answer"`
	Correct  bool      `json:"correct"`
	Accepted []string  `json:"accepted"` // the bank's accepted answers, for the reply
	Gained   int       `json:"gained"`
	Balance  int       `json:"balance"`
}

// QuestionExpired: question_time passed without an answer.
type QuestionExpired struct {
	At       time.Time `json:"at"`
	Team     string    `json:"team"`
	Index    int       `json:"index"`
	Question string    `json:"question"`
	Captain  string    `json:"captain"`
	Accepted []string  `json:"accepted"`
}

// Outcome is an attack's result.
type Outcome string

const (
	OutcomeGoal   Outcome = "goal"    // attack total > defence total
	OutcomeNoGoal Outcome = "no_goal" // equal totals
	OutcomeSaved  Outcome = "saved"   // defence total > attack total: the attacker loses 1 point
)

// AttackResult is one attack as resolved after the window.
type AttackResult struct {
	Attacker      string  `json:"attacker"`
	Target        string  `json:"target"`
	AttackFace    int     `json:"attack_face"`
	AttackPoints  int     `json:"attack_points"`
	Attack        int     `json:"attack"`
	Defended      bool    `json:"defended"` // false: the target did not defend and rolls 0
	DefenceFace   int     `json:"defence_face"`
	DefencePoints int     `json:"defence_points"`
	Defence       int     `json:"defence"`
	Outcome       Outcome `json:"outcome"`
	Penalty       int     `json:"penalty,omitempty"` // points the failed attack took
	Balance       int     `json:"balance"`           // the attacker's balance after
}

// TurnClosed: the window closed; every attack of the turn resolved, in the order accepted.
// Checked: this was turns_early's close and the early end was checked; Decided: places 1-3 were
// decided then. Ending: no more turns (the end waits for open questions).
type TurnClosed struct {
	At        time.Time      `json:"at"`
	Turn      int            `json:"turn"`
	Results   []AttackResult `json:"results,omitempty"`
	Checked   bool           `json:"checked,omitempty"`
	Decided   bool           `json:"decided,omitempty"`
	Ending    bool           `json:"ending,omitempty"`
	Standings []Standing     `json:"standings"`
}

// End reasons.
const (
	EndEarly     = "early"     // places 1-3 decided after turns_early
	EndTurns     = "turns"     // turns_max played
	EndModerator = "moderator" // a moderator ended the game
)

// GameEnded: the final table, and every die mapping revealed with its salt.
type GameEnded struct {
	At         time.Time  `json:"at"`
	Reason     string     `json:"reason"`
	RankBy     RankBy     `json:"rank_by"`
	Ranking    [][]string `json:"ranking"`
	Standings  []Standing `json:"standings"`
	GoalPoints int        `json:"goal_points"` // what a goal is worth in the formula
	Reveal     []Dice     `json:"reveal"`
	Author     string     `json:"author,omitempty"` // the moderator
	Detail     string     `json:"detail,omitempty"`
}

func (*GameStarted) EventKind() string     { return KindGameStarted }
func (*TurnOpened) EventKind() string      { return KindTurnOpened }
func (*Rolled) EventKind() string          { return KindRolled }
func (*AttackDeclared) EventKind() string  { return KindAttackDeclared }
func (*DefenceRolled) EventKind() string   { return KindDefenceRolled }
func (*PointsSpent) EventKind() string     { return KindPointsSpent }
func (*AnswerJudged) EventKind() string    { return KindAnswerJudged }
func (*QuestionExpired) EventKind() string { return KindQuestionExpired }
func (*TurnClosed) EventKind() string      { return KindTurnClosed }
func (*GameEnded) EventKind() string       { return KindGameEnded }

func (e *Rolled) roll() (int, int, int)         { return e.Epoch, e.Number, e.Face }
func (e *Rolled) redraw() *Dice                 { return e.Redraw }
func (e *AttackDeclared) roll() (int, int, int) { return e.Epoch, e.Number, e.Face }
func (e *AttackDeclared) redraw() *Dice         { return e.Redraw }
func (e *DefenceRolled) roll() (int, int, int)  { return e.Epoch, e.Number, e.Face }
func (e *DefenceRolled) redraw() *Dice          { return e.Redraw }

// DecodeEvent rebuilds a stored event (always a pointer).
func (g *Game) DecodeEvent(kind string, data []byte) (game.Event, error) {
	return DecodeEvent(kind, data)
}

// DecodeEvent rebuilds a stored event (always a pointer).
func DecodeEvent(kind string, data []byte) (game.Event, error) {
	var ev game.Event
	switch kind {
	case KindGameStarted:
		ev = &GameStarted{}
	case KindPlayerReplaced:
		ev = &PlayerReplaced{}
	case KindPlayerRemoved:
		ev = &PlayerRemoved{}
	case KindTurnOpened:
		ev = &TurnOpened{}
	case KindRolled:
		ev = &Rolled{}
	case KindAttackDeclared:
		ev = &AttackDeclared{}
	case KindDefenceRolled:
		ev = &DefenceRolled{}
	case KindPointsSpent:
		ev = &PointsSpent{}
	case KindAnswerJudged:
		ev = &AnswerJudged{}
	case KindQuestionExpired:
		ev = &QuestionExpired{}
	case KindTurnClosed:
		ev = &TurnClosed{}
	case KindGameEnded:
		ev = &GameEnded{}
	default:
		return nil, fmt.Errorf("football: decode %q: %w", kind, ErrUnknownEvent)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("football: decode %s: %w", kind, err)
	}
	return ev, nil
}
