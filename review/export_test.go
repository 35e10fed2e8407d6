package review

import (
	"context"

	"forumgm/game"
)

// Accept is AcceptAs with the post's own text. Test-only: kept out of the binary.
func (r *Review) Accept(ctx context.Context, id int64, by, reason string) (game.Outcome, error) {
	return r.AcceptAs(ctx, id, by, reason, "")
}
