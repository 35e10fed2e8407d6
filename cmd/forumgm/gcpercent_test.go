package main

import (
	"context"
	"runtime/debug"
	"testing"
	"time"
)

// The daemon collects garbage at defaultGCPercent unless the environment's GOGC says otherwise.
func TestGCPercent(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	gcPercent("")
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Errorf("GOGC unset: the collector's target is %d, want %d", got, defaultGCPercent)
	}
	gcPercent("80") // the runtime read GOGC itself; it is left alone
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: the collector's target was changed to %d", got)
	}
}

// giveBackMemory ends with the daemon's context (no goroutine left behind by a stopped run).
func TestGiveBackMemoryEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { giveBackMemory(ctx); close(done) }()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("giveBackMemory still runs after its context ended")
	}
}
