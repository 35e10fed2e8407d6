package rules

import (
	"time"

	"forumgm/game"
)

// dayStart is local midnight of t's day in the game's zone.
func (g *Game) dayStart(t time.Time) time.Time {
	l := t.In(g.clk.loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, g.clk.loc)
}

// at is the time of day tod on the day that starts at midnight day (DST-safe).
func (g *Game) at(day time.Time, tod time.Duration) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), int(tod/time.Hour), int(tod%time.Hour/time.Minute), 0, 0, g.clk.loc)
}

func (g *Game) nextMidnight(t time.Time) time.Time {
	d := g.dayStart(t)
	return time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, g.clk.loc)
}

func (g *Game) nextQuestion(t time.Time) time.Time {
	d := g.dayStart(t)
	q := g.at(d, g.clk.question)
	if !q.After(t) {
		q = g.at(time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, g.clk.loc), g.clk.question)
	}
	return q
}

func (g *Game) questionsOn() bool {
	return g.settings.DailyQuestion && len(g.settings.Questions) > 0
}

// postGrain is the resolution of forum post times: a move stamped at the deadline's minute is in
// time, so a violation is charged one grain after the deadline.
const postGrain = time.Minute

// nextViolation is the first time-limit violation after `after` for a side that got the move at
// since: on each working day's evening window, the side has MoveLimit from the later of since and
// the window's start; each further started MoveLimit is one violation, while the window lasts.
// A violation is charged one postGrain after its deadline (a move stamped exactly at the deadline
// is in time). Each evening starts afresh.
func (g *Game) nextViolation(since, after time.Time) (time.Time, bool) {
	if since.IsZero() {
		return time.Time{}, false
	}
	from := after
	if since.After(from) {
		from = since
	}
	day := g.dayStart(from)
	for i := 0; i < 9; i++ {
		d := time.Date(day.Year(), day.Month(), day.Day()+i, 0, 0, 0, 0, g.clk.loc)
		if !g.clk.working[d.Weekday()] {
			continue
		}
		ws, we := g.at(d, g.clk.eveningStart), g.at(d, g.clk.eveningEnd)
		if since.After(ws) {
			ws = since
		}
		if !ws.Before(we) {
			continue
		}
		for k := 1; ; k++ {
			v := ws.Add(time.Duration(k) * g.clk.moveLimit)
			if !v.Before(we) {
				break
			}
			if v = v.Add(postGrain); v.After(after) {
				return v, true
			}
		}
	}
	return time.Time{}, false
}

// NextTimer is the earliest timed rule due strictly after t: the daily close at 00:00, the
// question, the next time-limit violation of the side to move, the deployment deadline.
func (g *Game) NextTimer(t time.Time) (time.Time, bool) {
	st := g.st
	var best time.Time
	consider := func(x time.Time) {
		if x.After(t) && (best.IsZero() || x.Before(best)) {
			best = x
		}
	}
	switch st.Phase {
	case PhaseDeploying:
		if dl := g.settings.DeploymentDeadline; dl != nil {
			consider(*dl)
		}
	case PhasePlaying:
		consider(g.nextMidnight(t))
		if g.questionsOn() {
			consider(g.nextQuestion(t))
		}
		after := t
		if st.LimitChargedUntil.After(after) {
			after = st.LimitChargedUntil
		}
		if v, ok := g.nextViolation(st.ToMoveSince, after); ok {
			consider(v)
		}
	}
	return best, !best.IsZero()
}

// Tick fires the timed rules due exactly at `at`, in this order: a time-limit violation, the
// question, the daily close, the deployment deadline. A rule already fired (its event applied)
// does not fire again.
func (g *Game) Tick(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	st := g.st
	var evs []game.Event
	switch st.Phase {
	case PhaseDeploying:
		if dl := g.settings.DeploymentDeadline; dl != nil && at.Equal(*dl) {
			cells := map[WarriorID]Cell{}
			var defaulted []Side
			def := defaultDeployment()
			for _, s := range []Side{Crusaders, Saracens} {
				if d, ok := st.Deployments[s]; ok {
					for w, c := range d {
						cells[w] = c
					}
					continue
				}
				defaulted = append(defaulted, s)
				for w, c := range def {
					if w.Side() == s {
						cells[w] = c
					}
				}
			}
			evs = append(evs, &GameStarted{At: at, Cells: cells, Defaulted: defaulted})
		}
	case PhasePlaying:
		if at.After(st.LimitChargedUntil) {
			if v, ok := g.nextViolation(st.ToMoveSince, at.Add(-time.Nanosecond)); ok && v.Equal(at) {
				n := g.violationNumber(at)
				evs = append(evs, &TimeLimitExceeded{At: at, Side: st.ToMove, Since: st.ToMoveSince,
					Violation: n, Wounds: g.settings.WoundsTimeLimit})
			}
		}
		if g.questionsOn() && g.at(g.dayStart(at), g.clk.question).Equal(at) &&
			(st.Question == nil || at.After(st.Question.AskedAt)) {
			n := st.QuestionsAsked + 1
			left := g.questionsLeft()
			idx := left[rnd.Intn(len(left))]
			evs = append(evs, &QuestionAsked{At: at, Number: n, Index: idx, Text: g.settings.Questions[idx].Text,
				Chance: game.Chance{Draws: rnd.Take()}})
		}
		if g.dayStart(at).Equal(at) && at.After(st.LastClose) {
			evs = append(evs, g.closeDay(at))
		}
	}
	return evs, nil
}

// questionsLeft are the bank's questions not asked yet in this round of the bank (all of them
// once every question was asked), in bank order: the day's question is drawn among them.
func (g *Game) questionsLeft() []int {
	asked := map[int]bool{}
	if len(g.st.AskedCycle) < len(g.settings.Questions) {
		for _, i := range g.st.AskedCycle {
			asked[i] = true
		}
	}
	var left []int
	for i := range g.settings.Questions {
		if !asked[i] {
			left = append(left, i)
		}
	}
	return left
}

// violationNumber counts the violations of the current wait up to and including at.
func (g *Game) violationNumber(at time.Time) int {
	n := 0
	t := g.st.ToMoveSince
	for {
		v, ok := g.nextViolation(g.st.ToMoveSince, t)
		if !ok || v.After(at) {
			return n
		}
		n++
		t = v
	}
}

// closeDay builds the daily close at midnight `at` (the close of the day before).
func (g *Game) closeDay(at time.Time) *DayClosed {
	st := g.st
	prev := g.dayStart(at.Add(-time.Hour))
	ev := &DayClosed{At: at, Day: prev.Format("2006-01-02"), Penalties: map[Side]int{Crusaders: 0, Saracens: 0}}
	attW, defW := map[WarriorID]int{}, map[WarriorID]int{}
	for _, s := range []Side{Crusaders, Saracens} {
		projAtt, projDef := map[WarriorID]int{}, map[WarriorID]int{}
		applied := append([]Wound(nil), st.Allocated[s]...)
		for _, w := range applied {
			if w.Stat == StatAttack {
				projAtt[w.Warrior] += w.Count
			} else {
				projDef[w.Warrior] += w.Count
			}
		}
		if n := st.Owed[s]; n > 0 {
			auto := g.autoAllocate(s, n, projAtt, projDef)
			ev.AutoAllocated = append(ev.AutoAllocated, SideWounds{Side: s, Wounds: auto})
			applied = append(applied, auto...)
			ev.Penalties[s] += g.settings.WoundsAllocation
		}
		if len(applied) > 0 {
			ev.Applied = append(ev.Applied, SideWounds{Side: s, Wounds: applied})
		}
		for _, w := range applied {
			if w.Stat == StatAttack {
				attW[w.Warrior] += w.Count
			} else {
				defW[w.Warrior] += w.Count
			}
		}
	}
	// deaths: every attack value and the defence at 0
	killed := map[Side]int{}
	deadCommander := map[Side]Removed{}
	for _, w := range allWarriors {
		ws := st.Warriors[w]
		if !ws.Alive || !ws.InPlay {
			continue
		}
		if ws.AttackWounds+attW[w] >= maxAttack(w.Kind()) && ws.DefenceWounds+defW[w] >= Table[w.Kind()].Defence {
			r := Removed{Warrior: w, Cell: ws.Cell}
			ev.Died = append(ev.Died, r)
			killed[w.Side()]++
			if w.Commander() {
				deadCommander[w.Side()] = r
			}
		}
	}
	// victory: the enemy commander dead or 14 enemy warriors dead, whatever killed them; both
	// sides at once is a draw the moderators are told of
	var wins []Victory
	for _, s := range []Side{Crusaders, Saracens} {
		if r, ok := deadCommander[s]; ok {
			wins = append(wins, Victory{Winner: s.Other(), Reason: VictoryCommander, Warrior: r.Warrior, Cell: cellPtr(r.Cell), Wounds: true})
		} else if st.Killed[s]+killed[s] >= killsToWin && killed[s] > 0 {
			wins = append(wins, Victory{Winner: s.Other(), Reason: VictoryKills, Wounds: true})
		}
	}
	switch len(wins) {
	case 1:
		ev.Victory = &wins[0]
	case 2:
		ev.Victory = &Victory{Winner: Draw, Reason: wins[0].Reason, Wounds: true, Both: wins, Moderators: true,
			Detail: "both sides met a victory condition at the same daily close"}
	}
	// the question
	if q := st.Question; q != nil {
		ev.Question = g.st.clone().Question
		c, cok := q.Answers[Crusaders]
		s, sok := q.Answers[Saracens]
		switch {
		case !cok && !sok:
			ev.QuestionLate = []Side{Crusaders, Saracens}
		case !cok:
			ev.QuestionLate = []Side{Crusaders}
		case !sok:
			ev.QuestionLate = []Side{Saracens}
		case c.Seq > s.Seq:
			ev.QuestionLate = []Side{Crusaders}
		default:
			ev.QuestionLate = []Side{Saracens}
		}
		for _, side := range ev.QuestionLate {
			ev.Penalties[side] += g.settings.WoundsQuestion
		}
	}
	// idle players: a whole day the game ran, the side had the move, the player has a warrior
	if !st.StartedAt.IsZero() && !st.StartedAt.After(prev) {
		for _, p := range g.roster.Players {
			if st.MovedToday[normName(p.Name)] || !st.HadMoveToday[p.Side] || !g.hasLiveWarrior(p) {
				continue
			}
			ev.Idle = append(ev.Idle, IdlePlayer{Name: p.Name, Side: p.Side})
			ev.Penalties[p.Side] += g.settings.WoundsIdleDay
		}
	}
	return ev
}

func (g *Game) hasLiveWarrior(p Player) bool {
	for _, w := range allWarriors {
		ws := g.st.Warriors[w]
		if ok, _ := g.roster.controls(p, w); ok && ws.Alive && ws.InPlay {
			return true
		}
	}
	return false
}
