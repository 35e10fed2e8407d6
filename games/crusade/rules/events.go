package rules

import (
	"encoding/json"
	"fmt"
	"time"

	"forumgm/game"
)

// Event kinds.
const (
	KindGameStarted        = "crusade.game_started"
	KindDeploymentReceived = "crusade.deployment_received"
	KindTurnPlayed         = "crusade.turn_played"
	KindWoundsAllocated    = "crusade.wounds_allocated"
	KindQuestionAsked      = "crusade.question_asked"
	KindAnswerAccepted     = "crusade.answer_accepted"
	KindTimeLimitExceeded  = "crusade.time_limit_exceeded"
	KindDayClosed          = "crusade.day_closed"
	KindGameEnded          = "crusade.game_ended"
)

// Draw is Victory.Winner when both sides meet a victory condition at the same moment (one daily
// close): a commander dead or 14 warriors lost on each side.
const Draw Side = "draw"

// VictoryReason says how a game was won.
type VictoryReason string

const (
	VictoryCommander VictoryReason = "commander" // the enemy commander (р1/ш1) was killed
	VictoryFlag      VictoryReason = "flag"      // a warrior stepped onto the enemy flag
	VictoryKills     VictoryReason = "kills"     // 14 enemy warriors killed
	VictoryModerator VictoryReason = "moderator" // the moderator ended the game
)

// Victory is a game's result.
type Victory struct {
	Winner  Side          `json:"winner"`
	Reason  VictoryReason `json:"reason"`
	Warrior WarriorID     `json:"warrior,omitempty"` // the commander killed, or the flag's captor
	Cell    *Cell         `json:"cell,omitempty"`
	Detail  string        `json:"detail,omitempty"`
	// Wounds: the deaths that decided it came from wounds at the daily close.
	Wounds bool `json:"wounds,omitempty"`
	// Both (a draw): the two victories met at the same moment (one daily close), each side's.
	Both []Victory `json:"both,omitempty"`
	// Moderators: the result needs the moderators' attention (a draw by two victories at once);
	// the reply says so to them.
	Moderators bool `json:"moderators,omitempty"`
}

// Outcome is the result of one attack on one cell.
type Outcome string

const (
	OutcomeKilled   Outcome = "killed"   // defence < attack: removed
	OutcomeSurvived Outcome = "survived" // defence >= attack
	OutcomeImmune   Outcome = "immune"   // a pikeman in formation attacked from the front
	OutcomeEmpty    Outcome = "empty"    // a swept cell with nobody in it (charges), or a target already removed
)

// Hit is one attack on one cell.
type Hit struct {
	Cell     Cell      `json:"cell"`
	Warrior  WarriorID `json:"warrior,omitempty"`
	Strength int       `json:"strength"`
	Defence  int       `json:"defence"`           // the defence it met (with a back-to-back pair or a square)
	Support  []string  `json:"support,omitempty"` // warriors whose defence was added
	Outcome  Outcome   `json:"outcome"`
	Own      bool      `json:"own,omitempty"` // a warrior of the attacker's own side (knight charges)
}

// AttackResult is one attack line as judged.
type AttackResult struct {
	Kind      AttackKind  `json:"kind"`
	Inferred  bool        `json:"inferred,omitempty"` // the line named no kind
	Attackers []WarriorID `json:"attackers"`
	From      Cell        `json:"from"`               // the (first) attacker's cell when attacking
	To        *Cell       `json:"to,omitempty"`       // charges: the destination asked for
	Stop      *Cell       `json:"stop,omitempty"`     // charges: where the (first) attacker stopped
	Distance  int         `json:"distance,omitempty"` // shots and lances
	Front     *Dir        `json:"front,omitempty"`    // formation: the new front
	Hits      []Hit       `json:"hits"`
	Line      string      `json:"line,omitempty"`
}

// MoveResult is one warrior's move (by a move line or a charge).
type MoveResult struct {
	Warrior WarriorID `json:"warrior"`
	From    Cell      `json:"from"`
	To      Cell      `json:"to"`
	Charge  bool      `json:"charge,omitempty"`
	Line    string    `json:"line,omitempty"`
}

// Removed is a warrior taken off the board.
type Removed struct {
	Warrior WarriorID   `json:"warrior"`
	Cell    Cell        `json:"cell"`
	By      []WarriorID `json:"by,omitempty"` // attackers; empty for death by wounds
}

// SloppyCode names one kind of sloppiness (1 wound per sloppy post, not per item).
type SloppyCode string

const (
	SloppyBoardMissing   SloppyCode = "board_missing"       // no quoted board in the post
	SloppyBoardMismatch  SloppyCode = "board_mismatch"      // the quoted board differs from the position (see BoardDiff)
	SloppyOrdinalMissing SloppyCode = "ordinal_missing"     // a move line without its ordinal
	SloppyOrdinalWrong   SloppyCode = "ordinal_wrong"       // the ordinal is not the warrior's action number today
	SloppyAttackKind     SloppyCode = "attack_kind_missing" // an attack line without its kind (inferred)
)

// AllSloppyCodes lists every sloppiness code.
var AllSloppyCodes = []SloppyCode{SloppyBoardMissing, SloppyBoardMismatch, SloppyOrdinalMissing, SloppyOrdinalWrong, SloppyAttackKind}

// Sloppiness is one item of sloppiness found in an accepted post.
type Sloppiness struct {
	Code     SloppyCode `json:"code"`
	Warrior  WarriorID  `json:"warrior,omitempty"`
	Stated   int        `json:"stated,omitempty"`   // ordinal stated
	Expected int        `json:"expected,omitempty"` // ordinal expected
	Line     string     `json:"line,omitempty"`
}

// Reveal is a hidden forest warrior made known, with the cell it is revealed at.
type Reveal struct {
	Warrior WarriorID `json:"warrior"`
	Cell    Cell      `json:"cell"`
}

// CellDiff is one cell where the quoted board differs from the real position after the turn.
type CellDiff struct {
	Cell   Cell   `json:"cell"`
	Quoted string `json:"quoted"` // "" = empty in the quote
	Actual string `json:"actual"` // "" = empty in fact
}

// GameStarted: the first board is published (private deployment finished).
type GameStarted struct {
	At        time.Time          `json:"at"`
	Cells     map[WarriorID]Cell `json:"cells"`
	Defaulted []Side             `json:"defaulted,omitempty"` // sides given the default deployment
}

// DeploymentReceived: a side sent its deployment (a later one replaces it).
type DeploymentReceived struct {
	At     time.Time          `json:"at"`
	Side   Side               `json:"side"`
	Author string             `json:"author"`
	Cells  map[WarriorID]Cell `json:"cells"`
}

// TurnPlayed: an accepted turn with everything a reply needs.
type TurnPlayed struct {
	At        time.Time      `json:"at"`
	Author    string         `json:"author"`
	Side      Side           `json:"side"`
	Number    int            `json:"number"` // 1 for the game's first turn
	Moves     []MoveResult   `json:"moves,omitempty"`
	Attacks   []AttackResult `json:"attacks,omitempty"`
	Removed   []Removed      `json:"removed,omitempty"`
	Actors    []WarriorID    `json:"actors"`            // every warrior that spent an action
	Charged   []WarriorID    `json:"charged,omitempty"` // knights that used a lance charge
	Sloppy    []Sloppiness   `json:"sloppy,omitempty"`
	BoardDiff []CellDiff     `json:"board_diff,omitempty"`
	Wounds    int            `json:"wounds,omitempty"` // wounds added to Side for sloppiness
	// Revealed: with invisible forests, warriors that met an enemy in the forest and where they
	// were (the mover's previous cell, the enemy's cell).
	Revealed []Reveal `json:"revealed,omitempty"`
	Next     Side     `json:"next"` // the side to move next ("" after victory)
	Victory  *Victory `json:"victory,omitempty"`
}

// WoundsAllocated: a side allocated some of its wounds (applied at 00:00).
type WoundsAllocated struct {
	At        time.Time `json:"at"`
	Side      Side      `json:"side"`
	Author    string    `json:"author"`
	Private   bool      `json:"private,omitempty"`
	Wounds    []Wound   `json:"wounds"`
	Remaining int       `json:"remaining"` // still unallocated
}

// QuestionAsked: the daily question.
type QuestionAsked struct {
	At     time.Time `json:"at"`
	Number int       `json:"number"`
	Index  int       `json:"index"` // the question's place in the bank, drawn among those not asked yet
	Text   string    `json:"text"`
	game.Chance
}

// AnswerAccepted: a side's first correct answer to today's question.
type AnswerAccepted struct {
	At     time.Time `json:"at"`
	Side   Side      `json:"side"`
	Author string    `json:"author"`
	Text   string    `json:"text"`
	First  bool      `json:"first"` // the other side has not answered yet
}

// TimeLimitExceeded: the side to move ran over its evening time limit once more.
type TimeLimitExceeded struct {
	At        time.Time `json:"at"`
	Side      Side      `json:"side"`
	Since     time.Time `json:"since"`     // when it got the move
	Violation int       `json:"violation"` // 1 for the first started hour over the limit this wait
	Wounds    int       `json:"wounds"`
}

// SideWounds is a list of wounds for one side.
type SideWounds struct {
	Side   Side    `json:"side"`
	Wounds []Wound `json:"wounds"`
}

// IdlePlayer is a player who made no move in a whole day.
type IdlePlayer struct {
	Name string `json:"name"`
	Side Side   `json:"side"`
}

// DayClosed: the daily close at 00:00: allocated wounds applied (the game allocating what the
// teams did not, with the penalty), deaths, the question and idle-day penalties, counts reset.
type DayClosed struct {
	At            time.Time     `json:"at"`
	Day           string        `json:"day"` // the day closed, YYYY-MM-DD in the game's zone
	AutoAllocated []SideWounds  `json:"auto_allocated,omitempty"`
	Applied       []SideWounds  `json:"applied,omitempty"` // every wound applied (team's and game's)
	Died          []Removed     `json:"died,omitempty"`
	Question      *OpenQuestion `json:"question,omitempty"`      // the day's question with its answers
	QuestionLate  []Side        `json:"question_late,omitempty"` // sides penalised for the question
	Idle          []IdlePlayer  `json:"idle,omitempty"`
	Penalties     map[Side]int  `json:"penalties"` // new wounds owed, to allocate before the next 00:00
	Victory       *Victory      `json:"victory,omitempty"`
}

// GameEnded: the moderator ended the game.
type GameEnded struct {
	At     time.Time `json:"at"`
	Author string    `json:"author"`
	Winner Side      `json:"winner,omitempty"` // "" = no winner
	Reason string    `json:"reason,omitempty"`
}

func (GameStarted) EventKind() string        { return KindGameStarted }
func (DeploymentReceived) EventKind() string { return KindDeploymentReceived }
func (TurnPlayed) EventKind() string         { return KindTurnPlayed }
func (WoundsAllocated) EventKind() string    { return KindWoundsAllocated }
func (QuestionAsked) EventKind() string      { return KindQuestionAsked }
func (AnswerAccepted) EventKind() string     { return KindAnswerAccepted }
func (TimeLimitExceeded) EventKind() string  { return KindTimeLimitExceeded }
func (DayClosed) EventKind() string          { return KindDayClosed }
func (GameEnded) EventKind() string          { return KindGameEnded }

// DecodeEvent rebuilds a stored event.
func (g *Game) DecodeEvent(kind string, data []byte) (game.Event, error) {
	var ev game.Event
	switch kind {
	case KindGameStarted:
		ev = &GameStarted{}
	case KindDeploymentReceived:
		ev = &DeploymentReceived{}
	case KindTurnPlayed:
		ev = &TurnPlayed{}
	case KindWoundsAllocated:
		ev = &WoundsAllocated{}
	case KindQuestionAsked:
		ev = &QuestionAsked{}
	case KindAnswerAccepted:
		ev = &AnswerAccepted{}
	case KindTimeLimitExceeded:
		ev = &TimeLimitExceeded{}
	case KindDayClosed:
		ev = &DayClosed{}
	case KindGameEnded:
		ev = &GameEnded{}
	case KindPlayerAdded:
		ev = &PlayerAdded{}
	case KindPlayerReplaced:
		ev = &PlayerReplaced{}
	case KindPlayerRemoved:
		ev = &PlayerRemoved{}
	case KindWoundsAdjusted:
		ev = &WoundsAdjusted{}
	case KindClockStarted:
		ev = &ClockStarted{}
	default:
		return nil, fmt.Errorf("crusade: decode %q: %w", kind, ErrUnknownEvent)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("crusade: decode %s: %w", kind, err)
	}
	return ev, nil
}

// Apply folds one event into the state. Events are facts: Apply re-judges nothing, it only
// checks that the event fits the state.
func (g *Game) Apply(ev game.Event) error {
	g.memo = memo{}
	switch e := ev.(type) {
	case *GameStarted:
		return g.applyStarted(e)
	case GameStarted:
		return g.applyStarted(&e)
	case *DeploymentReceived:
		return g.applyDeployment(e)
	case DeploymentReceived:
		return g.applyDeployment(&e)
	case *TurnPlayed:
		return g.applyTurn(e)
	case TurnPlayed:
		return g.applyTurn(&e)
	case *WoundsAllocated:
		return g.applyAllocation(e)
	case WoundsAllocated:
		return g.applyAllocation(&e)
	case *QuestionAsked:
		return g.applyQuestion(e)
	case QuestionAsked:
		return g.applyQuestion(&e)
	case *AnswerAccepted:
		return g.applyAnswer(e)
	case AnswerAccepted:
		return g.applyAnswer(&e)
	case *TimeLimitExceeded:
		return g.applyTimeLimit(e)
	case TimeLimitExceeded:
		return g.applyTimeLimit(&e)
	case *DayClosed:
		return g.applyDayClosed(e)
	case DayClosed:
		return g.applyDayClosed(&e)
	case *PlayerAdded:
		return g.applyPlayerAdded(e)
	case *PlayerReplaced:
		return g.applyPlayerReplaced(e)
	case *PlayerRemoved:
		return g.applyPlayerRemoved(e)
	case *WoundsAdjusted:
		return g.applyWoundsAdjusted(e)
	case *ClockStarted:
		return g.applyClockStarted(e)
	case ClockStarted:
		return g.applyClockStarted(&e)
	case *GameEnded:
		return g.applyEnded(e)
	case GameEnded:
		return g.applyEnded(&e)
	case nil:
		return fmt.Errorf("crusade: apply: nil event")
	}
	return fmt.Errorf("crusade: apply %T: %w", ev, ErrUnknownEvent)
}

func (g *Game) applyStarted(e *GameStarted) error {
	if g.st.Phase != PhaseDeploying {
		return fmt.Errorf("crusade: apply game_started: phase is %s", g.st.Phase)
	}
	g.startWith(e.Cells, e.At)
	return nil
}

func (g *Game) applyDeployment(e *DeploymentReceived) error {
	if g.st.Phase != PhaseDeploying {
		return fmt.Errorf("crusade: apply deployment_received: phase is %s", g.st.Phase)
	}
	if g.st.Deployments == nil {
		g.st.Deployments = map[Side]map[WarriorID]Cell{}
	}
	g.st.Deployments[e.Side] = cloneMap(e.Cells)
	return nil
}

func (g *Game) warriorState(w WarriorID, what string) (*WarriorState, error) {
	ws, ok := g.st.Warriors[w]
	if !ok {
		return nil, fmt.Errorf("crusade: apply %s: unknown warrior %q", what, w)
	}
	return ws, nil
}

func (g *Game) applyTurn(e *TurnPlayed) error {
	st := g.st
	if st.Phase != PhasePlaying {
		return fmt.Errorf("crusade: apply turn_played: phase is %s", st.Phase)
	}
	for _, m := range e.Moves {
		ws, err := g.warriorState(m.Warrior, "turn_played")
		if err != nil {
			return err
		}
		ws.Cell = m.To
	}
	for _, r := range e.Removed {
		ws, err := g.warriorState(r.Warrior, "turn_played")
		if err != nil {
			return err
		}
		if ws.Alive {
			ws.Alive = false
			st.Killed[r.Warrior.Side()]++
		}
	}
	for _, w := range e.Actors {
		ws, err := g.warriorState(w, "turn_played")
		if err != nil {
			return err
		}
		ws.Actions++
	}
	for _, w := range e.Charged {
		ws, err := g.warriorState(w, "turn_played")
		if err != nil {
			return err
		}
		ws.Charges++
	}
	for _, a := range e.Attacks {
		if a.Kind == AttackFormation && a.Front != nil {
			for _, w := range a.Attackers {
				if ws, ok := st.Warriors[w]; ok {
					ws.Front = *a.Front
				}
			}
		}
	}
	st.Owed[e.Side] += e.Wounds
	st.MovedToday[normName(e.Author)] = true
	st.Turns++
	if e.Victory != nil {
		v := *e.Victory
		st.Victory = &v
		st.Phase = PhaseOver
		return nil
	}
	st.ToMove = e.Next
	st.ToMoveSince = e.At
	st.LimitChargedUntil = e.At
	st.HadMoveToday[e.Next] = true
	return nil
}

func (g *Game) applyAllocation(e *WoundsAllocated) error {
	n := 0
	for _, w := range e.Wounds {
		n += w.Count
	}
	if n > g.st.Owed[e.Side] {
		return fmt.Errorf("crusade: apply wounds_allocated: %d wounds allocated, %d owed", n, g.st.Owed[e.Side])
	}
	g.st.Owed[e.Side] -= n
	g.st.Allocated[e.Side] = append(g.st.Allocated[e.Side], e.Wounds...)
	return nil
}

func (g *Game) applyQuestion(e *QuestionAsked) error {
	g.st.Question = &OpenQuestion{Number: e.Number, Index: e.Index, Text: e.Text, AskedAt: e.At, Answers: map[Side]AnswerRecord{}}
	g.st.QuestionsAsked = e.Number
	if len(g.st.AskedCycle) >= len(g.settings.Questions) {
		g.st.AskedCycle = nil // every question was asked: a new round of the bank
	}
	g.st.AskedCycle = append(g.st.AskedCycle, e.Index)
	return nil
}

func (g *Game) applyAnswer(e *AnswerAccepted) error {
	q := g.st.Question
	if q == nil {
		return fmt.Errorf("crusade: apply answer_accepted: no open question")
	}
	if q.Answers == nil {
		q.Answers = map[Side]AnswerRecord{}
	}
	if _, ok := q.Answers[e.Side]; ok {
		return fmt.Errorf("crusade: apply answer_accepted: %s already answered", e.Side)
	}
	q.Answers[e.Side] = AnswerRecord{Author: e.Author, At: e.At, Seq: len(q.Answers) + 1}
	return nil
}

func (g *Game) applyTimeLimit(e *TimeLimitExceeded) error {
	g.st.Owed[e.Side] += e.Wounds
	g.st.LimitChargedUntil = e.At
	return nil
}

func (g *Game) applyDayClosed(e *DayClosed) error {
	st := g.st
	for _, sw := range e.Applied {
		for _, w := range sw.Wounds {
			ws, err := g.warriorState(w.Warrior, "day_closed")
			if err != nil {
				return err
			}
			if w.Stat == StatAttack {
				ws.AttackWounds += w.Count
			} else {
				ws.DefenceWounds += w.Count
			}
		}
	}
	for _, r := range e.Died {
		ws, err := g.warriorState(r.Warrior, "day_closed")
		if err != nil {
			return err
		}
		if ws.Alive {
			ws.Alive = false
			st.Killed[r.Warrior.Side()]++
		}
	}
	for _, s := range []Side{Crusaders, Saracens} {
		st.Owed[s] = e.Penalties[s]
	}
	st.Allocated = map[Side][]Wound{}
	for _, w := range allWarriors {
		st.Warriors[w].Actions = 0
	}
	st.MovedToday = map[string]bool{}
	st.HadMoveToday = map[Side]bool{st.ToMove: true}
	st.Question = nil
	st.LastClose = e.At
	if st.StartedAt.IsZero() {
		st.StartedAt = e.At
	}
	if e.Victory != nil {
		v := *e.Victory
		st.Victory = &v
		st.Phase = PhaseOver
	}
	return nil
}

func (g *Game) applyEnded(e *GameEnded) error {
	g.st.Phase = PhaseOver
	g.st.Victory = &Victory{Winner: e.Winner, Reason: VictoryModerator, Detail: e.Reason}
	return nil
}
