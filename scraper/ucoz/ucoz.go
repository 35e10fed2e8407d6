// Package ucoz reads forum thread pages of uCoz sites (the hosted site builder: *.ucoz.ru,
// *.ucoz.net, *.clan.su, *.3dn.ru, *.at.ua and the sites' own domains; module "forum", pages
// /forum/F-T-N). Reading only: see README.md for where the markup comes from and what a writer
// would need.
//
// Selector table (thread page /forum/{forum}-{topic}-{page}):
//
//	post        tr[id=post{id}] (inside table.gTable)
//	number      a.postNumberLink; its onclick prompt holds the post's direct link
//	            /forum/{forum}-{topic}-{id}-16-{Unix time} (the time: preferred)
//	time        td.postTdTop "Дата: Вт, 2007-02-13, 13:02 | Сообщение # 1" (the site's zone;
//	            also "Четверг, 20.01.2011, 22:01", "Сегодня, 12:34")
//	author      a.postUser (guests and deleted users: no link), else the first td.postTdTop
//	author id   the profile button window.open('/index/8-{uid}') in td.postBottom
//	body        td.posttdMessage (span.ucoz-forum-post holds the text on current pages)
//	left out    hr.signatureHr + span.signatureView (signature), div.edited ("Сообщение
//	            отредактировал X - date", also marks edited), div.eAttach (attachment list)
//	quote       div.bbQuoteBlock: div.bbQuoteName "Цитата (Name)" / "Quote (Name)" / "Цитата Name
//	            (link)" with span.qAnchor a[href=/forum/F-T-{id}-16-{time}], div.quoteMessage;
//	            older pages: a table, first row span "Quote (Name)", then td.quoteMessage
//	code        div.bbCodeBlock: div.codeMessage (verbatim; &nbsp; and <br> kept as spaces, lines)
//	spoiler     div.uSpoilerClosed / div.uSpoilerOpened: div.uSpoilerText (its title is a button)
//	pagination  ul.switches: li.switchActive (current), a.switchDigit, span.numPages, a.switchBack,
//	            a.switchNext
package ucoz

import (
	"regexp"

	"forumgm/forum"
	"forumgm/scraper/generic"
)

// QuoteAuthor reads the quoted name out of a quote's title: "Цитата (Name)", "Quote (Name)",
// "Цитата Name ()" (the parentheses hold the link to the quoted post, an image); a bare "Цитата"
// or "Quote" names nobody.
var QuoteAuthor = regexp.MustCompile(`^(?:Цитата|Quote)\s*\(?\s*(.*?)\s*\)?\s*(?:\(\s*\))?\s*:?$`)

// postLink is the direct link of a post: /forum/{forum}-{topic}-{post}-16-{Unix time}.
const postLink = `/forum/\d+-\d+-(\d+)-16-(\d+)`

// Thread is the selector table of a forum thread page.
var Thread = &generic.Table{
	Name: "ucoz",
	Post: "tr[id^=post]",
	ID:   generic.Field{Attr: "id", Re: regexp.MustCompile(`^post(\d+)$`)},
	// The number's onclick: prompt('Прямая ссылка к сообщению', 'http://site/forum/10-23-209-16-1171360929').
	Permalink: generic.Field{Sel: "a.postNumberLink", Attr: "onclick", Re: regexp.MustCompile(`'(https?://[^']*` + postLink + `)'`)},
	TimeUnix:  generic.Field{Sel: "a.postNumberLink", Attr: "onclick", Re: regexp.MustCompile(`/forum/\d+-\d+-\d+-16-(\d+)'`)},
	Time: []generic.Field{{
		Sel: "td.postTdTop:has(a.postNumberLink) || td.postTdTop",
		// The weekday before the date is left out; relative days are kept ("Сегодня, 12:34").
		Re: regexp.MustCompile(`(?:Дата|Date|Добавлено)\s*:\s*(?:\p{L}+,\s*)?(\d{1,4}[.\-/]\d{1,2}[.\-/]\d{2,4},?\s+\d{1,2}:\d{2}(?::\d{2})?|\p{L}+,?\s+\d{1,2}:\d{2}(?::\d{2})?)`),
	}},
	TimeLayouts: append([]string{"2006-01-02, 15:04", "2006-01-02, 15:04:05", "02.01.2006, 15:04:05"}, generic.DefaultLayouts...),
	Author:      generic.Field{Sel: "a.postUser || .postUser || td.postTdTop"},
	AuthorID: generic.Field{
		Sel: "td.postBottom a[onclick*='/index/8-']@onclick || a.postUser[href*='/index/8-']@href",
		Re:  regexp.MustCompile(`/index/8-(\d+)`),
	},
	Body:   "td.posttdMessage",
	Remove: []string{"hr.signatureHr", "span.signatureView", "div.edited", "div.eAttach"},
	Edited: "div.edited",
	// Quotes written before about 2008 are a table: a first row "Quote (Name)", then
	// td.quoteMessage (the text, ended by <!--quote-->).
	Quote:       "div.bbQuoteBlock, table:has(td.quoteMessage)",
	QuoteCite:   "div.bbQuoteName, tr:first-child > td:not(.quoteMessage) > span",
	QuoteAuthor: QuoteAuthor,
	QuotePostID: generic.Field{Sel: "span.qAnchor a, a[href*='-16-']", Attr: "href", Re: regexp.MustCompile(postLink)},
	Code:        "div.bbCodeBlock",
	CodeText:    "div.codeMessage",
	Spoiler:     "div.uSpoilerClosed, div.uSpoilerOpened",
	// The title is the button's value: a title element read as text gives nothing and keeps the
	// button out of the spoiler's text.
	SpoilerTitle: "div.uSpoilerButBl",
	SpoilerBody:  "div.uSpoilerText",
	PageCurrent:  generic.Field{Sel: "li.switchActive || span.curPage"},
	PageNumbers:  "ul.switches a.switchDigit, ul.switches li.switchActive, span.numPages",
	PrevPage:     generic.Field{Sel: "a.switchBack", Attr: "href"},
	NextPage:     generic.Field{Sel: "a.switchNext", Attr: "href"},
	Required:     "td.posttdMessage",
}

// Extract reads a saved thread page (any charset: uCoz serves UTF-8 or windows-1251, named in the
// header or the <meta>). A page without uCoz posts is forum.ErrMarkupChanged.
func Extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	return generic.ExtractWith(Thread, page, contentType, cfg)
}

func init() { forum.RegisterExtractor("ucoz", Extract) }
