package xenforo

import (
	"maps"
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes XenForo: version 2 has the full dialect (login, replies, conversations);
// version 1 is run with the generic dialect and this package's XenForo 1 table, its saved pages
// read by this package.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "xenforo",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		ThreadPath: "/threads/",
		Fingerprints: []forum.Fingerprint{{
			Engine:  "XenForo",
			Presets: map[string]map[string]string{"2": maps.Clone(xf2)},
			Match: func(m *forum.Markup) []string {
				if !m.Has("html#XF") && !m.Has("article.message--post") {
					return nil
				}
				return forum.Evidence(forum.When(m.Has("html#XF"), "markup: html#XF (XenForo 2)"),
					forum.When(m.Has("article.message--post"), "markup: article.message--post (XenForo 2)"), m.FooterHas("XenForo"))
			},
			// 2.3 writes its major.minor into html#XF's data-xf; 2.0–2.2 do not.
			Version: func(m *forum.Markup) (string, string) {
				if v := m.Doc.Find("html#XF").AttrOr("data-xf", ""); versionRe.MatchString(v) {
					return v, ""
				}
				return "2", ""
			},
		}, {
			Engine: "XenForo",
			Via:    forum.ViaGeneric, Reader: true,
			Presets: map[string]map[string]string{"1": maps.Clone(xf1)},
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(forum.When(m.Has("html#XenForo"), "markup: html#XenForo (XenForo 1)"), m.FooterHas("XenForo"))
			},
			Version: func(m *forum.Markup) (string, string) { return "1", "" },
		}},
	}
}

var (
	// threadURLRe names the thread in a thread page's URL (/threads/slug.N/): XenForo names the
	// thread in the path, the board's base is what comes before.
	threadURLRe = regexp.MustCompile(`/threads/(?:[^/?#]*\.)?(\d+)`)
	versionRe   = regexp.MustCompile(`^2\.\d+$`)
)
