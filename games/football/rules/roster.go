package rules

import (
	"fmt"
	"slices"
	"time"

	"forumgm/game"
)

// ReplacePlayer puts a new forum user in a player's place: the same team, captaincy included.
type ReplacePlayer struct{ Old, New string }

// RemovePlayer takes a player out of his team; a captain's place goes to the team's next member
// (the team then plays without him).
type RemovePlayer struct{ Name string }

// Event kinds of replacements.
const (
	KindPlayerReplaced = "football.player_replaced"
	KindPlayerRemoved  = "football.player_removed"
)

// PlayerReplaced: New plays on in Old's place.
type PlayerReplaced struct {
	At  time.Time `json:"at"`
	Old string    `json:"old"`
	New string    `json:"new"`
}

// PlayerRemoved: a player left his team; Captain is the team's captain after it.
type PlayerRemoved struct {
	At      time.Time `json:"at"`
	Player  string    `json:"player"`
	Team    string    `json:"team"`
	Captain string    `json:"captain"`
}

func (*PlayerReplaced) EventKind() string { return KindPlayerReplaced }
func (*PlayerRemoved) EventKind() string  { return KindPlayerRemoved }

func (g *Game) decideReplace(in game.Act, b *ReplacePlayer) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	if _, ok := g.member[normName(b.Old)]; !ok {
		return nil, fmt.Errorf("football: replace: %s does not play", b.Old)
	}
	if _, ok := g.member[normName(b.New)]; ok {
		return nil, fmt.Errorf("football: replace: %s plays already", b.New)
	}
	return []game.Event{&PlayerReplaced{At: in.At, Old: b.Old, New: b.New}}, nil
}

func (g *Game) decideRemove(in game.Act, b *RemovePlayer) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	i, ok := g.member[normName(b.Name)]
	if !ok {
		return nil, fmt.Errorf("football: remove: %s does not play", b.Name)
	}
	t := g.roster[i]
	e := &PlayerRemoved{At: in.At, Player: b.Name, Team: t.Name, Captain: t.Captain}
	if normName(t.Captain) == normName(b.Name) && len(t.Members) > 0 {
		e.Captain = t.Members[0]
	}
	return []game.Event{e}, nil
}

func (g *Game) applyReplaced(e *PlayerReplaced) error {
	i, ok := g.member[normName(e.Old)]
	if !ok {
		return fmt.Errorf("football: apply player_replaced: %s does not play", e.Old)
	}
	g.roster = slices.Clone(g.roster)
	t := g.roster[i]
	t.Members = slices.Clone(t.Members)
	if normName(t.Captain) == normName(e.Old) {
		t.Captain = e.New
	}
	for j, m := range t.Members {
		if normName(m) == normName(e.Old) {
			t.Members[j] = e.New
		}
	}
	g.roster[i] = t
	delete(g.member, normName(e.Old))
	g.member[normName(e.New)] = i
	return nil
}

func (g *Game) applyRemoved(e *PlayerRemoved) error {
	i, ok := g.member[normName(e.Player)]
	if !ok {
		return fmt.Errorf("football: apply player_removed: %s does not play", e.Player)
	}
	g.roster = slices.Clone(g.roster)
	t := g.roster[i]
	t.Members = slices.DeleteFunc(slices.Clone(t.Members), func(m string) bool {
		return normName(m) == normName(e.Player) || normName(m) == normName(e.Captain)
	})
	t.Captain = e.Captain
	g.roster[i] = t
	if normName(e.Captain) != normName(e.Player) {
		delete(g.member, normName(e.Player))
	}
	return nil
}
