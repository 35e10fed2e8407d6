package vbulletin5

import (
	"maps"
	"regexp"

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
				ev := forum.Evidence(m.GeneratorHas("vBulletin"), m.FooterHas("vBulletin"))
				// A custom style may drop the generator meta and the footer; vBulletin 3 and 4's
				// scripts stay. Two of them name the engine.
				if s := scriptMarkers(m); len(ev) > 0 || len(s) >= 2 {
					return append(ev, s...)
				}
				return nil
			},
			Version: func(m *forum.Markup) (string, string) {
				if v := m.GeneratorVersion(); v != "" {
					return v, ""
				}
				return scriptVersion(m), ""
			},
		}},
	}
}

// markers are what vBulletin 3 and 4 write into every page whatever the style: the scripts it
// loads and calls, its session variable, the folder of its stored style sheets (4).
var markers = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`clientscript/vbulletin[-_][a-z0-9_-]+\.js`), "script: clientscript/vbulletin*.js"},
	{regexp.MustCompile(`\bvBulletin_init\(\)`), "script: vBulletin_init()"},
	{regexp.MustCompile(`\bvar SESSIONURL\s*=`), "script: var SESSIONURL"},
	{regexp.MustCompile(`clientscript/vbulletin_css/`), "style sheets: clientscript/vbulletin_css/ (vBulletin 4)"},
}

// scriptMarkers is the evidence of the markers the page holds.
func scriptMarkers(m *forum.Markup) []string {
	var ev []string
	for _, k := range markers {
		if k.re.MatchString(m.Raw) {
			ev = append(ev, "markup: "+k.what)
		}
	}
	return ev
}

// versionRes find the version vBulletin 3 and 4 write into their pages without the dots, best
// first: the SIMPLEVERSION variable, the ?v= of their scripts ("425" is 4.2.5, "3811" 3.8.11).
var versionRes = []*regexp.Regexp{
	regexp.MustCompile(`\bSIMPLEVERSION\s*=\s*"(\d{3,4})"`),
	regexp.MustCompile(`clientscript/vbulletin[-_][a-z0-9_-]+\.js\?v=(\d{3,4})\b`),
}

// scriptVersion is the version the scripts tell ("4.2.5"), or "".
func scriptVersion(m *forum.Markup) string {
	for _, re := range versionRes {
		if g := re.FindStringSubmatch(m.Raw); g != nil {
			return g[1][:1] + "." + g[1][1:2] + "." + g[1][2:]
		}
	}
	return ""
}

// vb4 is vBulletin 4 (default style and those built on it, legacy and side-by-side postbits) for
// the generic dialect, tried on real pages (testdata/realboards/generic and dialects/detect's
// tests): li.postcontainer#post_N, span.date "06-15-2016, 03:03 PM" (a board may show the day
// first, "30-09-2012, 01:13 PM": the page's dates settle which), profile links member.php?u=N,
// member.php/N-name or members/N-name/ (friendly URLs), the quoted author in the cite's <strong>
// whatever the language's wording, the quoted post in its link (?p=N, or #postN where a saved
// copy dropped the query). Tried too on a copy of a real page made like a custom style's
// (testdata/realboards/generic/vbulletin423-custom-airforce.html: no generator meta
// or footer, the time in dl.userinfo_extra).
var vb4 = map[string]string{
	"post":         "li[id^='post_'].postcontainer",
	"post_id":      "@id",
	"post_id_re":   `post_(\d+)`,
	"permalink":    "a.postcounter@href",
	"author":       ".username_container .username strong || .username_container .username",
	"author_id":    ".username_container a.username@href",
	"author_id_re": `(?:u=|member\.php/|members/)(\d+)`,
	// A style may show the time among the author's details instead (a "Date" entry of
	// dl.userinfo_extra): the entry holding a clock time, not "Join Date".
	"time":             ".postdate .date || .userinfo_extra dd",
	"time_re":          ` || (?s)^.*\d:\d\d.*$`,
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
