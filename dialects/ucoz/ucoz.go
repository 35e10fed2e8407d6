// Package ucoz reads forum thread pages of uCoz sites (the hosted site builder: *.ucoz.ru,
// *.ucoz.net, *.clan.su, *.3dn.ru, *.at.ua and the sites' own domains; module "forum", pages
// /forum/F-T-N) through the generic engine: the selector table preset below, which `forumgm
// detect` also proposes for the generic dialect. Reading only: see README.md for where the markup
// comes from and what a writer would need.
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
//	merged      "Добавлено (date)" over a line of dashes between the parts of a post uCoz joined
//	pagination  ul.switches: li.switchActive (current), a.switchDigit, span.numPages, a.switchBack,
//	            a.switchNext
package ucoz

import (
	"fmt"
	"maps"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// postLink is a post's direct link: /forum/{forum}-{topic}-{post}-16-{Unix time}.
const postLink = `/forum/\d+-\d+-(\d+)-16-\d+`

// preset is the selector table (generic dialect keys, forum/scrape/README.md).
var preset = map[string]string{
	"post":       "tr[id^=post]",
	"post_id":    "@id",
	"post_id_re": `^post(\d+)$`,
	// The number's onclick: prompt('Прямая ссылка к сообщению', 'http://site/forum/10-23-209-16-1171360929').
	"permalink":    "a.postNumberLink@onclick",
	"permalink_re": `'(https?://[^']*` + postLink + `)'`,
	"time_unix":    "a.postNumberLink@onclick",
	"time_unix_re": `/forum/\d+-\d+-\d+-16-(\d+)'`,
	// "Дата: Вт, 2007-02-13, 13:02 | Сообщение # 1": the weekday is left out; relative days are
	// kept ("Сегодня, 12:34").
	"time":        "td.postTdTop:has(a.postNumberLink) || td.postTdTop",
	"time_re":     `(?:Дата|Date|Добавлено)\s*:\s*(?:\p{L}+,\s*)?(\d{1,4}[.\-/]\d{1,2}[.\-/]\d{2,4},?\s+\d{1,2}:\d{2}(?::\d{2})?|\p{L}+,?\s+\d{1,2}:\d{2}(?::\d{2})?)`,
	"time_layout": "2006-01-02, 15:04 || 2006-01-02, 15:04:05 || 02.01.2006, 15:04:05",
	// Guests and deleted users have no link: their name is the first cell's text.
	"author":       "a.postUser || .postUser || td.postTdTop",
	"author_id":    "td.postBottom a[onclick*='/index/8-']@onclick || a.postUser[href*='/index/8-']@href",
	"author_id_re": `/index/8-(\d+)`,
	"body":         "td.posttdMessage",
	"signature":    "hr.signatureHr || span.signatureView",
	"remove":       "div.eAttach",
	"edited":       "div.edited",
	// The edit line "Сообщение отредактировал X - date" is left out of the text.
	"edited_notice": "div.edited",
	// Quotes written before about 2008 are a table: a first row "Quote (Name)", then
	// td.quoteMessage (the text, ended by <!--quote-->).
	"quote":      "div.bbQuoteBlock, table:has(td.quoteMessage)",
	"quote_cite": "div.bbQuoteName, tr:first-child > td:not(.quoteMessage) > span",
	// "Цитата (Name)", "Quote (Name)", "Цитата Name ()" (the parentheses hold the link to the
	// quoted post, an image); a bare "Цитата" or "Quote" names nobody.
	"quote_author_re":  `^(?:Цитата|Quote)\s*\(?\s*(.*?)\s*\)?\s*(?:\(\s*\))?\s*:?$`,
	"quote_post_id":    "span.qAnchor a, a[href*='-16-']@href",
	"quote_post_id_re": postLink,
	"code":             "div.bbCodeBlock",
	"code_text":        "div.codeMessage",
	"spoiler":          "div.uSpoilerClosed, div.uSpoilerOpened",
	// The title is the button's value: a title element read as text gives nothing and keeps the
	// button out of the spoiler's text.
	"spoiler_title": "div.uSpoilerButBl",
	"spoiler_body":  "div.uSpoilerText",
	"page_current":  "li.switchActive || span.curPage",
	"page_numbers":  "ul.switches a.switchDigit, ul.switches li.switchActive, span.numPages",
	"prev_page":     "a.switchBack@href",
	"next_page":     "a.switchNext@href",
	"required":      "td.posttdMessage",
	// uCoz joins a member's post written soon after their previous one into it: "Добавлено
	// (2014-01-11, 19:46)" in bold, then a line of dashes, then the new text (the earlier post
	// keeps its id). Each part is read as an input of its own (forum.Post.Parts).
	"merge_sep_re": `(?m)^[ \t]*(?:Добавлено|Added)[ \t]*\([^()\n]*\)[ \t]*\n[ \t]*-{10,}[ \t]*$`,
}

// threadTable is preset as a table.
var threadTable = func() *scrape.Table {
	t, err := scrape.TableFromExtra(preset)
	if err != nil {
		panic(err)
	}
	t.Name = "ucoz"
	return t
}()

// extract reads a saved thread page (any charset: uCoz serves UTF-8 or windows-1251, named in the
// header or the <meta>). cfg.Extra overrides single keys of the table. A page without uCoz posts
// is forum.ErrMarkupChanged.
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	t := threadTable
	if len(cfg.Extra) > 0 {
		extra := maps.Clone(preset)
		maps.Copy(extra, cfg.Extra)
		var err error
		if t, err = scrape.TableFromExtra(extra); err != nil {
			return nil, fmt.Errorf("ucoz: %w", err)
		}
		t.Name = "ucoz"
	}
	return scrape.ExtractWith(t, page, contentType, cfg)
}
