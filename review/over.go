package review

import (
	"context"
)

// Over reports whether the game has ended (by its rules or a moderator's end).
func (r *Review) Over(ctx context.Context) (bool, error) {
	ref, _, err := r.referee(ctx)
	if err != nil {
		return false, err
	}
	rules := ref.Rules()
	return rules != nil && rules.Over(), nil
}
