package crusade

import (
	"time"

	"forumgm/game"
)

var _ game.Debtor = (*Rules)(nil)

// Owed is what each player owes before a deadline (the engine's Owed).
func (r *Rules) Owed(now time.Time) []game.Debt { return r.game.Owed(now) }
