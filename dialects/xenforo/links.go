package xenforo

import (
	"net/url"
	"regexp"

	"forumgm/forum"
)

// reSlugged reads the thread's "slug.N" out of its page's path (/threads/slug.N/page-2).
var reSlugged = regexp.MustCompile(`/threads/([^/?#]+\.\d+)/`)

// ThreadURL is the thread's first page: threads/T/ (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.base.ResolveReference(&url.URL{Path: "threads/" + f.slug(t) + "/"}).String()
}

// PostURL is a post as XenForo's pages link it (its date, its "#N"): threads/slug.N/post-P
// (forum.Linker). The thread is named as the board's links name it: its "slug.N" as configured
// or as learned reading it; before either, "N", which XenForo sends on to the slugged address.
func (f *Forum) PostURL(t forum.Thread, id string) string {
	return f.base.ResolveReference(&url.URL{Path: "threads/" + f.slug(t) + "/post-" + id}).String()
}

// slug is the thread's id as the board's links name it.
func (f *Forum) slug(t forum.Thread) string {
	f.tok.Lock()
	defer f.tok.Unlock()
	if s := f.slugged[t.ID]; s != "" {
		return s
	}
	return t.ID
}
