package rules

import (
	"errors"
	"fmt"
	"forumgm/game"
	"strings"
)

func errf(format string, args ...any) error {
	return fmt.Errorf("dragonball: "+format, args...)
}

// ErrUnknownEvent is DecodeEvent's error for a kind this game does not know.
var ErrUnknownEvent = errors.New("dragonball: unknown event kind")

// Code names why an order line was refused (or what a note says). Codes are stable: templates
// explain them in Russian.
type Code string

// Codes. The Problem fields each one sets are named after it.
const (
	CodeGameOver        Code = "game_over"        // the game is over
	CodeNotStarted      Code = "not_started"      // the game has not started
	CodeNotAPlayer      Code = "not_a_player"     // Player: the author
	CodeUnsupportedBody Code = "unsupported_body" // Detail: the body's type
	CodeOrdersPrivate   Code = "orders_private"   // orders must come by private message
	CodeSpellPublic     Code = "spell_public"     // Tact, Line: a spell in a public post
	CodeEmptyOrders     Code = "empty_orders"     // nothing to judge
	CodeUnreadable      Code = "unreadable"       // Line; Detail: the word not understood
	CodeTwoActions      Code = "two_actions"      // Tact, Line: more than one ball action
	CodeBadTact         Code = "bad_tact"         // Count: the tact number (1..3)
	CodeBadCell         Code = "bad_cell"         // Tact, Cell: not 1..211
	CodeBadHeight       Code = "bad_height"       // Tact, Height: not 1..3
	CodeNotNeighbour    Code = "not_neighbour"    // Tact, From, Cell, Cells: where the player can go
	CodeHeightJump      Code = "height_jump"      // Tact, Height, Limit: the height before
	CodeNotOnField      Code = "not_on_field"     // Tact; Detail: status; Count: the round of return
	CodeReentryCell     Code = "reentry_cell"     // Tact, Cell, Cells: the re-entry cells
	CodeNoBall          Code = "no_ball"          // Tact: a pass with no ball held or won before
	CodeWhichBall       Code = "which_ball"       // Tact: two balls held, the pass names none
	CodeNotHolding      Code = "not_holding"      // Tact, Ball: the named ball is not held
	CodePassRange       Code = "pass_range"       // Tact, From, Cell, Count: distance, Limit, Ball
	CodeBadSpell        Code = "bad_spell"        // Tact; Detail: the spell (a pass needs a first half, a catch a second)
	CodeEnchantLimit    Code = "enchant_limit"    // Tact, Limit: the team's enchanted passes are used up
	CodeHandsFull       Code = "hands_full"       // Tact; Detail: catch|steal: a player holding two balls cannot catch or steal
	CodeUnknownPlayer   Code = "unknown_player"   // Tact; Player: the name as written
	CodeOwnPlayer       Code = "own_player"       // Tact; Player: a steal from a team-mate
	CodeNotHandler      Code = "not_handler"      // Player: the team's handler now
	CodeDragonEdge      Code = "dragon_edge"      // Tact; Cells: the dragon's cells after the move
	CodeDragonMidline   Code = "dragon_midline"   // Tact; Cells: the dragon would cross the midline
	CodeDragonStill     Code = "dragon_still"     // Tact: a paralysed dragon cannot move or climb
	CodeDragonHeight    Code = "dragon_height"    // Tact, Height: not 1..3 or more than one step
	CodeNoFire          Code = "no_fire"          // Tact: the dragon swallowed the blue ball
	CodeRandomFireOnly  Code = "random_fire_only" // Tact: a confused or paralysed dragon breathes only at random
	CodeFireUsedUp      Code = "fire_used_up"     // Tact; Detail: flame|volley; Limit: the allowance
	CodeMouthForced     Code = "mouth_forced"     // note, Tact: the mouth is open after (or with) fire
	CodeTactDropped     Code = "tact_dropped"     // note, Tact: a later tact no longer holds; Detail: its reason code
	CodeUnknownTeam     Code = "unknown_team"     // a moderator's end names no team; Detail: the name, Options: the teams
	// CodeSwallowedReplace: a swallowed player cannot be replaced (the seed, §8); Player.
	CodeSwallowedReplace Code = "swallowed_replace"
)

// AllCodes lists every code, for the templates' completeness test.
var AllCodes = []Code{
	CodeGameOver, CodeNotStarted, CodeNotAPlayer, CodeUnsupportedBody, CodeOrdersPrivate,
	CodeSpellPublic, CodeEmptyOrders, CodeUnreadable, CodeTwoActions, CodeBadTact, CodeBadCell,
	CodeBadHeight, CodeNotNeighbour, CodeHeightJump, CodeNotOnField, CodeReentryCell, CodeNoBall,
	CodeWhichBall, CodeNotHolding, CodePassRange, CodeBadSpell, CodeEnchantLimit, CodeHandsFull,
	CodeUnknownPlayer, CodeOwnPlayer, CodeNotHandler, CodeDragonEdge, CodeDragonMidline,
	CodeDragonStill, CodeDragonHeight, CodeNoFire, CodeRandomFireOnly, CodeFireUsedUp,
	CodeMouthForced, CodeTactDropped, CodeUnknownTeam, CodeSwallowedReplace,
}

// Problem is one refused line (or a note on an accepted one) with what an explanation needs.
type Problem struct {
	Code   Code   `json:"code"`
	Tact   int    `json:"tact,omitempty"`
	Dragon bool   `json:"dragon,omitempty"` // a dragon order line
	Line   string `json:"line,omitempty"`
	Player string `json:"player,omitempty"`
	Cell   Cell   `json:"cell,omitempty"`
	From   Cell   `json:"from,omitempty"`
	Height int    `json:"height,omitempty"`
	Cells  []Cell `json:"cells,omitempty"`
	Ball   Color  `json:"ball,omitempty"`
	Count  int    `json:"count,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Options are the legal alternatives that are not cells: the dragon's possible moves
	// (forward, left, right) for dragon_edge and dragon_midline, the opponents' names for
	// unknown_player.
	Options []string `json:"options,omitempty"`
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(string(p.Code))
	if p.Tact != 0 {
		fmt.Fprintf(&b, " tact %d", p.Tact)
	}
	if p.Cell != 0 {
		fmt.Fprintf(&b, " cell %d", p.Cell)
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

func refuse(ps ...Problem) error { return &Refusal{Game: "dragonball", Problems: ps} }
