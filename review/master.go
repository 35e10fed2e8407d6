package review

import (
	"context"
	"time"

	"forumgm/game"
)

// The game master's powers over time and the rules clarifications (referee/master.go): each is
// logged with who and why and announced in the thread by the running daemon.

// Extend moves a deadline later by delay: the one at deadline (its real time), or the next one
// when deadline is zero.
func (r *Review) Extend(ctx context.Context, by, reason string, delay time.Duration, deadline time.Time) (game.Outcome, error) {
	return r.master(ctx, game.ModCommand{Action: game.ModExtend, By: by, Reason: reason, Delay: delay, Deadline: deadline}, true)
}

// Holiday stops the game's clock for the whole day of day (the game's zone).
func (r *Review) Holiday(ctx context.Context, by, reason string, day time.Time) (game.Outcome, error) {
	return r.master(ctx, game.ModCommand{Action: game.ModHoliday, By: by, Reason: reason, Day: day}, true)
}

// Clarify posts text in the thread as the game master's rules clarification.
func (r *Review) Clarify(ctx context.Context, by, reason, text string) (game.Outcome, error) {
	return r.master(ctx, game.ModCommand{Action: game.ModClarify, By: by, Reason: reason, Text: text}, false)
}

// Length makes the game n rounds or turns long (games with a set length).
func (r *Review) Length(ctx context.Context, by, reason string, n int) (game.Outcome, error) {
	return r.master(ctx, game.ModCommand{Action: game.ModLength, By: by, Reason: reason, Amount: n}, true)
}

func (r *Review) master(ctx context.Context, cmd game.ModCommand, needReason bool) (game.Outcome, error) {
	by, err := r.need(cmd.By, cmd.Reason, needReason)
	if err != nil {
		return game.Outcome{}, err
	}
	cmd.By = by
	return retry(func() (game.Outcome, error) { return r.command(ctx, cmd) })
}

// Day reads a day written as 2026-12-03 in the game's zone.
func (r *Review) Day(s string) (time.Time, error) {
	loc := r.Location
	if loc == nil {
		loc = time.UTC
	}
	return time.ParseInLocation("2006-01-02", s, loc)
}

// When reads a time written as 2026-12-03 23:00 (or RFC 3339) in the game's zone.
func (r *Review) When(s string) (time.Time, error) {
	loc := r.Location
	if loc == nil {
		loc = time.UTC
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.ParseInLocation("2006-01-02 15:04", s, loc)
}

// Schedule is what the game master's page shows: the next deadlines and the game's length.
type Schedule struct {
	Deadlines []string // the next deadlines, as the thread writes them
	Length    int      // the game's length in its unit (0: the game has no set length)
	Unit      string   // the unit's Russian name for many ("раундов")
	Over      bool
}

// Schedule is the game's next deadlines and its length now.
func (r *Review) Schedule(ctx context.Context) (Schedule, error) {
	ref, _, err := r.referee(ctx)
	if err != nil {
		return Schedule{}, err
	}
	var s Schedule
	if u, ok := ref.(interface {
		Upcoming(now time.Time, n int) []string
	}); ok {
		s.Deadlines = u.Upcoming(r.Now(), 3)
	}
	if l, ok := game.As[game.Lengthener](ref.Rules()); ok {
		var unit [3]string
		s.Length, unit = l.Length()
		s.Unit = unit[2]
	}
	s.Over = ref.Rules().Over()
	return s, nil
}
