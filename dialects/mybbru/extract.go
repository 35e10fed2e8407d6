// This file reads pages of the MyBB.ru / rusff.me / forum24 hosting family (a PunBB 1.2
// fork; pages usually windows-1251). See README.md for where the markup comes from.
//
// Selector table (thread page, viewtopic.php, body#pun-viewtopic):
//
//	post        #pun-main div.topic > div.post[id=p{id}]   data-posted = Unix time (preferred)
//	number      h3 span strong
//	permalink   h3 span a.permalink                        viewtopic.php?pid={id}#p{id}; its text is the
//	            date: "Сегодня 12:34:56", "Вчера 22:10:05", "2026-11-28 14:00:00" (forum zone)
//	author      .post-author li.pa-author a                profile.php?id={uid}
//	body        .post-body .post-box .post-content
//	left out    dl.post-sig (signature), p.lastedit ("Отредактировано X (date)", also marks edited)
//	quote       div.quote-box:not(.spoiler-box): cite "Name написал(а):" (a[href*=pid=] when linked)
//	            + blockquote
//	spoiler     div.quote-box.spoiler-box: first div = title, blockquote = text
//	code        div.code-box: strong.legend "Код:", div.blockcode pre (verbatim)
//	pagination  div.pagelink: strong = current, a = other pages, a.next / a.prev

package mybbru

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// quoteAuthorRe reads the name out of a quote's cite ("Name написал(а):", "Name wrote:").
var quoteAuthorRe = regexp.MustCompile(`^(.+?)\s+(?:написал\(а\)|написала?|пишет|wrote)\s*:`)

// threadTable is the selector table of a viewtopic.php page.
var threadTable = &scrape.Table{
	Name:            "mybbru",
	Post:            "#pun-main div.topic div.post[id^=p]",
	ID:              scrape.Field{Attr: "id", Re: regexp.MustCompile(`^p(\d+)$`)},
	Permalink:       scrape.Field{Sel: "h3 a.permalink", Attr: "href"},
	PermalinkFormat: "viewtopic.php?pid=%[1]s#p%[1]s",
	Author:          scrape.Field{Sel: ".post-author li.pa-author a || .post-author li.pa-author", Re: regexp.MustCompile(`^(?:Автор:\s*)?(.+)$`)},
	AuthorID:        scrape.Field{Sel: ".post-author li.pa-author a", Attr: "href", Re: regexp.MustCompile(`profile\.php\?id=(\d+)`)},
	TimeUnix:        scrape.Field{Attr: "data-posted", Re: regexp.MustCompile(`^(\d+)$`)},
	Time:            []scrape.Field{{Sel: "h3 a.permalink"}, {Sel: "h3 span a[href*='pid=']"}},
	Body:            ".post-body .post-box .post-content",
	Remove:          []string{"dl.post-sig", "p.lastedit", "div.post-rating", "div.post-vote"},
	Edited:          ".post-content p.lastedit",
	Quote:           "div.quote-box:not(.spoiler-box)",
	QuoteCite:       "cite",
	QuoteAuthor:     quoteAuthorRe,
	QuotePostID:     scrape.Field{Sel: "a[href*='pid=']", Attr: "href", Re: regexp.MustCompile(`pid=(\d+)`)},
	Code:            "div.code-box",
	CodeText:        "pre",
	Spoiler:         "div.spoiler-box",
	SpoilerTitle:    "div",
	SpoilerBody:     "blockquote",
	PageCurrent:     scrape.Field{Sel: "div.pagelink strong"},
	PageNumbers:     "div.pagelink a, div.pagelink strong",
	PrevPage:        scrape.Field{Sel: "div.pagelink a.prev", Attr: "href"},
	NextPage:        scrape.Field{Sel: "div.pagelink a.next", Attr: "href"},
	Required:        "#pun-main",
}

// extract reads a saved thread page (any charset; windows-1251 from the header or <meta>).
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	return scrape.ExtractWith(threadTable, page, contentType, cfg)
}
