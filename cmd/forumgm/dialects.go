package main

import (
	"forumgm/dialects"
	"forumgm/dialects/generic"
	"forumgm/dialects/generic/browser"
	"forumgm/forum"
)

// registry is the forum dialects forumgm speaks (package dialects), the generic one with the
// real-browser writer (dialects/generic/browser) it uses with Extra["browser"] = "true".
func registry() *forum.Registry {
	return dialects.Registry(dialects.Options{Generic: generic.Options{NewBrowser: newBrowser}})
}

// openForum opens a forum of the named dialect.
func openForum(dialect string, cfg forum.Config) (forum.Forum, error) {
	return registry().Open(dialect, cfg)
}

// newBrowser is the generic dialect's real-browser writer: a headless chromium, started on first
// use.
func newBrowser(cfg forum.Config) generic.BrowserWriter { return browser.New(cfg) }
