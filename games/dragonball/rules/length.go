package rules

import (
	"time"

	"forumgm/game"
)

// KindRoundsSet is the event kind of the game's length changed by the game master.
const KindRoundsSet = "dragonball.rounds_set"

// SetRounds is a moderator's decision to make the game N rounds long (the referee checks who
// sends it).
type SetRounds struct {
	N int `json:"n"`
}

// RoundsSet is the game's length changed: Rounds from now on (Was before).
type RoundsSet struct {
	At     time.Time `json:"at"`
	By     string    `json:"by,omitempty"`
	Rounds int       `json:"rounds"`
	Was    int       `json:"was"`
}

func (RoundsSet) EventKind() string { return KindRoundsSet }

// decideRounds judges SetRounds: refused when the game is over or the length would not reach the
// round being played.
func (g *Game) decideRounds(in game.Act, s *SetRounds) ([]game.Event, error) {
	if g.st.Over {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	if s.N <= g.st.Round {
		return nil, errf("rounds: %d rounds are played already; the game can be made %d rounds long at the least", g.st.Round, g.st.Round+1)
	}
	return []game.Event{&RoundsSet{At: in.At, By: in.Author, Rounds: s.N, Was: g.settings.Rounds}}, nil
}
