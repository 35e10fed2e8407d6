package rules

import (
	"time"

	"forumgm/game"
)

// NextTimer is the earliest timed rule due strictly after t: the next turn's opening, the open
// window's close (before the start's draws too: the turns keep their times, see Begin), an open
// question's deadline.
func (g *Game) NextTimer(t time.Time) (time.Time, bool) {
	st := g.st
	var best time.Time
	consider := func(x time.Time) {
		if x.After(t) && (best.IsZero() || x.Before(best)) {
			best = x
		}
	}
	switch st.Phase {
	case PhaseNew, PhasePlaying:
		if st.Open {
			consider(g.clk.close(st.Turn))
		} else if st.Turn < len(g.clk.opens) {
			consider(g.clk.open(st.Turn + 1))
		}
	}
	if st.Phase == PhasePlaying || st.Phase == PhaseEnding {
		for _, d := range g.deadlines() {
			consider(d)
		}
	}
	return best, !best.IsZero()
}

// Tick fires the timed rules due exactly at `at` (a time NextTimer returned), in this order: the
// open window's close (attacks resolved, the early end checked), the questions whose time ran
// out, the next turn's opening, and the end once no turn is left and no question is open. It
// decides on a copy: the caller applies the events returned, in order. Nothing here draws: the
// start's draws wait for the first player post (Begin), and the turns open and close on time
// before it (nobody can move until then, and no team stands anywhere yet).
func (g *Game) Tick(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	w := g.clone()
	var evs []game.Event
	emit := func(ev game.Event) error {
		evs = append(evs, ev)
		return w.Apply(ev)
	}
	st := w.st
	running := st.Phase == PhaseNew || st.Phase == PhasePlaying
	if running && st.Open && at.Equal(w.clk.close(st.Turn)) {
		if err := emit(w.closeTurn(at)); err != nil {
			return nil, err
		}
	}
	if st.Phase == PhasePlaying || st.Phase == PhaseEnding {
		for i := range st.Teams {
			t := &st.Teams[i]
			for _, q := range append([]OpenQuestion(nil), t.Questions...) {
				if q.Deadline.Equal(at) {
					c := w.captainOf(t.Name)
					bank := w.settings.Questions[q.Index]
					if err := emit(&QuestionExpired{At: at, Team: t.Name, Index: q.Index, Question: q.Text,
						Captain: c, Accepted: append([]string(nil), bank.Answers...)}); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if running && !st.Open && st.Turn < len(w.clk.opens) && at.Equal(w.clk.open(st.Turn+1)) {
		n := st.Turn + 1
		if err := emit(&TurnOpened{At: at, Turn: n, Close: w.clk.close(n), CanAttack: w.AttackOptions(), Undrawn: st.Phase == PhaseNew}); err != nil {
			return nil, err
		}
	}
	if st.Phase == PhaseEnding && len(w.deadlines()) == 0 {
		reason := EndTurns
		if st.Decided {
			reason = EndEarly
		}
		if err := emit(w.end(at, reason)); err != nil {
			return nil, err
		}
	}
	return evs, nil
}

// captainOf is the captain of the named team.
func (g *Game) captainOf(team string) string {
	key := TeamKey(team)
	for _, t := range g.roster {
		if TeamKey(t.Name) == key {
			return t.Captain
		}
	}
	return ""
}
