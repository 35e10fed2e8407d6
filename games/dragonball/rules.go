// Package dragonball is Dragonball ("Драконбол") as a forumgm game (listed in package games): it
// decodes its settings, teams and deployment, and gives the referee the game's rules
// (games/dragonball/rules), grammar (games/dragonball/grammar) and voice (games/dragonball/voice) over one
// state.
//
// Orders come by private message and are answered privately at once, as understood; the round
// report and the end go to the thread. On a forum without private messages orders are posted in
// the thread (orders_public), spells included.
//
// Undo: a moderator may undo a player's orders message while its round is still open (the
// player's earlier orders stand again). A resolved round is final: its resolution drew chance
// from the committed seed, and undoing it would let the game be re-rolled; a wrong resolution is
// settled by the moderators' other tools (pause, end).
package dragonball

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/games/dragonball/grammar"
	"forumgm/games/dragonball/rules"
	"forumgm/games/dragonball/voice"
	"forumgm/templates"
)

// Name is the game's name in config.yaml and transcripts.
const Name = "dragonball"

// Game is Dragonball's plug-in value.
type Game struct{}

// Name is "dragonball".
func (Game) Name() string { return Name }

// Title is the game's name on the moderators' pages.
func (Game) Title() string { return "Драконбол" }

// spec is the game's own part of config.yaml's game section or of a transcript.
type spec struct {
	// Settings override the defaults by the contract's names (games/dragonball/rules.Settings).
	Settings yaml.Node `yaml:"settings"`
	// Teams are the two teams: name, side (A or B), players, the dragon's handler.
	Teams []rules.Team `yaml:"teams"`
	// Deployment is a test position (absent: the rulings' default start).
	Deployment yaml.Node `yaml:"deployment"`
}

// Setup decodes and checks a configured Dragonball game, reporting every problem it finds.
func (Game) Setup(sp game.Spec) (*game.Setup, error) {
	var in spec
	if sp.Node.Kind != 0 {
		if err := game.DecodeStrict(&sp.Node, &in); err != nil {
			return nil, err
		}
	}
	var errs []error
	s, serrs := settings(sp, &in.Settings)
	errs = append(errs, serrs...)
	errs = append(errs, checkTeams(in.Teams, s.TeamSize)...)
	var dep *rules.Deployment
	if in.Deployment.Kind != 0 && !(in.Deployment.Kind == yaml.ScalarNode && (in.Deployment.Value == "default" || in.Deployment.Value == "")) {
		dep = &rules.Deployment{}
		if err := game.DecodeStrict(&in.Deployment, dep); err != nil {
			errs = append(errs, fmt.Errorf("deployment: %w", err))
			dep = nil
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if sp.NoPM {
		// Without private messages the thread is the only way to send orders.
		s.OrdersPublic = true
	}
	set, err := loadVoice()
	if err != nil {
		return nil, err
	}
	teams, noPM := in.Teams, sp.NoPM // not sp: the closure would keep its YAML tree
	newRules := func() (game.Rules, error) {
		g, err := rules.New(s, teams, dep)
		if err != nil {
			return nil, err
		}
		return &Rules{Engine: g, game: g, tmpl: set, noPM: noPM}, nil
	}
	if _, err := newRules(); err != nil {
		return nil, err
	}
	var names []string
	for _, t := range teams {
		names = append(names, t.Players...)
	}
	return &game.Setup{New: newRules, Players: names}, nil
}

// settings are the defaults overlaid with the spec's settings and calendar; every problem is
// reported, in the settings' order.
func settings(sp game.Spec, n *yaml.Node) (rules.Settings, []error) {
	s := rules.DefaultSettings()
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("settings."+format, a...)) }
	if n.Kind != 0 {
		if sp.Timezone != "" {
			// config.yaml: the zone is the game's (game.timezone). (config itself refuses
			// settings.seed and salt: a live game draws them.)
			var keys map[string]any
			_ = n.Decode(&keys)
			if _, ok := keys["timezone"]; ok {
				bad("timezone: set it in game.timezone instead")
			}
		}
		if err := game.DecodeStrict(n, &s); err != nil {
			errs = append(errs, fmt.Errorf("settings: %w", err))
			return s, errs
		}
	}
	if sp.Timezone != "" {
		s.Timezone = sp.Timezone
	}
	v := reflect.ValueOf(&s).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		name := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if f.Type.Kind() != reflect.Int {
			continue
		}
		x := int(v.Field(i).Int())
		switch name {
		case "team_size":
			if x < 1 || x > 21 {
				bad("team_size: %d, want 1..21", x)
			}
		case "rounds":
			if x < 1 {
				bad("rounds: %d, want at least 1", x)
			}
		case "enchanted_passes", "volleys", "flames":
			if x < 0 {
				bad("%s: %d is negative", name, x)
			}
		default:
			if x < 0 || x > 100 {
				bad("%s: %d is not a percent (0..100)", name, x)
			}
		}
	}
	if every, err := rules.ParseEvery(s.Deadline); err != nil {
		bad("deadline: %v", err)
	} else if every == 0 {
		if _, err := time.Parse("15:04", strings.TrimSpace(s.Deadline)); err != nil {
			if _, err := time.Parse("3:04", strings.TrimSpace(s.Deadline)); err != nil {
				bad("deadline: %q, want a time of day HH:MM (23:00) or a round length (every 6h, every 45m)", s.Deadline)
			}
		}
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		bad("timezone: %q is not a time zone name (Europe/Moscow)", s.Timezone)
	} else {
		s.Location = loc
	}
	if len(errs) == 0 {
		if err := s.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return s, errs
}

// checkTeams checks the two teams, naming the field of every problem.
func checkTeams(ts []rules.Team, size int) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if len(ts) != 2 {
		bad("teams: %d teams, want 2 ({name, side: A|B, players: [...], handler})", len(ts))
	}
	seen := map[string]string{}
	sides := map[rules.Side]bool{}
	for i, t := range ts {
		at := fmt.Sprintf("teams[%d]", i)
		if strings.TrimSpace(t.Name) == "" {
			bad("%s.name: empty", at)
		} else if prev, dup := seen["team "+t.Name]; dup {
			bad("%s.name: %q is also %s", at, t.Name, prev)
		} else {
			seen["team "+t.Name] = at
		}
		switch t.Side {
		case rules.SideA, rules.SideB:
			if sides[t.Side] {
				bad("%s.side: both teams on side %s", at, t.Side)
			}
			sides[t.Side] = true
		case "":
			if len(ts) == 2 && ts[1-i].Side != "" {
				bad("%s.side: missing (the other team has one): A or B", at)
			}
		default:
			bad("%s.side: %q, want A (the left half) or B (the right half)", at, t.Side)
		}
		if len(t.Players) == 0 {
			bad("%s.players: none", at)
		}
		if len(t.Players) > size {
			bad("%s.players: %d players, team_size is %d", at, len(t.Players), size)
		}
		for j, p := range t.Players {
			pat := fmt.Sprintf("%s.players[%d]", at, j)
			if strings.TrimSpace(p) == "" {
				bad("%s: empty name", pat)
				continue
			}
			if prev, dup := seen[p]; dup {
				bad("%s: %q is also %s", pat, p, prev)
			}
			seen[p] = pat
		}
		if t.Handler != "" && !contains(t.Players, t.Handler) {
			bad("%s.handler: %q does not play in the team", at, t.Handler)
		}
	}
	return errs
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// The templates are parsed once per process.
var (
	voiceOnce sync.Once
	voiceSet  *templates.Set
	voiceErr  error
)

func loadVoice() (*templates.Set, error) {
	voiceOnce.Do(func() { voiceSet, voiceErr = templates.Load(voice.Files, Name, nil) })
	return voiceSet, voiceErr
}

// Rules is one running Dragonball game: the engine's state with the grammar and the voice.
type Rules struct {
	game.Engine // Apply, NextTimer, Tick, DecodeEvent
	game        *rules.Game
	tmpl        *templates.Set
	noPM        bool
	// lastRound is the last round resolved (the view draws its field); nil before the first.
	lastRound *rules.RoundResolved
	// roundFrom is the state lastRound started from and roundSet the settings then: the view
	// plays the round again from them for its tacts (tacts, once; tactsErr if it could not).
	roundFrom *rules.State
	roundSet  rules.Settings
	tacts     []*rules.State
	tactsErr  error
}

var (
	_ game.Rules       = (*Rules)(nil)
	_ game.Opener      = (*Rules)(nil)
	_ game.StartDrawer = (*Rules)(nil)
	_ game.Sandboxed   = Game{}
)

// Game is the engine, for queries.
func (r *Rules) Game() *rules.Game { return r.game }

// Open starts the game: the starting position, the balls' directions and heights the deployment
// leaves open not drawn yet (DrawStart). It draws nothing.
func (r *Rules) Open(at time.Time, _ *game.Rand) ([]game.Event, error) {
	return r.game.Open(at)
}

// StartPending reports whether the balls' start draws wait for the first player post.
func (r *Rules) StartPending() bool { return r.game.Undrawn() }

// DrawStart draws the free balls' open directions and heights at the first player post in the
// thread (game.StartDrawer): that post is in the chain they use, and the reply announces them.
// The first round's deadline is the first after it.
func (r *Rules) DrawStart(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	ev, err := r.game.DrawBalls(at, rnd)
	if err != nil {
		return nil, err
	}
	return []game.Event{ev}, nil
}

// Decide judges an intent. On a forum without private messages orders in the thread count as
// sent privately: there is no other way to send them.
func (r *Rules) Decide(in game.Act) ([]game.Event, error) {
	if _, ok := in.Body.(*rules.Orders); ok && r.noPM {
		in.Private = true
	}
	return r.game.Decide(in)
}

// Title is the game's Russian name.
func (r *Rules) Title() string { return "Драконбол" }

// IsPlayer reports whether name plays in one of the teams.
func (r *Rules) IsPlayer(name string) bool {
	for _, t := range r.game.Teams() {
		if contains(t.Players, name) {
			return true
		}
	}
	return false
}

// Over reports whether the game has ended.
func (r *Rules) Over() bool { return r.game.Over() }

// ExpectsPrivate reports whether a private message can be for the game now: orders go by private
// message before every round's deadline, so always while the game runs (unless orders are
// written in the thread).
func (r *Rules) ExpectsPrivate(time.Time) bool { return !r.game.Over() && !r.ordersPublic() }

// ordersPublic reports whether orders are written in the thread.
func (r *Rules) ordersPublic() bool { return r.game.Settings().OrdersPublic }

// Read is the grammar: orders (a move), a request for help, lines that look like orders but
// cannot be read, or chatter. Where orders go by private message, unreadable order-like lines in
// the thread are chatter (the thread is for talk); readable orders there are judged and refused
// with the reason (send them privately).
func (r *Rules) Read(in game.Input) game.Reading {
	o := grammar.ParsePost(in.Post)
	if o.Empty() {
		if grammar.IsHelp(in.Post.Text) {
			return game.Reading{Kind: game.Help}
		}
		return game.Reading{Kind: game.Chatter}
	}
	if len(o.Tacts) == 0 && len(o.Dragon) == 0 && !o.HasDescription {
		if in.Source == game.Thread && !r.ordersPublic() {
			return game.Reading{Kind: game.Chatter}
		}
		return game.Reading{Kind: game.Unreadable, Lines: o.Unreadable, Detail: detail(o.Unreadable)}
	}
	return game.Reading{Kind: game.Intent, Intent: o, Move: true}
}

// detail is a short English description of unreadable lines for the moderator's flag.
func detail(ps []rules.Problem) string {
	var parts []string
	for _, p := range ps {
		line := p.Line
		if r := []rune(line); len(r) > 60 {
			line = string(r[:60]) + "…"
		}
		parts = append(parts, fmt.Sprintf("%q: %s", line, p.Detail))
	}
	return "unreadable orders: " + strings.Join(parts, "; ")
}

// Say renders a template for a situation the referee reaches.
func (r *Rules) Say(name string, c game.Context) (string, error) {
	return r.tmpl.Render(name, r.view(c))
}

// Refusal explains the engine's refusal, line by line.
func (r *Rules) Refusal(c game.Context, err error) (string, bool, error) {
	ref, ok := rules.AsRefusal(err)
	if !ok {
		return "", false, err
	}
	v := r.view(c)
	v.Problems = ref.Problems
	body, e := r.tmpl.Render("refused", v)
	return body, false, e
}

// Ender is the intent ending the game by a moderator's decision.
func (r *Rules) Ender(winner, reason string) any {
	return &rules.EndGame{Winner: winner, Reason: reason}
}

// Undoable: a player's orders message while its round is open (see the package comment).
func (r *Rules) Undoable(ev game.Event) (string, bool) {
	if oa, ok := ev.(*rules.OrdersAccepted); ok && !r.game.Over() && oa.Round > r.game.Round() {
		return fmt.Sprintf("приказы %s (раунд %d)", oa.Author, oa.Round), true
	}
	return "", false
}

// Defined reports whether a template exists.
func (r *Rules) Defined(name string) bool { return r.tmpl.Defined(name) }

// Required lists every template the game may render: the referee's, the replies to events, and
// the parts they are made of (refusal codes and happenings are branches of "problem" and
// "happening", checked code by code in games/dragonball/voice_test.go).
func (r *Rules) Required() []string {
	names := append([]string(nil), game.RefereeTemplates...)
	return append(names, "orders", "refused", "report", "final", "game_ended", "problem", "happening",
		"field", "score", "tact_order", "dragon_order", "cells", "ball", "Ball", "effect", "moves",
		"deadline", "where_orders", "example", "picture_title", "start_picture_title", "balls_drawn")
}

// Messages renders what an event causes: orders are confirmed to their author (privately when
// they came privately); the round report (with a picture of the field after its last tact
// attached), the end and the seed go to the thread.
func (r *Rules) Messages(c game.Context, ev game.Event) ([]game.Message, error) {
	c.Event = ev
	v := r.view(c)
	var out []game.Message
	var name string
	to := ""
	switch e := ev.(type) {
	case *rules.OrdersAccepted:
		name, to = "orders", game.Sender
	case *rules.RoundResolved:
		body, err := r.tmpl.Render("report", v)
		if err != nil {
			return nil, err
		}
		m := game.Message{Body: body}
		if e.State != nil {
			// The picture is an extra: the text says it all, so a picture that cannot be drawn
			// leaves the report without it rather than holding the report back.
			if a, err := r.pictureOf(e, v); err == nil {
				m.Attachments = []forum.Attachment{a}
			}
		}
		out = append(out, m)
		if e.State == nil || !e.State.Over {
			return out, nil
		}
		name = "final"
	case *rules.GameEnded:
		name = "game_ended"
	case *rules.BallsDrawn:
		name = "balls_drawn"
	case *rules.PlayerReplaced:
		name = "player_replaced"
	case *rules.PlayerRemoved:
		name = "player_removed"
	default:
		return nil, nil
	}
	body, err := r.tmpl.Render(name, v)
	if err != nil {
		return nil, err
	}
	return append(out, game.Message{To: to, Body: body}), nil
}

// Snapshot is the contract's `final` object of `forumgm replay --json`.
func (r *Rules) Snapshot() any { return r.game.Final() }

// ---- the moderators' words (game.Describer) ----

// Describe is an event in words for the moderators ("event KIND" in the templates); "" when the
// templates have no words for it.
func (r *Rules) Describe(ev game.Event) string {
	return r.tmpl.Optional("event "+ev.EventKind(), ev)
}

// StatusView is what the "status" template gets.
type StatusView struct {
	Round  int // the round being played
	Over   bool
	Winner string
}

// Status is the state in words: the round being played, or the end.
func (r *Rules) Status() string {
	s, err := r.tmpl.Render("status", StatusView{Round: r.game.Round() + 1, Over: r.game.Over(), Winner: r.game.Winner()})
	if err != nil {
		return ""
	}
	return s
}

// Winners are the teams and a draw, as EndGame takes them.
func (r *Rules) Winners() []game.Winner {
	var out []game.Winner
	for _, t := range r.game.Teams() {
		out = append(out, game.Winner{Name: t.Name, Label: t.Name})
	}
	return append(out, game.Winner{Name: "draw", Label: "ничья"})
}

// ---- template data ----

// View is what every Dragonball template gets.
type View struct {
	Author       string
	Private      bool
	Event        game.Event
	Problems     []rules.Problem
	Lines        []rules.Problem
	Mod          *game.ModCommand
	Fair         game.Fair
	Page         string // the game's public page ("" none)
	Dispute      string
	OrdersPublic bool
	Teams        [2]rules.Team
	Final        rules.Final
	Settings     rules.Settings
	// Example is orders legal now for one player on the field (the author when they play),
	// for the opening post and the help; nil when nobody is on the field.
	Example *OrdersExample
	// Due is when the round the orders are for is played ("2 декабря в 23:00"; "" when the
	// template is not about orders): an acknowledgement says by when a replacement counts.
	Due string
	// Undrawn: the balls' start draws still wait for the first player post.
	Undrawn bool
}

// OrdersExample is three tacts of orders a player can send now: a step to a neighbouring cell,
// a second step with a height change and a catch, then staying.
type OrdersExample struct {
	Player       string
	Cell         rules.Cell
	Height       int
	Step1, Step2 rules.Cell
	Height2      int
}

// example finds orders legal now for the view's author (or, when the author is not on the
// field, for the first player of side A who is), from the state the view shows.
func (v *View) example() *OrdersExample {
	pick := func(name string) (rules.FinalPlayer, bool) {
		p, ok := v.Final.Players[name]
		return p, ok && p.Status == rules.OnField && p.Cell.Valid()
	}
	name := v.Author
	p, ok := pick(name)
	for _, n := range v.Teams[0].Players {
		if ok {
			break
		}
		name = n
		p, ok = pick(n)
	}
	if !ok {
		return nil
	}
	ex := &OrdersExample{Player: name, Cell: p.Cell, Height: p.Height, Height2: p.Height + 1}
	if ex.Height2 > 3 {
		ex.Height2 = p.Height - 1
	}
	for _, n := range p.Cell.Neighbours() {
		for _, m := range n.Neighbours() {
			if m != p.Cell && ex.Step1 == 0 {
				ex.Step1, ex.Step2 = n, m
			}
		}
	}
	if ex.Step1 == 0 {
		return nil
	}
	return ex
}

// monthsGen are the months in the genitive, as a date is written ("2 декабря").
var monthsGen = [...]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}

func (r *Rules) view(c game.Context) *View {
	v := &View{Event: c.Event, Mod: c.Mod, Fair: c.Fair, Page: c.Page, Dispute: c.Dispute, OrdersPublic: r.ordersPublic(),
		Teams: r.game.Teams(), Final: r.game.Final(), Settings: r.game.Settings()}
	if c.In != nil {
		v.Author = c.In.Author
		v.Private = c.In.Source == game.PM
	}
	if ls, ok := c.Lines.([]rules.Problem); ok {
		v.Lines = ls
	}
	v.Example = v.example()
	v.Undrawn = r.game.Undrawn()
	var at time.Time
	switch e := c.Event.(type) {
	case *rules.OrdersAccepted:
		at = e.At
	case *rules.BallsDrawn:
		at = e.At
	}
	if !at.IsZero() {
		if due, ok := r.game.NextTimer(at); ok {
			d := c.RealTime(due).In(v.Settings.Location) // the master may have moved it
			v.Due = fmt.Sprintf("%d %s в %s", d.Day(), monthsGen[d.Month()-1], d.Format("15:04"))
		}
	}
	return v
}
