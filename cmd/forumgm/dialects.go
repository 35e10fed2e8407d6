package main

import (
	"forumgm/forum"
	"forumgm/poster/browser"
	"forumgm/poster/generic"

	// The forum dialects forumgm speaks; each registers itself with package forum.
	_ "forumgm/poster/discourse"
	_ "forumgm/poster/invision"
	_ "forumgm/poster/mybb"
	_ "forumgm/poster/mybbru"
	_ "forumgm/poster/phpbb"
	_ "forumgm/poster/punbb"
	_ "forumgm/poster/smf"
	_ "forumgm/poster/xenforo"
	_ "forumgm/scraper/ucoz"       // reading only: `forumgm posts --dialect ucoz`
	_ "forumgm/scraper/vbulletin5" // reading only: `forumgm posts --dialect vbulletin5`
)

// openForum opens a forum of the named dialect: forum.Open, except that the generic dialect gets
// the real-browser writer (poster/browser) it uses with Extra["browser"] = "true".
func openForum(dialect string, cfg forum.Config) (forum.Forum, error) {
	if dialect == "generic" {
		return generic.Opener(generic.Options{NewBrowser: newBrowser})(cfg)
	}
	return forum.Open(dialect, cfg)
}

// newBrowser is the generic dialect's real-browser writer: a headless chromium, started on first
// use.
func newBrowser(cfg forum.Config) generic.BrowserWriter { return browser.New(cfg) }
