package generic

import (
	"net/url"
	"strings"

	"forumgm/forum"
)

// ThreadURL is the thread's first page: thread_url with page 1 (forum.Linker).
func (f *Forum) ThreadURL(t forum.Thread) string {
	return f.expand(f.x["thread_url"], t.ID, 1)
}

// PostURL is a post by the table's permalink_format ({id}, {thread}), the same address the
// engine's pages link it by; "" when the table gives none (the players' pages then link the
// thread; forum.Linker).
func (f *Forum) PostURL(t forum.Thread, id string) string {
	format := f.x["permalink_format"]
	if format == "" {
		return ""
	}
	u, err := f.base.Parse(strings.NewReplacer("{id}", url.QueryEscape(id), "{thread}", url.QueryEscape(t.ID)).Replace(format))
	if err != nil {
		return ""
	}
	return u.String()
}
