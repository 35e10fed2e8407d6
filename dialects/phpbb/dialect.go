package phpbb

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes phpBB 3.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "phpbb",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg, options{}) },
		Extract:    Extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		Fingerprints: []forum.Fingerprint{{
			Engine: "phpBB",
			Match: func(m *forum.Markup) []string {
				ev := forum.Evidence(m.GeneratorHas("phpbb"), m.FooterHas("phpbb"))
				if m.Has("div.post[id^=p] div.postbody") && (m.Contains("memberlist.php?mode=viewprofile") || m.Contains("viewtopic.php?")) {
					ev = append(ev, "markup: div.post#pN > div.postbody, memberlist.php profile links")
				}
				// subsilver2 and styles built on it, on boards that took the footer out.
				if m.Has("table.tablebg .postauthor") && m.Has("a[name^=p]") && m.Contains("viewtopic.php?") {
					ev = append(ev, "markup: table.tablebg with .postauthor and a[name=pN] (subsilver2), viewtopic.php links")
				}
				if len(ev) == 0 && m.Contains("phpBB") && m.Contains("viewtopic.php") {
					ev = append(ev, "page text: phpBB, viewtopic.php links")
				}
				return ev
			},
			Version: func(m *forum.Markup) (string, string) {
				theme := m.MostCommon(styleRe)
				switch {
				case m.Has("p.author time[datetime], div.author time[datetime]"):
					return "3.3", theme
				case m.Contains("phpBB Limited") && m.Contains("fa-fw"):
					return "3.2", theme
				case m.Contains("phpBB Limited"):
					return "3.1", theme
				case m.Contains("phpBB Group") || m.Contains("/imageset/") || m.Has("dl.codebox"):
					return "3.0", theme
				}
				return "3", theme
			},
		}},
	}
}

var (
	// threadURLRe names the thread in a thread page's URL (viewtopic.php?t=N).
	threadURLRe = regexp.MustCompile(`[?&]t=(\d+)`)
	styleRe     = regexp.MustCompile(`styles/([A-Za-z0-9_-]+)/`)
)
