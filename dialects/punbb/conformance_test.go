package punbb

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
	capture := fixture.Dir(t, "punbb")
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "PunBB and FluxBB merge no posts: a member's next reply is a new post (the Merge Post mods are not read; keep them off on a game's forum)"},
		Dialect: Dialect(), Config: cfg,
		Threads: append(fixture.RealPages(t, "punbb"), filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html")),
		NotThreads: []string{filepath.Join(capture, "16-viewforum-fid2.guest.html"), filepath.Join(capture, "01-login-form.guest.html"),
			filepath.Join(capture, "26-reply-noperm.guest.html")},
		ThreadIDs: map[string]string{"fluxbb-air-bittorrent-t134.html": "134", "fluxbb-air-bittorrent-t28.html": "28",
			"fluxbb-air-bittorrent-t6.html": "6", "punbb12-oxygen-textdrive-excerpt.html": "7356",
			"10-thread-p1.guest.html": "2", "13-thread-p2.gm-bot.html": "2"}})
}
