// Package crusade is Crusade ("Крестовый поход") as a forumgm game (listed in package games): it
// decodes its settings, roster, deployment and question bank, and gives the referee the game's
// rules (games/crusade/rules), grammar (games/crusade/grammar) and voice (games/crusade/voice) over one state.
package crusade

import (
	_ "embed"
	"errors"
	"fmt"
	"forumgm/forum"
	"forumgm/games/crusade/picture"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/crusade/grammar"
	"forumgm/games/crusade/rules"
	"forumgm/games/crusade/voice"
	"forumgm/quiz"
	"forumgm/templates"
)

// defaultQuestions is the daily-question bank a game uses unless it names its own.
//
//go:embed questions.yaml
var defaultQuestions []byte

// Name is the game's name in config.yaml and transcripts.
const Name = "crusade"

// Game is Crusade's plug-in value.
type Game struct{}

// Name is "crusade".
func (Game) Name() string { return Name }

// Title is the game's name on the moderators' pages.
func (Game) Title() string { return "Крестовый поход" }

// spec is the game's own part of config.yaml's game section or a transcript.
type spec struct {
	// Settings override the defaults by the settings' names (games/crusade/rules.Settings).
	Settings yaml.Node `yaml:"settings"`
	// Players (transcripts) or Roster (config.yaml): who plays which side.
	Players []player `yaml:"players"`
	Roster  []player `yaml:"roster"`
	// Deployment: default, private, or per side a map of warrior to cell (a test position).
	Deployment yaml.Node `yaml:"deployment"`
	// Questions (transcripts) or QuestionBank (config.yaml): a question bank file.
	Questions    string `yaml:"questions"`
	QuestionBank string `yaml:"question_bank"`
}

type player struct {
	Name     string   `yaml:"name"`
	Side     string   `yaml:"side"`
	Warriors []string `yaml:"warriors"`
}

// Setup decodes and checks a configured Crusade game.
func (Game) Setup(sp game.Spec) (*game.Setup, error) {
	var in spec
	if sp.Node.Kind != 0 {
		if err := game.DecodeStrict(&sp.Node, &in); err != nil {
			return nil, err
		}
	}
	var errs []error
	s, err := settings(sp, in)
	if err != nil {
		errs = append(errs, err)
	}
	players := in.Players
	if len(players) == 0 {
		players = in.Roster
	}
	var roster rules.Roster
	var names []string
	for _, p := range players {
		pl := rules.Player{Name: p.Name, Side: rules.Side(p.Side)}
		for _, w := range p.Warriors {
			pl.Warriors = append(pl.Warriors, rules.WarriorID(w))
		}
		roster.Players = append(roster.Players, pl)
		names = append(names, p.Name)
	}
	if len(players) == 0 {
		errs = append(errs, errors.New("roster: no players"))
	} else if err := roster.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("roster: %w", err))
	}
	setup, err := deployment(&in.Deployment, sp.Start)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if sp.NoPM {
		// Without private messages nothing can be hidden: no invisible forests.
		s.ForestInvisible = false
	}
	set, err := loadVoice()
	if err != nil {
		return nil, err
	}
	noPM, zone := sp.NoPM, sp.Zone // not sp: the closure would keep its YAML tree
	newRules := func() (game.Rules, error) {
		g, err := rules.New(s, roster, setup)
		if err != nil {
			return nil, err
		}
		return &Rules{Engine: g, game: g, tmpl: set, noPM: noPM, zone: zone}, nil
	}
	if _, err := newRules(); err != nil {
		return nil, err
	}
	return &game.Setup{New: newRules, Players: names}, nil
}

// settings are the defaults overlaid with the spec's settings, calendar and question bank.
func settings(sp game.Spec, in spec) (rules.Settings, error) {
	s := rules.DefaultSettings()
	if in.Settings.Kind != 0 {
		if sp.Timezone != "" {
			var keys map[string]any
			_ = in.Settings.Decode(&keys)
			for _, k := range []string{"timezone", "working_days", "questions"} {
				if _, ok := keys[k]; ok {
					return s, fmt.Errorf("settings.%s: set it in game.timezone / game.calendar / game.question_bank instead", k)
				}
			}
		}
		if err := game.DecodeStrict(&in.Settings, &s); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
	}
	if sp.Timezone != "" {
		s.Timezone = sp.Timezone
	}
	if len(sp.WorkingDays) > 0 {
		s.WorkingDays = append([]string(nil), sp.WorkingDays...)
	}
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return s, fmt.Errorf("settings: timezone %q: %w", s.Timezone, err)
	}
	s.Location = loc
	if len(s.Questions) == 0 {
		file := in.Questions
		if file == "" {
			file = in.QuestionBank
		}
		if file != "" {
			if !filepath.IsAbs(file) && sp.Dir != "" {
				file = filepath.Join(sp.Dir, file)
			}
			bank, err := quiz.Load(file)
			if err != nil {
				return s, fmt.Errorf("question bank: %w", err)
			}
			s.Questions = questions(bank)
		} else if s.Questions, err = embeddedQuestions(); err != nil {
			return s, fmt.Errorf("question bank: %w", err)
		}
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	return s, nil
}

// embeddedQuestions is the embedded bank, parsed once per process and shared (read-only) by
// every game that uses it.
var embeddedQuestions = sync.OnceValues(func() ([]rules.Question, error) {
	bank, err := quiz.Parse(defaultQuestions, "the embedded question bank")
	if err != nil {
		return nil, err
	}
	return slices.Clip(questions(bank)), nil
})

func questions(bank quiz.Bank) []rules.Question {
	out := make([]rules.Question, 0, len(bank.Questions))
	for _, q := range bank.Questions {
		out = append(out, rules.Question{Text: q.Text, Answers: q.Answers})
	}
	return out
}

// deployment reads the starting position: default, private, or a test position.
func deployment(n *yaml.Node, start time.Time) (rules.Setup, error) {
	switch {
	case n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Value == "default"):
		return rules.Setup{Mode: rules.SetupDefault, At: start}, nil
	case n.Kind == yaml.ScalarNode && n.Value == "private":
		return rules.Setup{Mode: rules.SetupPrivate, At: start}, nil
	case n.Kind == yaml.MappingNode:
		var sides map[string]map[string]string
		if err := n.Decode(&sides); err != nil {
			return rules.Setup{}, fmt.Errorf("deployment: %w", err)
		}
		cells := map[rules.WarriorID]rules.Cell{}
		for side, ws := range sides {
			if side != string(rules.Crusaders) && side != string(rules.Saracens) {
				return rules.Setup{}, fmt.Errorf("deployment: unknown side %q (crusaders or saracens)", side)
			}
			for w, c := range ws {
				cell, err := rules.ParseCell(strings.ToUpper(c))
				if err != nil {
					return rules.Setup{}, fmt.Errorf("deployment: %s: %w", w, err)
				}
				id := rules.WarriorID(w)
				if !id.Valid() || string(id.Side()) != side {
					return rules.Setup{}, fmt.Errorf("deployment: %q is not a warrior of the %s", w, side)
				}
				cells[id] = cell
			}
		}
		return rules.Setup{Mode: rules.SetupCustom, Cells: cells, At: start}, nil
	}
	return rules.Setup{}, fmt.Errorf("deployment: want default, private, or {crusaders: {р1: J18, ...}, saracens: {...}}")
}

// The templates are parsed once per process.
var (
	voiceOnce sync.Once
	voiceSet  *templates.Set
	voiceErr  error
)

func loadVoice() (*templates.Set, error) {
	voiceOnce.Do(func() { voiceSet, voiceErr = templates.Load(voice.Files, Name, funcs()) })
	return voiceSet, voiceErr
}

// Rules is one running Crusade game: the engine's state with the grammar and the voice.
type Rules struct {
	game.Engine // NextTimer, Tick, DecodeEvent (Apply below)
	game        *rules.Game
	tmpl        *templates.Set
	noPM        bool
	// examples holds the replies' examples found on the current state (Apply clears it).
	examples []example
	// set is the game's settings, copied once (they never change during a game).
	set *rules.Settings
	// penalty is each side's last penalty in wounds (a sloppy post, the time limit, a moderator's
	// wounds), for a moderator overturning a disputed decision (Penalty).
	penalty map[rules.Side]int
	// zone is the game zone's name written beside deadlines when the forum shows another zone.
	zone string
	// last is the last turn played (the view marks its cells); nil before the first.
	last *rules.TurnPlayed
}

// Rest drops the board's drawings between the daemon's cycles (game.Rester).
func (r *Rules) Rest() { r.game.Rest() }

// settings are the game's settings, for the texts (shared by every view: read only).
func (r *Rules) settings() *rules.Settings {
	if r.set == nil {
		s := r.game.Settings()
		r.set = &s
	}
	return r.set
}

// Game is the engine, for queries.
func (r *Rules) Game() *rules.Game { return r.game }

// Decide judges an intent (a deployment on a forum without private messages counts as private:
// there is no other way to send it).
func (r *Rules) Decide(in game.Act) ([]game.Event, error) {
	if _, ok := in.Body.(*rules.Deployment); ok && r.noPM {
		in.Private = true
	}
	return r.game.Decide(in)
}

// Apply folds an event into the state; the examples found on the old state are dropped.
func (r *Rules) Apply(ev game.Event) error {
	r.examples = nil
	if err := r.game.Apply(ev); err != nil {
		return err
	}
	if r.penalty == nil {
		r.penalty = map[rules.Side]int{}
	}
	switch e := ev.(type) {
	case *rules.TurnPlayed:
		r.last = e
		if e.Wounds > 0 {
			r.penalty[e.Side] = e.Wounds
		}
	case *rules.TimeLimitExceeded:
		r.penalty[e.Side] = e.Wounds
	case *rules.WoundsAdjusted:
		r.penalty[e.Side] = max(e.Delta, 0)
	case *rules.DayClosed:
		clear(r.penalty) // the day's wounds are applied; new ones are the close's own
		for side, n := range e.Penalties {
			r.penalty[side] = n
		}
	}
	return nil
}

// Penalty takes back the last penalty of author's side, as far as its wounds are still owed and
// unallocated (an allocated or applied wound stays; docs/rules/crusade.md).
func (r *Rules) Penalty(author string) (any, bool) {
	side, ok := r.game.PlayerSide(author)
	if !ok {
		return nil, false
	}
	n := min(r.penalty[side], r.game.WoundsOwed(side).Unallocated)
	if n <= 0 {
		return nil, false
	}
	return &rules.AdjustWounds{Side: side, Delta: -n, Reason: "спор решён в пользу игрока"}, true
}

// Title is the game's Russian name.
func (r *Rules) Title() string { return "Крестовый поход" }

// IsPlayer reports whether name plays.
func (r *Rules) IsPlayer(name string) bool {
	_, ok := r.game.PlayerSide(name)
	return ok
}

// ExpectsPrivate reports whether a private message can be for the game now: a private deployment
// still missing, wounds a side has to allocate, or forest moves while forests are invisible.
func (r *Rules) ExpectsPrivate(time.Time) bool {
	g := r.game
	switch g.Phase() {
	case rules.PhaseDeploying:
		return true
	case rules.PhasePlaying:
		return g.Settings().ForestInvisible ||
			g.WoundsOwed(rules.Crusaders).Unallocated > 0 || g.WoundsOwed(rules.Saracens).Unallocated > 0
	}
	return false
}

// Over reports whether the game has ended.
func (r *Rules) Over() bool { return r.game.Phase() == rules.PhaseOver }

// Read is the grammar: a move, an allocation, a deployment, an answer to today's question, a
// request for help, or chatter.
func (r *Rules) Read(in game.Input) game.Reading {
	res := grammar.ParseKnown(in.Post, grammar.Known{Text: r.game.Board(), Cells: r.game.Tokens()})
	switch res.Class {
	case grammar.Chatter:
		if grammar.IsHelp(in.Post.Text) {
			return game.Reading{Kind: game.Help}
		}
		if r.game.CurrentQuestion() == nil || in.Source != game.Thread {
			return game.Reading{Kind: game.Chatter}
		}
		text, form := grammar.ReadAnswer(in.Post.Text)
		if form == grammar.NotAnswer {
			return game.Reading{Kind: game.Chatter}
		}
		return game.Reading{Kind: game.Intent, Intent: &rules.Answer{Text: text}}
	case grammar.Unreadable:
		return game.Reading{Kind: game.Unreadable, Lines: res.Problems, Detail: lineErrors(res.Problems)}
	}
	rd := game.Reading{Kind: game.Intent, Move: true}
	switch res.Class {
	case grammar.TurnPost:
		rd.Intent = res.Turn
	case grammar.AllocationPost:
		rd.Intent = res.Allocation
	case grammar.DeploymentPost:
		rd.Intent = res.Deployment
	}
	var be *rules.BoardError
	if res.BoardErr != nil && errors.As(res.BoardErr, &be) {
		// Already counted as sloppiness by the engine (no readable board); say why.
		if note, err := r.tmpl.Render("board_unreadable", be); err == nil {
			rd.Note = note
		}
	}
	return rd
}

// Say renders a template for a situation the referee reaches.
func (r *Rules) Say(name string, c game.Context) (string, error) {
	return r.tmpl.Render(name, r.view(c))
}

// Refusal explains the engine's refusal. A refused answer to the daily question is answered when
// the post is surely an answer ("Ответ: …", or one to three words such as "Кажется, Эдесса");
// a short post that may as well be chatter ("хм, сложно") is not.
func (r *Rules) Refusal(c game.Context, err error) (string, bool, error) {
	ref, ok := rules.AsRefusal(err)
	if !ok {
		return "", false, err
	}
	v := r.view(c)
	v.Problems = ref.Problems
	name := "refused"
	if ref.Has(rules.CodeWrongAnswer) || ref.Has(rules.CodeAlreadyAnswered) || ref.Has(rules.CodeNoQuestion) {
		name = "answer_refused"
		if c.In != nil {
			if _, form := grammar.ReadAnswer(c.In.Post.Text); form < grammar.BareAnswer {
				return "", true, nil
			}
		}
	}
	body, e := r.tmpl.Render(name, v)
	return body, false, e
}

// Ender is the intent ending the game by a moderator's decision.
func (r *Rules) Ender(winner, reason string) any {
	return &rules.EndGame{Winner: rules.Side(winner), Reason: reason}
}

// AddPlayer is the intent adding a player: role is a side (crusaders, saracens, or Russian).
func (r *Rules) AddPlayer(name, role string) (any, error) {
	side, ok := parseSide(role)
	if !ok {
		return nil, fmt.Errorf("%q is not a side (crusaders or saracens)", role)
	}
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("no player name")
	}
	return &rules.AddPlayer{Player: rules.Player{Name: strings.TrimSpace(name), Side: side}}, nil
}

// Adjust gives a side wounds (amount > 0) or takes owed wounds back (amount < 0).
func (r *Rules) Adjust(target string, amount int, reason string) (any, error) {
	side, ok := parseSide(target)
	if !ok {
		return nil, fmt.Errorf("%q is not a side (crusaders or saracens)", target)
	}
	return &rules.AdjustWounds{Side: side, Delta: amount, Reason: reason}, nil
}

// parseSide reads a side by its English or Russian name, any case.
func parseSide(s string) (rules.Side, bool) {
	f := strings.ToLower(strings.TrimSpace(s))
	for side, words := range sideWords {
		if side == rules.Draw {
			continue
		}
		if f == string(side) {
			return side, true
		}
		for _, w := range words {
			if f == w {
				return side, true
			}
		}
	}
	return "", false
}

// Undoable: a played turn may be undone.
func (r *Rules) Undoable(ev game.Event) (string, bool) {
	if tp, ok := ev.(*rules.TurnPlayed); ok {
		return fmt.Sprintf("ход %d (%s)", tp.Number, tp.Author), true
	}
	return "", false
}

// Defined reports whether a template exists.
func (r *Rules) Defined(name string) bool { return r.tmpl.Defined(name) }

// Required lists every template the game may render.
func (r *Rules) Required() []string {
	names := append([]string(nil), game.RefereeTemplates...)
	names = append(names, "refused", "answer_refused", "board_unreadable", "turn_hidden", "deadline")
	names = append(names, eventTemplates...)
	for _, c := range rules.AllCodes {
		names = append(names, "problem."+string(c))
	}
	for _, c := range grammar.AllReasons {
		names = append(names, "unread."+string(c))
	}
	for _, c := range rules.AllSloppyCodes {
		names = append(names, "sloppy."+string(c))
	}
	return names
}

// eventTemplates are the templates of the engine's events, by the event type they answer.
var eventTemplates = []string{"turn", "allocated", "deployment_received", "game_started", "question",
	"answer_accepted", "time_limit", "day_closed", "game_ended", "player_added", "wounds_adjusted"}

// Messages renders what an event causes.
func (r *Rules) Messages(c game.Context, ev game.Event) ([]game.Message, error) {
	c.Event = ev
	v := r.view(c)
	var name string
	public := false
	switch e := ev.(type) {
	case *rules.TurnPlayed:
		t, err := v.turnWords(e)
		if err != nil {
			return nil, err
		}
		v.Turn = t
		if c.In != nil && c.In.Source == game.PM {
			// A hidden forest turn: the details to the player, a notice with the public board
			// (forest warriors not drawn) and any meeting in the forest to the thread.
			private, err := r.tmpl.Render("turn", v)
			if err != nil {
				return nil, err
			}
			notice, err := r.tmpl.Render("turn_hidden", v)
			if err != nil {
				return nil, err
			}
			return []game.Message{{To: game.Sender, Body: private}, {Body: notice, Clock: r.clockOf(e)}}, nil
		}
		name, public = "turn", true
	case *rules.WoundsAllocated:
		name = "allocated"
		public = !e.Private
	case *rules.DeploymentReceived:
		name = "deployment_received"
	case *rules.GameStarted:
		name, public = "game_started", true
	case *rules.QuestionAsked:
		name, public = "question", true
	case *rules.AnswerAccepted:
		name, public = "answer_accepted", true
	case *rules.TimeLimitExceeded:
		name, public = "time_limit", true
	case *rules.DayClosed:
		name, public = "day_closed", true
	case *rules.GameEnded:
		name, public = "game_ended", true
	case *rules.PlayerAdded:
		name, public = "player_added", true
	case *rules.PlayerReplaced:
		name, public = "player_replaced", true
	case *rules.PlayerRemoved:
		name, public = "player_removed", true
	case *rules.WoundsAdjusted:
		name, public = "wounds_adjusted", true
	default:
		return nil, nil
	}
	body, err := r.tmpl.Render(name, v)
	if err != nil {
		return nil, err
	}
	if public {
		m := game.Message{Body: body, Clock: r.clockOf(ev)}
		if _, turn := ev.(*rules.TurnPlayed); turn && r.settings().BoardPicture {
			a, err := r.boardPicture("Крестовый поход — поле после хода")
			if err != nil {
				return nil, err
			}
			m.Body += "\n" + forum.Placeholder(a.Name)
			m.Attachments = []forum.Attachment{a}
		}
		return []game.Message{m}, nil
	}
	return []game.Message{{To: game.Sender, Body: body}}, nil
}

// boardPicture is the board as it stands, drawn (games/crusade/picture), titled.
func (r *Rules) boardPicture(title string) (forum.Attachment, error) {
	data, err := picture.Draw(picture.Board{Title: title, Tokens: r.game.Tokens()})
	if err != nil {
		return forum.Attachment{}, fmt.Errorf("crusade: the board's picture: %w", err)
	}
	return forum.Attachment{Name: "crusade-board.png", ContentType: "image/png", Data: data}, nil
}

// StartAttachments is the opening post's picture of the board (game.Illustrated): the whole
// board where a forum's code box shows only part of it. A game that starts with a private
// deployment has no board yet: no picture.
func (r *Rules) StartAttachments() ([]forum.Attachment, error) {
	if r.game.Phase() != rules.PhasePlaying {
		return nil, nil
	}
	a, err := r.boardPicture("Крестовый поход — поле в начале партии")
	if err != nil {
		return nil, err
	}
	return []forum.Attachment{a}, nil
}

// clockOf is the clock a public reply to ev starts ("" none): the reply to a turn or to the
// armies' deployment shows the position the side to move answers (the templates put
// game.DeadlineSlot after whose move it is).
func (r *Rules) clockOf(ev game.Event) string {
	switch ev.(type) {
	case *rules.TurnPlayed, *rules.GameStarted:
		return r.Clock()
	}
	return ""
}

// Clock is the key of the side to move's wait ("" when nobody is to move): the opening post of
// a game that starts in play carries it.
func (r *Rules) Clock() string {
	if r.game.Phase() != rules.PhasePlaying {
		return ""
	}
	return rules.ClockKey(r.game.Turns(), r.game.SideToMove())
}

// ---- the clock a reply starts (game.ClockStarter) ----

// Delivered is the reply showing wait key's position posted at at: the side's evening limit
// counts from then when that is later than the wait's start (games/crusade/rules: Game.Delivered).
func (r *Rules) Delivered(key string, at time.Time) ([]game.Event, error) {
	return r.game.Delivered(key, at), nil
}

// Deadline is the reply's words for the first deadline of wait key when posted at at (the
// template "deadline"); "" when there is none to state.
func (r *Rules) Deadline(c game.Context, key string, at time.Time) (string, error) {
	dl, ok := r.game.Deadline(key, at)
	if !ok {
		return "", nil
	}
	loc := r.game.Location()
	l, from := c.RealTime(dl).In(loc), c.RealTime(at).In(loc)
	y1, m1, d1 := l.Date()
	y2, m2, d2 := from.Date()
	return r.tmpl.Render("deadline", deadlineView{At: l, SameDay: y1 == y2 && m1 == m2 && d1 == d2, Zone: r.zone})
}

// deadlineView is what the template "deadline" gets.
type deadlineView struct {
	At      time.Time // the deadline in the game's zone
	SameDay bool      // the same day as the reply
	Zone    string    // the zone's name when the forum shows another ("" none)
}

// ---- the replay's final state ----

// WarriorFinal is one warrior in the replay's final state.
type WarriorFinal struct {
	Cell    string         `json:"cell"`
	Attack  map[string]int `json:"attack"`
	Defence int            `json:"defence"`
	Alive   bool           `json:"alive"`
}

// Final is the replay's "final" object.
type Final struct {
	Board    string                  `json:"board"`
	Warriors map[string]WarriorFinal `json:"warriors"`
	Wounds   map[string]int          `json:"wounds"`
	Winner   string                  `json:"winner"`
}

// Snapshot is the state in the replay's "final" shape. Warriors not in play are left out.
func (r *Rules) Snapshot() any {
	f := Final{
		Board:    r.game.Board(),
		Warriors: map[string]WarriorFinal{},
		Wounds: map[string]int{
			string(rules.Crusaders): r.game.WoundsOwed(rules.Crusaders).Total,
			string(rules.Saracens):  r.game.WoundsOwed(rules.Saracens).Total,
		},
		Winner: string(r.game.Winner()),
	}
	for _, w := range r.game.Warriors() {
		if !w.InPlay {
			continue
		}
		wf := WarriorFinal{Attack: w.Attack, Defence: w.Defence, Alive: w.Alive}
		if w.Cell != nil {
			wf.Cell = w.Cell.String()
		}
		f.Warriors[string(w.ID)] = wf
	}
	return f
}

// ---- the moderators' words (game.Describer) ----

// Describe is an event in words for the moderators ("event KIND" in the templates); "" when the
// templates have no words for it.
func (r *Rules) Describe(ev game.Event) string {
	return r.tmpl.Optional("event "+ev.EventKind(), ev)
}

// StatusView is what the "status" template gets.
type StatusView struct {
	Phase  rules.Phase
	ToMove rules.Side
	Winner rules.Side
	Owed   []SideOwed
}

// SideOwed is a side's wounds not allocated yet.
type SideOwed struct {
	Side rules.Side
	N    int
}

// Status is the state in words: the phase, whose turn it is, the wounds each side still has to
// allocate.
func (r *Rules) Status() string {
	v := StatusView{Phase: r.game.Phase(), ToMove: r.game.SideToMove(), Winner: r.game.Winner()}
	for _, s := range []rules.Side{rules.Crusaders, rules.Saracens} {
		if n := r.game.WoundsOwed(s).Unallocated; n > 0 {
			v.Owed = append(v.Owed, SideOwed{Side: s, N: n})
		}
	}
	s, err := r.tmpl.Render("status", v)
	if err != nil {
		return ""
	}
	return s
}

// Winners are the sides and a draw, as EndGame takes them.
func (r *Rules) Winners() []game.Winner {
	var out []game.Winner
	for _, s := range []rules.Side{rules.Crusaders, rules.Saracens, rules.Draw} {
		out = append(out, game.Winner{Name: string(s), Label: sideName(s)})
	}
	return out
}

// ---- template data ----

// View is what every Crusade template gets: the context of the reply and the state's values,
// set as fields when the view is made (a template reads a field far faster than it calls a
// method).
type View struct {
	// The fields the commonest replies read come first (a template finds a field by its name,
	// looking through the fields in order).
	Event game.Event
	// Turn is the played turn's words when the reply answers one (TurnPlayed).
	Turn *TurnWords
	// Board is the current board text.
	Board string
	// DueDay is the day whose end (00:00) the wounds owed now must be allocated by (dueDay).
	DueDay   *Date
	NoPM     bool // the forum has no private messages
	Author   string
	Private  bool
	Problems []rules.Problem
	Lines    []*grammar.LineError
	Mod      *game.ModCommand
	Fair     game.Fair
	Page     string // the game's public page ("" none)
	Dispute  string // the word players write to call a moderator
	// Phase is the game's phase; Over is set when it has ended (nothing is owed any more).
	Phase rules.Phase
	Over  bool
	// ToMove is the side to move now ("" when the game is over or not started).
	ToMove rules.Side
	// ForestInvisible is set when forest moves are hidden (sent by private message).
	ForestInvisible bool
	// Settings are the game's settings (wound counts, times, for the texts).
	Settings *rules.Settings
	game     *rules.Game
	rules    *Rules
}

func (r *Rules) view(c game.Context) *View {
	g := r.game
	v := &View{NoPM: r.noPM, game: g, rules: r, Event: c.Event, Mod: c.Mod, Fair: c.Fair, Page: c.Page, Dispute: c.Dispute,
		Board: g.Board(), Phase: g.Phase(), Over: g.Phase() == rules.PhaseOver, Settings: r.settings()}
	if v.Phase == rules.PhasePlaying {
		v.ToMove = g.SideToMove()
	}
	v.ForestInvisible = v.Settings.ForestInvisible
	v.DueDay = dueDay(c, v.Settings.Location)
	if v.Dispute == "" {
		v.Dispute = "#спор"
	}
	if c.In != nil {
		v.Author = c.In.Author
		v.Private = c.In.Source == game.PM
	}
	if ls, ok := c.Lines.([]*grammar.LineError); ok {
		v.Lines = ls
	}
	return v
}

// Owed is what side s owes now.
func (v *View) Owed(s string) rules.Owed { return v.game.WoundsOwed(rules.Side(s)) }

// Warrior is a warrior's current view.
func (v *View) Warrior(w rules.WarriorID) rules.WarriorView {
	wv, _ := v.game.Warrior(w)
	return wv
}

// LegalMoves are where w can move now.
func (v *View) LegalMoves(w rules.WarriorID) []rules.Cell { return v.game.LegalMoves(w) }

// Speed is w's speed from the table.
func (v *View) Speed(w rules.WarriorID) int { return rules.Table[w.Kind()].Speed }

// LegendRow is one kind of warrior as the opening post and the help show it: its letter on the
// board, its name, and its reach from the seed's table.
type LegendRow struct {
	Letter string
	Name   string
	Chief  string // the commander among them ("р1 — император"), or ""
	Side   rules.Side
	rules.Stats
	Shots string // the shot's strength at 1, 2, … cells ("10/8/7/6"), "" for none
	Note  string // what the table does not say (a charge's reach, shooting over friends)
}

// legendOrder is the seed's order of the kinds, crusaders first.
var legendOrder = []struct {
	kind              rules.Kind
	name, chief, note string
}{
	{rules.Knight, "рыцари", "р1 — император", "копьё с разгона по прямой до 4 клеток, 2 раза за игру"},
	{rules.Crossbowman, "арбалетчики", "", "стреляют на 1–4 клетки"},
	{rules.Archer, "лучники", "", "стреляют на 1–4 клетки, и через своих"},
	{rules.Dismounted, "спешенные рыцари", "", ""},
	{rules.Pikeman, "копейщики", "", "строем копьём — до 2 клеток по прямой; в строю неуязвимы с фронта"},
	{rules.Guard, "гвардия", "ш1 — шейх", "копьё бьёт на 2 клетки"},
	{rules.MountedArch, "верховые лучники", "", "стреляют на 1–3 клетки"},
	{rules.Mercenary, "наёмники", "", ""},
}

// Legend is every kind of warrior with its letter and reach, in the seed's order.
func (v *View) Legend() []LegendRow {
	out := make([]LegendRow, 0, len(legendOrder))
	for _, k := range legendOrder {
		st := rules.Table[k.kind]
		row := LegendRow{Letter: string(k.kind), Name: k.name, Chief: k.chief, Side: st.Side, Stats: st, Note: k.note}
		var shots []string
		for i := 0; i < st.Range(); i++ {
			shots = append(shots, strconv.Itoa(st.Shot[i]))
		}
		row.Shots = strings.Join(shots, "/")
		out = append(out, row)
	}
	return out
}

func funcs() map[string]any {
	return map[string]any{
		"side":      sideName,
		"sideGen":   sideGenitive,
		"sideDat":   sideDative,
		"sideOne":   sideOne,
		"cells":     cellList,
		"stat":      statName,
		"problem":   renderProblem,
		"lineError": renderLineError,
		"sloppy":    renderSloppy,
		"kindName":  kindName,
		"wounds":    woundList,
		"warriors":  warriorList,
		"cell":      cellStr,
		"strs":      warriorStrings,
		"title":     title,
		"neg":       func(n int) int { return -n },
		"forSide":   forSide,
		"longList":  longList,
		"day":       day,
		"month":     month,
		"deadline":  func() string { return game.DeadlineSlot },
	}
}

// months are the template "months" read once: the month names as dates write them.
var months = sync.OnceValue(func() []string {
	s, err := voiceSet.Render("months", nil)
	if err != nil {
		return nil
	}
	return strings.Fields(s)
})

// month names month m as the template "months" writes it (a date: «1 декабря»).
func month(m time.Month) string {
	if ms := months(); int(m) >= 1 && int(m) <= len(ms) {
		return ms[m-1]
	}
	return ""
}

func renderProblem(p rules.Problem, v *View) (string, error) {
	return voiceSet.Render("problem."+string(p.Code), struct {
		P rules.Problem
		V *View
	}{p, v})
}

// renderLineError explains a line not understood, quoting at most maxToken letters of it.
func renderLineError(e *grammar.LineError) (string, error) {
	c := *e
	c.Token = templates.Cut(c.Token, maxToken)
	return voiceSet.Render("unread."+string(e.Reason), &c)
}

// maxToken is how much of a token not understood a reply quotes.
const maxToken = 40

func renderSloppy(s rules.Sloppiness) (string, error) {
	return voiceSet.Render("sloppy."+string(s.Code), s)
}

// sideWords are the Russian names of the sides: nominative, genitive, dative, and the genitive of
// one warrior's side as a move line writes it ("1-й ход сарацина").
var sideWords = map[rules.Side][4]string{
	rules.Crusaders: {"крестоносцы", "крестоносцев", "крестоносцам", "крестоносца"},
	rules.Saracens:  {"сарацины", "сарацин", "сарацинам", "сарацина"},
	rules.Draw:      {"ничья", "ничьей", "ничьей", "ничьей"},
}

func sideWord(s rules.Side, form int) string {
	if w, ok := sideWords[s]; ok {
		return w[form]
	}
	return string(s)
}

func sideName(s rules.Side) string     { return sideWord(s, 0) }
func sideGenitive(s rules.Side) string { return sideWord(s, 1) }
func sideOne(s rules.Side) string      { return sideWord(s, 3) }
func sideDative(s rules.Side) string   { return sideWord(s, 2) }

func statName(s rules.Stat) string {
	if s == rules.StatDefence {
		return "защита"
	}
	return "атака"
}

func kindName(k rules.AttackKind) string {
	switch k {
	case rules.AttackSword:
		return "мечом"
	case rules.AttackShot:
		return "выстрелом"
	case rules.AttackCharge:
		return "копьём с разгона"
	case rules.AttackLance:
		return "копьём"
	case rules.AttackFormation:
		return "строем"
	}
	return "атакой"
}

func cellStr(p *rules.Cell) string {
	if p == nil {
		return "?"
	}
	return p.String()
}

// woundList writes wounds grouped by warrior and stat, in the order first named: "р2 защита ×3".
func woundList(ws []rules.Wound) string {
	type key struct {
		w rules.WarriorID
		s rules.Stat
	}
	var order []key
	count := map[key]int{}
	for _, w := range ws {
		k := key{w.Warrior, w.Stat}
		if _, ok := count[k]; !ok {
			order = append(order, k)
		}
		count[k] += max(w.Count, 1)
	}
	var parts []string
	for _, k := range order {
		s := fmt.Sprintf("%s %s", k.w, statName(k.s))
		if n := count[k]; n > 1 {
			s += fmt.Sprintf(" ×%d", n)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func warriorList(ws any) string {
	var parts []string
	switch t := ws.(type) {
	case []rules.WarriorID:
		for _, w := range t {
			parts = append(parts, string(w))
		}
	case []rules.Removed:
		for _, r := range t {
			parts = append(parts, fmt.Sprintf("%s (%s)", r.Warrior, r.Cell))
		}
	}
	return strings.Join(parts, ", ")
}

// day reads a "2006-01-02" day (DayClosed.Day) for the "date" template.
func day(s string) Date {
	t, _ := time.Parse("2006-01-02", s)
	return dateOf(t)
}

// maxListed is how many cells a reply lists; a longer list is told as the warrior's reach.
const maxListed = 8

// longList reports whether cells are too many to list in a reply.
func longList(cells []rules.Cell) bool { return len(cells) > maxListed }

// cellList writes a set of cells compactly: a full rectangle as "F3..H5", otherwise a list
// (at most 12 cells, then how many more).
func cellList(cells []rules.Cell) string {
	if len(cells) == 0 {
		return "никуда"
	}
	cs := append([]rules.Cell(nil), cells...)
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Row != cs[j].Row {
			return cs[i].Row < cs[j].Row
		}
		return cs[i].Col < cs[j].Col
	})
	minR, maxR, minC, maxC := cs[0].Row, cs[0].Row, cs[0].Col, cs[0].Col
	for _, c := range cs {
		minR, maxR = min(minR, c.Row), max(maxR, c.Row)
		minC, maxC = min(minC, c.Col), max(maxC, c.Col)
	}
	if len(cs) > 2 && (maxR-minR+1)*(maxC-minC+1) == len(cs) && maxR > minR && maxC > minC {
		return fmt.Sprintf("%s..%s", rules.Cell{Row: minR, Col: minC}, rules.Cell{Row: maxR, Col: maxC})
	}
	var parts []string
	for i, c := range cs {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("и ещё %d", len(cs)-12))
			break
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, ", ")
}

func lineErrors(es []*grammar.LineError) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}

func warriorStrings(ws []rules.WarriorID) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = string(w)
	}
	return out
}

// title capitalises the first letter.
func title(s string) string {
	if first, size := utf8.DecodeRuneInString(s); first != utf8.RuneError && utf8.ValidString(s) {
		return string(unicode.ToUpper(first)) + s[size:]
	}
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}

// Sandbox is Crusade in the sandbox forum: two players, the default board, a move without the
// quoted board accepted (a try-out; a wrong quoted board still costs a wound, and the banner
// says so).
func (Game) Sandbox() game.SandboxGame {
	return game.SandboxGame{
		Title:   "Crusade",
		Subject: "Крестовый поход — партия 1",
		Intro: "[b]Крестовый поход — партия в песочнице[/b]\n" +
			"Ведущий — бот gm-bot. Крестоносцы: Джелу, сарацины: snovaya.\n" +
			"Правила, доска и порядок ходов — ниже. Удачной игры!",
		Players: []game.SandboxUser{
			{Name: "Джелу", Password: "crusader", Role: "player, crusaders (крестоносцы)"},
			{Name: "snovaya", Password: "saracen", Role: "player, saracens (сарацины)"},
		},
		Spec: `  roster:
    - {name: Джелу, side: crusaders}
    - {name: snovaya, side: saracens}
  deployment: default
  # A try-out: a move post may come without the quoted board here. A quoted board that does
  # not match the position after the move still costs the side a wound; in a real game (the
  # default) a move post without the quoted, edited board costs one too.
  settings: {first_side: crusaders, board_required: false}
`,
		Try: []string{
			"Log in as Джелу and reply:  1-й ход крестоносца к1 на K16",
			"The game master answers within a few seconds. Here a move may come without the quoted",
			"board; but a quoted board that does not match the position after your move costs a",
			"wound, as in a real game (where a move without the quoted, edited board costs one too).",
		},
		SignupSpec: `  deployment: default
  settings: {first_side: crusaders, board_required: false}
`,
		Signup: "team_size: 1, until_full: true",
		SignupTry: []string{
			"Log in as Джелу and reply:  записываюсь за крестоносцев  (snovaya:  записываюсь за сарацин)",
			"With both signed up the sides are formed; each then sends gm-bot a private message:",
			"  Игроки-воины",
			"  Джелу: р1, р2, р3, а1, а2, л1, л2, л3, с1, с2, к1, к2, к3, к4, к5",
			"(or nothing: at the organising deadline every warrior goes to the side's player). Then play:",
			"  1-й ход крестоносца к1 на K16",
		},
	}
}
