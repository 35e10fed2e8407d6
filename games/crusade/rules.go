// Package crusade is Crusade ("Крестовый поход") as a forumgm game: it registers the game, decodes
// its settings, roster, deployment and question bank, and gives the referee the game's rules
// (engine/crusade), grammar (parser/crusade) and voice (templates/crusade) over one state.
package crusade

import (
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"forumgm/engine"
	cr "forumgm/engine/crusade"
	"forumgm/judge"
	pcr "forumgm/parser/crusade"
	"forumgm/quiz"
	"forumgm/templates"
)

// defaultQuestions is the daily-question bank a game uses unless it names its own.
//
//go:embed questions.yaml
var defaultQuestions []byte

// Name is the game's name in config.yaml and transcripts.
const Name = "crusade"

func init() { judge.Register(Game{}) }

// Game is Crusade's plug-in value.
type Game struct{}

// Name is "crusade".
func (Game) Name() string { return Name }

// spec is the game's own part of config.yaml's game section or a transcript.
type spec struct {
	// Settings override the defaults by the settings' names (engine/crusade.Settings).
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
func (Game) Setup(sp judge.Spec) (*judge.Setup, error) {
	var in spec
	if sp.Node.Kind != 0 {
		if err := judge.DecodeStrict(&sp.Node, &in); err != nil {
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
	var roster cr.Roster
	var names []string
	for _, p := range players {
		pl := cr.Player{Name: p.Name, Side: cr.Side(p.Side)}
		for _, w := range p.Warriors {
			pl.Warriors = append(pl.Warriors, cr.WarriorID(w))
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
	set, err := voice()
	if err != nil {
		return nil, err
	}
	newRules := func() (judge.Rules, error) {
		g, err := cr.New(s, roster, setup)
		if err != nil {
			return nil, err
		}
		return &Rules{Engine: g, game: g, tmpl: set, noPM: sp.NoPM}, nil
	}
	if _, err := newRules(); err != nil {
		return nil, err
	}
	return &judge.Setup{New: newRules, Players: names}, nil
}

// settings are the defaults overlaid with the spec's settings, calendar and question bank.
func settings(sp judge.Spec, in spec) (cr.Settings, error) {
	s := cr.DefaultSettings()
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
		if err := judge.DecodeStrict(&in.Settings, &s); err != nil {
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
var embeddedQuestions = sync.OnceValues(func() ([]cr.Question, error) {
	bank, err := quiz.Parse(defaultQuestions, "the embedded question bank")
	if err != nil {
		return nil, err
	}
	return slices.Clip(questions(bank)), nil
})

func questions(bank quiz.Bank) []cr.Question {
	out := make([]cr.Question, 0, len(bank.Questions))
	for _, q := range bank.Questions {
		out = append(out, cr.Question{Text: q.Text, Answers: q.Answers})
	}
	return out
}

// deployment reads the starting position: default, private, or a test position.
func deployment(n *yaml.Node, start time.Time) (cr.Setup, error) {
	switch {
	case n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Value == "default"):
		return cr.Setup{Mode: cr.SetupDefault, At: start}, nil
	case n.Kind == yaml.ScalarNode && n.Value == "private":
		return cr.Setup{Mode: cr.SetupPrivate, At: start}, nil
	case n.Kind == yaml.MappingNode:
		var sides map[string]map[string]string
		if err := n.Decode(&sides); err != nil {
			return cr.Setup{}, fmt.Errorf("deployment: %w", err)
		}
		cells := map[cr.WarriorID]cr.Cell{}
		for side, ws := range sides {
			if side != string(cr.Crusaders) && side != string(cr.Saracens) {
				return cr.Setup{}, fmt.Errorf("deployment: unknown side %q (crusaders or saracens)", side)
			}
			for w, c := range ws {
				cell, err := cr.ParseCell(strings.ToUpper(c))
				if err != nil {
					return cr.Setup{}, fmt.Errorf("deployment: %s: %w", w, err)
				}
				id := cr.WarriorID(w)
				if !id.Valid() || string(id.Side()) != side {
					return cr.Setup{}, fmt.Errorf("deployment: %q is not a warrior of the %s", w, side)
				}
				cells[id] = cell
			}
		}
		return cr.Setup{Mode: cr.SetupCustom, Cells: cells, At: start}, nil
	}
	return cr.Setup{}, fmt.Errorf("deployment: want default, private, or {crusaders: {р1: J18, ...}, saracens: {...}}")
}

// The templates are parsed once per process.
var (
	voiceOnce sync.Once
	voiceSet  *templates.Set
	voiceErr  error
)

func voice() (*templates.Set, error) {
	voiceOnce.Do(func() { voiceSet, voiceErr = templates.Load(Name, funcs()) })
	return voiceSet, voiceErr
}

// Rules is one running Crusade game: the engine's state with the grammar and the voice.
type Rules struct {
	judge.Engine // NextTimer, Tick, DecodeEvent (Apply below)
	game         *cr.Game
	tmpl         *templates.Set
	noPM         bool
	// examples holds the replies' examples found on the current state (Apply clears it).
	examples []example
	// set is the game's settings, copied once (they never change during a game).
	set *cr.Settings
}

// settings are the game's settings, for the texts (shared by every view: read only).
func (r *Rules) settings() *cr.Settings {
	if r.set == nil {
		s := r.game.Settings()
		r.set = &s
	}
	return r.set
}

// Game is the engine, for queries.
func (r *Rules) Game() *cr.Game { return r.game }

// Decide judges an intent (a deployment on a forum without private messages counts as private:
// there is no other way to send it).
func (r *Rules) Decide(in engine.Input) ([]engine.Event, error) {
	if _, ok := in.Body.(*cr.Deployment); ok && r.noPM {
		in.Private = true
	}
	return r.game.Decide(in)
}

// Apply folds an event into the state; the examples found on the old state are dropped.
func (r *Rules) Apply(ev engine.Event) error {
	r.examples = nil
	return r.game.Apply(ev)
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
	case cr.PhaseDeploying:
		return true
	case cr.PhasePlaying:
		return g.Settings().ForestInvisible ||
			g.WoundsOwed(cr.Crusaders).Unallocated > 0 || g.WoundsOwed(cr.Saracens).Unallocated > 0
	}
	return false
}

// Over reports whether the game has ended.
func (r *Rules) Over() bool { return r.game.Phase() == cr.PhaseOver }

// Read is the grammar: a move, an allocation, a deployment, an answer to today's question, a
// request for help, or chatter.
func (r *Rules) Read(in judge.Input) judge.Reading {
	res := pcr.ParseKnown(in.Post, pcr.Known{Text: r.game.Board(), Cells: r.game.Tokens()})
	switch res.Class {
	case pcr.Chatter:
		if pcr.IsHelp(in.Post.Text) {
			return judge.Reading{Kind: judge.Help}
		}
		if r.game.CurrentQuestion() == nil || in.Source != judge.Thread {
			return judge.Reading{Kind: judge.Chatter}
		}
		text, form := pcr.ReadAnswer(in.Post.Text)
		if form == pcr.NotAnswer {
			return judge.Reading{Kind: judge.Chatter}
		}
		return judge.Reading{Kind: judge.Intent, Intent: &cr.Answer{Text: text}}
	case pcr.Unreadable:
		return judge.Reading{Kind: judge.Unreadable, Lines: res.Problems, Detail: lineErrors(res.Problems)}
	}
	rd := judge.Reading{Kind: judge.Intent, Move: true}
	switch res.Class {
	case pcr.TurnPost:
		rd.Intent = res.Turn
	case pcr.AllocationPost:
		rd.Intent = res.Allocation
	case pcr.DeploymentPost:
		rd.Intent = res.Deployment
	}
	var be *cr.BoardError
	if res.BoardErr != nil && errors.As(res.BoardErr, &be) {
		// Already counted as sloppiness by the engine (no readable board); say why.
		if note, err := r.tmpl.Render("board_unreadable", be); err == nil {
			rd.Note = note
		}
	}
	return rd
}

// Say renders a template for a situation the referee reaches.
func (r *Rules) Say(name string, c judge.Context) (string, error) {
	return r.tmpl.Render(name, r.view(c))
}

// Refusal explains the engine's refusal. A refused answer to the daily question is answered when
// the post is surely an answer ("Ответ: …", or one to three words such as "Кажется, Эдесса");
// a short post that may as well be chatter ("хм, сложно") is not.
func (r *Rules) Refusal(c judge.Context, err error) (string, bool, error) {
	ref, ok := cr.AsRefusal(err)
	if !ok {
		return "", false, err
	}
	v := r.view(c)
	v.Problems = ref.Problems
	name := "refused"
	if ref.Has(cr.CodeWrongAnswer) || ref.Has(cr.CodeAlreadyAnswered) || ref.Has(cr.CodeNoQuestion) {
		name = "answer_refused"
		if c.In != nil {
			if _, form := pcr.ReadAnswer(c.In.Post.Text); form < pcr.BareAnswer {
				return "", true, nil
			}
		}
	}
	body, e := r.tmpl.Render(name, v)
	return body, false, e
}

// Ender is the intent ending the game by a moderator's decision.
func (r *Rules) Ender(winner, reason string) any {
	return &cr.EndGame{Winner: cr.Side(winner), Reason: reason}
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
	return &cr.AddPlayer{Player: cr.Player{Name: strings.TrimSpace(name), Side: side}}, nil
}

// Adjust gives a side wounds (amount > 0) or takes owed wounds back (amount < 0).
func (r *Rules) Adjust(target string, amount int, reason string) (any, error) {
	side, ok := parseSide(target)
	if !ok {
		return nil, fmt.Errorf("%q is not a side (crusaders or saracens)", target)
	}
	return &cr.AdjustWounds{Side: side, Delta: amount, Reason: reason}, nil
}

// parseSide reads a side by its English or Russian name, any case.
func parseSide(s string) (cr.Side, bool) {
	f := strings.ToLower(strings.TrimSpace(s))
	for side, words := range sideWords {
		if side == cr.Draw {
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
func (r *Rules) Undoable(ev engine.Event) (string, bool) {
	if tp, ok := ev.(*cr.TurnPlayed); ok {
		return fmt.Sprintf("ход %d (%s)", tp.Number, tp.Author), true
	}
	return "", false
}

// Defined reports whether a template exists.
func (r *Rules) Defined(name string) bool { return r.tmpl.Defined(name) }

// Required lists every template the game may render.
func (r *Rules) Required() []string {
	names := append([]string(nil), judge.RefereeTemplates...)
	names = append(names, "refused", "answer_refused", "board_unreadable", "turn_hidden", "deadline")
	names = append(names, eventTemplates...)
	for _, c := range cr.AllCodes {
		names = append(names, "problem."+string(c))
	}
	for _, c := range pcr.AllReasons {
		names = append(names, "unread."+string(c))
	}
	for _, c := range cr.AllSloppyCodes {
		names = append(names, "sloppy."+string(c))
	}
	return names
}

// eventTemplates are the templates of the engine's events, by the event type they answer.
var eventTemplates = []string{"turn", "allocated", "deployment_received", "game_started", "question",
	"answer_accepted", "time_limit", "day_closed", "game_ended", "player_added", "wounds_adjusted"}

// Messages renders what an event causes.
func (r *Rules) Messages(c judge.Context, ev engine.Event) ([]judge.Message, error) {
	c.Event = ev
	v := r.view(c)
	var name string
	public := false
	switch e := ev.(type) {
	case *cr.TurnPlayed:
		t, err := v.turnWords(e)
		if err != nil {
			return nil, err
		}
		v.Turn = t
		if c.In != nil && c.In.Source == judge.PM {
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
			return []judge.Message{{To: judge.Sender, Body: private}, {Body: notice, Clock: r.clockOf(e)}}, nil
		}
		name, public = "turn", true
	case *cr.WoundsAllocated:
		name = "allocated"
		public = !e.Private
	case *cr.DeploymentReceived:
		name = "deployment_received"
	case *cr.GameStarted:
		name, public = "game_started", true
	case *cr.QuestionAsked:
		name, public = "question", true
	case *cr.AnswerAccepted:
		name, public = "answer_accepted", true
	case *cr.TimeLimitExceeded:
		name, public = "time_limit", true
	case *cr.DayClosed:
		name, public = "day_closed", true
	case *cr.GameEnded:
		name, public = "game_ended", true
	case *cr.PlayerAdded:
		name, public = "player_added", true
	case *cr.WoundsAdjusted:
		name, public = "wounds_adjusted", true
	default:
		return nil, nil
	}
	body, err := r.tmpl.Render(name, v)
	if err != nil {
		return nil, err
	}
	if public {
		return []judge.Message{{Body: body, Clock: r.clockOf(ev)}}, nil
	}
	return []judge.Message{{To: judge.Sender, Body: body}}, nil
}

// clockOf is the clock a public reply to ev starts ("" none): the reply to a turn or to the
// armies' deployment shows the position the side to move answers (the templates put
// judge.DeadlineSlot after whose move it is).
func (r *Rules) clockOf(ev engine.Event) string {
	switch ev.(type) {
	case *cr.TurnPlayed, *cr.GameStarted:
		return r.Clock()
	}
	return ""
}

// Clock is the key of the side to move's wait ("" when nobody is to move): the opening post of
// a game that starts in play carries it.
func (r *Rules) Clock() string {
	if r.game.Phase() != cr.PhasePlaying {
		return ""
	}
	return cr.ClockKey(r.game.Turns(), r.game.SideToMove())
}

// ---- the clock a reply starts (judge.ClockStarter) ----

// Delivered is the reply showing wait key's position posted at at: the side's evening limit
// counts from then when that is later than the wait's start (engine/crusade: Game.Delivered).
func (r *Rules) Delivered(key string, at time.Time) ([]engine.Event, error) {
	return r.game.Delivered(key, at), nil
}

// Deadline is the reply's words for the first deadline of wait key when posted at at (the
// template "deadline"); "" when there is none to state.
func (r *Rules) Deadline(key string, at time.Time) (string, error) {
	dl, ok := r.game.Deadline(key, at)
	if !ok {
		return "", nil
	}
	loc := r.game.Location()
	l, from := dl.In(loc), at.In(loc)
	y1, m1, d1 := l.Date()
	y2, m2, d2 := from.Date()
	return r.tmpl.Render("deadline", deadlineView{At: l, SameDay: y1 == y2 && m1 == m2 && d1 == d2})
}

// deadlineView is what the template "deadline" gets.
type deadlineView struct {
	At      time.Time // the deadline in the game's zone
	SameDay bool      // the same day as the reply
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
			string(cr.Crusaders): r.game.WoundsOwed(cr.Crusaders).Total,
			string(cr.Saracens):  r.game.WoundsOwed(cr.Saracens).Total,
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

// ---- the moderators' words (judge.Describer) ----

// Describe is an event in words for the moderators ("event KIND" in the templates); "" when the
// templates have no words for it.
func (r *Rules) Describe(ev engine.Event) string {
	return r.tmpl.Optional("event "+ev.EventKind(), ev)
}

// StatusView is what the "status" template gets.
type StatusView struct {
	Phase  cr.Phase
	ToMove cr.Side
	Winner cr.Side
	Owed   []SideOwed
}

// SideOwed is a side's wounds not allocated yet.
type SideOwed struct {
	Side cr.Side
	N    int
}

// Status is the state in words: the phase, whose turn it is, the wounds each side still has to
// allocate.
func (r *Rules) Status() string {
	v := StatusView{Phase: r.game.Phase(), ToMove: r.game.SideToMove(), Winner: r.game.Winner()}
	for _, s := range []cr.Side{cr.Crusaders, cr.Saracens} {
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
func (r *Rules) Winners() []judge.Winner {
	var out []judge.Winner
	for _, s := range []cr.Side{cr.Crusaders, cr.Saracens, cr.Draw} {
		out = append(out, judge.Winner{Name: string(s), Label: sideName(s)})
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
	Event engine.Event
	// Turn is the played turn's words when the reply answers one (TurnPlayed).
	Turn *TurnWords
	// Board is the current board text.
	Board string
	// DueDay is the day whose end (00:00) the wounds owed now must be allocated by (dueDay).
	DueDay   *Date
	NoPM     bool // the forum has no private messages
	Author   string
	Private  bool
	Problems []cr.Problem
	Lines    []*pcr.LineError
	Mod      *judge.ModCommand
	Fair     judge.Fair
	Dispute  string // the word players write to call a moderator
	// Phase is the game's phase; Over is set when it has ended (nothing is owed any more).
	Phase cr.Phase
	Over  bool
	// ToMove is the side to move now ("" when the game is over or not started).
	ToMove cr.Side
	// ForestInvisible is set when forest moves are hidden (sent by private message).
	ForestInvisible bool
	// Settings are the game's settings (wound counts, times, for the texts).
	Settings *cr.Settings
	game     *cr.Game
	rules    *Rules
}

func (r *Rules) view(c judge.Context) *View {
	g := r.game
	v := &View{NoPM: r.noPM, game: g, rules: r, Event: c.Event, Mod: c.Mod, Fair: c.Fair, Dispute: c.Dispute,
		Board: g.Board(), Phase: g.Phase(), Over: g.Phase() == cr.PhaseOver, Settings: r.settings()}
	if v.Phase == cr.PhasePlaying {
		v.ToMove = g.SideToMove()
	}
	v.ForestInvisible = v.Settings.ForestInvisible
	v.DueDay = dueDay(c.Event, v.Settings.Location)
	if v.Dispute == "" {
		v.Dispute = "#спор"
	}
	if c.In != nil {
		v.Author = c.In.Author
		v.Private = c.In.Source == judge.PM
	}
	if ls, ok := c.Lines.([]*pcr.LineError); ok {
		v.Lines = ls
	}
	return v
}

// Owed is what side s owes now.
func (v *View) Owed(s string) cr.Owed { return v.game.WoundsOwed(cr.Side(s)) }

// Warrior is a warrior's current view.
func (v *View) Warrior(w cr.WarriorID) cr.WarriorView {
	wv, _ := v.game.Warrior(w)
	return wv
}

// LegalMoves are where w can move now.
func (v *View) LegalMoves(w cr.WarriorID) []cr.Cell { return v.game.LegalMoves(w) }

// Speed is w's speed from the table.
func (v *View) Speed(w cr.WarriorID) int { return cr.Table[w.Kind()].Speed }

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
		"deadline":  func() string { return judge.DeadlineSlot },
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

func renderProblem(p cr.Problem, v *View) (string, error) {
	return voiceSet.Render("problem."+string(p.Code), struct {
		P cr.Problem
		V *View
	}{p, v})
}

// renderLineError explains a line not understood, quoting at most maxToken letters of it.
func renderLineError(e *pcr.LineError) (string, error) {
	c := *e
	c.Token = templates.Cut(c.Token, maxToken)
	return voiceSet.Render("unread."+string(e.Reason), &c)
}

// maxToken is how much of a token not understood a reply quotes.
const maxToken = 40

func renderSloppy(s cr.Sloppiness) (string, error) {
	return voiceSet.Render("sloppy."+string(s.Code), s)
}

// sideWords are the Russian names of the sides: nominative, genitive, dative, and the genitive of
// one warrior's side as a move line writes it ("1-й ход сарацина").
var sideWords = map[cr.Side][4]string{
	cr.Crusaders: {"крестоносцы", "крестоносцев", "крестоносцам", "крестоносца"},
	cr.Saracens:  {"сарацины", "сарацин", "сарацинам", "сарацина"},
	cr.Draw:      {"ничья", "ничьей", "ничьей", "ничьей"},
}

func sideWord(s cr.Side, form int) string {
	if w, ok := sideWords[s]; ok {
		return w[form]
	}
	return string(s)
}

func sideName(s cr.Side) string     { return sideWord(s, 0) }
func sideGenitive(s cr.Side) string { return sideWord(s, 1) }
func sideOne(s cr.Side) string      { return sideWord(s, 3) }
func sideDative(s cr.Side) string   { return sideWord(s, 2) }

func statName(s cr.Stat) string {
	if s == cr.StatDefence {
		return "защита"
	}
	return "атака"
}

func kindName(k cr.AttackKind) string {
	switch k {
	case cr.AttackSword:
		return "мечом"
	case cr.AttackShot:
		return "выстрелом"
	case cr.AttackCharge:
		return "копьём с разгона"
	case cr.AttackLance:
		return "копьём"
	case cr.AttackFormation:
		return "строем"
	}
	return "атакой"
}

func cellStr(p *cr.Cell) string {
	if p == nil {
		return "?"
	}
	return p.String()
}

// woundList writes wounds grouped by warrior and stat, in the order first named: "р2 защита ×3".
func woundList(ws []cr.Wound) string {
	type key struct {
		w cr.WarriorID
		s cr.Stat
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
	case []cr.WarriorID:
		for _, w := range t {
			parts = append(parts, string(w))
		}
	case []cr.Removed:
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
func longList(cells []cr.Cell) bool { return len(cells) > maxListed }

// cellList writes a set of cells compactly: a full rectangle as "F3..H5", otherwise a list
// (at most 12 cells, then how many more).
func cellList(cells []cr.Cell) string {
	if len(cells) == 0 {
		return "никуда"
	}
	cs := append([]cr.Cell(nil), cells...)
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
		return fmt.Sprintf("%s..%s", cr.Cell{Row: minR, Col: minC}, cr.Cell{Row: maxR, Col: maxC})
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

func lineErrors(es []*pcr.LineError) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}

func warriorStrings(ws []cr.WarriorID) []string {
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

// Sandbox is Crusade in the sandbox forum: two players, the default board, the quoted board
// optional (a try-out).
func (Game) Sandbox() judge.SandboxGame {
	return judge.SandboxGame{
		Title:   "Crusade",
		Subject: "Крестовый поход — партия 1",
		Intro: "[b]Крестовый поход — партия в песочнице[/b]\n" +
			"Ведущий — бот gm-bot. Крестоносцы: Джелу, сарацины: snovaya.\n" +
			"Правила, доска и порядок ходов — ниже. Удачной игры!",
		Players: []judge.SandboxUser{
			{Name: "Джелу", Password: "crusader", Role: "player, crusaders (крестоносцы)"},
			{Name: "snovaya", Password: "saracen", Role: "player, saracens (сарацины)"},
		},
		Spec: `  roster:
    - {name: Джелу, side: crusaders}
    - {name: snovaya, side: saracens}
  deployment: default
  # A try-out: the quoted board is optional here. In a real game (the default) a move post
  # without the quoted, edited board is sloppy and costs the side a wound.
  settings: {first_side: crusaders, board_required: false}
`,
		Try: []string{
			"Log in as Джелу and reply:  1-й ход крестоносца к1 на K16",
			"The game master answers within a few seconds. (Here quoting the board is optional;",
			"in a real game a move without the quoted, edited board costs a wound.)",
		},
	}
}
