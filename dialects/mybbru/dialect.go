package mybbru

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes MyBB.ru (and the rusff and forum24 hostings): PunBB's markup under
// #pun-main, so package dialects tries its fingerprint before PunBB's.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "mybbru",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg, options{}) },
		Extract:    extract,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		Fingerprints: []forum.Fingerprint{{
			Engine: "MyBB.ru",
			Match: func(m *forum.Markup) []string {
				if !m.Has("body#pun-viewtopic, #pun-main") {
					return nil
				}
				return forum.Evidence("markup: #pun-main / body#pun-viewtopic (MyBB.ru, rusff, forum24 hosting)",
					m.FooterHas("mybb.ru"), m.FooterHas("rusff"))
			},
		}},
	}
}

// threadURLRe names the thread in a thread page's URL (viewtopic.php?id=N).
var threadURLRe = regexp.MustCompile(`[?&]id=(\d+)`)
