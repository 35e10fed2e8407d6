package discourse

import (
	"regexp"

	"forumgm/forum"
)

// Dialect describes Discourse (its JSON API).
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "discourse",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    Extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: PageThread,
		ThreadPath: "/t/",
		Fingerprints: []forum.Fingerprint{{
			Engine:  "Discourse",
			Match:   func(m *forum.Markup) []string { return forum.Evidence(m.GeneratorHas("Discourse")) },
			Version: func(m *forum.Markup) (string, string) { return m.GeneratorVersion(), "" },
		}},
	}
}

// threadURLRe names the thread in a topic's URL: /t/<slug>/<id>[/<post number>] (or /t/<id>).
var threadURLRe = regexp.MustCompile(`/t/(?:[^/?#]*[^/?#\d][^/?#]*/)?(\d+)`)
