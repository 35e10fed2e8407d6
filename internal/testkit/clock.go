// Package testkit holds what the tests of several packages share: the one test clock. It is
// imported by _test.go files only; production code keeps its own clocks (daemon.RealClock).
package testkit

import (
	"context"
	"sync"
	"time"
)

// Clock is the test clock: time moves only when the test calls Set or Advance, or when the code
// under test calls Sleep on a clock made by NewClock. It satisfies the daemon's Clock (Now and
// Sleep), and its Now method serves wherever a package takes a func() time.Time (sandbox.Options,
// store.WithClock). It records every Sleep. Safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	auto   bool
	sleeps []time.Duration
	wake   chan struct{} // closed and replaced whenever the clock moves
}

// NewClock starts a clock at t whose Sleep jumps the clock forward by d and returns at once.
func NewClock(t time.Time) *Clock { return &Clock{now: t, auto: true, wake: make(chan struct{})} }

// NewStillClock starts a clock at t whose Sleep blocks until the test has moved the clock past the
// sleep's deadline (or the context ends): time stands still unless the test moves it.
func NewStillClock(t time.Time) *Clock { return &Clock{now: t, wake: make(chan struct{})} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t (backwards is allowed; tests decide).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.move(t)
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.move(c.now.Add(d))
	return c.now
}

// move sets the time and wakes the sleepers; c.mu is held.
func (c *Clock) move(t time.Time) {
	c.now = t
	close(c.wake)
	c.wake = make(chan struct{})
}

// Sleep records d, then advances the clock by d and returns ctx's error (NewClock), or waits until
// the clock has been moved d forward or ctx ends (NewStillClock).
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	if c.auto {
		if d > 0 {
			c.move(c.now.Add(d))
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

// Sleeps are the durations passed to Sleep so far, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// ResetSleeps forgets the sleeps so far.
func (c *Clock) ResetSleeps() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = nil
}
