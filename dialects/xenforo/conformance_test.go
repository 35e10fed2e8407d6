package xenforo

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
	real := fixture.RealDir(t)
	threads, err := filepath.Glob(filepath.Join(real, "generic", "xenforo2*.html"))
	if err != nil || len(threads) == 0 {
		t.Fatalf("no XenForo 2 pages: %v", err)
	}
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "XenForo merges no posts: a member's next reply is a new post (add-ons that merge are not read; keep them off on a game's forum)"},
		Dialect: Dialect(), Config: cfg, Threads: threads,
		// A thread configured as "slug.N" is linked as the board links it.
		LinkThread: func(permalink string) string {
			if m := reSlugged.FindStringSubmatch(permalink); m != nil {
				return m[1]
			}
			return ""
		},
		NotThreads: []string{filepath.Join("testdata", "forum-view-18.html")},
		ThreadIDs: map[string]string{"xenforo2-default-xenforo-community.html": "8276", "xenforo23-ragezone-t539161.html": "539161",
			"xenforo23-ragezone-t676761.html": "676761", "xenforo23-ragezone-t680281.html": "680281", "xenforo23-uix-pkodev-t161.html": "161"}})
}
