package rules

import (
	"errors"
	"fmt"
	"forumgm/game"
	"strings"
	"time"
)

// Code names one reason a post or private message was refused. Codes are stable: templates key
// their Russian explanations on them (games/football/voice/problems.tmpl).
type Code string

// Refusal codes. The comment of each says which Problem fields are set.
const (
	// CodeNotStarted: the game has not begun (no teams split, no dice committed yet).
	CodeNotStarted Code = "not_started"
	// CodeGameOver: the game has ended (or is waiting only for open questions); no more rolls.
	CodeGameOver Code = "game_over"
	// CodeNotAPlayer: the author is on no team. Detail: the author.
	CodeNotAPlayer Code = "not_a_player"
	// CodeWindowClosed: no turn window is open at the post's time. Next: when the next window
	// opens (nil: no more turns); Turn: the next turn's number (0 when none).
	CodeWindowClosed Code = "window_closed"
	// CodeNumberOutOfRange: the number is not on the table 1..100. Number.
	CodeNumberOutOfRange Code = "number_out_of_range"
	// CodeNumberUsed: the number was named before (since the current mapping was drawn). Number;
	// Count: how many numbers are still free.
	CodeNumberUsed Code = "number_used"
	// CodeAlreadyMoved: the team already made its own move (an advance or an attack) this turn.
	// Team; Detail: "advance" or "attack", what it made.
	CodeAlreadyMoved Code = "already_moved"
	// CodeNotAttackCell: the team does not stand on an attack cell of its group. Team; Cell: where
	// it stands; Cells: the attack cells of its group.
	CodeNotAttackCell Code = "not_attack_cell"
	// CodeUnknownTeam: the attack names no team of the game. Target: the name as written.
	CodeUnknownTeam Code = "unknown_team"
	// CodeOwnTeam: the team names itself as the target. Team.
	CodeOwnTeam Code = "own_team"
	// CodeTargetNotInGroup: the target is in another group (teams attack only teams of their own
	// group). Team, Target; Group: the attacker's group; Teams: the teams it may attack.
	CodeTargetNotInGroup Code = "target_not_in_group"
	// CodeTargetTaken: another team already attacks the target this turn. Target; Other: the
	// attacker.
	CodeTargetTaken Code = "target_taken"
	// CodeNotAttacked: a defence roll while no accepted attack on the team this turn. Team.
	CodeNotAttacked Code = "not_attacked"
	// CodeAlreadyDefended: the team already rolled its defence this turn. Team; Number: the
	// number it named.
	CodeAlreadyDefended Code = "already_defended"
	// CodeNoAttackRoll: points for an attack without the team's accepted attack this turn. Team.
	CodeNoAttackRoll Code = "no_attack_roll"
	// CodeNoDefenceRoll: points for a defence without the team's accepted defence roll this turn.
	// Team.
	CodeNoDefenceRoll Code = "no_defence_roll"
	// CodeNoPoints: points asked with a balance of 0. Team.
	CodeNoPoints Code = "no_points"
	// CodeBadPoints: points asked are not a whole number 1 or more. Count: as asked.
	CodeBadPoints Code = "bad_points"
	// CodeNotCaptain: points and answers come from the team's captain. Team; Other: the captain.
	CodeNotCaptain Code = "not_captain"
	// CodeMustBePrivate: points and answers are sent by private message, not in the thread.
	CodeMustBePrivate Code = "must_be_private"
	// CodeMustBePublic: rolls, attacks and defences are posted in the thread, not privately.
	CodeMustBePublic Code = "must_be_public"
	// CodeNoQuestion: an answer while the team has no open question. Team.
	CodeNoQuestion Code = "no_question"
	// CodeAnswerLate: an answer after question_time ("время вышло"). Team; Next: the deadline
	// that passed.
	CodeAnswerLate Code = "answer_late"
	// CodeNoTarget: an attack that names no team. Team.
	CodeNoTarget Code = "no_target"
	// CodeUnsupportedBody: the input's body is not something this game judges. Detail: its type.
	CodeUnsupportedBody Code = "unsupported_body"
)

// AllCodes lists every refusal code, for the templates' completeness test.
var AllCodes = []Code{
	CodeNotStarted, CodeGameOver, CodeNotAPlayer, CodeWindowClosed, CodeNumberOutOfRange,
	CodeNumberUsed, CodeAlreadyMoved, CodeNotAttackCell, CodeUnknownTeam, CodeOwnTeam,
	CodeTargetNotInGroup, CodeTargetTaken, CodeNotAttacked, CodeAlreadyDefended, CodeNoAttackRoll,
	CodeNoDefenceRoll, CodeNoPoints, CodeBadPoints, CodeNotCaptain, CodeMustBePrivate,
	CodeMustBePublic, CodeNoQuestion, CodeAnswerLate, CodeNoTarget, CodeUnsupportedBody,
}

// Problem is one reason an input was refused, with what an explanation needs. Only the fields
// the Code's comment names are set.
type Problem struct {
	Code   Code       `json:"code"`
	Team   string     `json:"team,omitempty"`   // the author's team
	Target string     `json:"target,omitempty"` // the team attacked (as found, or as written)
	Other  string     `json:"other,omitempty"`  // another team or person involved
	Number int        `json:"number,omitempty"` // the number named
	Count  int        `json:"count,omitempty"`  // a count the code names
	Group  int        `json:"group,omitempty"`
	Cell   int        `json:"cell,omitempty"`
	Cells  []int      `json:"cells,omitempty"`
	Teams  []string   `json:"teams,omitempty"`
	Turn   int        `json:"turn,omitempty"`
	Next   *time.Time `json:"next,omitempty"` // a time the code names
	Line   string     `json:"line,omitempty"` // the source line, when known
	Detail string     `json:"detail,omitempty"`
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(string(p.Code))
	if p.Team != "" {
		b.WriteString(" " + p.Team)
	}
	if p.Number != 0 {
		fmt.Fprintf(&b, " #%d", p.Number)
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

func refuse(ps ...Problem) error { return &Refusal{Game: "football", Problems: ps} }

// ErrUnknownEvent is DecodeEvent's and Apply's error for an event this game does not know.
var ErrUnknownEvent = errors.New("football: unknown event kind")

// ErrNoRand is Decide's and Tick's error when a rule needs chance and the input brought no Rand.
var ErrNoRand = errors.New("football: this needs the game's Rand (game.Act.Rand is nil)")
