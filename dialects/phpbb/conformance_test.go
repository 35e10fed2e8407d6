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
// Pages whose post links are not phpBB's own.
const (
	rewritten = "the board runs an SEO rewrite mod: its links are viewtopic-N.php#pP, not phpBB's viewtopic.php?p=P#pP"
	mirrored  = "saved by a site mirror (HTTrack), which renamed the engine's links (viewtopiccf05.html?p=…)"
)

func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	capture := fixture.Dir(t, "phpbb33")
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "phpBB merges no posts: a member's next reply is a new post (extensions that merge are not read; keep them off on a game's forum)"},
		Dialect: Dialect(), Config: cfg,
		NoLinks: map[string]string{"phpbb30-subsilver2-dildano-edited.html": rewritten, "phpbb30-subsilver2-dildano-quotes.html": rewritten,
			"phpbb32-allanstyle-dostips-t5588.html": mirrored, "phpbb32-allanstyle-dostips-t5819.html": mirrored,
			"phpbb32-allanstyle-subsilver-dostips.html": mirrored},
		Threads: append(fixture.RealPages(t, "phpbb"), filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html"),
			filepath.Join("testdata", "pages", "viewtopic-t2-page1.html")),
		NotThreads: []string{filepath.Join(capture, "16-viewforum.guest.html"), filepath.Join(capture, "01-login-form.guest.html"),
			filepath.Join("testdata", "pages", "message-no-permission.html")},
		ThreadIDs: map[string]string{"phpbb30-prosilver-ilovephilosophy.html": "194998", "phpbb30-raspite-raspberrypi.html": "28017",
			"phpbb30-subsilver2-avalanches-p20514.html": "706", "phpbb30-subsilver2-avalanches-p7464.html": "1074",
			"phpbb30-subsilver2-dildano-edited.html": "39", "phpbb30-subsilver2-dildano-quotes.html": "14",
			"phpbb32-allanstyle-dostips-t5588.html": "5588", "phpbb32-allanstyle-dostips-t5819.html": "5819",
			"phpbb32-allanstyle-subsilver-dostips.html": "8601", "phpbb32-prosilver-dcbase-t155-excerpt.html": "155",
			"phpbb32-prosilver-dcbase-t724-excerpt.html": "724", "phpbb33-prosilver-ssvc-p930314-excerpt.html": "124787",
			"phpbb33-prosilver-ssvc-t35155-excerpt.html": "35155", "phpbb33-prosilverdark-nesdev-excerpt.html": "25574",
			"10-thread-p1.guest.html": "2", "13-thread-p2.gm-bot.html": "2", "viewtopic-t2-page1.html": "2"}})
}
