// This file reads Invision Community 4 topic pages (the default theme and those built on
// it) through the generic engine: the selector table ips4. extract is the dialect's page
// extractor (`forumgm posts --dialect invision --file page.html`); the Forum reads topics and
// messenger conversations with the table. readSection reads a forum's topic list (forumTable,
// topicRow) and SectionOf a topic page's forum (the breadcrumb).
//
// The table follows the markup of a real Invision Community 4.7 topic (forum.armbian.com, see
// testdata/realboards/invision) and Invision Community 4.7's own templates
// (forums/front/topics/postContainer and post, core/front/global/commentEditLine,
// core/global/global/pagination): article#elComment_N.ipsComment, the author's link in the
// author pane (profile/<id>-<name>/), the date line's <time datetime> (UTC), the post in
// div[data-role=commentContent], quotes blockquote.ipsQuote with data-ipsquote-username and
// data-ipsquote-contentcommentid (the "X said:" citation, div.ipsQuote_citation, is only there
// when the editor or a script wrote it), code pre.ipsCode, spoilers div.ipsSpoiler, the edit
// line span[data-excludequote] ("Edited <date> by <name>"), and the pagination's ul.ipsPagination
// (pages /page/N/ with SEO URLs, ?page=N without).

package invision

import (
	"fmt"
	"maps"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// ips4 is the Invision Community 4 table of the generic engine.
var ips4 = map[string]string{
	"post":       "article.ipsComment[id^='elComment_']",
	"post_id":    "@id",
	"post_id_re": `elComment_(\d+)`,
	// The comment's date line links to its permalink (?do=findComment&comment=N).
	"permalink": ".ipsComment_meta a[href*='comment=']@href",
	// The desktop author pane (aside) and the phone one both name the author; guests have no link.
	// Messenger messages and other comments (core/front/global/comment) name it in
	// h3.ipsComment_author instead.
	"author":       "aside.cAuthorPane .cAuthorPane_author a || .cAuthorPane_author a || h3.ipsComment_author a || aside.cAuthorPane .cAuthorPane_author || h3.ipsComment_author",
	"author_id":    "aside.cAuthorPane .cAuthorPane_author a@href || .cAuthorPane_author a@href || h3.ipsComment_author a@href",
	"author_id_re": `/profile/(\d+)`,
	"time":         ".ipsComment_meta time@datetime || time@datetime",
	"body":         "[data-role='commentContent']",
	"edited":       "[data-role='commentContent'] span[data-excludequote]",
	"remove":       "span[data-excludequote]",
	"quote":        "blockquote.ipsQuote",
	"quote_cite":   ".ipsQuote_citation",
	"quote_author": "@data-ipsquote-username",
	// One regexp for both the attribute ("diogo") and a citation the editor wrote ("On 5/15/2013
	// at 2:15 PM, diogo said:", "Le 30/11/2022 at 19:47, PPAC a dit :"): group 1 is the name.
	"quote_author_re": `^(?:(?:On|Le)\s.+?,\s+)?(.+?)(?:\s+(?:said|a dit|сказал\(а\)|сказал|написал\(а\)|написал)\s*:.*)?$`,
	"quote_post_id":   "@data-ipsquote-contentcommentid",
	"code":            "pre.ipsCode",
	"spoiler":         "div.ipsSpoiler",
	"spoiler_title":   ".ipsSpoiler_header",
	"spoiler_body":    ".ipsSpoiler_contents",
	"page_current":    "li.ipsPagination_active",
	"prev_page":       "li.ipsPagination_prev:not(.ipsPagination_inactive) a@href",
	"next_page":       "li.ipsPagination_next:not(.ipsPagination_inactive) a@href",
}

// ReadPage reads a parsed Invision page with table (ips4) overridden by cfg.Extra: its posts and
// pagination.
func ReadPage(doc *goquery.Document, table map[string]string, cfg forum.Config) (*scrape.Page, error) {
	extra := maps.Clone(table)
	maps.Copy(extra, cfg.Extra)
	t, err := scrape.TableFromExtra(extra)
	if err != nil {
		return nil, err
	}
	t.Name = "invision"
	o, err := scrape.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return scrape.Extract(doc, t, o)
}

// extract reads a saved Invision Community 4 topic page. cfg.Extra overrides single keys of the
// table (a theme that moved the date, say). A page without article.ipsComment posts is
// forum.ErrMarkupChanged.
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	if doc.Find("article.ipsComment[id^='elComment_']").Length() == 0 {
		return nil, fmt.Errorf("invision: no Invision Community posts (article.ipsComment#elComment_N): %w", forum.ErrMarkupChanged)
	}
	p, err := ReadPage(doc, ips4, cfg)
	if err != nil {
		return nil, err
	}
	return p.Posts, nil
}
