package rules

import (
	"encoding/json"
	"time"

	"forumgm/game"
)

// Event kinds.
const (
	KindGameStarted    = "dragonball.game_started"
	KindOrdersAccepted = "dragonball.orders_accepted"
	KindRoundResolved  = "dragonball.round_resolved"
	KindBallsDrawn     = "dragonball.balls_drawn"
)

// BallsDrawn is the start's draws, made at the first player post in the thread (the plug-in's
// game.StartDrawer): the directions and heights of the free balls the deployment left open, in
// colour order (each ball's direction, then its height, where it had none).
type BallsDrawn struct {
	At    time.Time  `json:"at"`
	Balls []BallDraw `json:"balls"`
	game.Chance
}

// BallDraw is one ball as the start's draws left it.
type BallDraw struct {
	Color  Color `json:"color"`
	Cell   Cell  `json:"cell"`
	Dir    Dir   `json:"dir"`
	Height int   `json:"height"`
}

func (BallsDrawn) EventKind() string { return KindBallsDrawn }

// GameStarted opens the game with its starting position (the balls' drawn directions and
// heights in Chance).
type GameStarted struct {
	At    time.Time `json:"at"`
	State *State    `json:"state"`
	game.Chance
}

// OrdersAccepted is a message of orders as understood: the author's standing orders for the
// round after it (and the team dragon's, from the handler), with the lines refused, the notes,
// and the later tacts that no longer hold.
type OrdersAccepted struct {
	At      time.Time     `json:"at"`
	Author  string        `json:"author"`
	Round   int           `json:"round"` // the round being played (rounds resolved + 1)
	Private bool          `json:"private,omitempty"`
	Orders  *PlayerOrders `json:"orders,omitempty"`
	// Team and Dragon: the dragon orders standing after the message (handler only).
	Team           int                  `json:"team"`
	Dragon         map[int]*DragonOrder `json:"dragon,omitempty"`
	Accepted       []TactOrder          `json:"accepted,omitempty"`
	AcceptedDragon []DragonOrder        `json:"accepted_dragon,omitempty"`
	Description    bool                 `json:"description,omitempty"` // the description was replaced
	Refused        []Problem            `json:"refused,omitempty"`
	Notes          []Problem            `json:"notes,omitempty"`
	Dropped        []Problem            `json:"dropped,omitempty"`
}

// RoundResolved is a round played out at its deadline: what happened tact by tact, and the
// state after it (Apply sets it: folding the log never re-rolls).
type RoundResolved struct {
	At    time.Time      `json:"at"`
	Round int            `json:"round"`
	Tacts [3][]Happening `json:"tacts"`
	// After is what happened after the last tact: warnings, the end.
	After []Happening `json:"after,omitempty"`
	// Descriptions are the players' descriptions, in roster order.
	Descriptions []Description `json:"descriptions,omitempty"`
	State        *State        `json:"state"`
	game.Chance
}

// Description is a player's text for the report.
type Description struct {
	Player string `json:"player"`
	Team   string `json:"team"`
	Text   string `json:"text"`
}

func (GameStarted) EventKind() string    { return KindGameStarted }
func (OrdersAccepted) EventKind() string { return KindOrdersAccepted }
func (RoundResolved) EventKind() string  { return KindRoundResolved }

// DecodeEvent rebuilds a stored event (always a pointer).
func (g *Game) DecodeEvent(kind string, data []byte) (game.Event, error) {
	var ev game.Event
	switch kind {
	case KindGameStarted:
		ev = &GameStarted{}
	case KindOrdersAccepted:
		ev = &OrdersAccepted{}
	case KindRoundResolved:
		ev = &RoundResolved{}
	case KindBallsDrawn:
		ev = &BallsDrawn{}
	case KindGameEnded:
		ev = &GameEnded{}
	case KindPlayerReplaced:
		ev = &PlayerReplaced{}
	case KindPlayerRemoved:
		ev = &PlayerRemoved{}
	case KindRoundsSet:
		ev = &RoundsSet{}
	default:
		return nil, errf("%w: %q", ErrUnknownEvent, kind)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, errf("decode %s: %v", kind, err)
	}
	return ev, nil
}

// Apply folds one event into the state.
func (g *Game) Apply(ev game.Event) error {
	switch e := ev.(type) {
	case *GameStarted:
		if e.State == nil {
			return errf("game started without a state")
		}
		g.st = e.State.clone()
		g.st.Started = true
	case *BallsDrawn:
		for _, d := range e.Balls {
			b := g.st.ball(d.Color)
			if b == nil || b.Status != BallFree {
				return errf("apply %s: ball %s is not free", KindBallsDrawn, d.Color)
			}
			b.Dir, b.Height = d.Dir, d.Height
		}
		g.st.Drawn = e.At
	case *OrdersAccepted:
		if g.st.Orders == nil {
			g.st.Orders = map[string]*PlayerOrders{}
		}
		if e.Orders != nil {
			o := *e.Orders
			g.st.Orders[e.Author] = &o
		}
		if e.Dragon != nil {
			m := map[int]*DragonOrder{}
			for k, v := range e.Dragon {
				vv := *v
				m[k] = &vv
			}
			g.st.Dragon[e.Team] = m
		}
	case *RoundResolved:
		if e.State == nil {
			return errf("round resolved without a state")
		}
		g.st = e.State.clone()
	case *GameEnded:
		g.applyEnded(e)
	case *PlayerReplaced:
		return g.applyReplaced(e)
	case *PlayerRemoved:
		return g.applyRemoved(e)
	case *RoundsSet:
		g.settings.Rounds = e.Rounds
	default:
		return errf("apply: unknown event %T", ev)
	}
	return nil
}
