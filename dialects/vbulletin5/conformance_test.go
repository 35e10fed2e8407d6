package vbulletin5

import (
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The reading part of the dialect conformance suite (forum/forumtest): the captured pages.
func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "vBulletin merges no posts: a member's next reply is a new post (reading only; add-ons that merge are not read)"},
		Dialect: Dialect(), Config: cfg,
		Threads: []string{filepath.Join(fixture.RealDir(t), "generic", "vbulletin552-fandompost.html")}})
}
