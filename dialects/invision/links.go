package invision

import (
	"net/url"
	"strings"

	"forumgm/forum"
)

// ThreadURL is the topic's first page as the community links it: its full URL with the SEO
// title once read, else topic/T/ (index.php?/topic/T/ without friendly URLs), which Invision
// sends on to the full one (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	f.state.Lock()
	u := f.canon[t.ID]
	f.state.Unlock()
	if u == "" {
		u = f.route("topic/"+t.ID+"/", nil)
	}
	return u
}

// PostURL is a comment as Invision's pages link it (its date, "Share"):
// <topic>/?do=findComment&comment=P, the parameters in the community's own order
// (forum.Linker).
func (f *Forum) PostURL(t forum.Thread, id string) string {
	u := f.ThreadURL(t)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "do=findComment&comment=" + url.QueryEscape(id)
}
