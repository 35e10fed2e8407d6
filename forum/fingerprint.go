package forum

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// Fingerprint recognises the pages of one engine (a dialect may read several: PunBB and FluxBB)
// from its generator meta, its "Powered by" footer and the markup only it writes, and says which
// dialect runs the engine. dialects/detect tries the fingerprints of every dialect in order.
type Fingerprint struct {
	Engine string // "phpBB", "FluxBB", "XenForo", …
	// Match is the evidence that the page is this engine's; none: it is not.
	Match func(m *Markup) (evidence []string)
	// Version reads the version (and theme) once the engine is known; nil: none told.
	Version func(m *Markup) (version, theme string)
	Via     Via
	// Reader (Via Generic): the fingerprint's own dialect reads the engine's saved pages
	// (`forumgm posts --dialect <it>`) although it does not write to the engine.
	Reader bool
	// Presets are the generic dialect's selectors for the engine, by major version ("" for an
	// engine without versions).
	Presets map[string]map[string]string
}

// Via says which dialect runs a fingerprint's engine.
type Via int

const (
	// ViaOwn: the fingerprint's own dialect reads and writes the engine.
	ViaOwn Via = iota
	// ViaGeneric: the generic dialect, with the fingerprint's Presets.
	ViaGeneric
	// ViaNone: no dialect reads the engine yet.
	ViaNone
)

// Markup is a parsed page as fingerprints read it: the document, its raw text, its generator
// meta and its "Powered by" and copyright lines.
type Markup struct {
	Doc       *goquery.Document
	Raw       string
	Generator string
	Footer    string // the text of "Powered by …" and copyright lines
}

// ParseMarkup parses a page (UTF-8 HTML) for fingerprints.
func ParseMarkup(html []byte) (*Markup, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return nil, err
	}
	m := &Markup{Doc: doc, Raw: string(html)}
	m.Generator = strings.TrimSpace(doc.Find("meta[name='generator' i]").AttrOr("content", ""))
	m.Footer = footerText(doc)
	return m, nil
}

// Has reports whether an element matches the selector.
func (m *Markup) Has(selector string) bool { return m.Doc.Find(selector).Length() > 0 }

// Contains reports whether the page's raw text holds s.
func (m *Markup) Contains(s string) bool { return strings.Contains(m.Raw, s) }

// FooterHas is the evidence "footer: …" when the footer holds s (any case), else "".
func (m *Markup) FooterHas(s string) string {
	if strings.Contains(strings.ToLower(m.Footer), strings.ToLower(s)) {
		return "footer: " + clip(m.Footer, 100)
	}
	return ""
}

// GeneratorHas is the evidence `generator meta "…"` when the generator meta holds s (any case),
// else "".
func (m *Markup) GeneratorHas(s string) string {
	if strings.Contains(strings.ToLower(m.Generator), strings.ToLower(s)) {
		return `generator meta "` + m.Generator + `"`
	}
	return ""
}

var generatorVersionRe = regexp.MustCompile(`(\d+(?:\.\d+)+(?:\s*(?:RC|Beta|Alpha)\s*\d*)?)`)

// GeneratorVersion is the version number the generator meta gives ("4.2.5", "3.2.0 Beta 1"),
// or "".
func (m *Markup) GeneratorVersion() string {
	if v := generatorVersionRe.FindStringSubmatch(m.Generator); v != nil {
		return v[1]
	}
	return ""
}

// MostCommon is the most frequent first group of re in the page's raw text (the theme's folder
// in its style sheets' paths, say).
func (m *Markup) MostCommon(re *regexp.Regexp) string {
	n := map[string]int{}
	for _, g := range re.FindAllStringSubmatch(m.Raw, -1) {
		n[g[1]]++
	}
	best := ""
	for k, c := range n {
		if c > n[best] || (c == n[best] && k < best) {
			best = k
		}
	}
	return best
}

// Evidence keeps the non-empty parts.
func Evidence(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// When is what if ok, else "".
func When(ok bool, what string) string {
	if ok {
		return what
	}
	return ""
}

var poweredRe = regexp.MustCompile(`(?i)(powered by|©|&copy;|copyright|форум работает на|работает на|под управлением)`)

func footerText(doc *goquery.Document) string {
	var parts []string
	doc.Find("p, div, span, li, small, td, footer").Each(func(_ int, s *goquery.Selection) {
		if s.Children().Length() > 6 {
			return
		}
		t := strings.Join(strings.Fields(s.Text()), " ")
		if len(t) < 300 && poweredRe.MatchString(t) {
			parts = append(parts, t)
		}
	})
	sort.Strings(parts)
	return strings.Join(slices.Compact(parts), " | ")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
