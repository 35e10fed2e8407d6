package smf

import (
	"net/url"

	"forumgm/forum"
)

// ThreadURL is the topic's first page: index.php?topic=T.0 (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.u("topic=" + url.QueryEscape(t.ID) + ".0")
}

// PostURL is a message as SMF's pages link it (its subject): index.php?topic=T.msgM#msgM
// (forum.Linker).
func (f *Forum) PostURL(t forum.Thread, id string) string {
	return f.u("topic="+url.QueryEscape(t.ID)+".msg"+url.QueryEscape(id)) + "#msg" + url.PathEscape(id)
}
