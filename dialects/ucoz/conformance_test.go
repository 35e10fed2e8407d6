package ucoz

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
	forumtest.RunPages(t, forumtest.Pages{Dialect: Dialect(), Config: cfg, Threads: fixture.RealPages(t, "ucoz"),
		// Post 11494: an announcement and, joined to it by uCoz, the note that the test ended.
		Merge: forumtest.Merge{Page: filepath.Join(fixture.RealDir(t), "ucoz", "ucoz-needforkill-t602-p1.html"), PostID: "11494",
			Parts: []string{"Welcome and enjoy!", "Тест закончили, спасибо тем, кто пришел."}}})
}
