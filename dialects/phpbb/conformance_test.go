package phpbb

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
	capture := fixture.Dir(t, "phpbb33")
	forumtest.RunPages(t, forumtest.Pages{Dialect: Dialect(), Config: cfg,
		Threads: append(fixture.RealPages(t, "phpbb"), filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html"),
			filepath.Join("testdata", "pages", "viewtopic-t2-page1.html")),
		NotThreads: []string{filepath.Join(capture, "16-viewforum.guest.html"), filepath.Join(capture, "01-login-form.guest.html"),
			filepath.Join("testdata", "pages", "message-no-permission.html")}})
}
