package picture

import (
	"fmt"
	"slices"
	"strings"

	"forumgm/games/dragonball/rules"
)

// Field is what a picture shows: the position after one tact.
type Field struct {
	Title   string   `yaml:"title" json:"title"` // e.g. "Раунд 2, такт 3"
	Teams   [2]Team  `yaml:"teams" json:"teams"` // team A (left half), team B (right half)
	Players []Player `yaml:"players" json:"players"`
	Balls   []Ball   `yaml:"balls" json:"balls"`
	Dragons []Dragon `yaml:"dragons" json:"dragons"`
}

// Team is a team's name and its colour, an index into Palette (taken modulo its length); when
// both teams ask for the same colour, team B takes the next one.
type Team struct {
	Name   string `yaml:"name" json:"name"`
	Colour int    `yaml:"colour" json:"colour"`
}

// Player is one player. Cell 0 is off the field: the player is only listed in the legend,
// with Off saying why. Balls are the colour names of the balls in the player's hands.
type Player struct {
	Name   string   `yaml:"name" json:"name"`
	Team   int      `yaml:"team" json:"team"` // 0: team A, 1: team B
	Cell   int      `yaml:"cell" json:"cell"`
	Height int      `yaml:"height" json:"height"` // 1..3 on the field
	Balls  []string `yaml:"balls" json:"balls"`
	// Off is why a player is off the field, as the engine's status says: "hospital" (after a
	// fall), "swallowed" (in a dragon), "" (not said).
	Off string `yaml:"off" json:"off"`
}

// Ball is one ball. A held ball is drawn next to the player whose Balls name it; a ball that
// is neither held nor on a cell (swallowed) is not drawn on the field.
type Ball struct {
	Colour string `yaml:"colour" json:"colour"` // "чёрный", "зелёный", "голубой", "красный", "жёлтый"
	Cell   int    `yaml:"cell" json:"cell"`
	Height int    `yaml:"height" json:"height"`
	Held   bool   `yaml:"held" json:"held"`
}

// Dragon is one team's dragon: three cells in a line at one height.
type Dragon struct {
	Team      int  `yaml:"team" json:"team"`
	Head      int  `yaml:"head" json:"head"`
	Body      int  `yaml:"body" json:"body"`
	Tail      int  `yaml:"tail" json:"tail"`
	Height    int  `yaml:"height" json:"height"`
	MouthOpen bool `yaml:"mouth_open" json:"mouth_open"`
	// Fire are the cells of this tact's fire cone; nil: no fire.
	Fire []int `yaml:"fire" json:"fire"`
	// Swallowed are the colour names of the balls in its belly, drawn on its back.
	Swallowed []string `yaml:"swallowed" json:"swallowed"`
}

// InputError says why a Field cannot be drawn.
type InputError struct {
	Problems []string
}

func (e *InputError) Error() string {
	return "picture: " + strings.Join(e.Problems, "; ")
}

// ballIndex is the ball's place in dragonball.Colors (cheapest first), -1 if the colour is
// unknown. The colour is read as the engine reads it (case, ё, look-alike letters).
func ballIndex(colour string) int {
	c, ok := rules.ColorOf(colour)
	if !ok {
		return -1
	}
	return slices.Index(rules.Colors[:], c)
}

func validCell(c int) bool { return rules.Cell(c).Valid() }

// check lists what is wrong with f.
func (f *Field) check() error {
	var ps []string
	add := func(format string, a ...any) { ps = append(ps, fmt.Sprintf(format, a...)) }
	for i, t := range f.Teams {
		if t.Colour < 0 {
			add("team %d: colour %d", i, t.Colour)
		}
	}
	held := map[int]string{}
	for _, p := range f.Players {
		if strings.TrimSpace(p.Name) == "" {
			add("a player without a name")
		}
		if p.Team != 0 && p.Team != 1 {
			add("player %s: team %d", p.Name, p.Team)
		}
		if p.Cell != 0 && (!validCell(p.Cell) || p.Height < 1 || p.Height > 3) {
			add("player %s: cell %d height %d", p.Name, p.Cell, p.Height)
		}
		if p.Off != "" && (p.Cell != 0 || (p.Off != "hospital" && p.Off != "swallowed")) {
			add("player %s: off %q on cell %d", p.Name, p.Off, p.Cell)
		}
		if len(p.Balls) > 2 {
			add("player %s holds %d balls", p.Name, len(p.Balls))
		}
		for _, b := range p.Balls {
			i := ballIndex(b)
			switch {
			case i < 0:
				add("player %s: unknown ball %q", p.Name, b)
			case p.Cell == 0:
				add("player %s is off the field and holds a ball", p.Name)
			case held[i] != "":
				add("ball %s held by %s and %s", b, held[i], p.Name)
			default:
				held[i] = p.Name
			}
		}
	}
	for _, b := range f.Balls {
		i := ballIndex(b.Colour)
		switch {
		case i < 0:
			add("unknown ball %q", b.Colour)
		case b.Held && held[i] == "":
			add("ball %s is held by nobody", b.Colour)
		case !b.Held && held[i] != "" && b.Cell != 0:
			add("ball %s is on cell %d and held by %s", b.Colour, b.Cell, held[i])
		case !b.Held && b.Cell != 0 && (!validCell(b.Cell) || b.Height < 1 || b.Height > 3):
			add("ball %s: cell %d height %d", b.Colour, b.Cell, b.Height)
		}
	}
	for _, d := range f.Dragons {
		if d.Team != 0 && d.Team != 1 {
			add("dragon: team %d", d.Team)
		}
		if !validCell(d.Head) || !validCell(d.Body) || !validCell(d.Tail) {
			add("dragon %d: cells %d, %d, %d", d.Team, d.Tail, d.Body, d.Head)
		} else if f, ok := rules.Cell(d.Body).DirTo(rules.Cell(d.Head)); !ok {
			add("dragon %d: head %d is not next to body %d", d.Team, d.Head, d.Body)
		} else if t, _ := rules.Cell(d.Body).Step(f.Opposite()); int(t) != d.Tail {
			add("dragon %d: tail %d is not behind body %d", d.Team, d.Tail, d.Body)
		}
		if d.Height < 1 || d.Height > 3 {
			add("dragon %d: height %d", d.Team, d.Height)
		}
		for _, c := range d.Fire {
			if !validCell(c) {
				add("dragon %d: fire on cell %d", d.Team, c)
			}
		}
		for _, b := range d.Swallowed {
			if ballIndex(b) < 0 {
				add("dragon %d: unknown ball %q", d.Team, b)
			}
		}
	}
	if len(ps) > 0 {
		return &InputError{Problems: ps}
	}
	return nil
}
