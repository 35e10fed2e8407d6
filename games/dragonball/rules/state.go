package rules

import (
	"slices"
	"time"

	"forumgm/game"
)

// Team is one team as the transcript names it: A plays on the left half, B on the right.
type Team struct {
	Name    string   `yaml:"name" json:"name"`
	Side    Side     `yaml:"side" json:"side"`
	Players []string `yaml:"players" json:"players"`
	Handler string   `yaml:"handler" json:"handler"` // gives the dragon's orders (default: the first player)
}

// PlayerState is one player.
type PlayerState struct {
	Name    string  `json:"name"`
	Team    int     `json:"team"` // 0: side A, 1: side B
	Cell    Cell    `json:"cell"`
	Height  int     `json:"height"`
	Balls   []Color `json:"balls"`
	Status  Status  `json:"status"`
	Returns int     `json:"returns,omitempty"` // the round of return (hospital)
	// ReturnTact is the tact of that round the player flies in at (3 after a fall, 1 after being
	// spat out).
	ReturnTact int `json:"return_tact,omitempty"`
}

// DragonState is one team's dragon.
type DragonState struct {
	Team      int      `json:"team"`
	Head      Cell     `json:"head"`
	Body      Cell     `json:"body"`
	Height    int      `json:"height"`
	Volleys   int      `json:"volleys"`
	Flames    int      `json:"flames"`
	Swallowed []Color  `json:"swallowed"`
	Effects   []Effect `json:"effects"`
	// OpenFor is how many tacts after the last the mouth stays open after fire.
	OpenFor int `json:"open_for,omitempty"`
	// Eaten are the players in its belly (the red ball spits them out).
	Eaten []string `json:"eaten,omitempty"`
	// Open is whether the mouth was open in the last tact resolved.
	Open bool `json:"open,omitempty"`
}

// Facing is the direction from the body to the head.
func (d *DragonState) Facing() Dir {
	f, _ := d.Body.DirTo(d.Head)
	return f
}

// Tail is the cell behind the body.
func (d *DragonState) Tail() Cell {
	t, _ := d.Body.Step(d.Facing().Opposite())
	return t
}

// Has reports whether the dragon is under effect e.
func (d *DragonState) Has(e Effect) bool { return slices.Contains(d.Effects, e) }

// Reach is the head's cell and the 5 neighbours of the head other than the body: where the
// mouth swallows.
func (d *DragonState) Reach() []Cell {
	out := []Cell{d.Head}
	for _, n := range d.Head.Neighbours() {
		if n != d.Body {
			out = append(out, n)
		}
	}
	return out
}

// BallState is one ball.
type BallState struct {
	Color   Color      `json:"color"`
	Status  BallStatus `json:"status"`
	Cell    Cell       `json:"cell"`
	Height  int        `json:"height"`
	Holder  string     `json:"holder,omitempty"`
	Visible bool       `json:"visible"`
	Dir     Dir        `json:"dir"`
	// PassTacts is how many more tacts the ball keeps a pass's direction.
	PassTacts int `json:"pass_tacts,omitempty"`
	// Spell is the pair (1..3) of the spell the ball is enchanted with; 0: not enchanted.
	Spell int `json:"spell,omitempty"`
	// Pass is a pass thrown and not yet flown (it flies in step 1 of the next tact).
	Pass *PendingPass `json:"pass,omitempty"`
	// StallTeam and StallRounds count the rounds in a row the ball ended held by that team on
	// its own half (1-based team; 0: none).
	StallTeam   int `json:"stall_team,omitempty"`
	StallRounds int `json:"stall_rounds,omitempty"`
}

// PendingPass is a pass in the air.
type PendingPass struct {
	By     string `json:"by"`
	From   Cell   `json:"from"`
	To     Cell   `json:"to"`
	Height int    `json:"height"`
	Spell  int    `json:"spell,omitempty"`
}

// PlayerOrders are a player's standing orders for the round being played.
type PlayerOrders struct {
	Tacts       [3]*TactOrder `json:"tacts"`
	Description string        `json:"description,omitempty"`
}

// Warning is a stalling warning or throw-in: the contract's `{team, round, ball}`.
type Warning struct {
	Team    string `json:"team"`
	Round   int    `json:"round"`
	Ball    Color  `json:"ball"`
	ThrowIn bool   `json:"throw_in,omitempty"` // a throw-in (else a warning)
	Tact    int    `json:"tact,omitempty"`     // the throw-in's tact
}

// ThrowIn is a throw-in due: the ball, the round and tact.
type ThrowIn struct {
	Ball  Color `json:"ball"`
	Team  int   `json:"team"`
	Round int   `json:"round"`
	Tact  int   `json:"tact"`
}

// State is the whole game state; it is what RoundResolved carries.
type State struct {
	Started bool            `json:"started"`
	At      time.Time       `json:"at"`
	Round   int             `json:"round"` // rounds resolved
	Over    bool            `json:"over,omitempty"`
	Winner  string          `json:"winner,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Score   [2]int          `json:"score"`
	Players []*PlayerState  `json:"players"`
	Dragons [2]*DragonState `json:"dragons"`
	Balls   []*BallState    `json:"balls"`
	// Enchanted counts each team's enchanted passes thrown in resolved rounds.
	Enchanted [2]int                   `json:"enchanted"`
	Orders    map[string]*PlayerOrders `json:"orders,omitempty"`
	Dragon    [2]map[int]*DragonOrder  `json:"dragon_orders"`
	Warnings  []Warning                `json:"warnings,omitempty"`
	ThrowIns  []ThrowIn                `json:"throw_ins,omitempty"`
	// Attacked marks, per ball, that the round's tact 1 ended with the warned team's ball off its
	// half (for the tact-3 throw-in).
	Attacked map[Color]bool `json:"attacked,omitempty"`
	// Drawn is when the start's draws were made (BallsDrawn, at the first player post): the
	// first round's deadline is the first after it. Zero when the start drew nothing then.
	Drawn time.Time `json:"drawn,omitzero"`
}

func (s *State) clone() *State {
	c := *s
	c.Players = make([]*PlayerState, len(s.Players))
	for i, p := range s.Players {
		q := *p
		q.Balls = slices.Clone(p.Balls)
		c.Players[i] = &q
	}
	for i, d := range s.Dragons {
		e := *d
		e.Swallowed = slices.Clone(d.Swallowed)
		e.Effects = slices.Clone(d.Effects)
		e.Eaten = slices.Clone(d.Eaten)
		c.Dragons[i] = &e
		c.Dragon[i] = map[int]*DragonOrder{}
		for t, o := range s.Dragon[i] {
			oo := *o
			c.Dragon[i][t] = &oo
		}
	}
	c.Balls = make([]*BallState, len(s.Balls))
	for i, b := range s.Balls {
		x := *b
		if b.Pass != nil {
			p := *b.Pass
			x.Pass = &p
		}
		c.Balls[i] = &x
	}
	c.Orders = map[string]*PlayerOrders{}
	for k, o := range s.Orders {
		oo := *o
		for i, t := range o.Tacts {
			if t != nil {
				tt := *t
				oo.Tacts[i] = &tt
			}
		}
		c.Orders[k] = &oo
	}
	c.Warnings = slices.Clone(s.Warnings)
	c.ThrowIns = slices.Clone(s.ThrowIns)
	if s.Attacked != nil {
		c.Attacked = map[Color]bool{}
		for k, v := range s.Attacked {
			c.Attacked[k] = v
		}
	}
	return &c
}

// Game is a running game of Dragonball. It implements game.Engine.
type Game struct {
	settings Settings
	teams    [2]Team
	deploy   *Deployment
	st       *State
}

var _ game.Engine = (*Game)(nil)

// Name is the game's identifier.
func (g *Game) Name() string { return "dragonball" }

// Settings returns the settings.
func (g *Game) Settings() Settings { return g.settings }

// Teams returns the teams, side A first.
func (g *Game) Teams() [2]Team { return g.teams }

// State is a copy of the current state.
func (g *Game) State() *State { return g.st.clone() }

// Round is the number of rounds resolved.
func (g *Game) Round() int { return g.st.Round }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.st.Over }

// Winner is the winning team's name, "draw", or "" while the game goes on.
func (g *Game) Winner() string { return g.st.Winner }

func (g *Game) player(name string) *PlayerState {
	for _, p := range g.st.Players {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (s *State) player(name string) *PlayerState {
	for _, p := range s.Players {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (s *State) ball(c Color) *BallState {
	for _, b := range s.Balls {
		if b.Color == c {
			return b
		}
	}
	return nil
}

// handler is the player who gives team t's dragon orders now: the named handler, or, once
// swallowed, the next player of the team in roster order who is not swallowed.
func (g *Game) handler(t int) string {
	team := g.teams[t]
	h := team.Handler
	if h == "" && len(team.Players) > 0 {
		h = team.Players[0]
	}
	if p := g.st.player(h); p == nil || p.Status != Swallowed {
		return h
	}
	start := slices.Index(team.Players, h)
	for i := 1; i <= len(team.Players); i++ {
		n := team.Players[(start+i)%len(team.Players)]
		if p := g.st.player(n); p != nil && p.Status != Swallowed {
			return n
		}
	}
	return h
}

func sideOf(t int) Side {
	if t == 0 {
		return SideA
	}
	return SideB
}

func other(t int) int { return 1 - t }
