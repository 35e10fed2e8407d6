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
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "Discourse merges no posts on its own (too many replies in a row are refused, max_consecutive_replies); a moderator's merge joins the texts with an empty line, no mark"},
		Dialect: Dialect(), Config: cfg, ContentType: "application/json", Threads: real,
		LinksLack:  "a Discourse post's address names its topic's slug and its number in the topic, which the Forum learns reading the topic (a post not read is linked by its short link p/ID): compared on the board the Forum has read, Run's links case",
		NotThreads: []string{filepath.Join("testdata", "category_topics.json")},
		ThreadIDs: map[string]string{"urho3d-angelscript-loading-a-char-file-into-a-2d-array-how.7065.json": "7065",
			"urho3d-degree-character-in-string-displayed-in-urhosharp-label.6460.json": "6460",
			"urho3d-using-custom-c-component-from-angelscript.6834.json":               "6834"}})
}
