package rules

import (
	"slices"
	"time"

	"forumgm/game"
)

// ReplacePlayer puts a new forum user in a player's place: the same team, figure and balls. The
// seed (§8): a swallowed player cannot be replaced.
type ReplacePlayer struct{ Old, New string }

// RemovePlayer takes a player out of the roster: his figure stays where it is and gets no more
// orders (as a player who sends none); if he gave the dragon's orders, the next player of his
// team does.
type RemovePlayer struct{ Name string }

// Event kinds of replacements.
const (
	KindPlayerReplaced = "dragonball.player_replaced"
	KindPlayerRemoved  = "dragonball.player_removed"
)

// PlayerReplaced: New plays on in Old's place.
type PlayerReplaced struct {
	At  time.Time `json:"at"`
	Old string    `json:"old"`
	New string    `json:"new"`
}

// PlayerRemoved: a player left; Handler is who gives his team's dragon orders after it.
type PlayerRemoved struct {
	At      time.Time `json:"at"`
	Player  string    `json:"player"`
	Handler string    `json:"handler"`
}

func (*PlayerReplaced) EventKind() string { return KindPlayerReplaced }
func (*PlayerRemoved) EventKind() string  { return KindPlayerRemoved }

// teamOf is the roster team of a player (-1: none).
func (g *Game) teamOf(name string) int {
	for t := range g.teams {
		if slices.Contains(g.teams[t].Players, name) {
			return t
		}
	}
	return -1
}

func (g *Game) decideReplace(in game.Act, b *ReplacePlayer) ([]game.Event, error) {
	if g.st.Over {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	if g.teamOf(b.Old) < 0 {
		return nil, refuse(Problem{Code: CodeUnknownPlayer, Player: b.Old})
	}
	if p := g.st.player(b.Old); p != nil && p.Status == Swallowed {
		return nil, refuse(Problem{Code: CodeSwallowedReplace, Player: b.Old})
	}
	if g.teamOf(b.New) >= 0 || g.st.player(b.New) != nil {
		return nil, refuse(Problem{Code: CodeOwnPlayer, Player: b.New})
	}
	return []game.Event{&PlayerReplaced{At: in.At, Old: b.Old, New: b.New}}, nil
}

func (g *Game) decideRemove(in game.Act, b *RemovePlayer) ([]game.Event, error) {
	if g.st.Over {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	t := g.teamOf(b.Name)
	if t < 0 {
		return nil, refuse(Problem{Code: CodeUnknownPlayer, Player: b.Name})
	}
	e := &PlayerRemoved{At: in.At, Player: b.Name, Handler: g.teams[t].Handler}
	if e.Handler == b.Name {
		e.Handler = ""
		for _, p := range g.teams[t].Players {
			if p != b.Name {
				e.Handler = p
				break
			}
		}
	}
	return []game.Event{e}, nil
}

func (g *Game) applyReplaced(e *PlayerReplaced) error {
	t := g.teamOf(e.Old)
	if t < 0 {
		return errf("apply player_replaced: %s does not play", e.Old)
	}
	team := g.teams[t]
	team.Players = slices.Clone(team.Players)
	team.Players[slices.Index(team.Players, e.Old)] = e.New
	if team.Handler == e.Old {
		team.Handler = e.New
	}
	g.teams[t] = team
	g.st = g.st.clone()
	if p := g.st.player(e.Old); p != nil {
		p.Name = e.New
	}
	for _, b := range g.st.Balls {
		if b.Holder == e.Old {
			b.Holder = e.New
		}
	}
	if o, ok := g.st.Orders[e.Old]; ok {
		delete(g.st.Orders, e.Old)
		g.st.Orders[e.New] = o
	}
	return nil
}

func (g *Game) applyRemoved(e *PlayerRemoved) error {
	t := g.teamOf(e.Player)
	if t < 0 {
		return errf("apply player_removed: %s does not play", e.Player)
	}
	team := g.teams[t]
	team.Players = slices.DeleteFunc(slices.Clone(team.Players), func(p string) bool { return p == e.Player })
	team.Handler = e.Handler
	g.teams[t] = team
	return nil
}
