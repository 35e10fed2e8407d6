package main

import (
	"forumgm/dialects/generic"
	"forumgm/dialects/generic/browser"
	"forumgm/forum"

	// The forum dialects forumgm speaks; each registers itself with package forum.
	_ "forumgm/dialects/discourse"
	_ "forumgm/dialects/invision"
	_ "forumgm/dialects/mybb"
	_ "forumgm/dialects/mybbru"
	_ "forumgm/dialects/phpbb"
	_ "forumgm/dialects/punbb"
	_ "forumgm/dialects/smf"
	_ "forumgm/dialects/ucoz"       // reading only: `forumgm posts --dialect ucoz`
	_ "forumgm/dialects/vbulletin5" // reading only: `forumgm posts --dialect vbulletin5`
	_ "forumgm/dialects/xenforo"
)

// openForum opens a forum of the named dialect: forum.Open, except that the generic dialect gets
// the real-browser writer (dialects/generic/browser) it uses with Extra["browser"] = "true".
func openForum(dialect string, cfg forum.Config) (forum.Forum, error) {
	if dialect == "generic" {
		return generic.Opener(generic.Options{NewBrowser: newBrowser})(cfg)
	}
	return forum.Open(dialect, cfg)
}

// newBrowser is the generic dialect's real-browser writer: a headless chromium, started on first
// use.
func newBrowser(cfg forum.Config) generic.BrowserWriter { return browser.New(cfg) }
