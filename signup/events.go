package signup

import (
	"encoding/json"
	"fmt"
	"time"

	"forumgm/game"
)

// Event kinds of the sign-up phase, stored in the game's log beside the game's own.
const (
	KindJoined    = "signup.joined"
	KindLeft      = "signup.left"
	KindExtended  = "signup.extended"
	KindFormed    = "signup.formed"
	KindRole      = "signup.role"
	KindPieces    = "signup.pieces"
	KindStarted   = "signup.started"
	KindDeparted  = "signup.departed"
	KindReplaced  = "signup.replaced"
	KindRemoved   = "signup.removed"
	KindCancelled = "signup.cancelled"
)

// Joined is a player signed up (Team: the team's key he chose, "" none).
type Joined struct {
	At     time.Time `json:"at"`
	Player string    `json:"player"`
	Team   string    `json:"team,omitempty"`
}

// Left is a player who leaves before play begins (sign-up or organisation).
type Left struct {
	At     time.Time `json:"at"`
	Player string    `json:"player"`
}

// Extended is the sign-up deadline moved on: too few players came by it.
type Extended struct {
	At    time.Time `json:"at"`
	Until time.Time `json:"until"`
	Short []string  `json:"short"` // the teams' keys that lack players
}

var _ game.Drawer = (*Formed)(nil) // the referee counts its draws, verify re-derives them

// Formed is the teams formed from the sign-ups: unassigned players were placed by a seeded
// draw (the permutation's draws are recorded), Moved players were moved to even the teams.
type Formed struct {
	At    time.Time     `json:"at"`
	Teams []game.Formed `json:"teams"`
	Order []string      `json:"order,omitempty"` // the unassigned players in the drawn order
	Moved []string      `json:"moved,omitempty"`
	Until time.Time     `json:"until"` // the organisation deadline (At when there is nothing to organise)
	game.Chance
}

// RoleNamed is a team naming its role's holder.
type RoleNamed struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Team   string    `json:"team"`
	Player string    `json:"player"`
}

// PiecesSent is a team's list of who holds which pieces (Shape.PiecesList).
type PiecesSent struct {
	At     time.Time           `json:"at"`
	By     string              `json:"by"`
	Team   string              `json:"team"`
	Pieces map[string][]string `json:"pieces"`
}

// Started is play beginning with the final teams; Defaults lists what the deadline settled
// ("role:<team>", "pieces:<team>"). The game's own opening events follow it.
type Started struct {
	At       time.Time     `json:"at"`
	Teams    []game.Formed `json:"teams"`
	Defaults []string      `json:"defaults,omitempty"`
	// Opened is how many of the game's own opening events follow (their words are in the
	// game's opening post, which this event's message carries).
	Opened int `json:"opened,omitempty"`
}

// Departed is a player leaving a running game: his team may find a replacement until Until.
type Departed struct {
	At     time.Time `json:"at"`
	Player string    `json:"player"`
	Team   string    `json:"team"`
	Until  time.Time `json:"until"`
	By     string    `json:"by,omitempty"` // a moderator (remove), "" the player himself
	Reason string    `json:"reason,omitempty"`
}

// Replaced is a new player taking a place over; the game's own events follow it.
type Replaced struct {
	At     time.Time `json:"at"`
	Old    string    `json:"old"`
	New    string    `json:"new"`
	Team   string    `json:"team"`
	By     string    `json:"by,omitempty"` // a moderator (replace), "" the new player signed up
	Reason string    `json:"reason,omitempty"`
	// Follows is how many of the game's own events follow (their words are in this one's).
	Follows int `json:"follows,omitempty"`
}

// Removed is a departed player's place closed without a replacement (the game's rule for it
// follows, in the game's own events).
type Removed struct {
	At      time.Time `json:"at"`
	Player  string    `json:"player"`
	Team    string    `json:"team"`
	Follows int       `json:"follows,omitempty"`
}

// Cancelled is the game ended by a moderator before play began.
type Cancelled struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
}

func (*Joined) EventKind() string     { return KindJoined }
func (*Left) EventKind() string       { return KindLeft }
func (*Extended) EventKind() string   { return KindExtended }
func (*Formed) EventKind() string     { return KindFormed }
func (*RoleNamed) EventKind() string  { return KindRole }
func (*PiecesSent) EventKind() string { return KindPieces }
func (*Started) EventKind() string    { return KindStarted }
func (*Departed) EventKind() string   { return KindDeparted }
func (*Replaced) EventKind() string   { return KindReplaced }
func (*Removed) EventKind() string    { return KindRemoved }
func (*Cancelled) EventKind() string  { return KindCancelled }

// own reports whether kind is a sign-up event.
func own(kind string) bool { return len(kind) > 7 && kind[:7] == "signup." }

// decodeOwn rebuilds a sign-up event.
func decodeOwn(kind string, data []byte) (game.Event, error) {
	var ev game.Event
	switch kind {
	case KindJoined:
		ev = &Joined{}
	case KindLeft:
		ev = &Left{}
	case KindExtended:
		ev = &Extended{}
	case KindFormed:
		ev = &Formed{}
	case KindRole:
		ev = &RoleNamed{}
	case KindPieces:
		ev = &PiecesSent{}
	case KindStarted:
		ev = &Started{}
	case KindDeparted:
		ev = &Departed{}
	case KindReplaced:
		ev = &Replaced{}
	case KindRemoved:
		ev = &Removed{}
	case KindCancelled:
		ev = &Cancelled{}
	default:
		return nil, fmt.Errorf("signup: unknown event %q", kind)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("signup: decode %s: %w", kind, err)
	}
	return ev, nil
}
