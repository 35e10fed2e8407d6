// Package dialects owns the list of the forum engines forumgm speaks: each dialects/<name>
// package describes itself (its Dialect function, in dialect.go: the name, opener, page reader,
// thread URL and fingerprints), and All lists them. A new engine is one line here.
package dialects

import (
	"forumgm/dialects/discourse"
	"forumgm/dialects/generic"
	"forumgm/dialects/invision"
	"forumgm/dialects/mybb"
	"forumgm/dialects/mybbru"
	"forumgm/dialects/phpbb"
	"forumgm/dialects/punbb"
	"forumgm/dialects/smf"
	"forumgm/dialects/ucoz"
	"forumgm/dialects/vbulletin5"
	"forumgm/dialects/xenforo"
	"forumgm/forum"
)

// Options are the program's parts some dialects take.
type Options struct {
	// Generic opens the generic dialect: forumgm gives its real-browser writer (NewBrowser), for
	// Extra["browser"] = "true"; without one such a configuration does not open.
	Generic generic.Options
}

// All are the dialects, in the order their fingerprints are tried: a hosted family before the
// engine it is built on (MyBB.ru before PunBB), the generic dialect last.
func All(o Options) []forum.Dialect {
	return []forum.Dialect{
		mybbru.Dialect(),
		ucoz.Dialect(),
		phpbb.Dialect(),
		smf.Dialect(),
		mybb.Dialect(),
		punbb.Dialect(),
		xenforo.Dialect(),
		invision.Dialect(),
		vbulletin5.Dialect(),
		discourse.Dialect(),
		generic.Dialect(o.Generic),
	}
}

// Registry is All(o) by name. A name given twice is a programming error (TestRegistry guards it):
// it panics.
func Registry(o Options) *forum.Registry {
	r, err := forum.NewRegistry(All(o)...)
	if err != nil {
		panic(err)
	}
	return r
}
