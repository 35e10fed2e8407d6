// Package signup owns a game's sign-up phase: players join in the thread («записываюсь»,
// «записываюсь за сарацин», «в команду Грифоны», «выхожу»), the teams are formed at the
// deadline or when full (unassigned players placed by a seeded draw), the teams organise by
// private message or in the thread (a role such as a captain, the pieces each player holds), and
// then the game itself begins; later a player may leave («выхожу из игры») and a new one take his
// place («записываюсь на замену ИМЯ»), or his place is closed by the game's rule. It wraps a game
// plug-in that declares its team shape (game.Enroller) and names no game: a config or transcript
// with a signup: block gets these Rules around the game's own, one without it the game's own.
package signup

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/russian"
	"forumgm/templates"
)

// Key is the game section's key of the sign-up block.
const Key = "signup"

// Config is the signup: block of a game (config.yaml's game section or a transcript).
type Config struct {
	// Deadline ends the sign-up: the teams are formed then (or earlier, UntilFull).
	Deadline time.Time `yaml:"deadline"`
	// TeamSize is the most players per team (0: the game's own sizes).
	TeamSize int `yaml:"team_size"`
	// UntilFull forms the teams as soon as every team is full (every team needs a size).
	UntilFull bool `yaml:"until_full"`
	// Teams names the teams where the game lets them be named (football, Dragonball).
	Teams []string `yaml:"teams"`
	// Organise is how long the teams have to organise after formation (default 24h).
	Organise string `yaml:"organise"`
	// Replace is how long a team has to find a replacement for a player who left (default 48h).
	Replace string `yaml:"replace"`
	// Extend is how far the deadline moves when too few players came (default 24h).
	Extend string `yaml:"extend"`
}

// Wrap gives g a sign-up phase when it declares its team shape (game.Enroller); other games are
// returned as they are. The wrapped game is g itself for any game section without signup:.
func Wrap(g game.Game) game.Game {
	e, ok := g.(game.Enroller)
	if !ok {
		return g
	}
	w := &Game{Game: g, e: e}
	if s, ok := g.(game.Sandboxed); ok {
		return &sandboxed{Game: w, s: s}
	}
	return w
}

// Game is a game plug-in with a sign-up phase.
type Game struct {
	game.Game
	e game.Enroller
}

type sandboxed struct {
	*Game
	s game.Sandboxed
}

func (s *sandboxed) Sandbox() game.SandboxGame { return s.s.Sandbox() }

// Inner is the game wrapped.
func (g *Game) Inner() game.Game { return g.Game }

// Setup decodes a game section: without a signup: block it is the game's own Setup; with one,
// the roster comes from the thread and the game is built when play begins.
func (g *Game) Setup(sp game.Spec) (*game.Setup, error) {
	block, rest := split(&sp.Node)
	if block == nil {
		return g.Game.Setup(sp)
	}
	sp.Node = rest
	var cfg Config
	if err := game.DecodeStrict(block, &cfg); err != nil {
		return nil, fmt.Errorf("signup: %w", err)
	}
	p, err := g.prepare(sp, cfg)
	if err != nil {
		return nil, err
	}
	return &game.Setup{New: func() (game.Rules, error) { return p.rules(), nil }, SignUp: true}, nil
}

// split takes the signup: block out of a game section (nil: none).
func split(n *yaml.Node) (block *yaml.Node, rest yaml.Node) {
	rest = *n
	if n.Kind != yaml.MappingNode {
		return nil, rest
	}
	rest.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == Key {
			block = n.Content[i+1]
			continue
		}
		rest.Content = append(rest.Content, n.Content[i], n.Content[i+1])
	}
	return block, rest
}

// prepared is a checked sign-up configuration: what every fresh Rules starts from.
type prepared struct {
	g                         *Game
	sp                        game.Spec
	cfg                       Config
	shape                     game.Shape
	organise, replace, extend time.Duration
	probe                     game.Rules // the game on a placeholder roster: texts before play
	set                       *templates.Set
	loc                       *time.Location // the game's zone (game.timezone, else the deadline's)
}

func (g *Game) prepare(sp game.Spec, cfg Config) (*prepared, error) {
	var errs []error
	shape, err := g.e.Shape(sp, cfg.Teams, cfg.TeamSize)
	if err != nil {
		return nil, fmt.Errorf("signup: %w", err)
	}
	if len(shape.Teams) < 2 {
		errs = append(errs, fmt.Errorf("signup: the game has %d teams, want two or more", len(shape.Teams)))
	}
	if shape.Min < 1 {
		shape.Min = 1
	}
	if cfg.Deadline.IsZero() {
		errs = append(errs, errors.New("signup.deadline: missing (when the sign-up ends, e.g. 2026-12-03T20:00:00+03:00)"))
	} else if !sp.Start.IsZero() && !cfg.Deadline.After(sp.Start) {
		errs = append(errs, fmt.Errorf("signup.deadline %s is not after the game's start %s", cfg.Deadline.Format(time.RFC3339), sp.Start.Format(time.RFC3339)))
	}
	for _, t := range shape.Teams {
		if len(t.Pieces) > 0 && shape.PiecesList == "" {
			errs = append(errs, fmt.Errorf("signup: the game shares pieces but names no list for them (a bug in the game's Shape)"))
			break
		}
	}
	if cfg.UntilFull {
		for _, t := range shape.Teams {
			if t.Size == 0 {
				errs = append(errs, fmt.Errorf("signup.until_full: team %q has no size (set signup.team_size)", t.Key))
			}
		}
	}
	p := &prepared{g: g, sp: sp, cfg: cfg, shape: shape, loc: cfg.Deadline.Location()}
	if sp.Timezone != "" {
		loc, err := time.LoadLocation(sp.Timezone)
		if err != nil {
			errs = append(errs, fmt.Errorf("signup: timezone %q: %w", sp.Timezone, err))
		} else {
			p.loc = loc
		}
	}
	for _, d := range []struct {
		name, v string
		def     time.Duration
		to      *time.Duration
	}{{"organise", cfg.Organise, 24 * time.Hour, &p.organise}, {"replace", cfg.Replace, 48 * time.Hour, &p.replace}, {"extend", cfg.Extend, 24 * time.Hour, &p.extend}} {
		*d.to = d.def
		if d.v == "" {
			continue
		}
		v, err := time.ParseDuration(d.v)
		if err != nil || v < 0 || (v == 0 && d.name != "organise") {
			errs = append(errs, fmt.Errorf("signup.%s: %q is not a duration such as 24h", d.name, d.v))
			continue
		}
		*d.to = v
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The game on a placeholder roster checks the rest of the section now (check-config) and
	// gives the texts the referee needs before play begins.
	probe, err := p.build(placeholder(shape), sp.Start)
	if err != nil {
		return nil, fmt.Errorf("signup: the game's section with a full roster: %w", err)
	}
	p.probe = probe
	if p.set, err = loadVoice(); err != nil {
		return nil, err
	}
	return p, nil
}

// build is the game itself on a formed roster, play beginning at at.
func (p *prepared) build(teams []game.Formed, at time.Time) (game.Rules, error) {
	sp := p.sp
	sp.Start = at
	sp2, err := p.g.e.Enrol(sp, teams)
	if err != nil {
		return nil, fmt.Errorf("signup: enrol: %w", err)
	}
	setup, err := p.g.Game.Setup(sp2)
	if err != nil {
		return nil, fmt.Errorf("signup: the formed game: %w", err)
	}
	return setup.New()
}

// placeholder is a full roster of made-up names, every role and piece given by default.
func placeholder(shape game.Shape) []game.Formed {
	out := make([]game.Formed, len(shape.Teams))
	for i, t := range shape.Teams {
		n := max(t.Size, shape.Min, 1)
		if t.Size == 0 && t.PerPlayer > 0 && len(t.Pieces) > 0 {
			n = max(shape.Min, (len(t.Pieces)+t.PerPlayer-1)/t.PerPlayer)
		}
		f := game.Formed{Key: t.Key}
		for j := range n {
			f.Players = append(f.Players, fmt.Sprintf("Игрок-%d-%d", i+1, j+1))
		}
		defaults(t, &f)
		out[i] = f
	}
	return out
}

// defaults fills what a team did not name: the role goes to its first player, the pieces are
// dealt in order, as evenly as the players allow.
func defaults(t game.Slot, f *game.Formed) (role, pieces bool) {
	if t.Role != "" && f.Role == "" && len(f.Players) > 0 {
		f.Role, role = f.Players[0], true
	}
	if len(t.Pieces) > 0 && len(f.Pieces) == 0 && len(f.Players) > 0 {
		f.Pieces, pieces = deal(t.Pieces, f.Players), true
	}
	return role, pieces
}

// deal gives pieces to players in order, in blocks as even as the numbers allow.
func deal(pieces, players []string) map[string][]string {
	out := map[string][]string{}
	n, k := len(pieces), len(players)
	at := 0
	for i, p := range players {
		c := n / k
		if i < n%k {
			c++
		}
		out[p] = append([]string(nil), pieces[at:at+c]...)
		at += c
	}
	return out
}

//go:embed voice/*.tmpl
var voiceFiles embed.FS

var loadVoice = sync.OnceValues(func() (*templates.Set, error) {
	sub, err := fs.Sub(voiceFiles, "voice")
	if err != nil {
		return nil, fmt.Errorf("signup: voice: %w", err)
	}
	return templates.Load(sub, "signup", funcs)
})

// fold is how names and team words are compared: case, ё, look-alike letters and spacing folded.
func fold(s string) string {
	return russian.ToCyrillicLower(russian.Fold(strings.Join(strings.Fields(russian.CleanText(s)), " ")))
}
