package punbb

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
)

// textBuilder turns rendered HTML into plain text: runs of whitespace collapse to one space (HTML
// rendering), <br> and block boundaries become line breaks (at most one blank line in a row),
// and verbatim blocks (code, pre) are copied byte for byte on lines of their own.
type textBuilder struct {
	b       strings.Builder
	pending int  // line breaks owed before the next visible text
	space   bool // a space is owed before the next visible text
}

func (t *textBuilder) trailingNewlines() int {
	s := t.b.String()
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\n'; i-- {
		n++
	}
	return n
}

// flush writes the owed line breaks, capped so that at most one blank line appears.
func (t *textBuilder) flush() {
	if t.b.Len() == 0 {
		t.pending = 0
		return
	}
	if t.pending > 2 {
		t.pending = 2
	}
	for have := t.trailingNewlines(); have < t.pending; have++ {
		t.b.WriteByte('\n')
	}
	t.pending = 0
}

func (t *textBuilder) text(s string) {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0' {
			t.space = true
			continue
		}
		if t.pending > 0 {
			t.flush()
			t.space = false
		}
		if t.space && t.b.Len() > 0 && t.trailingNewlines() == 0 {
			t.b.WriteByte(' ')
		}
		t.space = false
		t.b.WriteRune(r)
	}
}

func (t *textBuilder) br() {
	t.space = false
	if t.b.Len() == 0 {
		return
	}
	t.flush()
	if t.trailingNewlines() < 2 {
		t.b.WriteByte('\n')
	}
}

func (t *textBuilder) block(n int) {
	if n > t.pending {
		t.pending = n
	}
	t.space = false
}

// verbatim writes a code or preformatted block on lines of its own.
func (t *textBuilder) verbatim(s string) {
	s = strings.TrimRight(s, "\n")
	if strings.TrimSpace(s) == "" {
		return
	}
	t.block(1)
	t.flush()
	t.b.WriteString(s)
	t.pending = 1
	t.space = false
}

func (t *textBuilder) String() string { return strings.TrimRight(t.b.String(), "\n") }

// body is what a message body holds once taken apart.
type body struct {
	text     string
	quotes   []forum.Quote
	code     []string
	spoilers []forum.Spoiler
}

// walker renders a message body. At the top level quotes, code blocks and spoilers are taken out
// into their own lists; inside a quote everything stays in the quote's text.
type walker struct {
	top       bool
	listDepth int
	out       *textBuilder
	res       *body
}

func renderBody(sel *goquery.Selection) body {
	var res body
	w := &walker{top: true, out: &textBuilder{}, res: &res}
	for _, n := range sel.Nodes {
		w.children(n)
	}
	res.text = w.out.String()
	return res
}

func (w *walker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, f := range strings.Fields(a.Val) {
				if f == class {
					return true
				}
			}
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func classContains(n *html.Node, part string) bool {
	return strings.Contains(strings.ToLower(attr(n, "class")), part)
}

// smileys maps PunBB's smiley images (img/smilies/<name>.png) back to the text typed.
var smileys = map[string]string{
	"smile": ":)", "neutral": ":|", "sad": ":(", "big_smile": ":D", "yikes": ":o", "wink": ";)",
	"hmm": ":/", "tongue": ":P", "lol": ":lol:", "mad": ":mad:", "roll": ":rolleyes:", "cool": ":cool:",
}

func smileyText(n *html.Node) string {
	src := attr(n, "src")
	if !strings.Contains(src, sel.smileyPath) {
		return ""
	}
	name := src[strings.LastIndex(src, "/")+1:]
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[:i]
	}
	if s, ok := smileys[name]; ok {
		return s
	}
	return attr(n, "alt")
}

func (w *walker) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.out.text(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	switch n.Data {
	case "script", "style", "noscript", "input", "button", "textarea", "select":
		return
	case "br":
		w.out.br()
		return
	case "img":
		w.out.text(smileyText(n))
		return
	case "pre":
		w.out.verbatim(verbatimText(n))
		return
	case "details":
		w.spoiler(n)
		return
	case "blockquote":
		// A bare blockquote (no quotebox around it) is still a quote.
		w.quote(n, nil, n)
		return
	}
	switch {
	case hasClass(n, sel.quoteBoxClass) && !classContains(n, "spoiler"):
		var cite, bq *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "cite" && cite == nil {
				cite = c
			}
			if c.Type == html.ElementNode && c.Data == "blockquote" && bq == nil {
				bq = c
			}
		}
		if bq == nil {
			bq = n
		}
		w.quote(n, cite, bq)
		return
	case hasClass(n, sel.codeBoxClass):
		w.code(n)
		return
	case hasClass(n, sel.signatureClass), hasClass(n, "postedit"), hasClass(n, "sig-line"):
		return
	case (classContains(n, "spoiler") || hasClass(n, "sp-wrap")) && n.Data == "div":
		w.spoiler(n)
		return
	}
	switch n.Data {
	case "p":
		// PunBB splits paragraphs at blank lines: only a paragraph that follows another one
		// starts after a blank line; next to quotes, code and lists a single break was typed.
		n2 := 1
		if prev := prevElement(n); prev != nil && prev.Data == "p" && w.listDepth == 0 {
			n2 = 2
		}
		w.out.block(n2)
		w.children(n)
		w.out.block(1)
	case "ul", "ol", "dl":
		w.out.block(1)
		w.listDepth++
		w.children(n)
		w.listDepth--
		w.out.block(1)
	case "div", "li", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dt", "dd", "center":
		w.out.block(1)
		w.children(n)
		w.out.block(1)
	case "td", "th":
		w.out.space = true
		w.children(n)
		w.out.space = true
	default:
		w.children(n)
	}
}

func prevElement(n *html.Node) *html.Node {
	for c := n.PrevSibling; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return c
		}
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return nil
		}
	}
	return nil
}

// verbatimText is the text of a code block exactly as typed: PunBB sends it in <pre>.
func verbatimText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(strings.ReplaceAll(c.Data, "\r", ""))
			case html.ElementNode:
				if c.Data == "br" {
					b.WriteByte('\n')
					continue
				}
				rec(c)
			}
		}
	}
	rec(n)
	return b.String()
}

func (w *walker) code(n *html.Node) {
	s := strings.TrimRight(verbatimText(n), "\n")
	if w.top && strings.TrimSpace(s) != "" {
		w.res.code = append(w.res.code, s)
	}
	w.out.verbatim(s)
}

// quoteHead reads the author out of a quote header ("snovaya wrote:", Russian "snovaya писал(а):").
var quoteHead = regexp.MustCompile(`^(?s)\s*(.*?)\s*(?:wrote|писал\(а\)|писала|писал|пишет|написал\(а\)|написал|написала|сказал|цитата)?\s*:?\s*$`)

func quoteAuthor(cite string) string {
	m := quoteHead.FindStringSubmatch(cite)
	if m == nil {
		return strings.TrimSpace(cite)
	}
	return strings.TrimSpace(m[1])
}

// quote handles a quote box: cite is its header (nil when the quote names nobody), content the
// node holding the quoted text.
func (w *walker) quote(box, cite, content *html.Node) {
	citeText := ""
	if cite != nil {
		citeText = collapse(goquery.NewDocumentFromNode(cite).Text())
	}
	render := func(into *walker) {
		for c := content.FirstChild; c != nil; c = c.NextSibling {
			if c != cite {
				into.node(c)
			}
		}
	}
	if !w.top {
		// A quote inside a quote stays in the outer quote's text, header line first.
		w.out.block(1)
		if citeText != "" {
			w.out.text(citeText)
			w.out.block(1)
		}
		render(w)
		w.out.block(1)
		return
	}
	inner := &walker{top: false, out: &textBuilder{}, res: w.res}
	render(inner)
	w.res.quotes = append(w.res.quotes, forum.Quote{Author: quoteAuthor(citeText), Text: inner.out.String()})
	w.out.block(1)
}

func (w *walker) spoiler(n *html.Node) {
	title := ""
	inner := &walker{top: false, out: &textBuilder{}, res: w.res}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == "summary" || c.Data == "cite" || classContains(c, "spoiler_head") || classContains(c, "sp-head")) && title == "" {
			title = collapse(goquery.NewDocumentFromNode(c).Text())
			continue
		}
		inner.node(c)
	}
	if !w.top {
		w.out.block(1)
		w.out.text(title)
		w.out.block(1)
		w.out.text(inner.out.String())
		w.out.block(1)
		return
	}
	w.res.spoilers = append(w.res.spoilers, forum.Spoiler{Title: title, Text: inner.out.String()})
	w.out.block(1)
}

func collapse(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

var pidRe = regexp.MustCompile(`[?&]pid=(\d+)`)

func pidFromHref(href string) string {
	if m := pidRe.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

var idRe = regexp.MustCompile(`[?&]id=(\d+)`)

func idFromHref(href string) string {
	if m := idRe.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

func absURL(base *url.URL, ref string) string {
	if base == nil {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}
