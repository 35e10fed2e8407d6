// This file holds how a page names its own thread, for the check every dialect's read runs on
// every thread page (forum.CheckThread) and the descriptors' PageThread.

package scrape

import (
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// ThreadSource is one place a page names its own thread: the attribute Attr of the first element
// Sel selects, read by ID (a URL through the dialect's Dialect.ThreadID); nil ID: the value is
// the id itself when it is a number (a hidden input's tid).
type ThreadSource struct {
	Sel, Attr string
	ID        func(string) (string, bool)
}

// Canonical are the sources of a page's own address, read by id: its canonical link and its
// og:url (a page of another thread carries that thread's).
func Canonical(id func(string) (string, bool)) []ThreadSource {
	return []ThreadSource{{Sel: `link[rel="canonical"]`, Attr: "href", ID: id}, {Sel: `meta[property="og:url"]`, Attr: "content", ID: id}}
}

// PageThread is the id of the thread doc is a page of: what the first of sources that names one
// gives; "" when none does (an old theme, an excerpt).
func PageThread(doc *goquery.Document, sources ...ThreadSource) string {
	for _, s := range sources {
		v, ok := doc.Find(s.Sel).First().Attr(s.Attr)
		if v = strings.TrimSpace(v); !ok || v == "" {
			continue
		}
		if s.ID == nil {
			if strings.Trim(v, "0123456789") == "" {
				return v
			}
			continue
		}
		if id, ok := s.ID(strings.ReplaceAll(v, "&amp;", "&")); ok && id != "" {
			return id
		}
	}
	return ""
}

// PageThreadOf is a forum.Dialect's PageThread: the page decoded and parsed, its thread read by
// of.
func PageThreadOf(of func(*goquery.Document) string) func(page []byte, contentType string, cfg forum.Config) (string, bool) {
	return func(page []byte, contentType string, _ forum.Config) (string, bool) {
		doc, err := Parse(page, contentType)
		if err != nil {
			return "", false
		}
		id := of(doc)
		return id, id != ""
	}
}
