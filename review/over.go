package review

import (
	"context"

	"forumgm/game"
)

// Over reports whether the game has ended (by its rules or a moderator's end).
func (r *Review) Over(ctx context.Context) (bool, error) {
	ref, _, err := r.referee(ctx)
	if err != nil {
		return false, err
	}
	rules := game.RulesOf(ref)
	return rules != nil && rules.Over(), nil
}
