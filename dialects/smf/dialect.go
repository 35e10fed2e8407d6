package smf

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes Simple Machines Forum 2.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "smf",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		Fingerprints: []forum.Fingerprint{{
			Engine: "SMF",
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(
					forum.When(m.Contains("var smf_scripturl") || m.Contains("var smf_theme_url"), "script: smf_scripturl / smf_theme_url"),
					m.FooterHas("SMF"), m.GeneratorHas("SMF"))
			},
			Version: func(m *forum.Markup) (string, string) {
				theme := m.MostCommon(themeRe)
				if v := versionRe.FindStringSubmatch(m.Footer + " " + m.Generator); v != nil {
					return v[1], theme
				}
				if m.Has("div.windowbg[id^=msg]") {
					return "2.1", theme
				}
				if m.Has("div.inner[id^=msg_]") {
					return "2.0", theme
				}
				return "2", theme
			},
		}},
	}
}

var (
	// threadURLRe names the thread in a thread page's URL (index.php?topic=N.0, /topic,N.0.html).
	threadURLRe = regexp.MustCompile(`[?&;]topic=(\d+)|/topic,(\d+)`)
	// SMF prints "SMF 2.1.4", "SMF 2.0 RC3", and boards' own patch levels ("SMF 2.0.15.10").
	versionRe = regexp.MustCompile(`SMF (\d+\.\d+(?:\.\d+){0,2}(?: RC\d+| Beta \d+)?)`)
	themeRe   = regexp.MustCompile(`Themes/([A-Za-z0-9_-]+)/`)
)
