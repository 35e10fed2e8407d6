package invision

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The reading part of the dialect conformance suite (forum/forumtest): the captured pages (the
// whole ones: ips47-armbian-rk322x-comments.html is the comments part of a page alone, the fake
// board's template).
func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	var threads []string
	for _, p := range fixture.RealPages(t, "invision") {
		if !strings.HasSuffix(p, "-comments.html") {
			threads = append(threads, p)
		}
	}
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "Invision merges a member's reply into their last comment (merge_concurrent_posts) by appending the new editor HTML straight after the old (\\IPS\\Content\\Item::commentForm), with no mark between them: the page cannot tell the parts from paragraphs of one post, so none are read; set «Merge concurrent posts» to never on a game's community"},
		Dialect: Dialect(), Config: cfg, Threads: threads,
		// A topic configured as "N-slug" is linked as the community links it.
		LinkThread: func(permalink string) string {
			if m := regexp.MustCompile(`/topic/([^/?#]+)/`).FindStringSubmatch(permalink); m != nil {
				id, _ := url.PathUnescape(m[1])
				return id
			}
			return ""
		},
		NotThreads: []string{filepath.Join("testdata", "forum-12.html")},
		ThreadIDs:  map[string]string{"ips47-gopiratia-t16.html": "16", "ips47-gopiratia-t230.html": "230", "ips47-gopiratia-t9.html": "9"}})
}
