package referee

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"forumgm/game"
	"forumgm/templates"
)

// The game master's powers over time (issue 22): a deadline extended, a day skipped (a holiday),
// the game made longer or shorter, a rules clarification posted. Each is a moderator's command,
// logged with who and why, and announced in the thread.
//
// The referee keeps the game's own clock apart from the real one: the rules see game time, the
// world real time. A stop is a stretch of real time the rules see differently:
//   - an extension: the rules' timer at Due fires at the real time Until; a post between the
//     original time and Until counts as made just before Due (one second before), so the rules
//     judge it as in time. Later timers keep their times.
//   - a holiday: the game's clock stands still for one whole day: moves are refused that day, and
//     every later time of the game comes one day later in real time.

// Event kinds of the game master's powers.
const (
	KindExtended = "judge.extended"
	KindHoliday  = "judge.holiday"
)

// ExtendedEvent is a deadline moved later by a moderator.
type ExtendedEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
	Due    time.Time `json:"due"`   // the rules' timer (game time)
	Was    time.Time `json:"was"`   // when it was due in real time
	Until  time.Time `json:"until"` // when it is due now (real time)
}

// HolidayEvent is a day on which the game's clock stands still.
type HolidayEvent struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
	From   time.Time `json:"from"` // the day's start (real time)
	To     time.Time `json:"to"`   // the next day's start (real time)
}

func (*ExtendedEvent) EventKind() string { return KindExtended }
func (*HolidayEvent) EventKind() string  { return KindHoliday }

// stop is a stretch (A, B] of real time the game's clock reads differently (see above).
type stop struct {
	a, b    time.Time
	holiday bool
	due     time.Time // extension: the rules' timer; holiday: the game time the clock stands at
}

// addStop folds an extension or a holiday into the clock.
func (r *Referee) addStop(ev game.Event) {
	var s stop
	switch e := ev.(type) {
	case *ExtendedEvent:
		s = stop{a: e.Was, b: e.Until, due: e.Due}
	case *HolidayEvent:
		s = stop{a: e.From, b: e.To, holiday: true, due: r.gameTime(e.From)}
	}
	r.stops = append(r.stops, s)
	sort.SliceStable(r.stops, func(i, j int) bool { return r.stops[i].a.Before(r.stops[j].a) })
}

// gameTime is the game's time at the real time t.
func (r *Referee) gameTime(t time.Time) time.Time {
	var off time.Duration
	for _, s := range r.stops {
		if !s.holiday && t.Equal(s.a) {
			return s.due.Add(-time.Second) // the extended deadline has not come at its old time
		}
		if !t.After(s.a) {
			break
		}
		switch {
		case t.Before(s.b) && !s.holiday:
			return s.due.Add(-time.Second)
		case t.Before(s.b) || t.Equal(s.b):
			return s.due
		}
		if s.holiday {
			off += s.b.Sub(s.a)
		}
	}
	return t.Add(-off)
}

// realTime is when the rules' time g comes in real time.
func (r *Referee) realTime(g time.Time) time.Time {
	var off time.Duration
	for _, s := range r.stops {
		if !s.holiday {
			if g.Equal(s.due) {
				return s.b
			}
			continue
		}
		if g.After(s.due) {
			off += s.b.Sub(s.a)
		}
	}
	return g.Add(off)
}

// debtDue is when a debt's deadline (game time) comes in real time. A debt belongs to the rules'
// next timer at or after its deadline (Crusade's time limit is stamped a minute before the timer
// that charges it): when the master extended that timer, the debt moves with it.
func (r *Referee) debtDue(deadline time.Time) time.Time {
	due := r.realTime(deadline)
	next, ok := r.rules.NextTimer(deadline.Add(-time.Nanosecond))
	if !ok || next.Equal(deadline) {
		return due
	}
	for _, s := range r.stops {
		if !s.holiday && s.due.Equal(next) {
			return due.Add(s.b.Sub(s.a))
		}
	}
	return due
}

// holidayAt is the holiday in effect at the real time t, if any.
func (r *Referee) holidayAt(t time.Time) (stop, bool) {
	for _, s := range r.stops {
		if s.holiday && t.After(s.a) && t.Before(s.b) {
			return s, true
		}
	}
	return stop{}, false
}

// GameTime is the game's time at the real time t (the rules' clock: extensions and holidays
// applied); Due is its inverse for a time the rules name (a deadline). The daemon's reminders
// use both.
func (r *Referee) GameTime(t time.Time) time.Time { return r.gameTime(t) }

// Due is the real time at which the rules' time g comes.
func (r *Referee) Due(g time.Time) time.Time { return r.realTime(g) }

// master texts: the shared layer's own (templates/master).
var masterTexts = sync.OnceValues(func() (*templates.Set, error) { return templates.LoadShared("master") })

// Say renders one of the game master's shared texts (templates/master).
func Say(name string, data any) (string, error) {
	set, err := masterTexts()
	if err != nil {
		return "", err
	}
	return set.Render(name, data)
}

// When writes a real time as the thread shows it: the game's zone, with the zone's name when it
// differs from the forum's (Options.Zone).
func (r *Referee) When(t time.Time) string {
	loc := r.opt.Location
	if loc == nil {
		loc = time.UTC
	}
	s := t.In(loc).Format("02.01 15:04")
	if r.opt.Zone != "" {
		s += " (" + r.opt.Zone + ")"
	}
	return s
}

// ErrNoDeadline: a moderator asked to extend a deadline and none is ahead.
var ErrNoDeadline = errors.New("no deadline ahead")

// master carries out the game master's powers over time and the clarifications.
func (r *Referee) master(cmd game.ModCommand) (game.Outcome, error) {
	if r.rules.Over() {
		return game.Outcome{}, fmt.Errorf("judge: %s: the game is over", cmd.Action)
	}
	switch cmd.Action {
	case game.ModClarify:
		text := strings.TrimSpace(cmd.Text)
		if text == "" {
			return game.Outcome{}, errors.New("judge: clarify: no text to post")
		}
		ev := &ModeratedEvent{At: cmd.At, By: cmd.By, Action: cmd.Action, Reason: cmd.Reason, Text: text}
		body, err := Say("clarify", map[string]any{"By": cmd.By, "Text": text})
		if err != nil {
			return game.Outcome{}, err
		}
		return r.announce(ev, body)
	case game.ModExtend:
		return r.extend(cmd)
	case game.ModHoliday:
		return r.holiday(cmd)
	case game.ModLength:
		return r.length(cmd)
	}
	return game.Outcome{}, fmt.Errorf("judge: unknown moderator action %q", cmd.Action)
}

// announce commits ev and posts body in the thread.
func (r *Referee) announce(ev game.Event, body string) (game.Outcome, error) {
	if err := r.commit([]game.Event{ev}); err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{{Body: body}}}, nil
}

// maxExtension bounds one extension (a longer break is a pause or holidays).
const maxExtension = 7 * 24 * time.Hour

// extend moves a deadline (cmd.Deadline, or the next one) later by cmd.Delay.
func (r *Referee) extend(cmd game.ModCommand) (game.Outcome, error) {
	if cmd.Delay <= 0 || cmd.Delay > maxExtension {
		return game.Outcome{}, fmt.Errorf("judge: extend: give how much later, from 1 minute to %s (got %s)", maxExtension, cmd.Delay)
	}
	due, ok := r.nextDeadline(cmd.At, cmd.Deadline)
	if !ok {
		if cmd.Deadline.IsZero() {
			return game.Outcome{}, fmt.Errorf("judge: extend: %w", ErrNoDeadline)
		}
		return game.Outcome{}, fmt.Errorf("judge: extend: no deadline of the game at %s (the next ones: %s)", r.When(cmd.Deadline), strings.Join(r.Upcoming(cmd.At, 3), ", "))
	}
	was := r.realTime(due)
	until := was.Add(cmd.Delay).Truncate(time.Minute)
	if next, ok := r.rules.NextTimer(due); ok && !r.realTime(next).After(until) {
		return game.Outcome{}, fmt.Errorf("judge: extend: the new time %s would pass the game's next deadline %s: extend by less than %s",
			r.When(until), r.When(r.realTime(next)), r.realTime(next).Sub(was))
	}
	for _, s := range r.stops {
		if s.a.Before(until) && was.Before(s.b) {
			return game.Outcome{}, fmt.Errorf("judge: extend: %s–%s overlaps an extension or a holiday already declared", r.When(was), r.When(until))
		}
	}
	ev := &ExtendedEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason, Due: due, Was: was, Until: until}
	body, err := Say("extend", map[string]any{"Was": r.When(was), "Until": r.When(until), "By": cmd.By, "Reason": cmd.Reason})
	if err != nil {
		return game.Outcome{}, err
	}
	return r.announce(ev, body)
}

// nextDeadline is the rules' next timer after the real time now (game time), or the one that
// comes at the real time want when want is set.
func (r *Referee) nextDeadline(now, want time.Time) (time.Time, bool) {
	g := r.gameTime(now)
	for i := 0; i < 200; i++ {
		next, ok := r.rules.NextTimer(g)
		if !ok {
			return time.Time{}, false
		}
		if want.IsZero() || r.realTime(next).Equal(want) {
			return next, true
		}
		if r.realTime(next).After(want) {
			return time.Time{}, false
		}
		g = next
	}
	return time.Time{}, false
}

// Upcoming is the game's next n deadlines after the real time now, written as the thread shows
// them (none: ["none"]).
func (r *Referee) Upcoming(now time.Time, n int) []string {
	var out []string
	g := r.gameTime(now)
	for len(out) < n {
		next, ok := r.rules.NextTimer(g)
		if !ok {
			break
		}
		out = append(out, r.When(r.realTime(next)))
		g = next
	}
	if len(out) == 0 {
		out = []string{"none"}
	}
	return out
}

// holiday stops the game's clock for the day of cmd.Day (the game's zone).
func (r *Referee) holiday(cmd game.ModCommand) (game.Outcome, error) {
	loc := r.opt.Location
	if loc == nil {
		loc = time.UTC
	}
	d := cmd.Day.In(loc)
	from := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
	to := time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc)
	day := from.Format("02.01.2006")
	if !from.After(cmd.At) {
		return game.Outcome{}, fmt.Errorf("judge: holiday: %s has already begun: a holiday is declared before its day (for today, pause the game)", day)
	}
	for _, s := range r.stops {
		if s.a.Before(to) && from.Before(s.b) {
			return game.Outcome{}, fmt.Errorf("judge: holiday: %s overlaps an extension or a holiday already declared", day)
		}
	}
	ev := &HolidayEvent{At: cmd.At, By: cmd.By, Reason: cmd.Reason, From: from, To: to}
	if err := r.commit([]game.Event{ev}); err != nil {
		return game.Outcome{}, err
	}
	next := ""
	if g, ok := r.rules.NextTimer(r.gameTime(to)); ok {
		next = r.When(r.realTime(g))
	}
	body, err := Say("holiday", map[string]any{"Day": day, "Next": next, "By": cmd.By, "Reason": cmd.Reason})
	if err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{{Body: body}}}, nil
}

// holidayRefusal answers a move made on a holiday.
func (r *Referee) holidayRefusal(in game.Input, s stop) (game.Outcome, error) {
	loc := r.opt.Location
	if loc == nil {
		loc = time.UTC
	}
	body, err := Say("holiday_refused", map[string]any{"Day": s.a.In(loc).Format("02.01.2006"), "Until": r.When(s.b)})
	if err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: game.Refused, Messages: []game.Message{r.route(&in, game.Message{To: game.Sender, Body: body})}}, nil
}

// length makes the game cmd.Amount units long (Lengthener).
func (r *Referee) length(cmd game.ModCommand) (game.Outcome, error) {
	l, ok := game.As[game.Lengthener](r.rules)
	if w, wraps := r.rules.(interface{ Inner() game.Rules }); !ok && wraps && w.Inner() == nil {
		return game.Outcome{}, errors.New("judge: length: the game has not started yet (its sign-up runs): set the length in the config's settings")
	}
	if !ok {
		return game.Outcome{}, errors.New("judge: length: this game has no set length (end it with end when the master decides)")
	}
	was, unit := l.Length()
	if cmd.Amount < 1 {
		return game.Outcome{}, fmt.Errorf("judge: length: give the new length, a whole number from 1 (now %d)", was)
	}
	if cmd.Amount == was {
		return game.Outcome{}, fmt.Errorf("judge: length: the game is already %d long: %w", was, ErrPauseState)
	}
	intent, err := l.SetLength(cmd.Amount)
	if err != nil {
		return game.Outcome{}, fmt.Errorf("judge: length: %w", err)
	}
	evs, refused, err := r.chance(cmd.At, func(rnd *game.Rand) ([]game.Event, error) {
		return r.rules.Decide(game.Act{At: r.gameTime(cmd.At), Author: cmd.By, Body: intent, Rand: rnd})
	})
	if refused != nil {
		return game.Outcome{}, fmt.Errorf("judge: length: %w", refused)
	}
	if err != nil {
		return game.Outcome{}, err
	}
	mark := &ModeratedEvent{At: cmd.At, By: cmd.By, Action: cmd.Action, Reason: cmd.Reason, Text: fmt.Sprint(cmd.Amount)}
	if err := r.commit([]game.Event{mark}); err != nil {
		return game.Outcome{}, err
	}
	words := func(n int) string { return fmt.Sprintf("%d %s", n, templates.Plural(n, unit[0], unit[1], unit[2])) }
	body, err := Say("length", map[string]any{"Was": words(was), "Now": words(cmd.Amount), "Longer": cmd.Amount > was, "Reason": cmd.Reason})
	if err != nil {
		return game.Outcome{}, err
	}
	out := game.Outcome{Verdict: game.Accepted, Events: append(evs, mark), Messages: []game.Message{{Body: body}}}
	more, err := r.accepted(nil, evs)
	if err != nil {
		return game.Outcome{}, err
	}
	out.Messages = append(out.Messages, more.Messages...)
	return out, nil
}

// KindSchedule is the event kind of a schedule changed by the config (a reload).
const KindSchedule = "judge.schedule"

// ScheduleEvent records that the game's settings changed under it (a config reload) and the
// change was announced.
type ScheduleEvent struct {
	At   time.Time `json:"at"`
	Spec string    `json:"spec"`          // the settings' new fingerprint
	Next time.Time `json:"next,omitzero"` // the next deadline then (real time)
}

func (*ScheduleEvent) EventKind() string { return KindSchedule }

// Rescheduled announces, once, that the game's settings changed since they were last announced
// or registered (Options.Spec differs): the game goes on from where it was, and the thread is
// told the next deadline now. ok is false when nothing changed.
func (r *Referee) Rescheduled(now time.Time) (out game.Outcome, ok bool, err error) {
	if r.opt.Spec == "" || r.specSeen == "" || r.specSeen == r.opt.Spec || r.rules.Over() {
		return game.Outcome{}, false, nil
	}
	ev := &ScheduleEvent{At: now, Spec: r.opt.Spec}
	next := "не назначен"
	if g, ok := r.nextDeadline(now, time.Time{}); ok {
		at := r.realTime(g)
		ev.Next, next = at, r.When(at)
	}
	body, err := Say("schedule", map[string]any{"Next": next, "Was": ""})
	if err != nil {
		return game.Outcome{}, false, err
	}
	out, err = r.announce(ev, body)
	return out, err == nil, err
}
