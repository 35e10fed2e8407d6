package fingerprint

import "maps"

// presets are the generic dialect's selectors for engines forumgm has no built-in reader for,
// by engine and major version; each was tried on a real page of that engine (testdata/realboards
// and the tests of this package) except where its comment says otherwise.
var presets = map[string]map[string]string{
	// XenForo 2 (default style): article.message--post, <time data-time> Unix seconds, quotes
	// blockquote.bbCodeBlock--quote with data-source="post: N", "… said:" / "… сказал(а):".
	"XenForo 2": {
		"post":             "article.message--post[data-content^='post-']",
		"post_id":          "@data-content",
		"post_id_re":       `post-(\d+)`,
		"permalink":        ".message-attribution-main a[href*='post']@href || .message-attribution-opposite a[href*='post']@href",
		"author":           "@data-author",
		"author_id":        ".message-name .username@data-user-id",
		"time_unix":        ".message-attribution-main time@data-time || time.u-dt@data-time",
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
	},
	// XenForo 1 (default style): li.message#post-N, span/abbr.DateTime (title or data-time).
	"XenForo 1": {
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
	},
	// Invision Community 4 (default theme): article.ipsComment#elComment_N, <time datetime>. From
	// the theme's documented markup; no real page was found to try it on.
	"Invision Community 4": {
		"post":            "article.ipsComment[id^='elComment_']",
		"post_id":         "@id",
		"post_id_re":      `elComment_(\d+)`,
		"author":          ".cAuthorPane_author a || .cAuthorPane_author",
		"author_id":       ".cAuthorPane_author a@href",
		"author_id_re":    `profile/(\d+)`,
		"time":            ".ipsComment_meta time@datetime",
		"body":            "[data-role='commentContent']",
		"edited":          ".ipsComment_meta strong:contains('Edited')",
		"quote":           "blockquote.ipsQuote",
		"quote_cite":      ".ipsQuote_citation",
		"quote_author_re": `^(.+?)\s+(?:said|сказал\(а\)|написал\(а\)):`,
		"quote_post_id":   "@data-ipsquote-contentcommentid",
		"code":            "pre.ipsCode",
		"spoiler":         "div.ipsSpoiler",
		"spoiler_title":   ".ipsSpoiler_header",
		"spoiler_body":    ".ipsSpoiler_contents",
	},
	// vBulletin 4 (default style): li.postbitlegacy#post_N, span.date "06-15-2016, 03:03 PM".
	"vBulletin 4": {
		"post":             "li[id^='post_'].postcontainer",
		"post_id":          "@id",
		"post_id_re":       `post_(\d+)`,
		"permalink":        "a.postcounter@href",
		"author":           ".username_container .username strong || .username_container .username",
		"author_id":        ".username_container a.username@href",
		"author_id_re":     `(?:u=|member\.php/)(\d+)`,
		"time":             ".postdate .date",
		"time_layout":      "01-02-2006, 03:04 PM",
		"body":             "blockquote.postcontent",
		"edited":           "blockquote.lastedited",
		"quote":            "div.bbcode_container:has(div.bbcode_quote)",
		"quote_cite":       ".bbcode_postedby",
		"quote_author_re":  `(?:Originally Posted by|Сообщение от)\s+(.+?)\s*$`,
		"quote_post_id":    "a[href*='p=']@href",
		"quote_post_id_re": `p=(\d+)`,
		"code":             "div.bbcode_container:has(pre.bbcode_code)",
		"code_text":        "pre.bbcode_code",
	},
}

// Preset is a copy of the generic dialect's selectors for engine at version ("" when there is
// none; the major version picks it).
func Preset(engine, version string) map[string]string {
	major := version
	for i, r := range version {
		if r < '0' || r > '9' {
			major = version[:i]
			break
		}
	}
	if p, ok := presets[engine+" "+major]; ok {
		return maps.Clone(p)
	}
	return nil
}
