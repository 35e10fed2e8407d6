package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"forumgm/store"
)

// reschedule announces in the thread, once per daemon, a schedule the config changed under the
// running game (a reload with other settings: another deadline, another calendar): the game goes
// on from where it was and the players read the next deadline (referee.Rescheduled). A moderator's
// command that moved the log first makes it try again on the next cycle.
func (d *Daemon) reschedule(ctx context.Context, now time.Time) error {
	if d.rescheduled {
		return nil
	}
	ref, seq, err := d.referee(ctx)
	if err != nil {
		return err
	}
	out, ok, err := ref.Rescheduled(now)
	if err != nil {
		d.invalidate()
		d.fail("referee", err)
		return fmt.Errorf("daemon: schedule: %w", err)
	}
	if ok {
		c := store.Commit{Game: d.o.Game, At: now, Cause: store.ModeratorCause("config"), Reason: "the game's settings changed (config reload)", ExpectSeq: store.Expect(seq)}
		if err := d.commit(ctx, &c, out, nil); err != nil {
			if errors.Is(err, store.ErrLogMoved) {
				return nil
			}
			return err
		}
		d.log.Info().Msg("the game's settings changed: the schedule is announced in the thread")
	}
	d.rescheduled = true
	return nil
}
