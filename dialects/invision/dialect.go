package invision

import (
	"maps"
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes Invision Community 4 (login, replies, the messenger).
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "invision",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		ThreadPath: "/topic/",
		Fingerprints: []forum.Fingerprint{{
			Engine: "Invision Community",
			// The table, tried on a real 4.7 topic (testdata/realboards/invision) and quotes as
			// Invision stores them.
			Presets: map[string]map[string]string{"4": maps.Clone(ips4)},
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(forum.When(m.Has("article.ipsComment, [data-role='commentContent']"), "markup: article.ipsComment"),
					m.FooterHas("Invision"), m.GeneratorHas("Invision"))
			},
			Version: func(m *forum.Markup) (string, string) { return "4", "" },
		}},
	}
}

// threadURLRe names the thread in a thread page's URL (/topic/N-slug/): Invision names the thread
// in the path, the board's base is what comes before.
var threadURLRe = regexp.MustCompile(`/topic/(\d+)`)
