// Package vbulletin5 reads vBulletin 5 thread pages (the default style and those built on it)
// through the generic engine: the selector table vb5 below, which `forumgm detect` also proposes
// for the generic dialect. Reading only: vBulletin 5 posts replies and private messages through
// JavaScript calls (ajax/api/...) with a security token, which no built-in poster speaks.
package vbulletin5

import (
	"fmt"
	"maps"
	"strings"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// vb5 is vBulletin 5 (default style, 5.5): li.b-post[data-node-id] with its publication time as
// Unix seconds (data-node-publishdate; the <time datetime> beside it has no zone and the shown
// date is in the reader's zone), the author in .b-userinfo__details, the text in
// .js-post__content-text, quotes div.bbcode_container > div.bbcode_quote "Originally posted by
// Name" with a link to ?p=N, signatures div.post-signature outside the text.
var vb5 = map[string]string{
	"post":         "li.b-post[data-node-id]",
	"post_id":      "@data-node-id",
	"post_id_re":   `^(\d+)$`,
	"permalink":    "a.b-post__count@href",
	"subject":      "h2.b-post__title",
	"author":       ".b-userinfo__details .author a || .b-userinfo__details .author",
	"author_id":    ".b-userinfo__details .author a@href",
	"author_id_re": `member/(\d+)`,
	"time_unix":    "@data-node-publishdate",
	"time":         ".b-post__timestamp time@datetime || .b-post__timestamp",
	"time_layout":  "2006-01-02T15:04:05 || 01-02-2006, 03:04 PM",
	"body":         ".js-post__content-text",
	// No edited post on the real page: the edit line is found by its words, whatever its class.
	"edited":           ".js-post__content-wrapper div:containsOwn('Last edited by'), .js-post__content-wrapper div:containsOwn('Последний раз редактировалось')",
	"edited_notice":    "div:containsOwn('Last edited by') || div:containsOwn('Последний раз редактировалось')",
	"signature":        ".post-signature",
	"quote":            "div.bbcode_container:has(div.bbcode_quote)",
	"quote_cite":       ".bbcode_postedby",
	"quote_author_re":  `(?:Originally [Pp]osted by|Сообщение от)\s+(.+?)(?:\s+(?:View Post|Посмотреть сообщение))?\s*$`,
	"quote_post_id":    "a[href*='p=']@href",
	"quote_post_id_re": `[?&]p=(\d+)`,
	// A code block is a container without a quote in it (a quote holding code is a quote).
	"code":      "div.bbcode_container:has(pre.bbcode_code):not(:has(div.bbcode_quote))",
	"code_text": "pre.bbcode_code",
}

// Extract reads a saved vBulletin 5 thread page. cfg.Extra overrides single keys of the table. A
// page without vBulletin 5 posts is forum.ErrMarkupChanged.
func Extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	if doc.Find("li.b-post[data-node-id]").Length() == 0 {
		return nil, fmt.Errorf("vbulletin5: no vBulletin 5 posts (li.b-post[data-node-id]): %w", forum.ErrMarkupChanged)
	}
	extra := maps.Clone(vb5)
	maps.Copy(extra, cfg.Extra)
	t, err := scrape.TableFromExtra(extra)
	if err != nil {
		return nil, err
	}
	t.Name = "vbulletin5"
	o, err := scrape.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	p, err := scrape.Extract(doc, t, o)
	if err != nil {
		return nil, err
	}
	for i := range p.Posts {
		// The first post's title spans lines (a thread prefix link, then the title).
		p.Posts[i].Subject = strings.Join(strings.Fields(p.Posts[i].Subject), " ")
	}
	return p.Posts, nil
}
