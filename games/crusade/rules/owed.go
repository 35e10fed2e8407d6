package rules

import (
	"fmt"
	"time"

	"forumgm/game"
)

// limitLead is how long before a time limit runs out the side to move is reminded (the hour's
// limit is shorter than the usual lead time).
const limitLead = 15 * time.Minute

// Owed is what each player owes before a deadline (the referee's reminders): a move today from a
// player the daily close would charge an idle day, the wounds a side has to allocate before the
// daily close, and the move of the side whose time limit runs out. Only what the thread shows.
func (g *Game) Owed(now time.Time) []game.Debt {
	st := g.st
	if st.Phase != PhasePlaying {
		return nil
	}
	closeAt := g.nextMidnight(now)
	day := g.dayStart(now).Format("2006-01-02")
	var out []game.Debt
	if !st.StartedAt.IsZero() && !st.StartedAt.After(g.dayStart(now)) {
		for _, p := range g.roster.Players {
			if st.MovedToday[normName(p.Name)] || !st.HadMoveToday[p.Side] || !g.hasLiveWarrior(p) {
				continue
			}
			out = append(out, game.Debt{Player: p.Name, Deadline: closeAt, Key: "idle-" + day,
				What: fmt.Sprintf("ход сегодня: без него в 00:00 ваша сторона получит %d %s за день без хода", g.settings.WoundsIdleDay, woundWord(g.settings.WoundsIdleDay))})
		}
	}
	for _, side := range []Side{Crusaders, Saracens} {
		n := st.Owed[side]
		if n <= 0 {
			continue
		}
		for _, p := range g.roster.Players {
			if p.Side != side || !g.hasLiveWarrior(p) {
				continue
			}
			out = append(out, game.Debt{Player: p.Name, Deadline: closeAt, Key: fmt.Sprintf("allocate-%s-%s", day, side),
				What: fmt.Sprintf("распределить %d %s вашей стороны (личным сообщением); иначе в 00:00 их распределю я, и это ещё %d %s", n, woundWord(n), g.settings.WoundsAllocation, woundWord(g.settings.WoundsAllocation))})
		}
	}
	after := now
	if st.LimitChargedUntil.After(after) {
		after = st.LimitChargedUntil
	}
	if v, ok := g.nextViolation(st.ToMoveSince, after); ok {
		limit := v.Add(-postGrain)
		for _, p := range g.roster.Players {
			if p.Side != st.ToMove || !g.hasLiveWarrior(p) {
				continue
			}
			out = append(out, game.Debt{Player: p.Name, Deadline: limit, Key: "limit-" + limit.UTC().Format(time.RFC3339), Lead: limitLead,
				What: fmt.Sprintf("ход вашей стороны: время на ход истекает, за просрочку — %d %s", g.settings.WoundsTimeLimit, woundWord(g.settings.WoundsTimeLimit))})
		}
	}
	return out
}

// woundWord is «ранение» in the form for n.
func woundWord(n int) string {
	switch {
	case n%10 == 1 && n%100 != 11:
		return "ранение"
	case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return "ранения"
	}
	return "ранений"
}
