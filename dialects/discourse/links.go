package discourse

import (
	"net/url"

	"forumgm/forum"
)

// ThreadURL is the topic: t/T, which Discourse sends on to t/<slug>/T (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.base.ResolveReference(&url.URL{Path: "t/" + t.ID}).String()
}

// PostURL is a post as Discourse's pages link it, t/<slug>/T/<number> (its number in the topic
// and the slug are learned reading the topic); a post not read in this run is linked by
// Discourse's short link p/<id>, which the forum sends on to the same place (forum.Linker).
func (f *Forum) PostURL(_ forum.Thread, id string) string {
	f.links.Lock()
	u := f.permalink[id]
	f.links.Unlock()
	if u != "" {
		return u
	}
	return f.base.ResolveReference(&url.URL{Path: "p/" + id}).String()
}
