package generic

import (
	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes the generic dialect, opened with opt (forumgm passes the real-browser writer,
// dialects/generic/browser): any board whose selectors a configuration gives. Its fingerprints are
// the engines forumgm recognises but reads with none of its dialects yet (`forumgm detect` then
// guesses the generic dialect's selectors from the page).
func Dialect(opt Options) forum.Dialect {
	return forum.Dialect{
		Name:    "generic",
		Open:    opener(opt),
		Extract: scrape.ExtractPage,
		// A page's own thread id is where the config says (thread_id): a config that does not say
		// leaves pages unchecked.
		PageThread: PageThread,
		Fingerprints: []forum.Fingerprint{{
			Engine: "NodeBB",
			Via:    forum.ViaNone,
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(m.GeneratorHas("NodeBB"), forum.When(m.Contains("nodebb") && m.Has("[component='post']"), "markup: [component=post] (NodeBB)"))
			},
		}},
	}
}
