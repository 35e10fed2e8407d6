package web

import (
	"context"
	"regexp"
	"strconv"
	"time"
)

// Sleeper waits for d or until ctx ends; tests inject one that advances a fake clock.
type Sleeper func(ctx context.Context, d time.Duration) error

var secondsRe = regexp.MustCompile(`(\d+)\s*(?:more\s+)?(?:секунд|сек\.?|seconds?|s\b)`)

// FloodWait reads "N seconds" (MyBB: "N more seconds") out of a flood message, else def.
func FloodWait(msg string, def time.Duration) time.Duration {
	if m := secondsRe.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return def
}
