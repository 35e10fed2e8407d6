package football

import (
	"fmt"
	"time"

	"forumgm/game"
)

var _ game.Debtor = (*Rules)(nil)

// Owed is what each team owes before a deadline (the referee's reminders), told to its captain:
// the team's move in the open turn window when none is made yet, and every question asked and not
// answered. Nothing secret: the die table and the other teams' questions are never named.
func (r *Rules) Owed(now time.Time) []game.Debt {
	g := r.game
	if r.Over() {
		return nil
	}
	st := g.Snapshot()
	var out []game.Debt
	for _, team := range g.Teams() {
		ts, ok := g.TeamState(team.Name)
		if !ok || team.Captain == "" {
			continue
		}
		if st.Open {
			if _, close, ok := g.Opens(st.Turn); ok && close.After(now) && ts.Moved == "" {
				out = append(out, game.Debt{Player: team.Captain, Deadline: close, Key: fmt.Sprintf("turn-%d-%s", st.Turn, team.Name),
					What: fmt.Sprintf("ход команды «%s» в %d-м ходу", team.Name, st.Turn)})
			}
		}
		for _, q := range ts.Questions {
			if q.Deadline.After(now) {
				out = append(out, game.Debt{Player: team.Captain, Deadline: q.Deadline, Key: fmt.Sprintf("question-%d-%s", q.Index, team.Name),
					What: fmt.Sprintf("ответ команды «%s» на вопрос", team.Name)})
			}
		}
	}
	return out
}
