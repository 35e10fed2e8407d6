package vbulletin5

import (
	"maps"

	"forumgm/forum"
)

// Dialect describes vBulletin: version 5 pages are read by this package (reading only); every
// version is run with the generic dialect and the table of its major version (vb5, vb4), when
// one is known.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:    "vbulletin5",
		Extract: Extract,
		Fingerprints: []forum.Fingerprint{{
			Engine:  "vBulletin",
			Via:     forum.ViaGeneric,
			Presets: map[string]map[string]string{"4": maps.Clone(vb4), "5": maps.Clone(vb5)},
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(m.GeneratorHas("vBulletin"), m.FooterHas("vBulletin"))
			},
			Version: func(m *forum.Markup) (string, string) { return m.GeneratorVersion(), "" },
		}},
	}
}

// vb4 is vBulletin 4 (default style and those built on it, legacy and side-by-side postbits) for
// the generic dialect, tried on real pages (testdata/realboards/generic and dialects/detect's
// tests): li.postcontainer#post_N, span.date "06-15-2016, 03:03 PM" (a board may show the day
// first, "30-09-2012, 01:13 PM": the page's dates settle which), profile links member.php?u=N,
// member.php/N-name or members/N-name/ (friendly URLs), the quoted author in the cite's <strong>
// whatever the language's wording, the quoted post in its link (?p=N, or #postN where a saved
// copy dropped the query).
var vb4 = map[string]string{
	"post":             "li[id^='post_'].postcontainer",
	"post_id":          "@id",
	"post_id_re":       `post_(\d+)`,
	"permalink":        "a.postcounter@href",
	"author":           ".username_container .username strong || .username_container .username",
	"author_id":        ".username_container a.username@href",
	"author_id_re":     `(?:u=|member\.php/|members/)(\d+)`,
	"time":             ".postdate .date",
	"time_layout":      "01-02-2006, 03:04 PM || 02-01-2006, 03:04 PM",
	"body":             "blockquote.postcontent",
	"edited":           "blockquote.lastedited",
	"quote":            "div.bbcode_container:has(div.bbcode_quote)",
	"quote_cite":       ".bbcode_postedby",
	"quote_author_re":  `(?:Originally Posted by|Сообщение от)\s+(.+?)\s*$`,
	"quote_author":     ".bbcode_postedby strong",
	"quote_post_id":    "a[href*='p=']@href || a[href*='#post']@href",
	"quote_post_id_re": `(?:p=|#post)(\d+)`,
	// [CODE] is pre.bbcode_code; [PHP] and [HTML] are div.bbcode_code (highlighted).
	"code":      "div.bbcode_container:has(.bbcode_code):not(:has(div.bbcode_quote))",
	"code_text": ".bbcode_code",
}
