package punbb

import (
	"net/url"

	"forumgm/forum"
)

// ThreadURL is the topic's first page: viewtopic.php?id=T (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.u("viewtopic.php", url.Values{"id": {t.ID}})
}

// PostURL is a post as PunBB's and FluxBB's pages link it (its number and date):
// viewtopic.php?pid=P#pP (forum.Linker).
func (f *Forum) PostURL(_ forum.Thread, id string) string {
	return f.u("viewtopic.php", url.Values{"pid": {id}}) + "#p" + url.PathEscape(id)
}
