package dragonball

import (
	"fmt"
	"time"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
)

var _ game.Debtor = (*Rules)(nil)

// Owed is who owes orders for the round being played (the referee's reminders): every player on
// the field, or back from the Hospital Wing next round, with no orders of his own yet. A player
// who sent orders owes nothing (his standing orders count); the dragon's orders are not asked for
// (the dragon stands when it has none). Nothing secret: only whether a player's own orders came.
func (r *Rules) Owed(now time.Time) []game.Debt {
	st := r.game.State()
	if !st.Started || st.Over {
		return nil
	}
	deadline, ok := r.game.NextTimer(now)
	if !ok {
		return nil
	}
	round := st.Round + 1
	var out []game.Debt
	for _, p := range st.Players {
		if p.Status != rules.OnField && !(p.Status == rules.Hospital && p.Returns == round) {
			continue
		}
		if st.Orders[p.Name] != nil {
			continue
		}
		out = append(out, game.Debt{Player: p.Name, Deadline: deadline, Key: fmt.Sprintf("round-%d", round),
			What: fmt.Sprintf("приказы на раунд %d (мне личным сообщением)", round)})
	}
	return out
}
