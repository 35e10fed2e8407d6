package daemon

import (
	"time"
)

// PollPolicy decides how long to wait between polls: the floor in the evening window (when a side
// is expected to move), the ceiling at night, and in between an idle back-off that doubles from the
// floor after each poll that found nothing, up to the ceiling. It never waits past the next timer.
type PollPolicy struct {
	Floor, Ceiling time.Duration
	// Busy and Night are the evening and night windows as offsets since midnight in Loc; a window
	// whose end is before its start wraps midnight.
	BusyStart, BusyEnd   time.Duration
	NightStart, NightEnd time.Duration
	Loc                  *time.Location
	// WorkingDay reports whether the evening window applies that day (nil: every day).
	WorkingDay func(time.Time) bool
}

// Interval is the wait after a poll at now. idle counts the polls in a row that found nothing;
// expecting says whether a side is expected to move (the game is running and not paused); next is
// the next timer (zero: none).
func (p PollPolicy) Interval(now time.Time, idle int, expecting bool, next time.Time) time.Duration {
	loc := p.Loc
	if loc == nil {
		loc = time.UTC
	}
	local := now.In(loc)
	midnight := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	since := local.Sub(midnight)
	var d time.Duration
	switch {
	case expecting && in(since, p.BusyStart, p.BusyEnd) && (p.WorkingDay == nil || p.WorkingDay(local)):
		d = p.Floor
	case in(since, p.NightStart, p.NightEnd):
		d = p.Ceiling
	default:
		d = p.Floor
		for i := 0; i < idle && d < p.Ceiling; i++ {
			d *= 2
		}
	}
	if d > p.Ceiling {
		d = p.Ceiling
	}
	if d < p.Floor {
		d = p.Floor
	}
	if !next.IsZero() {
		if until := next.Sub(now); until < d {
			d = max(until, 0)
		}
	}
	return d
}

func in(t, start, end time.Duration) bool {
	if start == end {
		return false
	}
	if start < end {
		return t >= start && t < end
	}
	return t >= start || t < end
}
