package mybb

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fixtureDir is ../shared/fixtures/forums/mybb beside the module root (the captured pages are
// not copied into the repo; CI has shared/ at the same place).
func fixtureDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("module root (go.mod) not found")
		}
		dir = parent
	}
	fx := filepath.Join(dir, "..", "shared", "fixtures", "forums", "mybb")
	if _, err := os.Stat(filepath.Join(fx, "manifest.tsv")); err != nil {
		tb.Fatalf("MyBB fixtures not found at %s: %v", fx, err)
	}
	return fx
}

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir(tb), name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// captureNow is a moment just after the pages were captured (2026-11-30 03:22–03:23 UTC).
var captureNow = time.Date(2026, 11, 30, 3, 23, 0, 0, time.UTC)

func testOptions() Options {
	return Options{BaseURL: "http://127.0.0.1:8081/", Location: time.UTC, Now: func() time.Time { return captureNow }}
}
