// Package fingerprint owns recognising which forum engine, and which version of it, rendered a
// page: from the generator meta, the "Powered by" footer and the markup only that engine writes.
// It names the forumgm dialect that reads the engine and, for engines without a built-in dialect,
// proposes the generic dialect's selectors (presets.go).
package detect

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/PuerkitoBio/goquery"
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

// rule recognises one engine.
type rule struct {
	engine, dialect, reader string
	// match reports whether the page is this engine's, with the evidence.
	match func(p *page) []string
	// version reads the version (and theme) once the engine is known.
	version func(p *page) (version, theme string)
}

// page is a parsed page with its raw text.
type page struct {
	doc       *goquery.Document
	raw       string
	generator string
	footer    string // the text of "Powered by …" and copyright lines
}

func (p *page) has(sel string) bool { return p.doc.Find(sel).Length() > 0 }

func (p *page) contains(s string) bool { return strings.Contains(p.raw, s) }

// Identify reads a page (UTF-8 HTML) and says which engine made it.
func Identify(html []byte) Finding {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return Finding{Evidence: []string{"not HTML: " + err.Error()}}
	}
	p := &page{doc: doc, raw: string(html)}
	p.generator = strings.TrimSpace(doc.Find("meta[name='generator' i]").AttrOr("content", ""))
	p.footer = footerText(doc)
	for _, r := range rules {
		ev := r.match(p)
		if len(ev) == 0 {
			continue
		}
		f := Finding{Engine: r.engine, Dialect: r.dialect, Reader: r.reader, Evidence: ev}
		if r.version != nil {
			f.Version, f.Theme = r.version(p)
		}
		if r.dialect == "generic" {
			f.Extra = Preset(r.engine, f.Version)
		}
		return f
	}
	return Finding{Evidence: []string{"no engine's generator meta, footer or markup found"}}
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
	return strings.Join(dedupe(parts), " | ")
}

func dedupe(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func evidence(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// when returns what if ok, else "".
func when(ok bool, what string) string {
	if ok {
		return what
	}
	return ""
}

var (
	genVersionRe = regexp.MustCompile(`(\d+(?:\.\d+)+(?:\s*(?:RC|Beta|Alpha)\s*\d*)?)`)
	// SMF prints "SMF 2.1.4", "SMF 2.0 RC3", and boards' own patch levels ("SMF 2.0.15.10").
	smfVersionRe = regexp.MustCompile(`SMF (\d+\.\d+(?:\.\d+){0,2}(?: RC\d+| Beta \d+)?)`)
	pfVersionRe  = regexp.MustCompile(`(?i)(?:PunBB|FluxBB) (\d+\.\d+(?:\.\d+)?)`)
	mybbVerRe    = regexp.MustCompile(`general\.js\?ver=(\d)(\d)(\d\d)`)
	phpbbStyleRe = regexp.MustCompile(`styles/([A-Za-z0-9_-]+)/`)
	smfThemeRe   = regexp.MustCompile(`Themes/([A-Za-z0-9_-]+)/`)
	fluxStyleRe  = regexp.MustCompile(`style/([A-Za-z0-9_-]+)\.css`)
	ucozLayerRe  = regexp.MustCompile(`/\.s/src/(layer\d+)(?:\.min)?\.css`)
	punStyleRe   = regexp.MustCompile(`style/([A-Za-z0-9_-]+)/[A-Za-z0-9_.-]+\.css`)
	xfVersionRe  = regexp.MustCompile(`^2\.\d+$`)
)

func footerHas(p *page, s string) string {
	if strings.Contains(strings.ToLower(p.footer), strings.ToLower(s)) {
		return "footer: " + clip(p.footer, 100)
	}
	return ""
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func generatorHas(p *page, s string) string {
	if strings.Contains(strings.ToLower(p.generator), strings.ToLower(s)) {
		return `generator meta "` + p.generator + `"`
	}
	return ""
}

// mostCommon is the most frequent first group of re in s.
func mostCommon(re *regexp.Regexp, s string) string {
	n := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		n[m[1]]++
	}
	best := ""
	for k, c := range n {
		if c > n[best] || (c == n[best] && k < best) {
			best = k
		}
	}
	return best
}
