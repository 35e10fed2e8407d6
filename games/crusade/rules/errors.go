package rules

import (
	"errors"
	"forumgm/game"
	"strings"
)

// Code names one reason a post was refused. Codes are stable: templates key their Russian
// explanations on them.
type Code string

// Refusal codes. Each Problem carries one; the fields of the Problem name what is involved.
const (
	// CodeGameOver: the game has a winner (or was ended); no more turns are judged.
	CodeGameOver Code = "game_over"
	// CodeNotStarted: the armies are still being deployed; turns are not accepted yet.
	CodeNotStarted Code = "not_started"
	// CodeNotAPlayer: the author is not in the roster. Warrior: none. Detail: the author.
	CodeNotAPlayer Code = "not_a_player"
	// CodeOutOfTurn: the author's side is not the side to move. Side: the side to move now.
	CodeOutOfTurn Code = "out_of_turn"
	// CodePrivateTurn: a turn came by private message, which the rules do not allow here
	// (only forest moves with forest_invisible on).
	CodePrivateTurn Code = "private_turn"
	// CodeForestMustBePrivate: with forest_invisible on, a move into, inside or out of the forest
	// must be sent by private message. Warrior, Cell: the move.
	CodeForestMustBePrivate Code = "forest_must_be_private"
	// CodeEmptyTurn: the turn names no move and no attack.
	CodeEmptyTurn Code = "empty_turn"
	// CodeTooManyWarriors: the turn uses more than 3 warriors. Count: how many, Limit: 3.
	CodeTooManyWarriors Code = "too_many_warriors"
	// CodeUnknownWarrior: the code names no warrior of the game (e.g. "р4"). Warrior: the code.
	CodeUnknownWarrior Code = "unknown_warrior"
	// CodeEnemyWarrior: the player tries to use (or wound) a warrior of the other army. Warrior.
	CodeEnemyWarrior Code = "enemy_warrior"
	// CodeNotYourWarrior: the warrior belongs to another player of the same side. Warrior;
	// Owner: the player controlling it.
	CodeNotYourWarrior Code = "not_your_warrior"
	// CodeWarriorDead: the warrior was killed. Warrior.
	CodeWarriorDead Code = "warrior_dead"
	// CodeNotInPlay: the warrior is not on the board in this game (a test position left it out).
	CodeNotInPlay Code = "not_in_play"
	// CodeActsTwice: the warrior is named in two moves, two attacks, or a move that does not fit
	// its charge. Warrior.
	CodeActsTwice Code = "acts_twice"
	// CodeDailyLimit: the warrior already acted 3 times today (a 4th action). Warrior; Count:
	// actions made today; Limit: 3.
	CodeDailyLimit Code = "daily_limit"
	// CodeWrongFrom: the move names a start cell where the warrior is not. Warrior; Cell: the
	// stated start; Cells: [the warrior's real cell].
	CodeWrongFrom Code = "wrong_from"
	// CodeNoMove: the destination is the warrior's own cell. Warrior, Cell.
	CodeNoMove Code = "no_move"
	// CodeOccupied: the destination holds a warrior (Other) or a flag the warrior may not enter
	// (Other = "Ф"). Warrior, Cell.
	CodeOccupied Code = "occupied"
	// CodeTooFar: the destination is farther than the warrior's speed. Warrior; Cell: the
	// destination; From: its cell; Limit: its speed here (2 in the forest); Cells: where it can go.
	CodeTooFar Code = "too_far"
	// CodeBlocked: the destination is within the speed but every path is blocked by warriors or
	// flags. Warrior, Cell, From, Limit, Cells as for CodeTooFar.
	CodeBlocked Code = "blocked"
	// CodeForestExit: a warrior leaving the forest must stop on row C (north) or S (south).
	// Warrior; Cell: the destination; Cells: the legal destinations.
	CodeForestExit Code = "forest_exit"
	// CodeForestFull: after the moves more than 3 warriors of the army would be in the forest.
	// Count: how many; Limit: 3.
	CodeForestFull Code = "forest_full"
	// CodeForestSwordOnly: in the forest only swords are used: no shots, lances, charges or
	// formations from, into or through the forest. Warrior; Cell: the forest cell involved.
	CodeForestSwordOnly Code = "forest_sword_only"
	// CodeTargetMissing: the attack names no target. Warrior.
	CodeTargetMissing Code = "target_missing"
	// CodeNoTarget: the target cell is empty (or holds a flag), or the named warrior is not on
	// the board. Warrior: the attacker; Cell: the target cell; Other: the named target.
	CodeNoTarget Code = "no_target"
	// CodeOwnTarget: the target is a warrior of the attacker's own army. Warrior, Other, Cell.
	CodeOwnTarget Code = "own_target"
	// CodeNotAdjacent: a sword attack on a cell that is not a neighbour. Warrior, Cell, From.
	CodeNotAdjacent Code = "not_adjacent"
	// CodeCannotShoot: the warrior has no shot (or cannot join a combined shot because it is not
	// a shooter). Warrior.
	CodeCannotShoot Code = "cannot_shoot"
	// CodeNotInLine: the target is not on one of the 8 straight lines from the attacker.
	// Warrior, Cell, From.
	CodeNotInLine Code = "not_in_line"
	// CodeOutOfRange: the target is beyond the shot range. Warrior, Cell, From; Count: the
	// distance; Limit: the range.
	CodeOutOfRange Code = "out_of_range"
	// CodeLineBlocked: a cell between the attacker and the target is occupied (archers may shoot
	// over their own warriors only). Warrior; Cell: the target; Cells: [the blocking cell].
	CodeLineBlocked Code = "line_blocked"
	// CodeCannotJoin: a warrior cannot join the combined shot: not a neighbour of the named
	// shooter, or a kind that may not combine with it. Warrior: the joiner; Other: the shooter.
	CodeCannotJoin Code = "cannot_join"
	// CodeNoLance: the warrior has no lance attack of the named kind (guard lance, knight charge,
	// pikemen formation). Warrior.
	CodeNoLance Code = "no_lance"
	// CodeLanceBlocked: the middle cell of a guard's lance (2 cells away) is occupied. Warrior;
	// Cell: the target; Cells: [the middle cell].
	CodeLanceBlocked Code = "lance_blocked"
	// CodeLanceDistance: the guard's lance hits exactly 2 cells away along a straight line.
	// Warrior, Cell, From; Count: the distance.
	CodeLanceDistance Code = "lance_distance"
	// CodeNoChargesLeft: the knight already charged twice in this game. Warrior; Limit: 2.
	CodeNoChargesLeft Code = "no_charges_left"
	// CodeChargeMissingTo: a charge names no destination (and no move line gives one). Warrior.
	CodeChargeMissingTo Code = "charge_missing_to"
	// CodeChargeNotStraight: a charge (a knight's or a formation's) must go along one of the 8
	// straight lines from the (lead) warrior's cell. Warrior, Cell, From; Limit: the longest charge.
	CodeChargeNotStraight Code = "charge_not_straight"
	// CodeChargeTooFar: a straight charge farther than the charge reach: 4 cells (knights), 2 (a
	// formation). Warrior, Cell, From; Count: the distance; Limit: the reach.
	CodeChargeTooFar Code = "charge_too_far"
	// CodeFormationNotPerpendicular: a formation moves only perpendicular to its line (forwards
	// or backwards), not along it or aslant. Warrior: the lead pikeman; Cell, From.
	CodeFormationNotPerpendicular Code = "formation_not_perpendicular"
	// CodeChargeBlocked: the charge path leaves the board, crosses a flag, or (formation) enters
	// a cell held by an own warrior. Warrior; Cell: the blocking cell.
	CodeChargeBlocked Code = "charge_blocked"
	// CodeNotFormation: a formation needs 2 or more pikemen on neighbouring cells along one
	// straight line. Warrior: the pikeman out of line (if one).
	CodeNotFormation Code = "not_formation"
	// CodeCannotInfer: the attack line names no kind and none can be inferred. Warrior, Cell.
	CodeCannotInfer Code = "cannot_infer"
	// CodeNothingOwed: an allocation while the side owes no unallocated wounds.
	CodeNothingOwed Code = "nothing_owed"
	// CodeAllocationTooMany: the allocation names more wounds than the side owes. Count: named;
	// Limit: owed.
	CodeAllocationTooMany Code = "allocation_too_many"
	// CodeAllocationBad: an allocation line is unusable: no stat, an unknown stat or a count < 1.
	// Warrior.
	CodeAllocationBad Code = "allocation_bad"
	// CodeStatAlreadyZero: the wound would take a point from a value that is already 0 (after the
	// wounds already allocated). Warrior; Detail: the stat.
	CodeStatAlreadyZero Code = "stat_already_zero"
	// CodeEmptyAllocation: the allocation names no wound.
	CodeEmptyAllocation Code = "empty_allocation"
	// CodeNotDeploying: a deployment outside the deployment phase.
	CodeNotDeploying Code = "not_deploying"
	// CodeDeploymentPublic: a deployment must be sent by private message.
	CodeDeploymentPublic Code = "deployment_public"
	// CodeDeployMissing: the deployment leaves out warriors of the army. Cells: none;
	// Warriors: the missing ones.
	CodeDeployMissing Code = "deploy_missing"
	// CodeDeployOutside: a warrior placed outside the army's columns (saracens 1..4, crusaders
	// 17..20). Warrior, Cell.
	CodeDeployOutside Code = "deploy_outside"
	// CodeDeployCellTaken: two warriors on one cell, or a warrior on a flag. Warrior, Cell.
	CodeDeployCellTaken Code = "deploy_cell_taken"
	// CodeNoQuestion: an answer while no question is open.
	CodeNoQuestion Code = "no_question"
	// CodeWrongAnswer: the answer is not correct. Detail: the answer as normalised.
	CodeWrongAnswer Code = "wrong_answer"
	// CodeAlreadyAnswered: the author's side has already answered today's question correctly.
	CodeAlreadyAnswered Code = "already_answered"
	// CodeBadCell: a cell in the post is off the board. Cell (as read).
	CodeBadCell Code = "bad_cell"
	// CodeUnsupportedBody: the input's body is not something this game judges.
	CodeUnsupportedBody Code = "unsupported_body"
)

// AllCodes lists every refusal code, for templates and their completeness test.
var AllCodes = []Code{
	CodeGameOver, CodeNotStarted, CodeNotAPlayer, CodeOutOfTurn, CodePrivateTurn,
	CodeForestMustBePrivate, CodeEmptyTurn, CodeTooManyWarriors, CodeUnknownWarrior,
	CodeEnemyWarrior, CodeNotYourWarrior, CodeWarriorDead, CodeNotInPlay, CodeActsTwice,
	CodeDailyLimit, CodeWrongFrom, CodeNoMove, CodeOccupied, CodeTooFar, CodeBlocked,
	CodeForestExit, CodeForestFull, CodeForestSwordOnly, CodeTargetMissing, CodeNoTarget,
	CodeOwnTarget, CodeNotAdjacent, CodeCannotShoot, CodeNotInLine, CodeOutOfRange,
	CodeLineBlocked, CodeCannotJoin, CodeNoLance, CodeLanceDistance, CodeNoChargesLeft,
	CodeChargeMissingTo, CodeChargeNotStraight, CodeChargeTooFar, CodeFormationNotPerpendicular,
	CodeChargeBlocked, CodeNotFormation, CodeLanceBlocked,
	CodeCannotInfer, CodeNothingOwed, CodeAllocationTooMany, CodeAllocationBad,
	CodeStatAlreadyZero, CodeEmptyAllocation, CodeNotDeploying, CodeDeploymentPublic,
	CodeDeployMissing, CodeDeployOutside, CodeDeployCellTaken, CodeNoQuestion, CodeWrongAnswer,
	CodeAlreadyAnswered, CodeBadCell, CodeUnsupportedBody,
}

// Problem is one reason a post was refused, with the data an explanation needs. Only the fields
// that the Code's comment names are set.
type Problem struct {
	Code    Code        `json:"code"`
	Warrior WarriorID   `json:"warrior,omitempty"` // the warrior involved (the actor)
	Other   string      `json:"other,omitempty"`   // another warrior or token involved
	Owner   string      `json:"owner,omitempty"`   // CodeNotYourWarrior: who controls the warrior
	Side    Side        `json:"side,omitempty"`    // CodeOutOfTurn: the side to move
	Cell    *Cell       `json:"cell,omitempty"`    // the cell involved (destination, target)
	From    *Cell       `json:"from,omitempty"`    // the warrior's cell
	Cells   []Cell      `json:"cells,omitempty"`   // alternatives or blockers (see the code)
	Count   int         `json:"count,omitempty"`   // a number the code names
	Limit   int         `json:"limit,omitempty"`   // the limit it broke (speed, range, 3...)
	Missing []WarriorID `json:"missing,omitempty"` // CodeDeployMissing
	Line    string      `json:"line,omitempty"`    // the source line of the post, when known
	Detail  string      `json:"detail,omitempty"`  // English detail for logs and tests
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(string(p.Code))
	if p.Warrior != "" {
		b.WriteString(" " + string(p.Warrior))
	}
	if p.Cell != nil {
		b.WriteString(" " + p.Cell.String())
	}
	if p.Detail != "" {
		b.WriteString(": " + p.Detail)
	}
	return b.String()
}

// Refusal is Decide's error when an input is refused: every problem found; nothing of it is
// applied.
type Refusal = game.Refusal[Code, Problem]

// ProblemCode is the problem's code (game.Problem).
func (p Problem) ProblemCode() Code { return p.Code }

// AsRefusal unwraps err to a *Refusal.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

func refuse(ps ...Problem) error { return &Refusal{Game: "crusade", Problems: ps} }

// ErrUnknownEvent is DecodeEvent's error for a kind this game does not know.
var ErrUnknownEvent = errors.New("crusade: unknown event kind")

func cellPtr(c Cell) *Cell { return &c }
