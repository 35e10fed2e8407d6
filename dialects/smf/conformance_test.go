package smf

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
	capture := fixture.Dir(t, "smf")
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "SMF merges no posts: a member's next reply is a new message. The Merge Double Posts mod (SMF 2.1) appends with a template the admin sets (by default the time in small italics), which a page does not tell from a line the author wrote: not split; keep the mod off on a game's board"},
		Dialect: Dialect(), Config: cfg,
		Threads: append(fixture.RealPages(t, "smf"), filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html")),
		NotThreads: []string{filepath.Join(capture, "16-messageindex-board2.guest.html"), filepath.Join(capture, "01-login-form.guest.html"),
			filepath.Join(capture, "26-reply-noperm.guest.html")},
		ThreadIDs: map[string]string{"smf20-nostalgia-geekhack-excerpt.html": "115887", "smf20rc3-core-contribs.html": "38573",
			"10-thread-p1.guest.html": "2", "13-thread-p2.gm-bot.html": "2"}})
}
