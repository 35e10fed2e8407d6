package referee

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"forumgm/game"
	"forumgm/russian"
	"forumgm/templates"
)

// Reminders (issue 22): a lead time before each deadline, the referee reminds by private message
// exactly the players who owe something then (the game's Debtor says who and what), at most once
// per debt and player. A reminder is a timed rule of the referee's own: it comes from NextTimer and
// Fire like the game's deadlines, so the daemon commits it with the clock (a reminder fired is
// never fired again, across restarts) and its private message through the outbox (posted exactly
// once); a replay reminds at the same times. A player switches them off and on by writing
// «напоминания выкл» / «напоминания вкл» in the thread or by private message.

// Event kinds of the reminders.
const (
	KindReminded  = "judge.reminded"
	KindReminders = "judge.reminders"
)

// RemindedEvent is a reminder sent to a player for one debt.
type RemindedEvent struct {
	At       time.Time `json:"at"`
	Player   string    `json:"player"`
	Key      string    `json:"key"`
	Deadline time.Time `json:"deadline"` // real time
}

// RemindersEvent is a player switching the reminders off or on.
type RemindersEvent struct {
	At     time.Time `json:"at"`
	Player string    `json:"player"`
	On     bool      `json:"on"`
}

func (*RemindedEvent) EventKind() string  { return KindReminded }
func (*RemindersEvent) EventKind() string { return KindReminders }

// remindKey is a debt's identity for one player.
func remindKey(key, player string) string { return key + "\x00" + strings.ToLower(player) }

// applyRemind folds a reminder event.
func (r *Referee) applyRemind(ev game.Event) {
	switch e := ev.(type) {
	case *RemindedEvent:
		if r.reminded == nil {
			r.reminded = map[string]bool{}
		}
		r.reminded[remindKey(e.Key, e.Player)] = true
	case *RemindersEvent:
		if r.remindOff == nil {
			r.remindOff = map[string]bool{}
		}
		r.remindOff[strings.ToLower(e.Player)] = !e.On
	}
}

// RemindersOff reports whether a player switched the reminders off.
func (r *Referee) RemindersOff(player string) bool { return r.remindOff[strings.ToLower(player)] }

// debts are the debts the game reports at the real time t that a reminder is still due for:
// reminders on, the player not reminded of it yet and not switched off, by reminder time.
func (r *Referee) debts(t time.Time) []dueDebt {
	d, ok := game.As[game.Debtor](r.rules)
	if !ok || r.opt.RemindLead <= 0 || r.opt.NoPM || r.rules.Over() {
		return nil
	}
	var out []dueDebt
	for _, debt := range d.Owed(r.gameTime(t)) {
		if r.reminded[remindKey(debt.Key, debt.Player)] || r.RemindersOff(debt.Player) {
			continue
		}
		due, lead := r.debtDue(debt.Deadline), r.opt.RemindLead
		if debt.Lead > 0 && debt.Lead < lead {
			lead = debt.Lead
		}
		out = append(out, dueDebt{Debt: debt, due: due, at: due.Add(-lead).Truncate(time.Minute)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at.Before(out[j].at) })
	return out
}

type dueDebt struct {
	game.Debt
	due time.Time // the deadline (real time)
	at  time.Time // when the reminder goes (real time)
}

// nextReminder is the first reminder time strictly after t whose deadline is still ahead then.
func (r *Referee) nextReminder(t time.Time) (time.Time, bool) {
	for _, d := range r.debts(t) {
		if d.at.After(t) && d.due.After(d.at) {
			return d.at, true
		}
	}
	return time.Time{}, false
}

// remind fires the reminders due at at: one private message per player, naming every debt.
func (r *Referee) remind(at time.Time) (game.Outcome, error) {
	var out game.Outcome
	byPlayer := map[string][]dueDebt{}
	var order []string
	for _, d := range r.debts(at) {
		if !d.at.Equal(at) || !d.due.After(at) {
			continue
		}
		if byPlayer[d.Player] == nil {
			order = append(order, d.Player)
		}
		byPlayer[d.Player] = append(byPlayer[d.Player], d)
	}
	for _, p := range order {
		ds := byPlayer[p]
		var what []string
		for _, d := range ds {
			what = append(what, d.What)
			ev := &RemindedEvent{At: at, Player: p, Key: d.Key, Deadline: d.due}
			if err := r.commit([]game.Event{ev}); err != nil {
				return game.Outcome{}, err
			}
			out.Events = append(out.Events, ev)
		}
		body, err := Say("remind", map[string]any{"What": strings.Join(what, "; "), "Deadline": r.When(ds[0].due), "Left": left(ds[0].due.Sub(at))})
		if err != nil {
			return game.Outcome{}, err
		}
		out.Messages = append(out.Messages, game.Message{To: p, Subject: r.rules.Title() + ": напоминание", Body: body})
	}
	if len(out.Events) > 0 {
		out.Verdict = game.Accepted
	}
	return out, nil
}

// left is a duration in Russian words ("2 часа", "45 минут", "1 час 30 минут").
func left(d time.Duration) string {
	d = d.Round(time.Minute)
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", h, templates.Plural(h, "час", "часа", "часов")))
	}
	if m > 0 || h == 0 {
		parts = append(parts, fmt.Sprintf("%d %s", m, templates.Plural(m, "минута", "минуты", "минут")))
	}
	return strings.Join(parts, " ")
}

// switchWords reads «напоминания выкл» / «напоминания вкл» (the whole post, case and look-alike
// letters folded): on, and whether the post is one.
func switchWords(text string) (on, ok bool) {
	f := strings.Fields(strings.Trim(russian.Fold(text), " .!"))
	if len(f) != 2 || f[0] != "напоминания" {
		return false, false
	}
	switch f[1] {
	case "вкл", "включить", "on":
		return true, true
	case "выкл", "выключить", "off":
		return false, true
	}
	return false, false
}

// switchReminders answers a player's «напоминания выкл/вкл».
func (r *Referee) switchReminders(in game.Input, on bool) (game.Outcome, error) {
	ev := &RemindersEvent{At: in.At, Player: in.Author, On: on}
	if err := r.commit([]game.Event{ev}); err != nil {
		return game.Outcome{}, err
	}
	body, err := Say("reminders", map[string]any{"On": on})
	if err != nil {
		return game.Outcome{}, err
	}
	return game.Outcome{Verdict: game.Accepted, Events: []game.Event{ev}, Messages: []game.Message{r.route(&in, game.Message{To: game.Sender, Body: body})}}, nil
}
