// This file turns the HTML of a forum post into what a reader sees: the author's own
// text, with the top-level quotes, code blocks and spoilers taken out into lists of their own. The
// walk (Render) is shared by the hand-written readers (MyBB, PunBB, SMF) and Discourse's cooked
// HTML; what differs between their markup is a Dialect (the classes, the white-space rules and
// the few readings, such as smileys and quote headers, each engine does its own way), which every
// scraper keeps next to its selectors. The selector-table engine (forum/scrape) finds quotes
// and code its own way and lays its text out with the text type below.
//
// It also holds the small helpers every reader of forum HTML needs: Collapse, AbsURL, HasClass
// and Attr.

package scrape

import (
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
)

// Dialect is how one engine marks up a post body. A zero field means the engine has no such
// thing; the zero Dialect reads plain HTML (<blockquote>, <pre>, <details>).
type Dialect struct {
	// QuoteBoxClass marks a quote box (PunBB's div.quotebox): its first <cite> child is the
	// header, its first <blockquote> child (else the box itself) holds the quoted text. A box
	// whose class mentions "spoiler" is a spoiler instead.
	QuoteBoxClass string
	// CiteInBlockquote: a <blockquote>'s first <cite> child is its header (SMF). Otherwise a bare
	// <blockquote> is a quote that names nobody.
	CiteInBlockquote bool
	// CodeBoxClass marks an element whose verbatim text is a code block (PunBB's div.codebox).
	CodeBoxClass string
	// CodeBodyClass marks the descendant of a code box that holds the code (MyBB's div.body
	// beside the "Code:" title). Empty: the whole box.
	CodeBodyClass string
	// CodeBreaksOnly: only <br> breaks a code line; raw newlines are dropped (MyBB's nl2br leaves
	// one after each <br />). Otherwise raw newlines count too.
	CodeBreaksOnly bool
	// CodeClass marks a <code> element that is a code block (SMF's code.bbc_code).
	CodeClass string
	// SkipClasses mark elements left out altogether: signatures, edit notes, code headers.
	SkipClasses []string
	// CiteTitlesSpoiler: a <cite> child is a spoiler's title, as <summary> always is (PunBB
	// extensions render spoilers as quote boxes).
	CiteTitlesSpoiler bool
	// ParagraphGap: a <p> right after another <p> (outside lists) starts after a blank line, since
	// the engine splits paragraphs at blank lines; next to quotes, code and lists a single line
	// break was typed (PunBB). Otherwise every block starts on a new line.
	ParagraphGap bool
	// NbspInCode: a no-break space in a code block stands for a space (SMF sends runs of spaces
	// as "&nbsp; "). Otherwise code keeps it.
	NbspInCode bool
	// NbspVisible: a no-break space in text is a space that does not collapse (MyBB keeps the
	// author's runs of spaces that way). Otherwise it collapses like any white space.
	NbspVisible bool
	// KeepBreaks: every <br> breaks the line, so the author's blank lines stay as typed (MyBB).
	// Otherwise at most one blank line appears in a row.
	KeepBreaks bool
	// SpoilerClass marks a spoiler box exactly (MyBB's div.spoiler, whose parts spoiler_title and
	// spoiler_content are no spoilers themselves). Empty: any <div> whose class mentions
	// "spoiler", and div.sp-wrap.
	SpoilerClass string
	// NestedQuoteBare: a quote inside a quote or spoiler adds only its text (MyBB). Otherwise its
	// header line comes first.
	NestedQuoteBare bool
	// HrBlankLine: an <hr> (MyBB's [hr], and its separator of auto-merged posts) is an empty
	// line. Otherwise it only starts a new line.
	HrBlankLine bool
	// Smiley is the text an <img> stands for, "" for none. Nil: images add nothing.
	Smiley func(img *html.Node) string
	// QuoteAuthor reads the author out of a quote header's collapsed text. Nil: the header as is.
	QuoteAuthor func(header string) string
	// QuotePostID reads the quoted post's id out of a link's href in the quote header ("" when the
	// link names none). Nil: quotes carry no post id.
	QuotePostID func(href string) string
	// QuoteCite reads the author and the quoted post's id out of the header node itself, for an
	// engine whose header mixes them with other text (MyBB's cite holds the date too). Set, it
	// replaces QuoteAuthor and QuotePostID.
	QuoteCite func(cite *html.Node) (author, postID string)
	// QuoteAttrs reads a quote that names its author and post in attributes of the quote element
	// itself (Discourse's aside.quote with data-username and data-post): ok when n is such a
	// quote, content the node holding the quoted text (a header outside it is left out; nil: n
	// itself). Inside
	// a quote or spoiler the author's name and a colon head its text. Nil: no such quotes.
	QuoteAttrs func(n *html.Node) (author, postID string, content *html.Node, ok bool)
	// PreIsCode: a <pre> is a code block, listed in Code like a code box (Discourse's fenced and
	// indented code). Otherwise a <pre> is verbatim text of the author's own.
	PreIsCode bool
}

// Body is a post body taken apart.
type Body struct {
	Text     string // the author's own text
	Quotes   []forum.Quote
	Code     []string
	Spoilers []forum.Spoiler
}

// Render takes apart the post body held by sel (the body element itself is not rendered, only
// what it holds). At the top level quotes, code blocks and spoilers are taken out into their own
// lists; inside a quote or spoiler everything stays in its text.
func Render(sel *goquery.Selection, d *Dialect) Body {
	var res Body
	w := &walker{d: d, top: true, out: d.builder(), res: &res}
	for _, n := range sel.Nodes {
		w.children(n)
	}
	res.Text = w.out.String()
	return res
}

// Collapse folds runs of white space (no-break spaces included) into one space and trims the ends.
func Collapse(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// AbsURL resolves ref against base; ref as is when base is nil or ref does not parse.
func AbsURL(base *url.URL, ref string) string {
	if base == nil {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// HasClass says whether n's class attribute lists class.
func HasClass(n *html.Node, class string) bool {
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

// Attr is the value of n's attribute key, "" when it has none.
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func classContains(n *html.Node, part string) bool {
	return strings.Contains(strings.ToLower(Attr(n, "class")), part)
}

// text lays out rendered HTML as plain text, for the walkers of this package and of scrapers that
// find their quotes and code their own way (forum/scrape's selector tables): runs of white
// space collapse to one space (HTML rendering), Break and block boundaries become line breaks (at
// most one blank line in a row unless KeepBreaks), and verbatim blocks (code, pre) are copied
// byte for byte on lines of their own. The zero text is ready to use.
type text struct {
	b       strings.Builder
	pending int  // line breaks owed before the next visible text
	space   bool // a space is owed before the next visible text

	NbspVisible bool // a no-break space is a visible space (Dialect.NbspVisible)
	KeepBreaks  bool // every Break breaks the line (Dialect.KeepBreaks)
}

func (t *text) trailingNewlines() int {
	s := t.b.String()
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\n'; i-- {
		n++
	}
	return n
}

// flush writes the owed line breaks, capped so that at most one blank line appears.
func (t *text) flush() {
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

// Write adds rendered text: white space collapses, and a space at the start of a line vanishes.
func (t *text) Write(s string) {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || (r == '\u00a0' && !t.NbspVisible) {
			t.space = true
			continue
		}
		if r == '\u00a0' {
			r = ' '
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

// Break is a <br>: the line ends here (a break at the very start adds nothing).
func (t *text) Break() {
	t.space = false
	if t.b.Len() == 0 {
		return
	}
	t.flush()
	if t.KeepBreaks || t.trailingNewlines() < 2 {
		t.b.WriteByte('\n')
	}
}

// Block makes what follows start on a new line (n=1) or after a blank line (n=2).
func (t *text) Block(n int) {
	if n > t.pending {
		t.pending = n
	}
	t.space = false
}

// Verbatim writes a code or preformatted block as it is, on lines of its own (trailing line
// breaks dropped; a block of white space only adds nothing).
func (t *text) Verbatim(s string) {
	s = strings.TrimRight(s, "\n")
	if strings.TrimSpace(s) == "" {
		return
	}
	t.Block(1)
	t.flush()
	t.b.WriteString(s)
	t.pending = 1
	t.space = false
}

// String is the text laid out so far, without trailing line breaks.
func (t *text) String() string { return strings.TrimRight(t.b.String(), "\n") }

// walker renders a message body. At the top level quotes, code blocks and spoilers are taken out
// into their own lists; inside a quote everything stays in the quote's text.
type walker struct {
	d         *Dialect
	top       bool
	listDepth int
	out       *text
	res       *Body
}

// inner is a walker for the text of a quote or spoiler.
func (w *walker) inner() *walker {
	return &walker{d: w.d, top: false, out: w.d.builder(), res: w.res}
}

func (d *Dialect) isSpoiler(n *html.Node) bool {
	if n.Data != "div" {
		return false
	}
	if d.SpoilerClass != "" {
		return HasClass(n, d.SpoilerClass)
	}
	return classContains(n, "spoiler") || HasClass(n, "sp-wrap")
}

// builder is a text with the dialect's white-space rules.
func (d *Dialect) builder() *text {
	return &text{NbspVisible: d.NbspVisible, KeepBreaks: d.KeepBreaks}
}

func (w *walker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

func (w *walker) skipped(n *html.Node) bool {
	for _, class := range w.d.SkipClasses {
		if HasClass(n, class) {
			return true
		}
	}
	return false
}

func (w *walker) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.out.Write(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	d := w.d
	if d.QuoteAttrs != nil {
		if author, postID, content, ok := d.QuoteAttrs(n); ok {
			if content == nil {
				content = n
			}
			header := ""
			if author != "" {
				header = author + ":"
			}
			w.quoteBody(header, author, postID, content, nil)
			return
		}
	}
	switch n.Data {
	case "script", "style", "noscript", "input", "button", "textarea", "select":
		return
	case "br":
		w.out.Break()
		return
	case "hr":
		if d.HrBlankLine {
			w.out.Block(1)
			w.out.flush()
			w.out.Break()
			return
		}
	case "img":
		if d.Smiley != nil {
			w.out.Write(d.Smiley(n))
		}
		return
	case "code":
		if d.CodeClass != "" && HasClass(n, d.CodeClass) {
			w.code(n)
			return
		}
	case "pre":
		if d.PreIsCode {
			w.code(n)
			return
		}
		w.out.Verbatim(w.verbatimText(n))
		return
	case "details":
		w.spoiler(n)
		return
	case "blockquote":
		var cite *html.Node
		if d.CiteInBlockquote {
			cite = firstChild(n, "cite")
		}
		w.quote(cite, n)
		return
	}
	switch {
	case d.QuoteBoxClass != "" && HasClass(n, d.QuoteBoxClass) && !classContains(n, "spoiler"):
		content := firstChild(n, "blockquote")
		if content == nil {
			content = n
		}
		w.quote(firstChild(n, "cite"), content)
		return
	case d.CodeBoxClass != "" && HasClass(n, d.CodeBoxClass):
		w.code(n)
		return
	case w.skipped(n):
		return
	case d.isSpoiler(n):
		w.spoiler(n)
		return
	}
	switch n.Data {
	case "p":
		gap := 1
		if prev := prevElement(n); d.ParagraphGap && prev != nil && prev.Data == "p" && w.listDepth == 0 {
			gap = 2
		}
		w.out.Block(gap)
		w.children(n)
		w.out.Block(1)
	case "ul", "ol", "dl":
		w.out.Block(1)
		w.listDepth++
		w.children(n)
		w.listDepth--
		w.out.Block(1)
	case "div", "li", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dt", "dd", "center":
		w.out.Block(1)
		w.children(n)
		w.out.Block(1)
	case "td", "th":
		w.out.space = true
		w.children(n)
		w.out.space = true
	default:
		w.children(n)
	}
}

// firstChild is n's first child element with the tag, nil when there is none.
func firstChild(n *html.Node, tag string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag {
			return c
		}
	}
	return nil
}

// findClass is the first descendant element of n with the class, nil when there is none.
func findClass(n *html.Node, class string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if HasClass(c, class) {
			return c
		}
		if f := findClass(c, class); f != nil {
			return f
		}
	}
	return nil
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

// verbatimText is the text of a code block as typed: <br> is a line break, carriage returns go.
func (w *walker) verbatimText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				s := c.Data
				if w.d.NbspInCode {
					s = strings.ReplaceAll(s, "\u00a0", " ")
				}
				s = strings.ReplaceAll(s, "\r", "")
				if w.d.CodeBreaksOnly {
					s = strings.ReplaceAll(s, "\n", "")
				}
				b.WriteString(s)
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
	if w.d.CodeBodyClass != "" {
		if body := findClass(n, w.d.CodeBodyClass); body != nil {
			n = body
		}
	}
	s := strings.TrimRight(w.verbatimText(n), "\n")
	if w.top && strings.TrimSpace(s) != "" {
		w.res.Code = append(w.res.Code, s)
	}
	w.out.Verbatim(s)
}

// quote handles a quote: cite is its header (nil when the quote names nobody), content the node
// holding the quoted text (the header, when inside it, is left out of the text).
func (w *walker) quote(cite, content *html.Node) {
	header, postID, author := "", "", ""
	if cite != nil && w.d.QuoteCite != nil {
		author, postID = w.d.QuoteCite(cite)
		header = Collapse(goquery.NewDocumentFromNode(cite).Text())
	} else if cite != nil {
		header = Collapse(goquery.NewDocumentFromNode(cite).Text())
		if w.d.QuotePostID != nil {
			goquery.NewDocumentFromNode(cite).Find("a[href]").EachWithBreak(func(_ int, a *goquery.Selection) bool {
				postID = w.d.QuotePostID(a.AttrOr("href", ""))
				return postID == ""
			})
		}
	}
	if w.d.QuoteCite == nil {
		author = header
		if w.d.QuoteAuthor != nil {
			author = w.d.QuoteAuthor(header)
		}
	}
	w.quoteBody(header, author, postID, content, cite)
}

// quoteBody renders a quote whose header line, author and post are known: content holds the
// quoted text, skip (when not nil) is a child of content left out (the header inside it).
func (w *walker) quoteBody(header, author, postID string, content, skip *html.Node) {
	render := func(into *walker) {
		for c := content.FirstChild; c != nil; c = c.NextSibling {
			if c != skip {
				into.node(c)
			}
		}
	}
	if !w.top {
		// A quote inside a quote stays in the outer quote's text, header line first.
		w.out.Block(1)
		if header != "" && !w.d.NestedQuoteBare {
			w.out.Write(header)
			w.out.Block(1)
		}
		render(w)
		w.out.Block(1)
		return
	}
	inner := w.inner()
	render(inner)
	w.res.Quotes = append(w.res.Quotes, forum.Quote{Author: author, PostID: postID, Text: inner.out.String()})
	w.out.Block(1)
}

func (w *walker) spoiler(n *html.Node) {
	title := ""
	inner := w.inner()
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && title == "" && (c.Data == "summary" || (c.Data == "cite" && w.d.CiteTitlesSpoiler) ||
			classContains(c, "spoiler_head") || classContains(c, "spoiler_title") || classContains(c, "sp-head")) {
			title = Collapse(goquery.NewDocumentFromNode(c).Text())
			continue
		}
		inner.node(c)
	}
	if !w.top {
		w.out.Block(1)
		w.out.Write(title)
		w.out.Block(1)
		w.out.Write(inner.out.String())
		w.out.Block(1)
		return
	}
	w.res.Spoilers = append(w.res.Spoilers, forum.Spoiler{Title: title, Text: inner.out.String()})
	w.out.Block(1)
}
