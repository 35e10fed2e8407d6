package mybb

import (
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The reading part of the dialect conformance suite (forum/forumtest): the captured pages.
// mirrored: the page was saved by a site mirror, which renamed the engine's own links.
const mirrored = "saved by a site mirror (HTTrack), which renamed the engine's links (showthread854d.html?…, showthread.php%3F….html)"

func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	capture := fixture.Dir(t, "mybb")
	forumtest.RunPages(t, forumtest.Pages{
		// pid 16: gm-bot's board post and, merged into it 1 s later by MyBB (postmergemins 60,
		// "[hr]"), the same board posted again.
		Merge: forumtest.Merge{Page: filepath.Join(capture, "11-thread-p2.guest.html"), PostID: "16",
			Parts: []string{"Ход крестоносцев (3-й ход).", "Повторная публикация позиции"}},
		Dialect: Dialect(), Config: cfg,
		NoLinks: map[string]string{"mybb18-bootbb-samp-t587166.html": mirrored, "mybb18-bootbb-samp-t593146.html": mirrored,
			"mybb18-bootbb-samp-t594242-p2.html": mirrored, "mybb18-emerald-burgershot-t1026.html": mirrored,
			"mybb18-emerald-burgershot-t1808.html": mirrored, "mybb18-emerald-burgershot-t2159.html": mirrored,
			"mybb18-vienna-starboundfr-t17-p2.html": mirrored},
		Threads: append(fixture.RealPages(t, "mybb"), filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html")),
		NotThreads: []string{filepath.Join(capture, "16-forumdisplay-fid3.guest.html"), filepath.Join(capture, "01-login-form.guest.html"),
			filepath.Join(capture, "26-newreply-noperm.guest.html")},
		ThreadIDs: map[string]string{"mybb18-bootbb-samp-t587166.html": "587166", "mybb18-bootbb-samp-t593146.html": "593146",
			"mybb18-bootbb-samp-t594242-p2.html": "594242", "mybb18-emerald-burgershot-t1026.html": "1026",
			"mybb18-emerald-burgershot-t1808.html": "1808", "mybb18-emerald-burgershot-t2159.html": "2159",
			"mybb18-vienna-starboundfr-t162-p3.html": "162", "mybb18-vienna-starboundfr-t17-p2.html": "17",
			"mybb18-vienna-starboundfr-t263.html": "263", "10-thread-p1.guest.html": "1", "13-thread-p2.gm-bot.html": "1"}})
}
