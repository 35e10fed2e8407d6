// This file reads phpBB 3.0-3.3 pages (prosilver and styles derived from it, and phpBB 3.0's
// table-based subsilver2 and its derivatives): thread pages, the private-message inbox and a
// private message; and a forum's topic list into forum.ThreadHead values (section.go). Markup
// from phpBB/styles/prosilver/template/{viewtopic_body,bbcode,pagination,
// ucp_pm_viewfolder,ucp_pm_viewmessage}.html (branch 3.3.x); see README.md.
//
// Selector table (thread page, viewtopic.php):
//
//	post          div.post.has-profile[id=p{id}]            (inside #page-body)
//	permalink     h3 a[href*="p="]                          ./viewtopic.php?p={id}#p{id}
//	subject       .postbody h3 a
//	author        dl.postprofile dt a.username, a.username-coloured (guests: dt span.username / strong)
//	author id     same link, u={uid}
//	time          p.author time[datetime] (RFC 3339), else its text ("Today, 12:34", "30 Nov 2026, 03:45")
//	body          div.content   (signature div.signature and edit div.notice are its siblings)
//	edited        div.notice:not(.post_deleted_msg)
//	quote         blockquote; cite "Name wrote:" + a[data-post-id]; blockquote.uncited has no cite
//	code          div.codebox pre code (3.1: div.codebox > p + code; 3.0: dl.codebox dd code)
//	pagination    div.pagination li.active span (current), li a.button / li span (numbers; 3.1:
//	              li > a), li.previous a[rel=prev], li.next a[rel=next]; 3.0 writes only the
//	              numbers ("1, <strong>2</strong>, 3"): fillPages takes the neighbours' links
//
// subsilver2 (phpBB 3.0 and 3.1; table subsilver2Table, chosen when the page has b.postauthor): one
// table.tablebg per post, a[name=p{id}], b.postauthor, "Posted: date" in td.gensmall, body
// div.postbody (the signature is a span.postbody after it; 3.1: a second div.postbody), edit
// span.gensmall "Last edited by", quotes div.quotetitle "Name wrote:" + div.quotecontent and code
// div.codetitle + div.codecontent (3.1: pre.codecontent) as siblings (the title is moved into its
// quote before reading); pages "Page N of M" in td.nav, the "Previous"/"Next" page links in
// td.gensmall b (3.1: directly in the right-aligned td.gensmall). ThreadTable picks the table of a
// page.

package phpbb

import (
	"regexp"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// quoteAuthorRe reads the name out of a quote's cite ("Name wrote:"; the Russian pack says
// "Name писал(а):").
var quoteAuthorRe = regexp.MustCompile(`^(.+?)\s+(?:wrote|писал\(а\)|написал\(а\)|пишет)\s*:`)

// threadTable is the selector table of a viewtopic.php page. Every role lists its alternatives in
// order ("||"): phpBB 3.3 prosilver first, then 3.1/3.2 and prosilver-derived styles that show no
// <time> (the date is the text after "»" in p.author), then phpBB 3.0 prosilver (profile links
// without a class, codeboxes as dl.codebox) and 3.0 styles built on it that write the byline as
// div.author and leave the profile empty.
var threadTable = &scrape.Table{
	Name:      "phpbb",
	Post:      "div.post[id^=p]:has(div.postbody)",
	ID:        scrape.Field{Attr: "id", Re: regexp.MustCompile(`^p(\d+)$`)},
	Permalink: scrape.Field{Sel: ".postbody h3 a[href*='p='] || .postbody .author a[href*='p=']", Attr: "href"},
	// PermalinkFormat serves styles whose posts link nowhere.
	PermalinkFormat: "viewtopic.php?p=%[1]s#p%[1]s",
	Subject:         scrape.Field{Sel: ".postbody h3 a || .postbody h3"},
	Author: scrape.Field{Sel: "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured" +
		" || dl.postprofile dt span.username, dl.postprofile dt span.username-coloured" +
		" || dl.postprofile dt a[href*='mode=viewprofile']" +
		" || .postbody .author strong a || .postbody .author strong || dl.postprofile dt strong"},
	AuthorID: scrape.Field{Sel: "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured" +
		" || dl.postprofile dt a[href*='mode=viewprofile'] || .postbody .author a[href*='mode=viewprofile']",
		Attr: "href", Re: regexp.MustCompile(`[?&](?:amp;)?u=(\d+)`)},
	Time: []scrape.Field{
		{Sel: "p.author time", Attr: "datetime"},
		{Sel: "p.author time"},
		{Sel: ".postbody p.author, .postbody div.author", Re: regexp.MustCompile(`(?s)»\s*(.+?)\s*$`)},
	},
	Body:         "div.content",
	Remove:       []string{"div.signature", "div.notice", "div.inline-attachment"},
	Edited:       "div.notice:not(.post_deleted_msg)",
	Quote:        "blockquote",
	QuoteCite:    "cite",
	QuoteAuthor:  quoteAuthorRe,
	QuotePostID:  scrape.Field{Sel: "a[data-post-id]", Attr: "data-post-id"},
	Code:         "div.codebox, dl.codebox",
	CodeText:     "pre code, dd > code, p + code",
	Spoiler:      "div.spoiler, details", // board-defined custom BBCode; not in core
	SpoilerTitle: "summary, div.spoiler-title",
	PageCurrent:  scrape.Field{Sel: "div.pagination li.active span, div.pagination > strong, div.pagination span > strong"},
	PageNumbers:  "div.pagination li a.button, div.pagination li > a, div.pagination li.active span, div.pagination strong, div.pagination span a",
	PrevPage:     scrape.Field{Sel: "div.pagination li.previous a[rel=prev]", Attr: "href"},
	NextPage:     scrape.Field{Sel: "div.pagination li.next a[rel=next]", Attr: "href"},
}

// subsilver2Table is the selector table of a phpBB 3.0 subsilver2 viewtopic.php page (and styles
// built on it): tables, not the prosilver divs. Edit marks and dates in the English and Russian
// packs. The permalink is the post's target icon (viewtopic.php?p=N#pN; an img in 3.0, a
// span.imageset in 3.1): the subject links only the anchor #pN.
var subsilver2Table = &scrape.Table{
	Name:            "phpbb",
	Post:            "table.tablebg:has(.postauthor)",
	ID:              scrape.Field{Sel: "a[name^=p]", Attr: "name", Re: regexp.MustCompile(`^p(\d+)$`)},
	Permalink:       scrape.Field{Sel: "td.gensmall a[href*='p='][href*='#p'] || td.gensmall a[href*='#p']:has(img) || td.gensmall a[href*='#p']", Attr: "href"},
	PermalinkFormat: "viewtopic.php?p=%[1]s#p%[1]s",
	Subject:         scrape.Field{Sel: "td.gensmall div", Re: regexp.MustCompile(`(?:Post subject|Заголовок сообщения):\s*(.+)`)},
	Author:          scrape.Field{Sel: "b.postauthor || .postauthor"}, // span.postauthor in styles built on it (theavalanches.com)
	AuthorID:        scrape.Field{Sel: "a[href*='mode=viewprofile']", Attr: "href", Re: regexp.MustCompile(`[?&](?:amp;)?u=(\d+)`)},
	Time:            []scrape.Field{{Sel: "td.gensmall div", Re: regexp.MustCompile(`(?s)(?:Posted|Добавлено):\s*(.+?)\s*$`)}},
	Body:            "div.postbody",
	Remove:          []string{"div.codetitle", "div.attachtitle", "div.attachcontent"},
	Edited:          "span.gensmall:contains('Last edited by'), span.gensmall:contains('Последний раз редактировалось')",
	Quote:           "div.quotecontent",
	QuoteCite:       "div.quotetitle",
	QuoteAuthor:     quoteAuthorRe,
	Code:            "div.codecontent, pre.codecontent",
	PageCurrent:     scrape.Field{Sel: "td.nav strong"},
	PageNumbers:     "td.nav strong, td.gensmall b a, td.gensmall b strong",
	PrevPage: scrape.Field{Sel: "td.gensmall b a:containsOwn('Previous'), td.gensmall b a:containsOwn('Пред')" +
		" || td.gensmall[align=right] > a:containsOwn('Previous'), td.gensmall[align=right] > a:containsOwn('Пред')", Attr: "href"},
	NextPage: scrape.Field{Sel: "td.gensmall b a:containsOwn('Next'), td.gensmall b a:containsOwn('След')" +
		" || td.gensmall[align=right] > a:containsOwn('Next'), td.gensmall[align=right] > a:containsOwn('След')", Attr: "href"},
}

// ThreadTable is the table that reads doc, a viewtopic.php page: Subsilver2 for a subsilver2
// page (a table.tablebg holding a b.postauthor or, in styles built on subsilver2, a
// span.postauthor; its quote titles are moved into their quotes first), else Thread.
func ThreadTable(doc *goquery.Document) *scrape.Table {
	if doc.Find("div.post[id^=p] div.postbody").Length() == 0 && doc.Find("table.tablebg .postauthor").Length() > 0 {
		subsilver2Quotes(doc)
		return subsilver2Table
	}
	return threadTable
}

// subsilver2Quotes moves each subsilver2 quote title ("Name wrote:") into the quote content that
// follows it, so the quote carries its attribution as prosilver's blockquote > cite does; a
// title that names nobody ("Quote:") is dropped.
func subsilver2Quotes(doc *goquery.Document) {
	doc.Find("div.quotetitle").Each(func(_ int, t *goquery.Selection) {
		next := t.Next()
		if !next.Is("div.quotecontent") || !quoteAuthorRe.MatchString(t.Text()) {
			t.Remove()
			return
		}
		next.PrependSelection(t)
	})
}

// pmTable is the selector table of a private message (ucp.php?i=pm&mode=view&p=ID): no <time>, only
// the SENT_DATE text after "Sent:". phpBB 3.0 prosilver: profile links without a class, code as
// dl.codebox. (subsilver2's message view, a table with no message id, is not read.)
var pmTable = &scrape.Table{
	Name:            "phpbb",
	Post:            "#page-body div.post.pm[id^=post-]",
	ID:              scrape.Field{Attr: "id", Re: regexp.MustCompile(`^post-(\d+)$`)},
	PermalinkFormat: "ucp.php?i=pm&mode=view&p=%[1]s",
	Subject:         scrape.Field{Sel: ".postbody h3"},
	Author: scrape.Field{Sel: "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured" +
		" || dl.postprofile dt a[href*='mode=viewprofile'] || dl.postprofile dt strong"},
	AuthorID: scrape.Field{Sel: "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured" +
		" || dl.postprofile dt a[href*='mode=viewprofile']", Attr: "href", Re: regexp.MustCompile(`[?&](?:amp;)?u=(\d+)`)},
	Time:        []scrape.Field{{Sel: "p.author", Re: regexp.MustCompile(`(?s)(?:Sent|Отправлено)\s*:\s*(.+?)\s*(?:From|Отправитель|От)\s*:`)}},
	Body:        "div.content",
	Remove:      []string{"div.signature", "div.notice"},
	Edited:      "div.notice",
	Quote:       "blockquote",
	QuoteCite:   "cite",
	QuoteAuthor: quoteAuthorRe,
	QuotePostID: scrape.Field{Sel: "a[data-msg-id]", Attr: "data-msg-id"},
	Code:        "div.codebox, dl.codebox",
	CodeText:    "pre code, dd > code, p + code",
	Required:    "#page-body",
}

// Extract reads a saved phpBB page: a thread page, or a private message.
func Extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	o, err := scrape.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	t := pmTable
	if doc.Find("#page-body div.post.pm").Length() == 0 {
		t = ThreadTable(doc)
	}
	p, err := scrape.Extract(doc, t, o)
	if err != nil {
		return nil, err
	}
	return p.Posts, nil
}
