// This file reads XenForo 2 and XenForo 1 thread pages (default styles and those built on
// them) through the generic engine: the selector tables below, which `forumgm detect` also
// proposes for the generic dialect (XenForo 1). XenForo 2 conversation pages are read with
// xf2Conversation, a forum's thread list with readSection (SectionOf reads a thread page's
// forum from its breadcrumb). Logging in, replying and conversations are the Forum's (XenForo 2);
// XenForo 1 boards write through the generic dialect's form keys.

package xenforo

import (
	"fmt"
	"maps"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// XenForo 2 (default style): article.message--post, <time data-time> Unix seconds (2.3:
// data-timestamp; else the datetime attribute, "2009-05-05T09:36:00+0100"), quotes
// blockquote.bbCodeBlock--quote with data-source="post: N", "… said:" / "… сказал(а):".
var xf2 = map[string]string{
	"post":             "article.message--post[data-content^='post-']",
	"post_id":          "@data-content",
	"post_id_re":       `post-(\d+)`,
	"permalink":        ".message-attribution-main a[href*='post']@href || .message-attribution-opposite a[href*='post']@href",
	"author":           "@data-author",
	"author_id":        ".message-name .username@data-user-id",
	"time_unix":        ".message-attribution-main time@data-time || time.u-dt@data-time || time.u-dt@data-timestamp",
	"time":             ".message-attribution-main time@datetime || time.u-dt@datetime",
	"body":             ".message-userContent .bbWrapper",
	"edited":           ".message-lastEdit",
	"remove":           ".bbCodeBlock-expandLink || .js-selectToQuoteEnd",
	"signature":        ".message-signature",
	"quote":            "blockquote.bbCodeBlock--quote",
	"quote_cite":       ".bbCodeBlock-title",
	"quote_author_re":  `^(.+?)\s+(?:said|сказал\(а\)|написал\(а\)):`,
	"quote_post_id":    "@data-source",
	"quote_post_id_re": `(\d+)`,
	"code":             "div.bbCodeBlock--code",
	"code_text":        "code",
	"spoiler":          "div.bbCodeSpoiler",
	"spoiler_title":    ".bbCodeSpoiler-button-title",
	"spoiler_body":     ".bbCodeSpoiler-content",
	// Pagination (the page_nav template): "Prev"/"Next" jumps and the current page's item.
	"page_current": ".pageNav-page--current",
	"prev_page":    "a.pageNav-jump--prev@href",
	"next_page":    "a.pageNav-jump--next@href",
}

// xf2Conversation reads a XenForo 2 conversation page (conversation_message_macros, XenForo
// 2.0.2's templates): article.message--conversationMessage with data-author, the message id on
// its anchor span#convMessage-N (or data-content="convMessage-N"), the same user block, date and
// bbWrapper as a post.
var xf2Conversation = map[string]string{
	"post":             "article.message--conversationMessage",
	"post_id":          "span.u-anchorTarget[id^='convMessage-']@id || @data-content",
	"post_id_re":       `convMessage-(\d+)`,
	"permalink":        "a.message-attribution-main@href || .message-attribution-main a@href",
	"author":           "@data-author",
	"author_id":        ".message-name .username@data-user-id",
	"time_unix":        ".message-attribution-main time@data-time || time.u-dt@data-time || time.u-dt@data-timestamp",
	"time":             ".message-attribution-main time@datetime || time.u-dt@datetime",
	"body":             ".message-body .bbWrapper",
	"remove":           ".bbCodeBlock-expandLink || .js-selectToQuoteEnd",
	"signature":        ".message-signature",
	"quote":            "blockquote.bbCodeBlock--quote",
	"quote_cite":       ".bbCodeBlock-title",
	"quote_author_re":  `^(.+?)\s+(?:said|сказал\(а\)|написал\(а\)):`,
	"quote_post_id":    "@data-source",
	"quote_post_id_re": `(\d+)`,
	"code":             "div.bbCodeBlock--code",
	"code_text":        "code",
	"spoiler":          "div.bbCodeSpoiler",
	"spoiler_title":    ".bbCodeSpoiler-button-title",
	"spoiler_body":     ".bbCodeSpoiler-content",
	"page_current":     ".pageNav-page--current",
	"prev_page":        "a.pageNav-jump--prev@href",
	"next_page":        "a.pageNav-jump--next@href",
}

// XenForo 1 (default style): li.message#post-N, span/abbr.DateTime (title or data-time).
var xf1 = map[string]string{
	"post":             "li.message[id^='post-']",
	"post_id":          "@id",
	"post_id_re":       `post-(\d+)`,
	"permalink":        "a.datePermalink@href",
	"author":           "@data-author",
	"author_id":        ".messageUserInfo a.username@href",
	"author_id_re":     `\.(\d+)/`,
	"time_unix":        ".messageMeta abbr.DateTime@data-time",
	"time":             ".messageMeta span.DateTime@title || .messageMeta .DateTime",
	"body":             "blockquote.messageText",
	"edited":           ".editDate",
	"remove":           ".quoteExpand || .messageTextEndMarker",
	"signature":        ".signature",
	"quote":            "div.bbCodeQuote",
	"quote_cite":       ".attribution",
	"quote_author_re":  `^(.+?)\s+(?:said|сказал\(а\)):`,
	"quote_post_id":    ".attribution a@href",
	"quote_post_id_re": `(?:posts/|id=)(\d+)`,
	"code":             "div.bbCodeCode",
	"code_text":        "pre",
}

// ReadPage reads a parsed XenForo 2 page with table (xf2 or xf2Conversation) overridden by
// cfg.Extra: its posts and pagination. The poster reads every page through it.
func ReadPage(doc *goquery.Document, table map[string]string, cfg forum.Config) (*scrape.Page, error) {
	extra := maps.Clone(table)
	for k, v := range extra {
		if v == "" {
			delete(extra, k)
		}
	}
	maps.Copy(extra, cfg.Extra)
	t, err := scrape.TableFromExtra(extra)
	if err != nil {
		return nil, err
	}
	t.Name = "xenforo"
	o, err := scrape.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return scrape.Extract(doc, t, o)
}

// extract reads a saved XenForo thread page: XenForo 2 markup (html#XF, article.message--post)
// or XenForo 1 (li.message#post-N). cfg.Extra overrides single keys of the table (a theme that
// moved the date, say). A page of neither is forum.ErrMarkupChanged.
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	var base map[string]string
	switch {
	case doc.Find("article.message--post").Length() > 0:
		base = xf2
	case doc.Find("li.message[id^='post-']").Length() > 0:
		base = xf1
	default:
		return nil, fmt.Errorf("xenforo: no XenForo 2 (article.message--post) or 1 (li.message#post-N) posts: %w", forum.ErrMarkupChanged)
	}
	extra := maps.Clone(base)
	maps.Copy(extra, cfg.Extra)
	t, err := scrape.TableFromExtra(extra)
	if err != nil {
		return nil, err
	}
	t.Name = "xenforo"
	o, err := scrape.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	p, err := scrape.Extract(doc, t, o)
	if err != nil {
		return nil, err
	}
	return p.Posts, nil
}
