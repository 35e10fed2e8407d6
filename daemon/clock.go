package daemon

import (
	"context"
	"sync"
	"time"

	"forumgm/forum"
)

// Clock is the daemon's only source of time: Now for the game clock and the post times it
// compares, Sleep between polls and before retries. Tests inject a simulated clock.
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

// SimClock is a simulated clock: time moves only when Set or Advance is called, or when Sleep is
// called and AutoAdvance is on (then Sleep jumps the clock forward by d at once). Safe for
// concurrent use.
type SimClock struct {
	mu   sync.Mutex
	now  time.Time
	auto bool
	// slept records the durations asked of Sleep (tests inspect the adaptive polling).
	slept []time.Duration
	wake  chan struct{}
}

// NewSimClock starts a simulated clock at t. With auto, Sleep advances the clock by d and returns
// at once; without, Sleep blocks until the clock is moved past its deadline.
func NewSimClock(t time.Time, auto bool) *SimClock {
	return &SimClock{now: t, auto: auto, wake: make(chan struct{})}
}

// Now is the simulated time.
func (c *SimClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t (backwards is allowed; tests decide).
func (c *SimClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	close(c.wake)
	c.wake = make(chan struct{})
	c.mu.Unlock()
}

// Advance moves the clock forward by d.
func (c *SimClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Slept lists the durations passed to Sleep so far.
func (c *SimClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// Sleep advances the clock (auto) or waits until it has been moved d forward.
func (c *SimClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.slept = append(c.slept, d)
	if c.auto {
		if d > 0 {
			c.now = c.now.Add(d)
		}
		c.mu.Unlock()
		return ctx.Err()
	}
	deadline := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		if !c.now.Before(deadline) {
			c.mu.Unlock()
			return nil
		}
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		}
	}
}
