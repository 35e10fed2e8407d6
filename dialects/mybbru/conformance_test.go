package mybbru

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
	pages := filepath.Join("testdata", "pages")
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "MyBB.ru glues a post onto the same author's previous one, but no page of a glued post was found in public sources (closed engine): its mark is unknown, so none is split; an addition read after the first part is judged as an appended part (daemon/merged.go)"},
		Dialect: Dialect(), Config: cfg,
		Threads: []string{filepath.Join(pages, "viewtopic-id2-p1.html"), filepath.Join(pages, "viewtopic-id2-p2.html")},
		NotThreads: []string{filepath.Join(pages, "viewforum-id2.html"), filepath.Join(pages, "login-form.html"),
			filepath.Join(pages, "message-no-permission.html")},
		ThreadIDs: map[string]string{"viewtopic-id2-p1.html": "2", "viewtopic-id2-p2.html": "2"}})
}
