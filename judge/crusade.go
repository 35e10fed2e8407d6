package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"forumgm/engine"
	cr "forumgm/engine/crusade"
	"forumgm/forum"
	"forumgm/parser"
	pcr "forumgm/parser/crusade"
	"forumgm/templates"
)

// CrusadeOptions configure a Crusade referee beyond the engine's settings.
type CrusadeOptions struct {
	Settings cr.Settings
	Roster   cr.Roster
	Setup    cr.Setup
	// Bot is the game master's forum account (its own posts are never judged).
	Bot string
	// DisputeKeyword marks a player's post disputing a decision (default "#спор"); such a post is
	// flagged for a moderator.
	DisputeKeyword string
	// NoPM is set when the forum has no private messages: deployments are posted publicly and
	// answers to a player go to the thread.
	NoPM bool
}

// Crusade is the referee of one Crusade game.
type Crusade struct {
	opt    CrusadeOptions
	game   *cr.Game
	tmpl   *templates.Set
	log    []engine.Event // every event folded so far, referee events included
	undone map[int]bool   // TurnPlayed numbers undone by a moderator
	paused bool
}

// NewCrusade builds a Crusade referee.
func NewCrusade(opt CrusadeOptions) (*Crusade, error) {
	if opt.DisputeKeyword == "" {
		opt.DisputeKeyword = "#спор"
	}
	if opt.NoPM {
		// Without private messages nothing can be hidden: no invisible forests.
		opt.Settings.ForestInvisible = false
	}
	g, err := cr.New(opt.Settings, opt.Roster, opt.Setup)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	c := &Crusade{opt: opt, game: g, undone: map[int]bool{}}
	c.tmpl, err = templates.Load("crusade", c.funcs())
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	return c, nil
}

// Game is the engine, for queries.
func (c *Crusade) Game() *cr.Game { return c.game }

// Paused reports whether a moderator paused the game.
func (c *Crusade) Paused() bool { return c.paused }

// ---- referee events (moderation), stored in the same log as the engine's ----

// Event kinds of the referee itself.
const (
	KindPaused    = "judge.paused"
	KindResumed   = "judge.resumed"
	KindUndone    = "judge.undone"
	KindModerated = "judge.moderated"
)

// Paused is a moderator pausing the game.
type PausedEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
}

// ResumedEvent is a moderator resuming the game.
type ResumedEvent PausedEvent

// UndoneEvent is a moderator undoing an applied turn (a compensating event).
type UndoneEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
	Turn   int       `json:"turn"` // TurnPlayed.Number
}

// ModeratedEvent records a moderator's accept or reject of a flagged post.
type ModeratedEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Action ModAction `json:"action"`
	PostID string    `json:"post_id,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

func (PausedEvent) EventKind() string    { return KindPaused }
func (ResumedEvent) EventKind() string   { return KindResumed }
func (UndoneEvent) EventKind() string    { return KindUndone }
func (ModeratedEvent) EventKind() string { return KindModerated }

func (c *Crusade) decode(kind string, data []byte) (engine.Event, error) {
	var ev engine.Event
	switch kind {
	case KindPaused:
		ev = &PausedEvent{}
	case KindResumed:
		ev = &ResumedEvent{}
	case KindUndone:
		ev = &UndoneEvent{}
	case KindModerated:
		ev = &ModeratedEvent{}
	default:
		return c.game.DecodeEvent(kind, data)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("judge: decode %s: %w", kind, err)
	}
	return ev, nil
}

// apply folds one event (the engine's or the referee's; both are always pointers).
func (c *Crusade) apply(ev engine.Event) error {
	switch e := ev.(type) {
	case *PausedEvent:
		c.paused = true
	case *ResumedEvent:
		c.paused = false
	case *ModeratedEvent:
	case *UndoneEvent:
		return c.undo(e.Turn, ev)
	default:
		if err := c.game.Apply(ev); err != nil {
			return fmt.Errorf("judge: %w", err)
		}
	}
	c.log = append(c.log, ev)
	return nil
}

// refereeEvent reports whether e is the referee's own (moderation), not the engine's.
func refereeEvent(e engine.Event) bool { return strings.HasPrefix(e.EventKind(), "judge.") }

// undo rebuilds the game from its start, folding every event but the undone turn.
func (c *Crusade) undo(turn int, ev engine.Event) error {
	g, err := cr.New(c.opt.Settings, c.opt.Roster, c.opt.Setup)
	if err != nil {
		return fmt.Errorf("judge: undo: %w", err)
	}
	undone := map[int]bool{turn: true}
	for n := range c.undone {
		undone[n] = true
	}
	for _, e := range c.log {
		if tp := turnPlayed(e); tp != nil && undone[tp.Number] {
			continue
		}
		if refereeEvent(e) {
			continue
		}
		if err := g.Apply(e); err != nil {
			return fmt.Errorf("judge: undo turn %d: the later events no longer fit: %w", turn, err)
		}
	}
	c.game, c.undone = g, undone
	c.log = append(c.log, ev)
	return nil
}

func turnPlayed(e engine.Event) *cr.TurnPlayed {
	tp, _ := e.(*cr.TurnPlayed)
	return tp
}

// Restore folds stored events into the referee.
func (c *Crusade) Restore(recs []engine.Record) error {
	for i, r := range recs {
		ev, err := c.decode(r.Kind, r.Data)
		if err != nil {
			return fmt.Errorf("judge: restore record %d: %w", i, err)
		}
		if err := c.apply(ev); err != nil {
			return fmt.Errorf("judge: restore record %d (%s): %w", i, r.Kind, err)
		}
	}
	return nil
}

// commit folds events into the referee; on a failure the referee is unusable and must be
// restored from the log (a bug: the engine's own events must fit its state).
func (c *Crusade) commit(evs []engine.Event) error {
	for _, ev := range evs {
		if err := c.apply(ev); err != nil {
			return err
		}
	}
	return nil
}

// ---- starting ----

// Start gives the opening post: the rules in brief, the board, who moves first; or the call
// for deployments.
func (c *Crusade) Start(at time.Time) (Outcome, error) {
	body, err := c.tmpl.Render("start", c.view(nil))
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Verdict: Accepted, Messages: []Message{{Body: body}}}, nil
}

// ---- judging posts ----

// Judge decides one post or private message.
func (c *Crusade) Judge(in Input) (Outcome, error) {
	if strings.EqualFold(strings.TrimSpace(in.Author), strings.TrimSpace(c.opt.Bot)) && c.opt.Bot != "" {
		return Outcome{Verdict: Ignored}, nil
	}
	res := pcr.Parse(in.Post)
	_, isPlayer := c.game.PlayerSide(in.Author)
	if c.paused && res.Class != pcr.Chatter {
		return c.reply(in, Refused, "paused", c.view(&in))
	}
	if isPlayer && in.Source == Thread && strings.Contains(parser.Fold(in.Post.Text), parser.Fold(c.opt.DisputeKeyword)) {
		out, err := c.reply(in, Flagged, "dispute", c.view(&in))
		out.Flags = []Flag{{Kind: FlagDispute, PostID: in.PostID, Detail: firstLine(in.Post.Text)}}
		return out, err
	}
	switch res.Class {
	case pcr.Chatter:
		if pcr.IsHelp(in.Post.Text) {
			return c.reply(in, Accepted, "help", c.view(&in))
		}
		if in.Source == PM {
			// Nothing is dropped silently: a private message the game cannot use is answered.
			return c.reply(in, Ignored, "pm_unknown", c.view(&in))
		}
		return c.chatter(in)
	case pcr.Unreadable:
		v := c.view(&in)
		v.Lines = res.Problems
		out, err := c.reply(in, Flagged, "unreadable", v)
		out.Flags = []Flag{{Kind: FlagUnreadable, PostID: in.PostID, Detail: lineErrors(res.Problems)}}
		return out, err
	}
	if !isPlayer {
		out, err := c.reply(in, Flagged, "not_in_roster", c.view(&in))
		out.Flags = []Flag{{Kind: FlagNotInRoster, PostID: in.PostID, Detail: firstLine(in.Post.Text)}}
		return out, err
	}
	return c.decide(in, intent(res), res)
}

// intent is the engine body a parsed post carries (nil for chatter and unreadable posts).
func intent(res pcr.Result) any {
	switch res.Class {
	case pcr.TurnPost:
		return res.Turn
	case pcr.AllocationPost:
		return res.Allocation
	case pcr.DeploymentPost:
		return res.Deployment
	}
	return nil
}

// chatter checks a player's non-move post as an answer to the open question; anything else is
// ignored. A wrong answer gets a reply only when the post says it is an answer ("ответ: ...").
func (c *Crusade) chatter(in Input) (Outcome, error) {
	if c.game.CurrentQuestion() == nil || in.Source != Thread {
		return Outcome{Verdict: Ignored}, nil
	}
	if _, ok := c.game.PlayerSide(in.Author); !ok {
		return Outcome{Verdict: Ignored}, nil
	}
	text, explicit := pcr.Answer(in.Post.Text)
	if text == "" {
		return Outcome{Verdict: Ignored}, nil
	}
	evs, err := c.game.Decide(engine.Input{At: in.At, Author: in.Author, Body: &cr.Answer{Text: text}})
	if err != nil {
		if !explicit {
			return Outcome{Verdict: Ignored}, nil
		}
		return c.refusal(in, err)
	}
	if err := c.commit(evs); err != nil {
		return Outcome{}, err
	}
	return c.accepted(&in, evs)
}

func (c *Crusade) decide(in Input, body any, res pcr.Result) (Outcome, error) {
	private := in.Source == PM
	if _, ok := body.(*cr.Deployment); ok && c.opt.NoPM {
		private = true // no private messages on this forum: deployments are posted in the thread
	}
	evs, err := c.game.Decide(engine.Input{At: in.At, Author: in.Author, Private: private, Body: body})
	if err != nil {
		return c.refusal(in, err)
	}
	if err := c.commit(evs); err != nil {
		return Outcome{}, err
	}
	out, err := c.accepted(&in, evs)
	if err != nil {
		return out, err
	}
	if res.BoardErr != nil {
		// Already counted as sloppiness by the engine (no readable board); say why.
		var be *cr.BoardError
		if errors.As(res.BoardErr, &be) && len(out.Messages) > 0 {
			note, err := c.tmpl.Render("board_unreadable", be)
			if err != nil {
				return Outcome{}, err
			}
			out.Messages[0].Body += "\n" + note
		}
	}
	return out, nil
}

func (c *Crusade) refusal(in Input, err error) (Outcome, error) {
	ref, ok := cr.AsRefusal(err)
	if !ok {
		return Outcome{}, fmt.Errorf("judge: post %s: %w", in.PostID, err)
	}
	v := c.view(&in)
	v.Problems = ref.Problems
	name := "refused"
	if ref.Has(cr.CodeWrongAnswer) || ref.Has(cr.CodeAlreadyAnswered) || ref.Has(cr.CodeNoQuestion) {
		name = "answer_refused"
	}
	return c.reply(in, Refused, name, v)
}

// accepted renders the replies to an accepted post's events.
func (c *Crusade) accepted(in *Input, evs []engine.Event) (Outcome, error) {
	out := Outcome{Verdict: Accepted, Events: evs}
	for _, ev := range evs {
		msgs, err := c.messagesFor(in, ev)
		if err != nil {
			return Outcome{}, err
		}
		out.Messages = append(out.Messages, msgs...)
	}
	return out, nil
}

// reply renders one template as the answer to in: a thread reply, or a private message when in
// came privately (and the forum has private messages).
func (c *Crusade) reply(in Input, v Verdict, name string, data any) (Outcome, error) {
	body, err := c.tmpl.Render(name, data)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Verdict: v, Messages: []Message{c.to(&in, body)}}, nil
}

func (c *Crusade) to(in *Input, body string) Message {
	if in != nil && in.Source == PM && !c.opt.NoPM {
		return Message{To: in.Author, Subject: "Крестовый поход", Body: body}
	}
	return Message{Body: body}
}

// messagesFor renders the messages an event causes.
func (c *Crusade) messagesFor(in *Input, ev engine.Event) ([]Message, error) {
	v := c.view(in)
	v.Event = ev
	var name string
	public := false
	switch e := ev.(type) {
	case *cr.TurnPlayed:
		if in != nil && in.Source == PM {
			// A hidden forest turn: the details to the player, a notice with the public board
			// (forest warriors not drawn) and any meeting in the forest to the thread.
			private, err := c.tmpl.Render("turn", v)
			if err != nil {
				return nil, err
			}
			notice, err := c.tmpl.Render("turn_hidden", v)
			if err != nil {
				return nil, err
			}
			return []Message{c.to(in, private), {Body: notice}}, nil
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
	default:
		return nil, nil
	}
	body, err := c.tmpl.Render(name, v)
	if err != nil {
		return nil, err
	}
	if public {
		return []Message{{Body: body}}, nil
	}
	return []Message{c.to(in, body)}, nil
}

// ---- the clock ----

// NextTimer is the engine's next timed rule after t; none while paused.
func (c *Crusade) NextTimer(t time.Time) (time.Time, bool) {
	if c.paused {
		return time.Time{}, false
	}
	return c.game.NextTimer(t)
}

// Fire runs the timed rules due at at.
func (c *Crusade) Fire(at time.Time) (Outcome, error) {
	evs, err := c.game.Tick(at, nil)
	if err != nil {
		return Outcome{}, fmt.Errorf("judge: tick %s: %w", at.Format(time.RFC3339), err)
	}
	if err := c.commit(evs); err != nil {
		return Outcome{}, err
	}
	out, err := c.accepted(nil, evs)
	out.Verdict = Accepted
	return out, err
}

// ---- moderation ----

// Moderate carries out a moderator command.
func (c *Crusade) Moderate(cmd ModCommand) (Outcome, error) {
	v := c.view(nil)
	v.Mod = &cmd
	switch cmd.Action {
	case ModPause, ModResume:
		if (cmd.Action == ModPause) == c.paused {
			return Outcome{}, fmt.Errorf("judge: the game is already %s", map[bool]string{true: "paused", false: "running"}[c.paused])
		}
		var ev engine.Event = &PausedEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason}
		if cmd.Action == ModResume {
			ev = &ResumedEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason}
		}
		if err := c.commit([]engine.Event{ev}); err != nil {
			return Outcome{}, err
		}
		body, err := c.tmpl.Render(string(cmd.Action), v)
		return Outcome{Verdict: Accepted, Events: []engine.Event{ev}, Messages: []Message{{Body: body}}}, err
	case ModUndo:
		last := c.lastTurn()
		if last == nil {
			return Outcome{}, errors.New("judge: no applied turn to undo")
		}
		ev := &UndoneEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason, Turn: last.Number}
		if err := c.commit([]engine.Event{ev}); err != nil {
			return Outcome{}, err
		}
		v.Event = last
		body, err := c.tmpl.Render("undone", v)
		return Outcome{Verdict: Accepted, Events: []engine.Event{ev}, Messages: []Message{{Body: body}}}, err
	case ModEnd:
		evs, err := c.game.Decide(engine.Input{At: cmd.At, Author: cmd.By, Body: &cr.EndGame{Reason: cmd.Reason}})
		if err != nil {
			return Outcome{}, fmt.Errorf("judge: end: %w", err)
		}
		if err := c.commit(evs); err != nil {
			return Outcome{}, err
		}
		return c.accepted(nil, evs)
	case ModAccept, ModReject:
		if cmd.Post == nil {
			return Outcome{}, fmt.Errorf("judge: %s needs the flagged post", cmd.Action)
		}
		mark := &ModeratedEvent{At: cmd.At, By: cmd.By, Action: cmd.Action, PostID: cmd.Post.PostID, Reason: cmd.Reason}
		if cmd.Action == ModReject {
			if err := c.commit([]engine.Event{mark}); err != nil {
				return Outcome{}, err
			}
			out, err := c.reply(*cmd.Post, Refused, "mod_rejected", v)
			out.Events = []engine.Event{mark}
			return out, err
		}
		in := *cmd.Post
		in.At = cmd.At
		res := pcr.Parse(in.Post)
		body := intent(res)
		if body == nil {
			return Outcome{}, fmt.Errorf("judge: accept: post %s holds no readable move (%s)", in.PostID, res.Class)
		}
		out, err := c.decide(in, body, res)
		if err != nil || out.Verdict != Accepted {
			return out, err
		}
		if err := c.commit([]engine.Event{mark}); err != nil {
			return Outcome{}, err
		}
		out.Events = append(out.Events, mark)
		return out, nil
	}
	return Outcome{}, fmt.Errorf("judge: unknown moderator action %q", cmd.Action)
}

func (c *Crusade) lastTurn() *cr.TurnPlayed {
	for i := len(c.log) - 1; i >= 0; i-- {
		if tp := turnPlayed(c.log[i]); tp != nil && !c.undone[tp.Number] {
			return tp
		}
	}
	return nil
}

// ---- the replay's final state ----

// WarriorFinal is one warrior in the replay's final state.
type WarriorFinal struct {
	Cell    string         `json:"cell"`
	Attack  map[string]int `json:"attack"`
	Defence int            `json:"defence"`
	Alive   bool           `json:"alive"`
}

// CrusadeFinal is the replay's "final" object.
type CrusadeFinal struct {
	Board    string                  `json:"board"`
	Warriors map[string]WarriorFinal `json:"warriors"`
	Wounds   map[string]int          `json:"wounds"`
	Winner   string                  `json:"winner"`
}

// Snapshot is the state in the replay's "final" shape. Warriors not in play are left out.
func (c *Crusade) Snapshot() any {
	f := CrusadeFinal{
		Board:    cr.Render(c.game.Tokens()),
		Warriors: map[string]WarriorFinal{},
		Wounds: map[string]int{
			string(cr.Crusaders): c.game.WoundsOwed(cr.Crusaders).Total,
			string(cr.Saracens):  c.game.WoundsOwed(cr.Saracens).Total,
		},
		Winner: string(c.game.Winner()),
	}
	for _, w := range c.game.Warriors() {
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

// ---- template data ----

// View is what every Crusade template gets.
type View struct {
	Author   string
	Private  bool
	Event    engine.Event
	Problems []cr.Problem
	Lines    []*pcr.LineError
	Mod      *ModCommand
	Examples []string
	NoPM     bool // the forum has no private messages
	game     *cr.Game
}

func (c *Crusade) view(in *Input) *View {
	v := &View{Examples: pcr.Examples, NoPM: c.opt.NoPM, game: c.game}
	if in != nil {
		v.Author = in.Author
		v.Private = in.Source == PM
	}
	return v
}

// Board is the current board text.
func (v *View) Board() string { return cr.Render(v.game.Tokens()) }

// ToMove is the side to move now ("" when the game is over or not started).
func (v *View) ToMove() cr.Side {
	if v.game.Phase() != cr.PhasePlaying {
		return ""
	}
	return v.game.SideToMove()
}

// Owed is what side s owes now.
func (v *View) Owed(s string) cr.Owed { return v.game.WoundsOwed(cr.Side(s)) }

// SeedHash commits to the game's seed (which orders the question bank): sha256 of its decimal
// form, posted at the start; the seed itself is revealed at the end (design: fair and checkable).
func (v *View) SeedHash() string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(v.game.Settings().Seed, 10)))
	return hex.EncodeToString(sum[:])
}

// Seed is the game's seed, for the final reveal.
func (v *View) Seed() int64 { return v.game.Settings().Seed }

// ForestInvisible reports whether forest moves are hidden (sent by private message).
func (v *View) ForestInvisible() bool { return v.game.Settings().ForestInvisible }

// Phase is the game's phase.
func (v *View) Phase() cr.Phase { return v.game.Phase() }

// Warrior is a warrior's current view.
func (v *View) Warrior(w cr.WarriorID) cr.WarriorView {
	wv, _ := v.game.Warrior(w)
	return wv
}

// LegalMoves are where w can move now.
func (v *View) LegalMoves(w cr.WarriorID) []cr.Cell { return v.game.LegalMoves(w) }

// Speed is w's speed from the table.
func (v *View) Speed(w cr.WarriorID) int { return cr.Table[w.Kind()].Speed }

func (c *Crusade) funcs() map[string]any {
	return map[string]any{
		"side":      sideName,
		"sideGen":   sideGenitive,
		"sideDat":   sideDative,
		"cells":     cellList,
		"stat":      statName,
		"problem":   c.renderProblem,
		"lineError": c.renderLineError,
		"sloppy":    c.renderSloppy,
		"kindName":  kindName,
		"wounds":    woundList,
		"warriors":  warriorList,
		"cell":      cellStr,
		"strs":      warriorStrings,
		"title":     title,
	}
}

func (c *Crusade) renderProblem(p cr.Problem, v *View) (string, error) {
	return c.tmpl.Render("problem."+string(p.Code), struct {
		P cr.Problem
		V *View
	}{p, v})
}

func (c *Crusade) renderLineError(e *pcr.LineError) (string, error) {
	return c.tmpl.Render("unread."+string(e.Reason), e)
}

func (c *Crusade) renderSloppy(s cr.Sloppiness) (string, error) {
	return c.tmpl.Render("sloppy."+string(s.Code), s)
}

// sideWords are the Russian names of the sides: nominative, genitive, dative.
var sideWords = map[cr.Side][3]string{
	cr.Crusaders: {"крестоносцы", "крестоносцев", "крестоносцам"},
	cr.Saracens:  {"сарацины", "сарацин", "сарацинам"},
	cr.Draw:      {"ничья", "ничьей", "ничьей"},
}

func sideWord(s cr.Side, form int) string {
	if w, ok := sideWords[s]; ok {
		return w[form]
	}
	return string(s)
}

func sideName(s cr.Side) string     { return sideWord(s, 0) }
func sideGenitive(s cr.Side) string { return sideWord(s, 1) }
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

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

func lineErrors(es []*pcr.LineError) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}

// FromText is a post as typed in BBCode (transcripts, tests): the own text, quotes and code.
func FromText(text string) forum.Post { return parser.FromBBCode(text) }

func warriorStrings(ws []cr.WarriorID) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = string(w)
	}
	return out
}

// title capitalises the first letter.
func title(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}
