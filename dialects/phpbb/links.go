package phpbb

import (
	"net/url"

	"forumgm/forum"
)

// ThreadURL is the topic's first page: viewtopic.php?t=T (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.url("viewtopic.php?t=" + url.QueryEscape(t.ID))
}

// PostURL is a post as phpBB's pages link it (the post's subject, its "#" icon):
// viewtopic.php?p=P#pP, which opens the page holding it (forum.Linker).
func (f *Forum) PostURL(_ forum.Thread, id string) string {
	return f.url("viewtopic.php?p=" + url.QueryEscape(id) + "#p" + url.PathEscape(id))
}
