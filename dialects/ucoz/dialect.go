package ucoz

import (
	"maps"
	"regexp"

	"forumgm/forum"
)

// Dialect describes uCoz's forum module (hosted, no version numbers): reading only; a board is
// run with the generic dialect and this package's selector table.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:    "ucoz",
		Extract: extract,
		Fingerprints: []forum.Fingerprint{{
			Engine: "uCoz",
			Via:    forum.ViaGeneric, Reader: true,
			Presets: map[string]map[string]string{"": maps.Clone(preset)},
			Match: func(m *forum.Markup) []string {
				if !m.Has("tr[id^=post] td.posttdMessage, span.ucoz-forum-post") {
					return nil
				}
				return forum.Evidence("markup: tr#postN td.posttdMessage / span.ucoz-forum-post (uCoz forum)",
					forum.When(m.Contains("UCOZ-JS-") || m.Contains(".ucoz.net/"), "script: UCOZ-JS blocks / ucoz.net"),
					m.FooterHas("uCoz"))
			},
			// The forum's design layer (/.s/src/layer7.min.css) stands for the style.
			Version: func(m *forum.Markup) (string, string) { return "", m.MostCommon(layerRe) },
		}},
	}
}

var layerRe = regexp.MustCompile(`/\.s/src/(layer\d+)(?:\.min)?\.css`)
