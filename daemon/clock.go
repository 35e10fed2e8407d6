package daemon

import (
	"context"
	"time"

	"forumgm/forum"
)

// Clock is the daemon's only source of time: Now for the game clock and the post times it
// compares, Sleep between polls and before retries. Tests inject testkit.Clock.
type Clock interface {
	Now() time.Time
	// Sleep waits d (or until ctx ends, then it returns ctx's error).
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits on a timer.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error { return forum.Sleep(ctx, d) }

// Timers is a Clock that calls a function once a wait has passed without a goroutine waiting for
// it (the runtime's timers). The game loop waits between cycles on it, so that an idle game holds
// no goroutine (Start); on a Clock without it (the tests' clocks) the loop sleeps on a goroutine.
type Timers interface {
	// AfterFunc calls f on a goroutine of its own once d has passed. stop keeps it from being
	// called and reports true, unless it was called (or is being called) already.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// AfterFunc is time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
