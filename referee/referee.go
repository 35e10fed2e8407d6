// Package referee owns the one referee every game runs under: it turns what happens in a game's
// thread and inbox (posts, private messages, the clock, moderator commands) into the game's
// events and the Russian messages to post, over the game's Rules (package game): roster and bot
// checks, disputes, moderation, restore from the log, timers and the seeded source of chance. It
// does no I/O and reads no clock: the daemon and the replay command drive it.
package referee

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"forumgm/game"
	"forumgm/russian"
)

// Options configure a referee beyond the game's own setup.
type Options struct {
	// Bot is the game master's forum account (its own posts are never judged).
	Bot string
	// DisputeKeyword marks a player's post disputing a decision (default "#спор"); such a post
	// is flagged for a moderator. It is matched as a whole word.
	DisputeKeyword string
	// NoPM is set when the forum has no private messages: answers to a player go to the thread.
	NoPM bool
	// Seed is the game's secret seed: every draw of chance derives from it. Salt hides it in
	// the commitment posted at the start; both are revealed at the end.
	Seed, Salt string
	// Check is the address of the players' in-browser fair-play check (package fairness), given
	// to the templates in Context.Fair; "" when the pictures folder is not served.
	Check string
	// Setup is the game's effective setup as the players may check it (game.PublicSetup): the
	// opening post commits to it, the final post reveals it; "" for none (transcripts).
	Setup string
	// Location is the game's zone (times in the game master's announcements); nil: UTC.
	Location *time.Location
	// Spec is the fingerprint of the game's settings now, SpecWas as the game was registered
	// with: when they differ (a config reload), Rescheduled announces the schedule once.
	Spec, SpecWas string
	// RemindLead is how long before a deadline the players who owe something are reminded by
	// private message (remind.go); 0: no reminders.
	RemindLead time.Duration
	// Zone is the zone's name written beside those times when it differs from the forum's
	// ("MSK"); "" when the forum shows the same zone.
	Zone string
	// Page is the game's public page (public.public_url), given to the templates in
	// Context.Page: the opening post, the round reports and the final post link it; "" none.
	Page string
}

// Moderator command refusals a caller may want to word itself (errors.Is).
var (
	ErrNothingToUndo = errors.New("no applied move to undo")
	ErrPauseState    = errors.New("nothing to do")
	ErrNoReadable    = errors.New("no readable move in it")
	ErrNotPlaying    = errors.New("does not play in this game")
)

// Referee judges one game. It is deterministic: the same inputs in the same order give the same
// outcomes, byte for byte.
type Referee struct {
	opt    Options
	setup  *game.Setup
	rules  game.Rules
	fair   game.Fair
	log    []game.Event // every event folded so far, referee events included
	undone map[int]bool // log positions of events undone by a moderator
	// lean: the log is dropped once restored (the daemon keeps only the current state; an undo
	// is a moderator's command, carried out by a full referee in the review tools).
	lean      bool
	restoring bool
	dropped   int // events folded and dropped (lean)
	paused    bool
	draws     uint64          // draws made so far (the next draw's number)
	chained   uint64          // posts absorbed into the chain so far
	head      string          // the chain's head after them (game.Chain)
	links     []game.Link     // the chain's posts (ids, authors, texts, heads), listed at the reveal
	drawn     []decided       // every draw recorded in the log, listed at the reveal
	shown     bool            // the seed was revealed (a RevealedEvent is in the log)
	stops     []stop          // extensions and holidays: the game's clock apart from the real one (master.go)
	reminded  map[string]bool // debts reminded of (remind.go)
	remindOff map[string]bool // players who switched the reminders off
	tally     game.Summary    // the running summary (summary.go)
	specSeen  string          // the settings' fingerprint last announced (master.go)
}

// New builds the referee of a configured game.
func New(setup *game.Setup, opt Options) (*Referee, error) {
	if setup == nil || setup.New == nil {
		return nil, errors.New("judge: no game setup")
	}
	if opt.DisputeKeyword == "" {
		opt.DisputeKeyword = "#спор"
	}
	rules, err := setup.New()
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	r := &Referee{opt: opt, setup: setup, rules: rules, undone: map[int]bool{}, specSeen: opt.SpecWas}
	r.fair = game.Fair{Commitment: game.Commitment(opt.Seed, opt.Salt), Check: opt.Check}
	r.head = game.ChainStart(r.fair.Commitment)
	return r, nil
}

// Rules is the running game's rules, for queries (tests, the sandbox, the web UI).
func (r *Referee) Rules() game.Rules { return r.rules }

// View is the game's view of its state at the real time now (game.Viewer), its deadline in real
// time: the game master's extensions and holidays applied, as every text names it. ok is false
// for a game without a view.
func (r *Referee) View(now time.Time) (v game.View, ok bool, err error) {
	vr, ok := game.As[game.Viewer](r.rules)
	if !ok {
		return game.View{}, false, nil
	}
	if v, err = vr.View(r.gameTime(now)); err != nil {
		return game.View{}, true, fmt.Errorf("judge: view: %w", err)
	}
	if !v.Deadline.IsZero() {
		v.Deadline = r.realTime(v.Deadline)
	}
	return v, true, nil
}

// Rest lets the rules drop what they keep only to answer faster (game.Rester), between cycles.
func (r *Referee) Rest() {
	if x, ok := r.rules.(game.Rester); ok {
		x.Rest()
	}
}

// Paused reports whether a moderator paused the game.
func (r *Referee) Paused() bool { return r.paused }

// ExpectsPrivate reports whether a private message can be for the game at now: the game's Rules
// say so (PrivateExpecter), and a game that cannot tell expects one always. The daemon reads the
// inbox only when it does (or when a forum page shows an unread message).
func (r *Referee) ExpectsPrivate(now time.Time) bool {
	if e, ok := r.rules.(game.PrivateExpecter); ok {
		return e.ExpectsPrivate(r.gameTime(now))
	}
	return true
}

// ---- referee events (moderation), stored in the same log as the engine's ----

// Event kinds of the referee itself.
const (
	KindPaused    = "judge.paused"
	KindResumed   = "judge.resumed"
	KindUndone    = "judge.undone"
	KindModerated = "judge.moderated"
	KindRevealed  = "judge.revealed"
	KindDelivered = "judge.delivered"
)

// PausedEvent is a moderator pausing the game.
type PausedEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
}

// ResumedEvent is a moderator resuming the game.
type ResumedEvent PausedEvent

// UndoneEvent is a moderator undoing an applied move (a compensating event).
type UndoneEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
	Event  int       `json:"event"` // the undone event's position in the log (from 0)
	Label  string    `json:"label,omitempty"`
}

// ModeratedEvent records a moderator's decision on a flagged post.
type ModeratedEvent struct {
	At     time.Time      `json:"at"`
	By     string         `json:"by"`
	Action game.ModAction `json:"action"`
	PostID string         `json:"post_id,omitempty"`
	Reason string         `json:"reason,omitempty"`
	Flag   game.FlagKind  `json:"flag,omitempty"`
	Text   string         `json:"text,omitempty"` // the move as the moderator retyped it
}

// RevealedEvent is the seed published (the game's end, or a moderator's reveal).
type RevealedEvent struct {
	At   time.Time `json:"at"`
	By   string    `json:"by,omitempty"`
	Seed string    `json:"seed"`
	Salt string    `json:"salt"`
}

// DeliveredEvent records that a message starting a clock (Message.Clock) was posted late enough
// to move that clock: the game's events that do so follow it.
type DeliveredEvent struct {
	At     time.Time `json:"at"`               // the posting time (minute precision)
	Clock  string    `json:"clock"`            // the game's key for the clock
	Marker string    `json:"marker,omitempty"` // the outbox item posted
}

func (*DeliveredEvent) EventKind() string { return KindDelivered }

func (*PausedEvent) EventKind() string    { return KindPaused }
func (*ResumedEvent) EventKind() string   { return KindResumed }
func (*UndoneEvent) EventKind() string    { return KindUndone }
func (*ModeratedEvent) EventKind() string { return KindModerated }
func (*RevealedEvent) EventKind() string  { return KindRevealed }

func (r *Referee) decode(kind string, data []byte) (game.Event, error) {
	var ev game.Event
	switch kind {
	case KindPaused:
		ev = &PausedEvent{}
	case KindResumed:
		ev = &ResumedEvent{}
	case KindUndone:
		ev = &UndoneEvent{}
	case KindModerated:
		ev = &ModeratedEvent{}
	case KindRevealed:
		ev = &RevealedEvent{}
	case KindDelivered:
		ev = &DeliveredEvent{}
	case KindExtended:
		ev = &ExtendedEvent{}
	case KindHoliday:
		ev = &HolidayEvent{}
	case KindSummary:
		ev = &SummaryEvent{}
	case KindSchedule:
		ev = &ScheduleEvent{}
	case KindReminded:
		ev = &RemindedEvent{}
	case KindReminders:
		ev = &RemindersEvent{}
	default:
		return r.rules.DecodeEvent(kind, data)
	}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("judge: decode %s: %w", kind, err)
	}
	return ev, nil
}

// Decode rebuilds a stored event of the game, the referee's own events included.
func (r *Referee) Decode(rec game.Record) (game.Event, error) { return r.decode(rec.Kind, rec.Data) }

// refereeEvent reports whether e is the referee's own (moderation), not the game's.
func refereeEvent(e game.Event) bool { return strings.HasPrefix(e.EventKind(), "judge.") }

// apply folds one event (the game's or the referee's).
func (r *Referee) apply(ev game.Event) error {
	switch e := ev.(type) {
	case *PausedEvent:
		r.paused = true
	case *ResumedEvent:
		r.paused = false
	case *ModeratedEvent, *DeliveredEvent:
	case *RevealedEvent:
		r.shown = true
	case *ExtendedEvent, *HolidayEvent:
		r.addStop(ev)
	case *RemindedEvent, *RemindersEvent:
		r.applyRemind(ev)
	case *SummaryEvent:
	case *ScheduleEvent:
		r.specSeen = e.Spec
	case *UndoneEvent:
		if err := r.undo(e.Event); err != nil {
			return err
		}
	default:
		if err := r.rules.Apply(ev); err != nil {
			return fmt.Errorf("judge: %w", err)
		}
		r.tallyEvent(ev)
	}
	if d, ok := ev.(game.Drawer); ok && len(d.Drawn()) > 0 {
		what := ev.EventKind()
		if ds, ok := r.rules.(game.Describer); ok {
			if s := strings.TrimSpace(ds.Describe(ev)); s != "" {
				what = s
			}
		}
		for _, dr := range d.Drawn() {
			r.draws = max(r.draws, dr.N+1)
			r.drawn = append(r.drawn, decided{Draw: dr, what: what, kind: ev.EventKind()})
		}
	}
	if r.lean && !r.restoring {
		r.dropped++
		return nil
	}
	r.log = append(r.log, ev)
	return nil
}

// Lean makes r keep only the game's current state: the event log it folds while restoring is
// dropped at the end of Restore, and later events are not kept. Such a referee cannot undo
// (ErrNeedsLog); a daemon's referee is lean, the moderators' tools use a full one.
func (r *Referee) Lean() { r.lean = true }

// ErrNeedsLog: a lean referee was asked for something that needs the whole log (an undo).
var ErrNeedsLog = errors.New("judge: a lean referee keeps no event log (undo needs a full referee)")

// undo rebuilds the rules from the start, folding every game event but the undone ones.
func (r *Referee) undo(pos int) error {
	if r.dropped > 0 {
		return ErrNeedsLog
	}
	if pos < 0 || pos >= len(r.log) {
		return fmt.Errorf("judge: undo: no event at %d", pos)
	}
	rules, err := r.setup.New()
	if err != nil {
		return fmt.Errorf("judge: undo: %w", err)
	}
	undone := map[int]bool{pos: true}
	for n := range r.undone {
		undone[n] = true
	}
	for i, e := range r.log {
		if undone[i] || refereeEvent(e) {
			continue
		}
		if err := rules.Apply(e); err != nil {
			return fmt.Errorf("judge: undo event %d: the later events no longer fit: %w", pos, err)
		}
	}
	r.rules, r.undone = rules, undone
	r.retally()
	return nil
}

// Restore folds stored events into the referee.
func (r *Referee) Restore(recs []game.Record) error {
	r.restoring = true
	defer func() {
		r.restoring = false
		if r.lean {
			r.dropped += len(r.log)
			r.log = nil
		}
	}()
	for i, rec := range recs {
		ev, err := r.decode(rec.Kind, rec.Data)
		if err != nil {
			return fmt.Errorf("judge: restore record %d: %w", i, err)
		}
		if err := r.apply(ev); err != nil {
			return fmt.Errorf("judge: restore record %d (%s): %w", i, rec.Kind, err)
		}
	}
	return nil
}

// commit folds events into the referee; on a failure the referee is unusable and must be
// restored from the log (a bug: the game's own events must fit its state).
func (r *Referee) commit(evs []game.Event) error {
	for _, ev := range evs {
		if err := r.apply(ev); err != nil {
			return err
		}
	}
	return nil
}

// commitAt commits events and, when they end the game, the seed's reveal after them.
func (r *Referee) commitAt(at time.Time, evs []game.Event) ([]game.Event, error) {
	if err := r.commit(evs); err != nil {
		return nil, err
	}
	if r.rules.Over() && !r.revealed() {
		if sum := r.summary(at); sum != nil {
			if err := r.commit([]game.Event{sum}); err != nil {
				return nil, err
			}
			evs = append(evs, sum)
		}
		rev := &RevealedEvent{At: at, Seed: r.opt.Seed, Salt: r.opt.Salt}
		if err := r.commit([]game.Event{rev}); err != nil {
			return nil, err
		}
		evs = append(evs, rev)
	}
	return evs, nil
}

// chance lets the rules decide with the game's source of chance, then commits what they
// decided (and the seed's reveal when it ends the game). The decision's own error (a refusal)
// comes back as decided; nothing is committed then.
func (r *Referee) chance(at time.Time, decide func(rnd *game.Rand) ([]game.Event, error)) (evs []game.Event, decided, err error) {
	rnd := r.rand()
	if evs, decided = decide(rnd); decided != nil {
		return nil, decided, nil
	}
	if err := checkDrawn(rnd); err != nil {
		return nil, nil, err
	}
	evs, err = r.commitAt(at, evs)
	return evs, nil, err
}

// rand is the game's source of chance, positioned after every draw recorded so far, mixing in
// the chain as it stands.
func (r *Referee) rand() *game.Rand {
	return game.NewRand(r.opt.Seed, r.draws, game.Mix{K: r.chained, Head: r.head})
}

// absorb adds a thread post to the game's chain (docs/fairness.md, section 1), before it is
// decided: the public entropy of every later draw. Only players' posts stay in it (keep), but
// the post itself may make its author one (a sign-up, a volunteer to replace a player), so every
// post but the bot's is taken in first. player reports whether the author played before it.
func (r *Referee) absorb(in game.Input) (link *game.Link, player bool) {
	if in.Source != game.Thread || r.isBot(in.Author) {
		return nil, false
	}
	r.head = game.Chain(r.head, in.Author, in.PostID, in.Post.Text)
	r.chained++
	l := game.Link{K: r.chained, PostID: in.PostID, Author: in.Author, Text: in.Post.Text, Head: r.head}
	r.links = append(r.links, l)
	return &l, r.rules.IsPlayer(in.Author)
}

// keep settles an absorbed post once it is decided: it stays in the chain when its author played
// before it or plays now (signed up, took a place) or a draw was made under it; otherwise (a
// stranger's or a moderator's post) the chain is as it was before it.
func (r *Referee) keep(link *game.Link, in game.Input, player bool, draws uint64) *game.Link {
	if link == nil || player || r.rules.IsPlayer(in.Author) || r.draws > draws {
		return link
	}
	r.links = r.links[:len(r.links)-1]
	r.chained--
	r.head = game.ChainStart(r.fair.Commitment)
	if n := len(r.links); n > 0 {
		r.head = r.links[n-1].Head
	}
	return nil
}

// Rechain gives a restored referee the chain the store kept (every Outcome.Link, in order): it
// continues from the last. An empty chain leaves it at its start.
func (r *Referee) Rechain(links []game.Link) error {
	r.links = r.links[:0]
	for i, l := range links {
		if l.K != uint64(i+1) {
			return fmt.Errorf("judge: chain link %d has k %d", i+1, l.K)
		}
		r.links = append(r.links, l)
	}
	if len(links) > 0 {
		r.chained, r.head = uint64(len(links)), links[len(links)-1].Head
	}
	return nil
}

// ChainHead is the chain's position and head as they stand (for the tools that check it).
func (r *Referee) ChainHead() (k uint64, head string) { return r.chained, r.head }

// checkDrawn fails when the rules drew from rnd without recording every draw in an event.
func checkDrawn(rnd *game.Rand) error {
	if n := rnd.Pending(); n > 0 {
		return fmt.Errorf("judge: the rules drew %d numbers they did not record in an event", n)
	}
	return nil
}

func (r *Referee) ctx(in *game.Input) game.Context {
	c := game.Context{In: in, Fair: r.fair, Dispute: r.opt.DisputeKeyword, Page: r.opt.Page, Due: r.realTime}
	if in != nil && in.Source == game.PM && !r.opt.NoPM {
		c.Private = true
	}
	if r.revealed() {
		c.Fair.Seed, c.Fair.Salt = r.opt.Seed, r.opt.Salt
	}
	return c
}

// Fair is the game's commit-reveal as players may see it now: the commitment always, the seed
// and salt once revealed (a RevealedEvent is in the log), the check page's address.
func (r *Referee) Fair() game.Fair { return r.ctx(nil).Fair }

// revealed reports whether the seed is public (a RevealedEvent is in the log).
func (r *Referee) revealed() bool { return r.shown }

// ---- starting ----

// Start gives the opening post (with the seed's commitment), after the game's opening events
// when it has any (Opener); it carries the clock that runs (ClockStarter), if any.
func (r *Referee) Start(at time.Time) (game.Outcome, error) {
	var evs []game.Event
	if o, ok := r.rules.(game.Opener); ok {
		rnd := r.rand()
		var err error
		if evs, err = o.Open(at, rnd); err != nil {
			return game.Outcome{}, fmt.Errorf("judge: start: %w", err)
		}
		if err := checkDrawn(rnd); err != nil {
			return game.Outcome{}, err
		}
		if rnd.Next() > r.draws {
			// Before any player post the only entropy is the committed seed (docs/fairness.md,
			// section 7): the start's chance waits for the first post (game.StartDrawer).
			return game.Outcome{}, fmt.Errorf("judge: start: the game drew %d numbers for its opening post; a start's chance waits for the first player post (game.StartDrawer)", rnd.Next()-r.draws)
		}
		if err := r.commit(evs); err != nil {
			return game.Outcome{}, err
		}
	}
	body, err := r.rules.Say(game.SayStart, r.ctx(nil))
	if err != nil {
		return game.Outcome{}, err
	}
	m := game.Message{Body: body + r.setupLine()}
	if cs, ok := r.rules.(game.ClockStarter); ok {
		m.Clock = cs.Clock() // the opening post shows the position the side to move answers
	}
	if il, ok := r.rules.(game.Illustrated); ok {
		atts, err := il.StartAttachments()
		if err != nil {
			return game.Outcome{}, fmt.Errorf("judge: start: %w", err)
		}
		m.Attachments = atts
	}
	return game.Outcome{Verdict: game.Accepted, Events: evs, Messages: []game.Message{m}}, nil
}

// ---- judging posts ----

// isBot reports whether name is the game's bot account (its own posts are never judged).
func (r *Referee) isBot(name string) bool {
	return r.opt.Bot != "" && strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(r.opt.Bot))
}

// Judge decides one post or private message. A player's thread post (a player before it or
// after it: a sign-up) is absorbed into the game's chain first (Outcome.Link), whatever its
// verdict.
func (r *Referee) Judge(in game.Input) (game.Outcome, error) {
	draws := r.draws
	link, player := r.absorb(in)
	drawn, err := r.drawStart(link, player, in)
	if err != nil {
		return game.Outcome{Link: link}, err
	}
	out, err := r.judge(in)
	out.Link = r.keep(link, in, player, draws)
	return lead(drawn, out), err
}

// drawStart makes the start's draws the game deferred (game.StartDrawer) when link is the post
// that fixed the entropy they wait for (a player's post): the events, committed, and the messages
// announcing them.
func (r *Referee) drawStart(link *game.Link, player bool, in game.Input) (game.Outcome, error) {
	sd, ok := r.rules.(game.StartDrawer)
	if link == nil || !player || !ok || !sd.StartPending() {
		return game.Outcome{}, nil
	}
	evs, failed, err := r.chance(in.At, func(rnd *game.Rand) ([]game.Event, error) { return sd.DrawStart(r.gameTime(in.At), rnd) })
	if failed != nil {
		return game.Outcome{}, fmt.Errorf("judge: the start's draws at post %s: %w", in.PostID, failed)
	}
	if err != nil {
		return game.Outcome{}, err
	}
	out, err := r.accepted(nil, evs)
	if err != nil {
		return game.Outcome{}, fmt.Errorf("judge: the start's draws at post %s: %w", in.PostID, err)
	}
	return out, nil
}

// lead puts the start's draws (drawn: their events and announcement) ahead of the outcome of
// the post that fixed them: the events first, the announcement at the head of the reply in the
// thread (its own post when the reply has none).
func lead(drawn, out game.Outcome) game.Outcome {
	if len(drawn.Events) == 0 && len(drawn.Messages) == 0 {
		return out
	}
	out.Events = append(drawn.Events, out.Events...)
	msgs := drawn.Messages
	for i, m := range out.Messages {
		if n := len(msgs); n > 0 && m.To == "" && msgs[n-1].To == "" && len(msgs[n-1].Attachments) == 0 && msgs[n-1].Clock == "" {
			m.Body = msgs[n-1].Body + "\n\n" + m.Body
			msgs = msgs[:n-1]
			out.Messages[i] = m
			break
		}
	}
	out.Messages = append(msgs, out.Messages...)
	return out
}

func (r *Referee) judge(in game.Input) (game.Outcome, error) {
	if r.isBot(in.Author) {
		return game.Outcome{Verdict: game.Ignored}, nil
	}
	rd := r.rules.Read(in)
	isPlayer := r.rules.IsPlayer(in.Author)
	if r.paused && (rd.Kind == game.Unreadable || rd.Kind == game.Intent && rd.Move) {
		return r.say(in, game.Refused, game.SayPaused, nil)
	}
	if on, ok := switchWords(in.Post.Text); ok && isPlayer {
		return r.switchReminders(in, on)
	}
	if s, ok := r.holidayAt(in.At); ok && isPlayer && rd.Kind == game.Intent && rd.Move {
		return r.holidayRefusal(in, s)
	}
	if isPlayer && in.Source == game.Thread && HasWord(in.Post.Text, r.opt.DisputeKeyword) {
		return r.dispute(in) // a move before the keyword's line is judged too (dispute.go)
	}
	switch rd.Kind {
	case game.Chatter:
		if in.Source == game.PM {
			// Nothing is dropped silently: a private message the game cannot use is answered.
			return r.say(in, game.Ignored, game.SayPMUnknown, nil)
		}
		return game.Outcome{Verdict: game.Ignored}, nil
	case game.Help:
		return r.say(in, game.Accepted, game.SayHelp, nil)
	case game.Unreadable:
		out, err := r.say(in, game.Flagged, game.SayUnreadable, rd.Lines)
		out.Flags = []game.Flag{{Kind: game.FlagUnreadable, PostID: in.PostID, Detail: cut(rd.Detail, maxDetail)}}
		return out, err
	}
	if !isPlayer && !rd.Open {
		if !rd.Move {
			return game.Outcome{Verdict: game.Ignored}, nil
		}
		out, err := r.say(in, game.Flagged, game.SayNotInRoster, nil)
		f := game.Flag{Kind: game.FlagNotInRoster, PostID: in.PostID, Detail: firstLine(in.Post.Text)}
		if p := lookalike(r.setup.Players, in.Author); p != "" {
			f.Warning = cut(fmt.Sprintf("Осторожно: автор «%s» не в составе игры, но его имя выглядит как имя игрока «%s» "+
				"(в нём латинские буквы вместо русских или наоборот) — возможно, это самозванец.", in.Author, p), maxDetail)
			f.Detail = f.Warning + " " + f.Detail
		}
		out.Flags = []game.Flag{f}
		return out, err
	}
	return r.decide(in, rd)
}

// decide judges an intent and commits what it causes.
func (r *Referee) decide(in game.Input, rd game.Reading) (game.Outcome, error) {
	evs, refused, err := r.chance(in.At, func(rnd *game.Rand) ([]game.Event, error) {
		return r.rules.Decide(game.Act{At: r.gameTime(in.At), Author: in.Author, Private: in.Source == game.PM, Body: rd.Intent, Rand: rnd})
	})
	if err != nil {
		return game.Outcome{}, err
	}
	if refused != nil {
		body, quiet, e := r.rules.Refusal(r.ctx(&in), refused)
		if e != nil {
			return game.Outcome{}, fmt.Errorf("judge: post %s: %w", in.PostID, e)
		}
		if quiet {
			return game.Outcome{Verdict: game.Ignored}, nil
		}
		return game.Outcome{Verdict: game.Refused, Messages: []game.Message{r.route(&in, game.Message{To: game.Sender, Body: body})}}, nil
	}
	out, err := r.accepted(&in, evs)
	if err == nil && rd.Note != "" && len(out.Messages) > 0 {
		out.Messages[0].Body += "\n" + rd.Note
	}
	return out, err
}

// accepted renders the replies to committed events.
func (r *Referee) accepted(in *game.Input, evs []game.Event) (game.Outcome, error) {
	out := game.Outcome{Verdict: game.Accepted, Events: evs}
	c := r.ctx(in)
	reveals := false
	var sum *SummaryEvent
	for _, ev := range evs {
		if s, ok := ev.(*SummaryEvent); ok {
			sum = s
			continue
		}
		msgs, err := r.rules.Messages(c, ev)
		if err != nil {
			return game.Outcome{}, err
		}
		if _, ok := ev.(*RevealedEvent); ok {
			reveals = true
		}
		for _, m := range msgs {
			out.Messages = append(out.Messages, r.route(in, m))
		}
	}
	if reveals {
		var err error
		if out.Messages, err = r.listDraws(out.Messages); err != nil {
			return game.Outcome{}, err
		}
	}
	if sum != nil {
		body, err := SummaryText(sum.Game, sum.Summary)
		if err != nil {
			return game.Outcome{}, err
		}
		// After the game's closing post (the result, the seed and its draws), as its own post.
		out.Messages = append(out.Messages, game.Message{Body: body})
	}
	return out, nil
}

// say renders one of the game's templates as the answer to in.
func (r *Referee) say(in game.Input, v game.Verdict, name string, lines any) (game.Outcome, error) {
	c := r.ctx(&in)
	c.Lines = lines
	body, err := r.rules.Say(name, c)
	if err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: v, Messages: []game.Message{r.route(&in, game.Message{To: game.Sender, Body: body})}}, nil
}

// route resolves a message addressed to the Sender.
func (r *Referee) route(in *game.Input, m game.Message) game.Message {
	if m.To != game.Sender {
		return m
	}
	if in != nil && in.Source == game.PM && !r.opt.NoPM {
		return game.Message{To: in.Author, Subject: replySubject(in.Post.Subject, r.rules.Title()), Body: m.Body, Attachments: m.Attachments, Clock: m.Clock}
	}
	return game.Message{Body: m.Body, Attachments: m.Attachments, Clock: m.Clock}
}

// ---- the clock ----

// NextTimer is the game's next timed rule after t (real time: extensions and holidays applied);
// none while paused.
func (r *Referee) NextTimer(t time.Time) (time.Time, bool) {
	if r.paused {
		return time.Time{}, false
	}
	g, ok := r.rules.NextTimer(r.gameTime(t))
	next := r.realTime(g)
	if at, due := r.nextReminder(t); due && (!ok || at.Before(next)) {
		return at, true
	}
	return next, ok
}

// rulesDue reports whether the real time at is one of the rules' own timers (not only a
// reminder's).
func (r *Referee) rulesDue(at time.Time) bool {
	g, ok := r.rules.NextTimer(r.gameTime(at).Add(-time.Nanosecond))
	return ok && r.realTime(g).Equal(at)
}

// Fire runs the timed rules due at at (a real time NextTimer returned): the reminders due then,
// and the game's own timed rules.
func (r *Referee) Fire(at time.Time) (game.Outcome, error) {
	rem, err := r.remind(at)
	if err != nil || !r.rulesDue(at) {
		return rem, err
	}
	out, err := r.fire(at)
	out.Events = append(rem.Events, out.Events...)
	out.Messages = append(rem.Messages, out.Messages...)
	return out, err
}

// fire runs the game's own timed rules due at at. When at ends an extension, the timers the
// rules set inside it (game times the extension passed over: a football turn opened late whose
// window would have closed by then) are overdue: they fire too, in order, so the clock never
// stands on a timer it cannot reach.
func (r *Referee) fire(at time.Time) (game.Outcome, error) {
	g := r.gameTime(at)
	var all []game.Event
	for {
		evs, failed, err := r.chance(at, func(rnd *game.Rand) ([]game.Event, error) { return r.rules.Tick(g, rnd) })
		if failed != nil {
			return game.Outcome{}, fmt.Errorf("judge: tick %s: %w", at.Format(time.RFC3339), failed)
		}
		if err != nil {
			return game.Outcome{}, err
		}
		all = append(all, evs...)
		next, ok := r.rules.NextTimer(g)
		if !ok || r.realTime(next).After(at) || !r.extensionEnds(at) {
			return r.accepted(nil, all)
		}
		g = next
	}
}

// extensionEnds reports whether an extension ends at the real time at.
func (r *Referee) extensionEnds(at time.Time) bool {
	for _, s := range r.stops {
		if !s.holiday && s.b.Equal(at) {
			return true
		}
	}
	return false
}

// ---- clocks started by replies ----

// Delivered reports a message carrying clock key (Message.Clock) posted at at as outbox item
// marker to the game (ClockStarter): when the game moves the clock, the outcome has a
// DeliveredEvent and the game's events, committed; else nothing.
func (r *Referee) Delivered(key, marker string, at time.Time) (game.Outcome, error) {
	cs, ok := r.rules.(game.ClockStarter)
	if !ok || key == "" {
		return game.Outcome{}, nil
	}
	at = game.PostingMinute(at)
	evs, err := cs.Delivered(key, r.gameTime(at))
	if err != nil || len(evs) == 0 {
		return game.Outcome{}, err
	}
	evs = append([]game.Event{&DeliveredEvent{At: at, Clock: key, Marker: marker}}, evs...)
	if err := r.commit(evs); err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: game.Accepted, Events: evs}, nil
}

// Deadline is what a message carrying clock key posted at at says of its deadline ("" when the
// game says nothing or fails to: a reply is never held up by it).
func (r *Referee) Deadline(key string, at time.Time) string {
	cs, ok := r.rules.(game.ClockStarter)
	if !ok || key == "" {
		return ""
	}
	words, err := cs.Deadline(r.ctx(nil), key, r.gameTime(game.PostingMinute(at)))
	if err != nil {
		return ""
	}
	return words
}

// FillDeadline replaces body's DeadlineSlot with what the game says of the deadline of clock key
// for a message posted at at (PostingMinute), or with nothing when it says nothing.
func (r *Referee) FillDeadline(body, key string, at time.Time) string {
	if !strings.Contains(body, game.DeadlineSlot) {
		return body
	}
	return strings.ReplaceAll(body, game.DeadlineSlot, r.Deadline(key, at))
}

// Advance fires, in order, every timed rule due after last and at or before to, handing each
// outcome to emit (which commits it). It returns the time of the last timer fired (or last).
func (r *Referee) Advance(last, to time.Time, emit func(at time.Time, out game.Outcome) error) (time.Time, error) {
	for {
		at, ok := r.NextTimer(last)
		if !ok || at.After(to) {
			return last, nil
		}
		out, err := r.Fire(at)
		if err != nil {
			return last, err
		}
		if err := emit(at, out); err != nil {
			return last, err
		}
		last = at
	}
}

// ---- moderation ----

// Moderate carries out a moderator command.
func (r *Referee) Moderate(cmd game.ModCommand) (game.Outcome, error) {
	c := r.ctx(nil)
	c.Mod = &cmd
	switch cmd.Action {
	case game.ModExtend, game.ModHoliday, game.ModClarify, game.ModLength:
		return r.master(cmd)
	case game.ModPause, game.ModResume:
		if (cmd.Action == game.ModPause) == r.paused {
			return game.Outcome{}, fmt.Errorf("judge: the game is already %s: %w", map[bool]string{true: "paused", false: "running"}[r.paused], ErrPauseState)
		}
		var ev game.Event = &PausedEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason}
		name := game.SayPause
		if cmd.Action == game.ModResume {
			ev, name = &ResumedEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason}, game.SayResume
		}
		if err := r.commit([]game.Event{ev}); err != nil {
			return game.Outcome{}, err
		}
		body, err := r.rules.Say(name, c)
		return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{{Body: body}}}, err
	case game.ModUndo:
		if r.lean {
			return game.Outcome{}, ErrNeedsLog
		}
		pos, label := r.lastUndoable()
		if pos < 0 {
			return game.Outcome{}, fmt.Errorf("judge: %w", ErrNothingToUndo)
		}
		c.Event = r.log[pos]
		ev := &UndoneEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason, Event: pos, Label: label}
		if err := r.commit([]game.Event{ev}); err != nil {
			return game.Outcome{}, err
		}
		body, err := r.rules.Say(game.SayUndone, c)
		return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{{Body: body}}}, err
	case game.ModEnd:
		evs, refused, err := r.chance(cmd.At, func(rnd *game.Rand) ([]game.Event, error) {
			return r.rules.Decide(game.Act{At: r.gameTime(cmd.At), Author: cmd.By, Body: r.rules.Ender(cmd.Winner, cmd.Reason), Rand: rnd})
		})
		if refused != nil {
			return game.Outcome{}, fmt.Errorf("judge: end: %w", refused)
		}
		if err != nil {
			return game.Outcome{}, err
		}
		return r.accepted(nil, evs)
	case game.ModAddPlayer, game.ModAdjust, game.ModReplace, game.ModRemove:
		var intent any
		var err error
		adj, isAdj := r.rules.(game.Adjuster)
		rep, isRep := r.rules.(game.Replacer)
		switch {
		case cmd.Action == game.ModAddPlayer && isAdj:
			intent, err = adj.AddPlayer(cmd.Player, cmd.Role)
		case cmd.Action == game.ModAdjust && isAdj:
			intent, err = adj.Adjust(cmd.Target, cmd.Amount, cmd.Reason)
		case cmd.Action == game.ModReplace && isRep:
			if strings.TrimSpace(cmd.Player) == "" || strings.TrimSpace(cmd.Replacement) == "" || r.isBot(cmd.Replacement) {
				return game.Outcome{}, fmt.Errorf("judge: replace: give the player who leaves and the forum user who takes his place (not the bot)")
			}
			intent, err = rep.Replace(cmd.Player, cmd.Replacement)
		case cmd.Action == game.ModRemove && isRep:
			intent, err = rep.Remove(cmd.Player)
		default:
			return game.Outcome{}, fmt.Errorf("judge: %s: this game has no such moderator command", cmd.Action)
		}
		if m, ok := intent.(interface{ Moderated(by, reason string) }); ok {
			m.Moderated(cmd.By, cmd.Reason)
		}
		if err != nil {
			return game.Outcome{}, fmt.Errorf("judge: %s: %w", cmd.Action, err)
		}
		evs, refused, err := r.chance(cmd.At, func(rnd *game.Rand) ([]game.Event, error) {
			return r.rules.Decide(game.Act{At: r.gameTime(cmd.At), Author: cmd.By, Body: intent, Rand: rnd})
		})
		if refused != nil {
			return game.Outcome{}, fmt.Errorf("judge: %s: %w", cmd.Action, refused)
		}
		if err != nil {
			return game.Outcome{}, err
		}
		out, err := r.accepted(nil, evs)
		out.Verdict = game.Accepted
		return out, err
	case game.ModUphold, game.ModOverturn, game.ModSettle:
		return r.settle(cmd, c) // dispute.go
	case game.ModAccept, game.ModReject, game.ModClose:
		if cmd.Post == nil {
			return game.Outcome{}, fmt.Errorf("judge: %s needs the flagged post", cmd.Action)
		}
		mark := &ModeratedEvent{At: cmd.At, By: cmd.By, Action: cmd.Action, PostID: cmd.Post.PostID, Reason: cmd.Reason,
			Flag: cmd.Flag, Text: cmd.Text}
		c.In = cmd.Post
		keep := cmd.Action == game.ModAccept && (cmd.Flag == game.FlagEdited || cmd.Flag == game.FlagDeleted || cmd.Flag == game.FlagDispute)
		if cmd.Action == game.ModClose || keep {
			// Nothing is judged again: the first-seen post, or the decision disputed, stands.
			if err := r.commit([]game.Event{mark}); err != nil {
				return game.Outcome{}, err
			}
			out := game.Outcome{Verdict: game.Ignored, Events: []game.Event{mark}}
			if keep || cmd.Flag == game.FlagDispute {
				// A dispute's author always hears the outcome, a closed one included.
				name := game.SayModKept
				if cmd.Action == game.ModClose {
					name = game.SayModClosed
				}
				body, err := r.rules.Say(name, c)
				if err != nil {
					return game.Outcome{}, err
				}
				out.Messages = []game.Message{r.route(cmd.Post, game.Message{To: game.Sender, Body: body})}
			}
			return out, nil
		}
		if cmd.Action == game.ModReject {
			if err := r.commit([]game.Event{mark}); err != nil {
				return game.Outcome{}, err
			}
			body, err := r.rules.Say(game.SayModRejected, c)
			if err != nil {
				return game.Outcome{}, err
			}
			return game.Outcome{Verdict: game.Refused, Events: []game.Event{mark}, Messages: []game.Message{r.route(cmd.Post, game.Message{To: game.Sender, Body: body})}}, nil
		}
		in := *cmd.Post
		in.At = cmd.At
		if strings.TrimSpace(cmd.Text) != "" {
			// The move as the player meant it, typed by the moderator, judged as if the player
			// had written it (the post's quotes, such as a quoted board, stay).
			in.Post.Text = cmd.Text
		}
		rd := r.rules.Read(in)
		if rd.Kind != game.Intent {
			return game.Outcome{}, fmt.Errorf("judge: accept: %s: %w; give the move as the player meant it (review accept --text, or the text box in the web UI)", describe(in), ErrNoReadable)
		}
		if cmd.Flag == game.FlagNotInRoster && !r.rules.IsPlayer(in.Author) {
			return game.Outcome{}, fmt.Errorf("judge: accept: %s %w; add them to the roster first", in.Author, ErrNotPlaying)
		}
		out, err := r.decide(in, rd)
		if err != nil || out.Verdict != game.Accepted {
			return out, err
		}
		if err := r.commit([]game.Event{mark}); err != nil {
			return game.Outcome{}, err
		}
		out.Events = append(out.Events, mark)
		if note, err := r.rules.Say(game.SayModAccepted, c); err == nil && len(out.Messages) > 0 {
			out.Messages[0].Body += "\n" + note
		} else if err != nil {
			return game.Outcome{}, err
		}
		return out, nil
	}
	return game.Outcome{}, fmt.Errorf("judge: unknown moderator action %q", cmd.Action)
}

// lastUndoable is the log position of the last move not undone yet (-1: none).
func (r *Referee) lastUndoable() (int, string) {
	for i := len(r.log) - 1; i >= 0; i-- {
		if r.undone[i] || refereeEvent(r.log[i]) {
			continue
		}
		if label, ok := r.rules.Undoable(r.log[i]); ok {
			return i, label
		}
	}
	return -1, ""
}

// LastUndoable names the move a moderator's undo would undo now (the game's label for it).
func (r *Referee) LastUndoable() (label string, ok bool) {
	pos, label := r.lastUndoable()
	return label, pos >= 0
}

// Describe puts a stored event of the game into words through the game's Describer; "" for the
// referee's own events, a game without words for it, or an event that does not decode.
func (r *Referee) Describe(rec game.Record) string {
	if strings.HasPrefix(rec.Kind, "judge.") {
		return ""
	}
	d, ok := r.rules.(game.Describer)
	if !ok {
		return ""
	}
	ev, err := r.decode(rec.Kind, rec.Data)
	if err != nil {
		return ""
	}
	return d.Describe(ev)
}

// UnreadableReply is what the game answers a post it cannot read (its "unreadable" template, naming
// the parts it could not read), on r's current state, without judging anything; ok is false when
// the post reads (or is chatter) now.
func (r *Referee) UnreadableReply(in game.Input) (body string, ok bool) {
	rd := r.rules.Read(in)
	if rd.Kind != game.Unreadable {
		return "", false
	}
	c := r.ctx(&in)
	c.Lines = rd.Lines
	body, err := r.rules.Say(game.SayUnreadable, c)
	return body, err == nil && strings.TrimSpace(body) != ""
}

// Describer is the running game's Describer, or nil when the game has none.
func (r *Referee) Describer() game.Describer {
	d, _ := r.rules.(game.Describer)
	return d
}

// Plays reports whether a forum user plays in the game.
func (r *Referee) Plays(name string) bool { return r.rules.IsPlayer(name) }

// ForGame reports whether a post holds something for the game.
func (r *Referee) ForGame(in game.Input) bool { return r.rules.Read(in).Kind != game.Chatter }

// Snapshot is the state in the replay's "final" shape.
func (r *Referee) Snapshot() any { return r.rules.Snapshot() }

// ---- helpers ----

// HasWord reports whether text holds word as a whole word (case and look-alike letters folded):
// "#спор" is found in "#спор: ход был верный", not in "не оспариваю".
func HasWord(text, word string) bool {
	t, w := russian.Fold(text), russian.Fold(word)
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, after := rune(' '), rune(' ')
		if j > 0 {
			before = lastRune(t[:j])
		}
		if end := j + len(w); end < len(t) {
			after = []rune(t[end:])[0]
		}
		if !wordRune(before) && !wordRune(after) && !negated(t[:j]) {
			return true
		}
		i = j + len(w)
	}
}

// lookalike is the player whose name author's reads as once Cyrillic and Latin look-alike letters,
// case, ё, invisible characters and spacing are folded ("Джeлу" with a Latin e for Джелу), when
// author is not that player's own spelling; "" when none.
func lookalike(players []string, author string) string {
	fold := func(s string) string {
		return russian.ToCyrillicLower(russian.Fold(strings.Join(strings.Fields(russian.CleanText(s)), " ")))
	}
	a := fold(author)
	for _, p := range players {
		if fold(p) == a && !strings.EqualFold(strings.TrimSpace(p), strings.TrimSpace(author)) {
			return p
		}
	}
	return ""
}

// negated reports whether the text before a word ends with "не" ("не оспариваю").
func negated(before string) bool {
	f := strings.Fields(before)
	return len(f) > 0 && f[len(f)-1] == "не"
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '#' }

// replySubject answers a private message under its own subject ("RE: " once), or under the
// game's title when it had none.
func replySubject(subject, title string) string {
	subject = strings.TrimSpace(subject)
	if subject == "" {
		return title
	}
	if len(subject) >= 3 && strings.EqualFold(subject[:3], "re:") {
		return subject
	}
	return "RE: " + subject
}

// maxDetail bounds a flag's detail (a hostile post is not copied into moderators' messages).
const maxDetail = 300

// cut shortens s to at most n characters, marking the cut with "…".
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// describe names a post for a moderator's error message.
func describe(in game.Input) string {
	return fmt.Sprintf("post %s by %s", in.PostID, in.Author)
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
