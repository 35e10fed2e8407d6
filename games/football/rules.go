package football

import (
	"fmt"
	"strings"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/games/football/grammar"
	"forumgm/games/football/rules"
	"forumgm/templates"
)

// Rules is one running football game: the engine's state with the grammar and the voice.
type Rules struct {
	game.Engine // Apply, NextTimer, Tick, DecodeEvent
	game        *rules.Game
	tmpl        *templates.Set
	noPM        bool
	teams       []string // the teams' names, for the grammar's attack targets
}

var (
	_ game.Rules       = (*Rules)(nil)
	_ game.StartDrawer = (*Rules)(nil)
	_ game.Verifier    = (*Rules)(nil)
)

// Game is the engine, for queries.
func (r *Rules) Game() *rules.Game { return r.game }

// StartPending reports whether the start's draws (the groups when group_split is random, the
// first die table) are still to be made: until the first player post in the thread. A game that
// ended before anyone posted draws nothing.
func (r *Rules) StartPending() bool { return r.game.Phase() == rules.PhaseNew }

// DrawStart makes the start's draws at the first player post (game.StartDrawer): the teams are
// split into groups and the first die table is drawn, with that post in the chain, and committed
// in the reply to it, before any of its numbers is named (the post itself is judged after).
func (r *Rules) DrawStart(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	ev, err := r.game.Begin(at, rnd)
	if err != nil {
		return nil, err
	}
	return []game.Event{ev}, nil
}

// Decide judges an intent. On a forum without private messages the captain's points and answers
// come in the thread and count as sent privately (there is no other way to send them).
func (r *Rules) Decide(in game.Act) ([]game.Event, error) {
	if r.noPM {
		switch in.Body.(type) {
		case *rules.Points, *rules.Answer:
			in.Private = true
		}
	}
	return r.game.Decide(in)
}

// Title is the game's Russian name.
func (r *Rules) Title() string { return "Футбольная игра с кубиком" }

// IsPlayer reports whether name is a captain or a member of a team.
func (r *Rules) IsPlayer(name string) bool {
	_, ok := r.game.TeamOf(name)
	return ok
}

// Over reports whether the game has ended.
func (r *Rules) Over() bool { return r.game.Phase() == rules.PhaseOver }

// ExpectsPrivate reports whether a private message can be for the game at now: a team's question
// is open (or closed less than question_time ago: a late answer is answered), or a turn is open
// and a team has points its captain may add to a roll.
func (r *Rules) ExpectsPrivate(now time.Time) bool {
	switch r.game.Phase() {
	case rules.PhasePlaying, rules.PhaseEnding:
	default:
		return false
	}
	late := duration(r.game.Settings().QuestionTime)
	for _, t := range r.game.Teams() {
		ts, ok := r.game.TeamState(t.Name)
		if !ok {
			continue
		}
		if len(ts.Questions) > 0 || !ts.LastDeadline.IsZero() && now.Before(ts.LastDeadline.Add(late)) {
			return true
		}
		if r.game.WindowOpen() && ts.Points > 0 {
			return true
		}
	}
	return false
}

// Read is the grammar: rolls, attacks, defences and points (moves), an answer to the team's
// question, a request for help, or chatter. A private message from someone on no team is never
// an answer (it is answered as a message the game cannot use).
func (r *Rules) Read(in game.Input) game.Reading {
	res := grammar.Parse(in.Post, grammar.Options{Teams: r.teams, Private: in.Source == game.PM})
	switch res.Class {
	case grammar.Help:
		return game.Reading{Kind: game.Help}
	case grammar.Unreadable:
		return game.Reading{Kind: game.Unreadable, Lines: res.Problems, Detail: lineErrors(res.Problems)}
	case grammar.Move:
		return game.Reading{Kind: game.Intent, Intent: res.Body(), Move: true}
	case grammar.AnswerPost:
		if a, ok := res.Intents[0].(*rules.Answer); !ok || !a.Explicit && !r.awaitsAnswer(in) {
			return game.Reading{Kind: game.Chatter}
		}
		if !r.IsPlayer(in.Author) {
			return game.Reading{Kind: game.Chatter}
		}
		return game.Reading{Kind: game.Intent, Intent: res.Body()}
	}
	return game.Reading{Kind: game.Chatter}
}

// awaitsAnswer reports whether a bare private message from in's author may be an answer: the
// author is a team's captain and the team has a question open, or one that closed less than
// question_time ago (a late answer is told so). Otherwise it is a message the game cannot use.
func (r *Rules) awaitsAnswer(in game.Input) bool {
	team, ok := r.game.TeamOf(in.Author)
	if !ok || !strings.EqualFold(strings.TrimSpace(team.Captain), strings.TrimSpace(in.Author)) {
		return false
	}
	ts, ok := r.game.TeamState(team.Name)
	if !ok {
		return false
	}
	if len(ts.Questions) > 0 {
		return true
	}
	return !ts.LastDeadline.IsZero() && in.At.Before(ts.LastDeadline.Add(duration(r.game.Settings().QuestionTime)))
}

// Say renders a template for a situation the referee reaches; the opening post says that the
// groups and the first die table are drawn at the first player post.
func (r *Rules) Say(name string, c game.Context) (string, error) {
	return r.tmpl.Render(name, r.view(c))
}

// Refusal explains the engine's refusal. None is quiet: every post is answered (a bare private
// message that cannot be an answer never reaches the engine: Read calls it chatter).
func (r *Rules) Refusal(c game.Context, err error) (string, bool, error) {
	ref, ok := rules.AsRefusal(err)
	if !ok {
		return "", false, err
	}
	v := r.view(c)
	// A time a refusal names is the rules'; the master may have moved it (an extension, a holiday).
	v.Problems = make([]rules.Problem, len(ref.Problems))
	for i, p := range ref.Problems {
		if p.Next != nil {
			t := c.RealTime(*p.Next)
			p.Next = &t
		}
		v.Problems[i] = p
	}
	body, e := r.tmpl.Render("refused", v)
	return body, false, e
}

// Ender is the intent ending the game by a moderator's decision (ranked by the formula).
func (r *Rules) Ender(_, reason string) any { return &rules.EndGame{Reason: reason} }

// Undoable: a move whose die face nobody but its captain has seen may be undone — an attack or a
// defence while its turn is open on a forum with private messages, or points spent in the open
// turn. A move whose face is public is final, as Dragonball's resolved round is: a roll (its
// face is posted at once), an attack or a defence without private messages (posted in the
// thread), any move of a closed turn (the close posts every face), and a move that drew a new
// table (its commitment is posted). Undoing it would free a number whose face everyone knows,
// and the team could pick another; a wrong move is settled by the moderators' other tools
// (pause, end). docs/fairness.md says so.
func (r *Rules) Undoable(ev game.Event) (string, bool) {
	switch e := ev.(type) {
	case *rules.Rolled:
		return "", false
	case *rules.AttackDeclared:
		if r.noPM || e.Redraw != nil || !r.turnOpen(e.Close) {
			return "", false
		}
		return fmt.Sprintf("ход %d: атака «%s» на «%s», число %d (%s)", e.Turn, e.Team, e.Target, e.Number, e.Author), true
	case *rules.DefenceRolled:
		if r.noPM || e.Redraw != nil || !r.turnOpen(e.Close) {
			return "", false
		}
		return fmt.Sprintf("ход %d: защита «%s», число %d (%s)", e.Turn, e.Team, e.Number, e.Author), true
	case *rules.PointsSpent:
		if !r.turnOpen(e.Close) {
			return "", false
		}
		return fmt.Sprintf("баллы «%s»: +%d (%s)", e.Team, e.Spent, e.Author), true
	}
	return "", false
}

// turnOpen reports whether a move made in the window closing at close is of the turn still open.
func (r *Rules) turnOpen(close time.Time) bool {
	if !r.game.WindowOpen() {
		return false
	}
	_, c, ok := r.game.Opens(r.game.Turn())
	return ok && c.Equal(close)
}

// Snapshot is the contract's `replay --json` "final".
func (r *Rules) Snapshot() any { return r.game.Final() }

// Defined reports whether a template exists.
func (r *Rules) Defined(name string) bool { return r.tmpl.Defined(name) }

// eventTemplates are the templates of the engine's events (the *_pm ones go to a captain).
var eventTemplates = []string{"game_started", "turn_opened", "rolled", "question_pm", "attack_declared",
	"attack_pm", "defence_rolled", "defence_pm", "points_spent", "answer_judged", "question_expired",
	"turn_closed", "game_ended"}

// Required lists every template the game may render.
func (r *Rules) Required() []string {
	names := append([]string(nil), game.RefereeTemplates...)
	names = append(names, "refused", "cell", "cells", "redraw", "table", "reveal")
	names = append(names, eventTemplates...)
	for _, c := range rules.AllCodes {
		names = append(names, "problem."+string(c))
	}
	for _, c := range grammar.AllReasons {
		names = append(names, "unread."+string(c))
	}
	return names
}

// part is one message an event causes: a template and whom it goes to ("" the thread,
// game.Sender the input's author, else a captain).
type part struct{ name, to string }

// Messages renders what an event causes: replies in the thread, and the faces and questions by
// private message to the team's captain.
func (r *Rules) Messages(c game.Context, ev game.Event) ([]game.Message, error) {
	c.Event = ev
	v := r.view(c)
	var parts []part
	switch e := ev.(type) {
	case *rules.GameStarted:
		parts = []part{{"game_started", ""}}
	case *rules.TurnOpened:
		parts = []part{{"turn_opened", ""}}
	case *rules.Rolled:
		parts = []part{{"rolled", ""}}
		if e.Question != nil {
			parts = append(parts, part{"question_pm", e.Question.Captain})
		}
	case *rules.AttackDeclared:
		parts = []part{{"attack_declared", ""}, {"attack_pm", e.Captain}}
	case *rules.DefenceRolled:
		parts = []part{{"defence_rolled", ""}, {"defence_pm", e.Captain}}
	case *rules.PointsSpent:
		parts = []part{{"points_spent", game.Sender}}
	case *rules.AnswerJudged:
		parts = []part{{"answer_judged", game.Sender}}
	case *rules.QuestionExpired:
		parts = []part{{"question_expired", e.Captain}}
	case *rules.TurnClosed:
		parts = []part{{"turn_closed", ""}}
	case *rules.GameEnded:
		parts = []part{{"game_ended", ""}}
	case *rules.PlayerReplaced:
		parts = []part{{"player_replaced", ""}}
	case *rules.PlayerRemoved:
		parts = []part{{"player_removed", ""}}
	default:
		return nil, nil
	}
	var out []game.Message
	for _, p := range parts {
		body, err := r.tmpl.Render(p.name, v)
		if err != nil {
			return nil, err
		}
		m := game.Message{To: p.to, Body: body}
		if ringReport(ev) && p.to == "" && r.game.Settings().RingPicture {
			a, err := r.ringPicture(ringTitle(ev))
			if err != nil {
				return nil, err
			}
			m.Body += "\n" + forum.Placeholder(a.Name)
			m.Attachments = []forum.Attachment{a}
		}
		if p.to != "" && p.to != game.Sender {
			if r.noPM {
				m.To = "" // no private messages: the thread
			} else {
				m.Subject = r.Title()
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// ---- the moderators' words (game.Describer) ----

// Describe is an event in words for the moderators ("event KIND" in the templates); "" when the
// templates have no words for it.
func (r *Rules) Describe(ev game.Event) string {
	return r.tmpl.Optional("event "+ev.EventKind(), ev)
}

// StatusView is what the "status" template gets.
type StatusView struct {
	Phase rules.Phase
	Turn  int
	Open  bool // the turn's window is open
}

// Status is the state in words: the turn and whether its window is open.
func (r *Rules) Status() string {
	s, err := r.tmpl.Render("status", StatusView{Phase: r.game.Phase(), Turn: r.game.Turn(), Open: r.game.WindowOpen()})
	if err != nil {
		return ""
	}
	return s
}

// Winners: none, the final table decides.
func (r *Rules) Winners() []game.Winner { return nil }

// ---- template data ----

// View is what every football template gets.
type View struct {
	Author   string
	Private  bool
	Event    game.Event
	Problems []rules.Problem
	Lines    []*grammar.LineError // at most echoLines of them, each cut
	More     int                  // how many more unreadable lines were not echoed
	Examples []string
	Mod      *game.ModCommand
	Fair     game.Fair
	Page     string // the game's public page ("" none)
	NoPM     bool   // the forum has no private messages
	game     *rules.Game
	ctx      game.Context
}

// At is when the rules' time t comes in real time (the master's extensions and holidays
// applied): every time a template names goes through it ({{hhmm ($.At $e.Close)}}).
func (v *View) At(t time.Time) time.Time { return v.ctx.RealTime(t) }

// CellsWords are the ring's special cells as the opening post and the help name them.
type CellsWords struct {
	Size     int
	Attack   []GroupCells // each group's attack cells, group 1 first
	Question []int
	Yellow   []int
}

// GroupCells are one group's attack cells.
type GroupCells struct {
	Group int
	Cells []int
}

// Cells are the board's special cells: where each group attacks from, the questions, the cards.
func (v *View) Cells() CellsWords {
	b := v.game.Board()
	w := CellsWords{Size: b.Size}
	for g := 1; g <= b.Groups(); g++ {
		gc := GroupCells{Group: g}
		for _, c := range b.Cells() {
			if c.AttackFor(g) {
				gc.Cells = append(gc.Cells, c.Number)
			}
		}
		w.Attack = append(w.Attack, gc)
	}
	for _, c := range b.Cells() {
		if c.Question {
			w.Question = append(w.Question, c.Number)
		}
		if c.Yellow {
			w.Yellow = append(w.Yellow, c.Number)
		}
	}
	return w
}

func (r *Rules) view(c game.Context) *View {
	v := &View{Examples: grammar.Examples, NoPM: r.noPM, game: r.game, Event: c.Event, Mod: c.Mod, Fair: c.Fair, Page: c.Page, ctx: c}
	if c.In != nil {
		v.Author = c.In.Author
		v.Private = c.In.Source == game.PM
	}
	if ls, ok := c.Lines.([]*grammar.LineError); ok {
		v.Lines, v.More = echoed(ls)
	}
	return v
}

// echoLines is how many unreadable lines a reply quotes back; echoWidth how long each may be.
const echoLines, echoWidth = 3, 80

// echoed is what a reply quotes of the unreadable lines: the first few, each cut (a hostile
// post is not echoed at length), and how many more there were.
func echoed(ls []*grammar.LineError) ([]*grammar.LineError, int) {
	var out []*grammar.LineError
	for i, l := range ls {
		if i == echoLines {
			return out, len(ls) - echoLines
		}
		c := *l
		c.Line = templates.Cut(c.Line, echoWidth)
		out = append(out, &c)
	}
	return out, 0
}

// Window is how long a turn's window is open.
func (v *View) Window() time.Duration { return duration(v.game.Settings().Window) }

// QuestionTime is how long a captain has to answer a question.
func (v *View) QuestionTime() time.Duration { return duration(v.game.Settings().QuestionTime) }

// RandomSplit reports whether the groups are drawn (group_split random) at the start.
func (v *View) RandomSplit() bool { return v.game.Settings().GroupSplit == rules.SplitRandom }

// RosterGroups is the split by the roster, shown in the opening post (nil when it is drawn).
func (v *View) RosterGroups() []rules.TeamStart { return v.game.RosterGroups() }

// CanAttack is who may attack now while a turn is open (the start's draws announced mid-turn).
func (v *View) CanAttack() []rules.AttackOption {
	if !v.game.WindowOpen() {
		return nil
	}
	return v.game.AttackOptions()
}

// FirstTurn is when turn 1 opens.
func (v *View) FirstTurn() time.Time {
	open, _, _ := v.game.Opens(1)
	return open
}

// duration is a checked setting's duration (Validate refused a bad one).
func duration(s string) time.Duration {
	d, _ := time.ParseDuration(s)
	return d
}

func lineErrors(es []*grammar.LineError) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}
