package discourse

import (
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
)

// The reading part of the dialect conformance suite (forum/forumtest): the captured pages.
func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	real, err := filepath.Glob(filepath.Join("testdata", "real", "*.json"))
	if err != nil || len(real) == 0 {
		t.Fatalf("no real topics: %v", err)
	}
	cfg.BaseURL = "https://discourse.urho3d.io/"
	forumtest.RunPages(t, forumtest.Pages{Dialect: Dialect(), Config: cfg, ContentType: "application/json", Threads: real,
		NotThreads: []string{filepath.Join("testdata", "category_topics.json")}})
}
