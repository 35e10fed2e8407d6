package rules

import (
	"slices"
	"time"

	"forumgm/game"
	"forumgm/russian"
)

// Deployment is a test position (the transcript's `deployment`): what it does not name starts
// where the rulings put it. Keys: player names, team names, ball colours.
type Deployment struct {
	Players map[string]PlayerPlace `yaml:"players" json:"players,omitempty"`
	Dragons map[string]DragonPlace `yaml:"dragons" json:"dragons,omitempty"`
	Balls   map[string]BallPlace   `yaml:"balls" json:"balls,omitempty"`
}

// PlayerPlace places a player; Balls start in the player's hands. Status and Returns (additions
// to the contract) put a player in the hospital or a dragon's belly.
type PlayerPlace struct {
	Cell       Cell     `yaml:"cell" json:"cell"`
	Height     int      `yaml:"height" json:"height"`
	Balls      []string `yaml:"balls" json:"balls,omitempty"`
	Status     Status   `yaml:"status" json:"status,omitempty"`
	Returns    int      `yaml:"returns" json:"returns,omitempty"`
	ReturnTact int      `yaml:"return_tact" json:"return_tact,omitempty"`
}

// DragonPlace places a dragon. Volleys, Flames (nil: the settings'), Effects and Swallowed are
// additions to the contract for test positions.
type DragonPlace struct {
	Body      Cell     `yaml:"body" json:"body"`
	Head      Cell     `yaml:"head" json:"head"`
	Height    int      `yaml:"height" json:"height"`
	Volleys   *int     `yaml:"volleys" json:"volleys,omitempty"`
	Flames    *int     `yaml:"flames" json:"flames,omitempty"`
	Effects   []Effect `yaml:"effects" json:"effects,omitempty"`
	Swallowed []string `yaml:"swallowed" json:"swallowed,omitempty"`
}

// BallPlace places a free ball; Dir "" and Height 0 are drawn at the start. Visible defaults to
// true. Spell (1..3) enchants it (an addition for test positions).
type BallPlace struct {
	Cell    Cell   `yaml:"cell" json:"cell"`
	Height  int    `yaml:"height" json:"height"`
	Dir     string `yaml:"dir" json:"dir,omitempty"`
	Visible *bool  `yaml:"visible" json:"visible,omitempty"`
	Spell   int    `yaml:"spell" json:"spell,omitempty"`
}

// ColorOf reads a ball's colour as players write it (case, ё/е, look-alike letters, with or
// without the adjective ending: "красный", "Красн", "чорный").
func ColorOf(s string) (Color, bool) {
	f := russian.ToCyrillicLower(russian.Fold(s))
	stems := []struct {
		stem string
		c    Color
	}{{"черн", Black}, {"чорн", Black}, {"зелен", Green}, {"голуб", Blue}, {"син", Blue}, {"красн", Red}, {"желт", Yellow}, {"жолт", Yellow}}
	for _, st := range stems {
		if len(f) >= len(st.stem) && f[:len(st.stem)] == st.stem {
			return st.c, true
		}
	}
	return "", false
}

// DefaultDragon is a team's dragon at the default start: horizontal on row 7 facing the midline.
func DefaultDragon(side Side) DragonPlace {
	if side == SideA {
		return DragonPlace{Body: 102, Head: 103, Height: 2}
	}
	return DragonPlace{Body: 110, Head: 109, Height: 2}
}

// New makes a game of two teams (side A first, or in the given order when sides are not
// named). It starts with Start.
func New(settings Settings, teams []Team, dep *Deployment) (*Game, error) {
	if err := settings.Validate(); err != nil {
		return nil, errf("new game: %v", err)
	}
	if len(teams) != 2 {
		return nil, errf("new game: %d teams, want 2", len(teams))
	}
	ts := [2]Team{teams[0], teams[1]}
	if ts[0].Side == "" && ts[1].Side == "" {
		ts[0].Side, ts[1].Side = SideA, SideB
	}
	if ts[0].Side == SideB && ts[1].Side == SideA {
		ts[0], ts[1] = ts[1], ts[0]
	}
	if ts[0].Side != SideA || ts[1].Side != SideB {
		return nil, errf("new game: sides must be A and B")
	}
	seen := map[string]bool{}
	for i := range ts {
		t := &ts[i]
		t.Players = slices.Clone(t.Players)
		if t.Name == "" || len(t.Players) == 0 {
			return nil, errf("new game: a team needs a name and players")
		}
		if seen["team:"+t.Name] {
			return nil, errf("new game: two teams named %q", t.Name)
		}
		seen["team:"+t.Name] = true
		if len(t.Players) > settings.TeamSize {
			return nil, errf("new game: team %s has %d players, team_size is %d", t.Name, len(t.Players), settings.TeamSize)
		}
		if len(t.Players) > len(reentryCells[t.Side]) {
			return nil, errf("new game: team %s is too large", t.Name)
		}
		for _, p := range t.Players {
			if p == "" || seen[p] {
				return nil, errf("new game: player %q twice or empty", p)
			}
			seen[p] = true
		}
		if t.Handler == "" {
			t.Handler = t.Players[0]
		}
		if !slices.Contains(t.Players, t.Handler) {
			return nil, errf("new game: handler %q is not in team %s", t.Handler, t.Name)
		}
	}
	g := &Game{settings: settings, teams: ts, deploy: dep, st: &State{}}
	if _, err := g.initial(nil); err != nil {
		return nil, err
	}
	return g, nil
}

// Start opens the game at `at` in one step: the GameStarted event with the starting position,
// the balls' random directions and heights (those not deployed) drawn from rnd at once (the
// engine's tests and tools). The plug-in opens without them (Open) and draws them at the first
// player post (DrawBalls), so that the operator cannot foresee them.
func (g *Game) Start(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	if g.st.Started {
		return nil, refuse(Problem{Code: CodeGameOver, Detail: "already started"})
	}
	st, err := g.initial(rnd)
	if err != nil {
		return nil, err
	}
	st.Started, st.At = true, at
	return []game.Event{&GameStarted{At: at, State: st, Chance: game.Chance{Draws: rnd.Take()}}}, nil
}

// Open opens the game at `at` drawing nothing: the GameStarted event with the starting position,
// the free balls' directions and heights the deployment leaves open still unset (Undrawn) until
// DrawBalls. No round is played before them (NextTimer).
func (g *Game) Open(at time.Time) ([]game.Event, error) {
	if g.st.Started {
		return nil, refuse(Problem{Code: CodeGameOver, Detail: "already started"})
	}
	st, err := g.initial(nil)
	if err != nil {
		return nil, err
	}
	st.Started, st.At = true, at
	return []game.Event{&GameStarted{At: at, State: st}}, nil
}

// Undrawn reports whether the start's draws are still to be made: the game opened (Open), no
// round played, and a free ball without a direction or a height.
func (g *Game) Undrawn() bool {
	if !g.st.Started || g.st.Over || g.st.Round > 0 {
		return false
	}
	for _, b := range g.st.Balls {
		if b.Status == BallFree && (b.Dir == NoDir || b.Height == 0) {
			return true
		}
	}
	return false
}

// DrawBalls makes the start's draws at `at` (Undrawn): for each free ball in colour order, a
// direction (Intn(6)) when it has none, then a height (Intn(3)+1) when it has none — the draws
// Start makes, in the same order. The caller applies the event.
func (g *Game) DrawBalls(at time.Time, rnd *game.Rand) (*BallsDrawn, error) {
	if !g.Undrawn() {
		return nil, errf("draw the balls: nothing to draw (not open, a round played, or every ball placed)")
	}
	if rnd == nil {
		return nil, errf("draw the balls: no source of chance")
	}
	ev := &BallsDrawn{At: at}
	for _, b := range g.st.Balls {
		if b.Status != BallFree || b.Dir != NoDir && b.Height != 0 {
			continue
		}
		d := BallDraw{Color: b.Color, Cell: b.Cell, Dir: b.Dir, Height: b.Height}
		if d.Dir == NoDir {
			d.Dir = Dir(rnd.Intn(6))
		}
		if d.Height == 0 {
			d.Height = rnd.Intn(3) + 1
		}
		ev.Balls = append(ev.Balls, d)
	}
	ev.Draws = rnd.Take()
	return ev, nil
}

// initial builds the starting state (with rnd nil, random parts are left unset: a dry run that
// checks the deployment).
func (g *Game) initial(rnd *game.Rand) (*State, error) {
	dep := g.deploy
	if dep == nil {
		dep = &Deployment{}
	}
	st := &State{Orders: map[string]*PlayerOrders{}}
	st.Dragon = [2]map[int]*DragonOrder{{}, {}}
	held := map[Color]string{}
	for t, team := range g.teams {
		re := reentryCells[team.Side]
		for i, name := range team.Players {
			p := &PlayerState{Name: name, Team: t, Cell: re[i], Height: 2, Status: OnField, Balls: []Color{}}
			if pl, ok := dep.Players[name]; ok {
				if pl.Status == "" || pl.Status == OnField {
					if !pl.Cell.Valid() || pl.Height < 1 || pl.Height > 3 {
						return nil, errf("deployment: player %s: cell %d height %d", name, pl.Cell, pl.Height)
					}
					p.Cell, p.Height = pl.Cell, pl.Height
				} else {
					p.Status, p.Cell, p.Height = pl.Status, 0, 0
					p.Returns, p.ReturnTact = pl.Returns, pl.ReturnTact
					if p.Status == Hospital && p.ReturnTact == 0 {
						p.ReturnTact = 3
					}
				}
				if len(pl.Balls) > 2 {
					return nil, errf("deployment: player %s holds %d balls", name, len(pl.Balls))
				}
				for _, b := range pl.Balls {
					c, ok := ColorOf(b)
					if !ok {
						return nil, errf("deployment: player %s: unknown ball %q", name, b)
					}
					if h, dup := held[c]; dup {
						return nil, errf("deployment: ball %s held by %s and %s", c, h, name)
					}
					if p.Status != OnField {
						return nil, errf("deployment: player %s is off the field and holds a ball", name)
					}
					held[c] = name
					p.Balls = append(p.Balls, c)
				}
			}
			st.Players = append(st.Players, p)
		}
	}
	for name := range dep.Players {
		if st.player(name) == nil {
			return nil, errf("deployment: %q is not a player", name)
		}
	}
	for t, team := range g.teams {
		dp, ok := dep.Dragons[team.Name]
		if !ok {
			dp = DefaultDragon(team.Side)
		}
		d := &DragonState{Team: t, Head: dp.Head, Body: dp.Body, Height: dp.Height,
			Volleys: g.settings.Volleys, Flames: g.settings.Flames, Swallowed: []Color{}, Effects: []Effect{}}
		if dp.Volleys != nil {
			d.Volleys = *dp.Volleys
		}
		if dp.Flames != nil {
			d.Flames = *dp.Flames
		}
		d.Effects = append(d.Effects, dp.Effects...)
		for _, s := range dp.Swallowed {
			c, ok := ColorOf(s)
			if !ok {
				return nil, errf("deployment: dragon %s: unknown ball %q", team.Name, s)
			}
			d.Swallowed = append(d.Swallowed, c)
		}
		if d.Height == 0 {
			d.Height = 2
		}
		if err := g.dragonFits(t, d.Head, d.Body, d.Height); err != nil {
			return nil, errf("deployment: dragon %s: %v", team.Name, err)
		}
		st.Dragons[t] = d
	}
	for name := range dep.Dragons {
		if name != g.teams[0].Name && name != g.teams[1].Name {
			return nil, errf("deployment: %q is not a team", name)
		}
	}
	placed := map[Color]BallPlace{}
	for k, bp := range dep.Balls {
		c, ok := ColorOf(k)
		if !ok {
			return nil, errf("deployment: unknown ball %q", k)
		}
		if _, h := held[c]; h {
			return nil, errf("deployment: ball %s is both held and free", c)
		}
		placed[c] = bp
	}
	for _, c := range Colors {
		b := &BallState{Color: c, Visible: true, Dir: NoDir}
		if h, ok := held[c]; ok {
			p := st.player(h)
			b.Status, b.Holder, b.Cell, b.Height = BallHeld, h, p.Cell, p.Height
			st.Balls = append(st.Balls, b)
			continue
		}
		b.Status, b.Cell = BallFree, Centre
		if swallowedIn(st, c) {
			b.Status, b.Cell = BallSwallowed, 0
			st.Balls = append(st.Balls, b)
			continue
		}
		if bp, ok := placed[c]; ok {
			if !bp.Cell.Valid() || bp.Height < 0 || bp.Height > 3 {
				return nil, errf("deployment: ball %s: cell %d height %d", c, bp.Cell, bp.Height)
			}
			b.Cell, b.Height, b.Spell = bp.Cell, bp.Height, bp.Spell
			if bp.Dir != "" {
				d, ok := ParseDir(bp.Dir)
				if !ok {
					return nil, errf("deployment: ball %s: direction %q", c, bp.Dir)
				}
				b.Dir = d
			}
			if bp.Visible != nil {
				b.Visible = *bp.Visible
			}
		}
		if rnd != nil {
			if b.Dir == NoDir {
				b.Dir = Dir(rnd.Intn(6))
			}
			if b.Height == 0 {
				b.Height = rnd.Intn(3) + 1
			}
		}
		st.Balls = append(st.Balls, b)
	}
	for t := range st.Dragons {
		for _, c := range st.Dragons[t].Swallowed {
			st.Score[other(t)] += c.Value()
		}
	}
	return st, nil
}

func swallowedIn(st *State, c Color) bool {
	for _, d := range st.Dragons {
		if slices.Contains(d.Swallowed, c) {
			return true
		}
	}
	return false
}

// dragonFits checks a dragon's cells: head and body neighbours, no edge cell, none beyond the
// midline from the team's half.
func (g *Game) dragonFits(t int, head, body Cell, height int) error {
	if !head.Valid() || !body.Valid() {
		return errf("cells %d, %d off the field", head, body)
	}
	f, ok := body.DirTo(head)
	if !ok {
		return errf("head %d is not next to the body %d", head, body)
	}
	tail, ok := body.Step(f.Opposite())
	if !ok {
		return errf("no room for the tail")
	}
	if height < 1 || height > 3 {
		return errf("height %d", height)
	}
	for _, c := range []Cell{head, body, tail} {
		if c.IsEdge() {
			return errf("cell %d is an edge cell", c)
		}
		if h := c.Half(); h != "" && h != sideOf(t) {
			return errf("cell %d is beyond the midline", c)
		}
	}
	return nil
}
