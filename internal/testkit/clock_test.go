package testkit

import (
	"context"
	"slices"
	"testing"
	"time"
)

var start = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// A NewClock's Sleep jumps the clock forward at once and is recorded.
func TestSleepAdvances(t *testing.T) {
	c := NewClock(start)
	if err := c.Sleep(context.Background(), time.Minute); err != nil {
		t.Fatal(err)
	}
	c.Sleep(context.Background(), -time.Second) // a wait already over moves nothing
	if got := c.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Errorf("now %v", got)
	}
	if got := c.Sleeps(); !slices.Equal(got, []time.Duration{time.Minute, -time.Second}) {
		t.Errorf("sleeps %v", got)
	}
	c.ResetSleeps()
	if got := c.Advance(time.Second); !got.Equal(start.Add(time.Minute+time.Second)) || len(c.Sleeps()) != 0 {
		t.Errorf("advance %v, sleeps %v", got, c.Sleeps())
	}
}

// A NewStillClock's Sleep returns only once the test has moved the clock past its deadline, or
// when the context ends.
func TestStillClockWaits(t *testing.T) {
	c := NewStillClock(start)
	done := make(chan error, 1)
	go func() { done <- c.Sleep(context.Background(), time.Minute) }()
	for len(c.Sleeps()) == 0 {
		time.Sleep(time.Millisecond)
	}
	c.Advance(30 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("woke half-way: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	c.Set(start.Add(time.Minute))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("cancelled sleep: %v", err)
	}
}
