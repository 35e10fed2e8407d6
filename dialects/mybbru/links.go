package mybbru

import (
	"net/url"

	"forumgm/forum"
)

// ThreadURL is the topic's first page: viewtopic.php?id=T (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.url("viewtopic.php?id=" + url.QueryEscape(t.ID))
}

// PostURL is a post as MyBB.ru's pages link it (h3 a.permalink): viewtopic.php?pid=P#pP
// (forum.Linker).
func (f *Forum) PostURL(_ forum.Thread, id string) string {
	return f.url("viewtopic.php?pid=" + url.QueryEscape(id) + "#p" + url.PathEscape(id))
}
