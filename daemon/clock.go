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
