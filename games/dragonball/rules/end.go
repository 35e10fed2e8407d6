package rules

import (
	"time"

	"forumgm/game"
)

// KindGameEnded is the kind of GameEnded.
const KindGameEnded = "dragonball.game_ended"

// EndGame is a moderator's decision to end the game (the referee checks who sends it). Winner is
// a team's name, "draw", or "" for the score's verdict (the higher score wins, equal scores draw).
type EndGame struct {
	Winner string `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// GameEnded is the game ended by a moderator: who wins and why.
type GameEnded struct {
	At     time.Time `json:"at"`
	By     string    `json:"by,omitempty"`
	Winner string    `json:"winner"`
	Reason string    `json:"reason,omitempty"`
}

func (GameEnded) EventKind() string { return KindGameEnded }

// decideEnd judges a moderator's EndGame: refused when the game is over or the winner names no
// team.
func (g *Game) decideEnd(in game.Act, e *EndGame) ([]game.Event, error) {
	if g.st.Over {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	w := e.Winner
	switch w {
	case "":
		w = "draw"
		switch {
		case g.st.Score[0] > g.st.Score[1]:
			w = g.teams[0].Name
		case g.st.Score[1] > g.st.Score[0]:
			w = g.teams[1].Name
		}
	case "draw", g.teams[0].Name, g.teams[1].Name:
	default:
		return nil, refuse(Problem{Code: CodeUnknownTeam, Detail: w, Options: []string{g.teams[0].Name, g.teams[1].Name, "draw"}})
	}
	return []game.Event{&GameEnded{At: in.At, By: in.Author, Winner: w, Reason: e.Reason}}, nil
}

func (g *Game) applyEnded(e *GameEnded) {
	g.st.Over, g.st.Winner, g.st.Reason = true, e.Winner, "moderator"
}
