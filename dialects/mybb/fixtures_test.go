package mybb

import (
	"time"
)

// captureNow is a moment just after the pages were captured (2026-11-30 03:22–03:23 UTC).
var captureNow = time.Date(2026, 11, 30, 3, 23, 0, 0, time.UTC)

func testOptions() options {
	return options{BaseURL: "http://127.0.0.1:8081/", Location: time.UTC, Now: func() time.Time { return captureNow }}
}
