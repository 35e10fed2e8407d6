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

// ReplacePlayer puts a new forum user in a player's place: the same side and warriors.
type ReplacePlayer struct{ Old, New string }

// RemovePlayer takes a player out of the game; the warriors only he commanded are taken off the
// field (the seed: «команда должна найти ему замену или снять его воинов с поля»).
type RemovePlayer struct{ Name string }

// Event kinds of replacements.
const (
	KindPlayerReplaced = "crusade.player_replaced"
	KindPlayerRemoved  = "crusade.player_removed"
)

// PlayerReplaced: New plays on in Old's place.
type PlayerReplaced struct {
	At  time.Time `json:"at"`
	Old string    `json:"old"`
	New string    `json:"new"`
}

// PlayerRemoved: a player left the game; Warriors (his own, still on the field) left with him.
// They are out of play and do not count as killed.
type PlayerRemoved struct {
	At       time.Time   `json:"at"`
	Player   string      `json:"player"`
	Warriors []WarriorID `json:"warriors,omitempty"`
}

func (PlayerReplaced) EventKind() string { return KindPlayerReplaced }
func (PlayerRemoved) EventKind() string  { return KindPlayerRemoved }

func (g *Game) decideReplace(in game.Act, b *ReplacePlayer) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	p, ok := g.roster.player(b.Old)
	if !ok {
		return nil, fmt.Errorf("crusade: replace: %s does not play", b.Old)
	}
	if _, taken := g.roster.player(b.New); taken {
		return nil, fmt.Errorf("crusade: replace: %s plays already", b.New)
	}
	return []game.Event{&PlayerReplaced{At: in.At, Old: p.Name, New: b.New}}, nil
}

func (g *Game) decideRemove(in game.Act, b *RemovePlayer) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	p, ok := g.roster.player(b.Name)
	if !ok {
		return nil, fmt.Errorf("crusade: remove: %s does not play", b.Name)
	}
	e := &PlayerRemoved{At: in.At, Player: p.Name}
	for _, w := range p.Warriors {
		if ws := g.st.Warriors[w]; ws != nil && ws.InPlay && ws.Alive {
			e.Warriors = append(e.Warriors, w)
		}
	}
	return []game.Event{e}, nil
}

func (g *Game) applyPlayerReplaced(e *PlayerReplaced) error {
	players := append([]Player(nil), g.roster.Players...)
	for i := range players {
		if players[i].Name == e.Old {
			players[i].Name = e.New
			g.roster.Players = players
			if g.st.MovedToday[normName(e.Old)] {
				g.st.MovedToday[normName(e.New)] = true
			}
			return nil
		}
	}
	return fmt.Errorf("crusade: apply player_replaced: %s does not play", e.Old)
}

func (g *Game) applyPlayerRemoved(e *PlayerRemoved) error {
	var players []Player
	for _, p := range g.roster.Players {
		if p.Name != e.Player {
			players = append(players, p)
		}
	}
	g.roster.Players = players
	for _, w := range e.Warriors {
		ws, err := g.warriorState(w, "player_removed")
		if err != nil {
			return err
		}
		ws.InPlay = false
	}
	return nil
}
