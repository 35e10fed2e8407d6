package rules

import (
	"fmt"
	"time"

	"forumgm/game"
)

// AddPlayer is a moderator's command to add a player to the roster (a forum user who should play
// but was left out); Warriors empty: the whole side.
type AddPlayer struct {
	Player Player
}

// AdjustWounds is a moderator's command to give a side wounds (Delta > 0) or take owed wounds
// back (Delta < 0, never below none owed).
type AdjustWounds struct {
	Side   Side
	Delta  int
	Reason string
}

// Event kinds of the moderators' adjustments.
const (
	KindPlayerAdded    = "crusade.player_added"
	KindWoundsAdjusted = "crusade.wounds_adjusted"
)

// PlayerAdded: a moderator added a player to the roster.
type PlayerAdded struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Player Player    `json:"player"`
}

// WoundsAdjusted: a moderator gave a side wounds or took owed wounds back.
type WoundsAdjusted struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Side   Side      `json:"side"`
	Delta  int       `json:"delta"`
	Owed   int       `json:"owed"` // what the side owes after it (not yet allocated)
	Reason string    `json:"reason,omitempty"`
}

func (PlayerAdded) EventKind() string    { return KindPlayerAdded }
func (WoundsAdjusted) EventKind() string { return KindWoundsAdjusted }

func (g *Game) decideAddPlayer(in game.Act, b *AddPlayer) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	r := Roster{Players: append(append([]Player(nil), g.roster.Players...), b.Player)}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("crusade: add player %s: %w", b.Player.Name, err)
	}
	return []game.Event{&PlayerAdded{At: in.At, By: in.Author, Player: b.Player}}, nil
}

func (g *Game) decideAdjustWounds(in game.Act, b *AdjustWounds) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	if b.Side != Crusaders && b.Side != Saracens {
		return nil, fmt.Errorf("crusade: wounds: %q is not a side (crusaders or saracens)", b.Side)
	}
	if b.Delta == 0 {
		return nil, fmt.Errorf("crusade: wounds: a change of 0")
	}
	owed := g.st.Owed[b.Side] + b.Delta
	if owed < 0 {
		return nil, fmt.Errorf("crusade: wounds: the %s owe %d unallocated wounds; %d cannot be taken back", b.Side, g.st.Owed[b.Side], -b.Delta)
	}
	return []game.Event{&WoundsAdjusted{At: in.At, By: in.Author, Side: b.Side, Delta: b.Delta, Owed: owed, Reason: b.Reason}}, nil
}

func (g *Game) applyPlayerAdded(e *PlayerAdded) error {
	g.roster.Players = append(append([]Player(nil), g.roster.Players...), e.Player)
	return nil
}

func (g *Game) applyWoundsAdjusted(e *WoundsAdjusted) error {
	if g.st.Owed[e.Side]+e.Delta < 0 {
		return fmt.Errorf("crusade: apply wounds_adjusted: the %s owe %d", e.Side, g.st.Owed[e.Side])
	}
	g.st.Owed[e.Side] += e.Delta
	return nil
}
