package mybbru

import (
	"github.com/PuerkitoBio/goquery"

	"forumgm/dialects/punbb"
	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Section reads a forum page (viewforum.php?id=N) into thread heads. MyBB.ru writes the topic
// list as PunBB 1.2 did, which punbb.Section reads: #pun-viewforum div.forum table, rows
// tr[class$=isticky] for sticky topics, td.tcl a[href*="viewtopic.php?id="] the title, td.tc2 the
// replies, td.tcr a the last post (viewtopic.php?id=T&p=N#pP: the post id is the anchor's) with
// its date ("Сегодня 14:58:03") and span.byuser "от Name". See README.md for the sources.
func Section(doc *goquery.Document, cfg forum.Config) ([]forum.ThreadHead, error) {
	return punbb.Section(doc, scrape.ReadOptionsFrom(cfg))
}

// sectionOf reads the forum a topic page belongs to from its breadcrumb (#pun-crumbs1); "" when
// the page shows none.
func sectionOf(doc *goquery.Document) string { return punbb.SectionOf(doc) }

// sectionBytes reads a saved forum page (any charset; windows-1251 from the header or <meta>).
func sectionBytes(page []byte, contentType string, cfg forum.Config) ([]forum.ThreadHead, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	return Section(doc, cfg)
}
