package punbb

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes PunBB 1.2–1.4 and FluxBB, its fork.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "punbb",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		Fingerprints: []forum.Fingerprint{{
			Engine: "FluxBB",
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(m.FooterHas("FluxBB"), m.GeneratorHas("FluxBB"))
			},
			Version: func(m *forum.Markup) (string, string) {
				theme := m.MostCommon(fluxStyleRe)
				if v := versionRe.FindStringSubmatch(m.Footer); v != nil {
					return v[1], theme
				}
				switch {
				case m.Has("div.incqbox, div.scrollbox") || !m.Has("#poweredby") && m.Has("#brdfooter"):
					// FluxBB 1.2 (= PunBB 1.2): quotes and code in div.incqbox, "Powered by" in p.conr.
					return "1.2", theme
				case m.Has("head link[rel='canonical'], ul.crumbs li > strong > a") || !m.Contains("Top Corners"):
					// 1.5.1+ put the breadcrumb's topic link in <strong>; 1.5.8+ add the canonical link
					// and drop the "Top Corners" comment. 1.4.x and 1.5.0 write the same topic page.
					return "1.5", theme
				}
				return "1.4-1.5", theme
			},
		}, {
			Engine: "PunBB",
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(m.FooterHas("PunBB"), m.GeneratorHas("PunBB"),
					forum.When(m.Has("#brd-wrap div.main-topic, #punviewtopic div.blockpost"), "markup: PunBB topic (div.main-topic / div.blockpost)"))
			},
			Version: func(m *forum.Markup) (string, string) {
				theme := m.MostCommon(fluxStyleRe)
				if theme == "" {
					theme = m.MostCommon(punStyleRe) // 1.3/1.4: style/Oxygen/Oxygen.css
				}
				if v := versionRe.FindStringSubmatch(m.Footer); v != nil {
					return v[1], theme
				}
				switch {
				case m.Has("div.main-topic") && m.Contains("XHTML 1.0"):
					return "1.3", theme // 1.3 writes 1.4's markup under an XHTML doctype (1.4: <!DOCTYPE html>)
				case m.Has("div.main-topic"):
					return "1.4", theme
				}
				return "1.2", theme // div.blockpost: 1.3 already has div.main-topic
			},
		}},
	}
}

var (
	// threadURLRe names the thread in a thread page's URL (viewtopic.php?id=N).
	threadURLRe = regexp.MustCompile(`[?&]id=(\d+)`)
	versionRe   = regexp.MustCompile(`(?i)(?:PunBB|FluxBB) (\d+\.\d+(?:\.\d+)?)`)
	fluxStyleRe = regexp.MustCompile(`style/([A-Za-z0-9_-]+)\.css`)
	punStyleRe  = regexp.MustCompile(`style/([A-Za-z0-9_-]+)/[A-Za-z0-9_.-]+\.css`)
)
