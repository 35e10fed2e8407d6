// Package detect owns recognising which forum engine, and which version of it, rendered a page:
// it tries the fingerprints every dialect declares (package dialects' order) and names the forumgm
// dialect that reads the engine and, for engines run with the generic dialect, proposes its
// selectors (Preset), or guesses them from the page (Guess).
package detect

import (
	"maps"

	"forumgm/dialects"
	"forumgm/forum"
)

// Finding is what a page says about the engine behind it.
type Finding struct {
	Engine  string `json:"engine"`            // "phpBB", "SMF", "MyBB", "PunBB", "FluxBB", "XenForo", …; "" unknown
	Version string `json:"version,omitempty"` // as precise as the page tells: "3.0", "2.0 RC3", "1.8"
	Theme   string `json:"theme,omitempty"`   // the style/theme when the page names it
	// Dialect is the forumgm dialect that reads the engine: a built-in one, or "generic" with
	// Extra proposing its selectors; "" when nothing is known.
	Dialect string            `json:"dialect,omitempty"`
	Extra   map[string]string `json:"extra,omitempty"`
	// Reader is a built-in page reader for the engine that has no full dialect (login and reply)
	// yet: `forumgm posts --dialect <Reader>` reads its pages.
	Reader string `json:"reader,omitempty"`
	// Evidence lists what the finding rests on, for the person reading it.
	Evidence []string `json:"evidence"`
}

// generic is the name of the dialect run with selectors from the configuration.
const generic = "generic"

// Identify reads a page (UTF-8 HTML) and says which engine made it.
func Identify(html []byte) Finding {
	m, err := forum.ParseMarkup(html)
	if err != nil {
		return Finding{Evidence: []string{"not HTML: " + err.Error()}}
	}
	for _, d := range dialects.All(dialects.Options{}) {
		for _, fp := range d.Fingerprints {
			ev := fp.Match(m)
			if len(ev) == 0 {
				continue
			}
			f := Finding{Engine: fp.Engine, Evidence: ev}
			switch fp.Via {
			case forum.ViaOwn:
				f.Dialect = d.Name
			case forum.ViaGeneric:
				f.Dialect = generic
				if fp.Reader {
					f.Reader = d.Name
				}
			}
			if fp.Version != nil {
				f.Version, f.Theme = fp.Version(m)
			}
			if f.Dialect == generic {
				f.Extra = Preset(fp.Engine, f.Version)
			}
			return f
		}
	}
	return Finding{Evidence: []string{"no engine's generator meta, footer or markup found"}}
}

// Preset is a copy of the generic dialect's selectors for engine at version, from the dialects'
// fingerprints (the major version picks it; an engine without versions has its preset under "");
// nil when none is known. Each was tried on a real page of that engine (testdata/realboards and
// the tests of this package and of the dialect declaring it).
func Preset(engine, version string) map[string]string {
	major := version
	for i, r := range version {
		if r < '0' || r > '9' {
			major = version[:i]
			break
		}
	}
	for _, d := range dialects.All(dialects.Options{}) {
		for _, fp := range d.Fingerprints {
			if p, ok := fp.Presets[major]; ok && fp.Engine == engine {
				return maps.Clone(p)
			}
		}
	}
	return nil
}
