package mybb

import (
	"path"
	"strings"

	"forumgm/forum"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// smilieCodes maps the default MyBB 1.8 smilies (install/resources/mysql_db_inserts.php) from
// their image file to the text the author typed; other smilies come out as their alt text.
var smilieCodes = map[string]string{
	"smile.png": ":)", "wink.png": ";)", "cool.png": ":cool:", "biggrin.png": ":D",
	"tongue.png": ":P", "rolleyes.png": ":rolleyes:", "shy.png": ":shy:", "sad.png": ":(",
	"at.png": ":at:", "angel.png": ":angel:", "angry.png": ":@", "blush.png": ":blush:",
	"confused.png": ":s", "dodgy.png": ":dodgy:", "exclamation.png": ":exclamation:",
	"heart.png": ":heart:", "huh.png": ":huh:", "lightbulb.png": ":idea:", "sleepy.png": ":sleepy:",
	"undecided.png": ":-/", "cry.png": ":cry:", "sick.png": ":sick:", "arrow.png": ":arrow:",
	"my.png": ":my:",
}

// textBuf builds text the way a browser lays it out: runs of white space collapse to one space,
// a space at the start or end of a line vanishes, <br> breaks the line, blocks start on a new
// line. Code is written verbatim.
type textBuf struct {
	b            strings.Builder
	pendingSpace bool // a collapsible space waits for the next visible character
	needLine     bool // a block ended: the next content starts on a new line
	lineStart    bool
}

func newTextBuf() *textBuf { return &textBuf{lineStart: true} }

func (t *textBuf) flushBlock() {
	if t.needLine {
		if !t.lineStart {
			t.b.WriteByte('\n')
			t.lineStart = true
		}
		t.needLine = false
	}
}

// inline writes normal (collapsing) text.
func (t *textBuf) inline(s string) {
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			if !t.lineStart {
				t.pendingSpace = true
			}
		case '\u00a0':
			t.visible(' ')
		default:
			t.visible(r)
		}
	}
}

// visible writes one visible character (or a non-breaking space).
func (t *textBuf) visible(r rune) {
	t.flushBlock()
	if t.pendingSpace {
		t.b.WriteByte(' ')
		t.pendingSpace = false
	}
	t.b.WriteRune(r)
	t.lineStart = false
}

// verbatim writes code text: MyBB's nl2br leaves a "\n" after each <br />, so raw newlines are
// dropped and <br> alone breaks the line; &nbsp; becomes a space; nothing collapses.
func (t *textBuf) verbatim(s string) {
	for _, r := range s {
		switch r {
		case '\n', '\r':
		case '\u00a0':
			t.raw(' ')
		default:
			t.raw(r)
		}
	}
}

func (t *textBuf) raw(r rune) {
	t.flushBlock()
	t.pendingSpace = false
	t.b.WriteRune(r)
	t.lineStart = false
}

func (t *textBuf) lineBreak() {
	t.needLine = false
	t.pendingSpace = false
	t.b.WriteByte('\n')
	t.lineStart = true
}

// block makes the next content start on a fresh line.
func (t *textBuf) block() {
	t.pendingSpace = false
	if !t.lineStart {
		t.needLine = true
	}
}

func (t *textBuf) String() string {
	return strings.Trim(t.b.String(), "\n")
}

// bodyParts is a post body split into the author's own text and the parts kept apart.
type bodyParts struct {
	text     string
	code     []string
	quotes   []forum.Quote
	spoilers []forum.Spoiler
}

// renderBody splits a post body node into own text, code blocks, quotes and spoilers.
func renderBody(body *html.Node) bodyParts {
	var p bodyParts
	t := newTextBuf()
	walk(body, t, &p, true)
	p.text = t.String()
	return p
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, c := range strings.Fields(a.Val) {
				if c == class {
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

// walk renders the children of n into t. top is true for the author's own text (quotes,
// spoilers and code go to p); inside a quote or spoiler everything stays in the text.
func walk(n *html.Node, t *textBuf, p *bodyParts, top bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		node(c, t, p, top)
	}
}

func node(c *html.Node, t *textBuf, p *bodyParts, top bool) {
	switch c.Type {
	case html.TextNode:
		t.inline(c.Data)
		return
	case html.ElementNode:
	default:
		return // comments, doctype
	}
	switch c.DataAtom {
	case atom.Script, atom.Style, atom.Input, atom.Textarea, atom.Select, atom.Button:
		return
	case atom.Br:
		t.lineBreak()
		return
	case atom.Hr:
		// [hr] (also the separator MyBB puts between auto-merged posts): an empty line.
		t.block()
		t.flushBlock()
		t.lineBreak()
		return
	case atom.Img:
		if hasClass(c, "smilie") {
			code := smilieCodes[path.Base(attr(c, "src"))]
			if code == "" {
				code = attr(c, "alt")
			}
			t.inline(code)
		}
		return
	case atom.Blockquote:
		if top && hasClass(c, "mycode_quote") {
			p.quotes = append(p.quotes, renderQuote(c))
			t.block()
			return
		}
		t.block()
		walkQuoteContent(c, t)
		t.block()
		return
	case atom.Div:
		switch {
		case hasClass(c, "codeblock"):
			code := renderCode(c)
			if top {
				p.code = append(p.code, code)
			}
			t.block()
			t.flushBlock()
			for i, line := range strings.Split(code, "\n") {
				if i > 0 {
					t.lineBreak()
				}
				t.verbatim(line)
			}
			t.block()
			return
		case hasClass(c, "spoiler"):
			if top {
				p.spoilers = append(p.spoilers, renderSpoiler(c))
				t.block()
				return
			}
			t.block()
			if sc := findClass(c, "spoiler_content"); sc != nil {
				walk(sc, t, p, false)
			} else {
				walk(c, t, p, false)
			}
			t.block()
			return
		case hasClass(c, "signature"), hasClass(c, "post_edit"), hasClass(c, "edited_post"):
			return
		}
		t.block()
		walk(c, t, p, top)
		t.block()
		return
	case atom.P, atom.Ul, atom.Ol, atom.Li, atom.Table, atom.Tr, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Pre, atom.Center:
		t.block()
		walk(c, t, p, top)
		t.block()
		return
	case atom.Span:
		if hasClass(c, "edited_post") || hasClass(c, "post_edit") {
			return
		}
	}
	walk(c, t, p, top)
}

// walkQuoteContent renders a quote's text without its <cite> header.
func walkQuoteContent(q *html.Node, t *textBuf) {
	var sink bodyParts
	for c := q.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Cite {
			continue
		}
		node(c, t, &sink, false)
	}
}

func renderQuote(q *html.Node) forum.Quote {
	var out forum.Quote
	t := newTextBuf()
	walkQuoteContent(q, t)
	out.Text = t.String()
	for c := q.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Cite {
			out.Author, out.PostID = citeInfo(c)
			break
		}
	}
	return out
}

// citeInfo reads "<cite><span> (<span title>date</span>)</span>Name Wrote:  <a class=quick_jump
// href=…pid=N#pidN></a></cite>": the name is the cite's own text without the localised last word
// ("Wrote:", "писал:"); an unnamed quote's cite is just "Quote:".
func citeInfo(cite *html.Node) (author, pid string) {
	var own strings.Builder
	for c := cite.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			own.WriteString(c.Data)
		case html.ElementNode:
			if c.DataAtom == atom.A && (hasClass(c, "quick_jump") || rePID.MatchString(queryOf(attr(c, "href")))) {
				if m := rePID.FindStringSubmatch(queryOf(attr(c, "href"))); m != nil {
					pid = m[1]
				}
			}
		}
	}
	s := strings.Join(strings.Fields(strings.ReplaceAll(own.String(), "\u00a0", " ")), " ")
	if strings.HasSuffix(s, ":") {
		if i := strings.LastIndexByte(s, ' '); i >= 0 {
			s = s[:i]
		} else {
			s = ""
		}
	}
	return strings.TrimSpace(s), pid
}

func queryOf(href string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		return href[i+1:]
	}
	return href
}

// renderCode returns a code block's text verbatim (rows kept, &nbsp; as spaces, no title).
func renderCode(div *html.Node) string {
	t := newTextBuf()
	var code *html.Node
	if b := findClass(div, "body"); b != nil {
		code = b
	} else {
		code = div
	}
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				t.verbatim(c.Data)
			case c.Type == html.ElementNode && c.DataAtom == atom.Br:
				t.b.WriteByte('\n')
				t.lineStart = true
			case c.Type == html.ElementNode && hasClass(c, "title") && n == div:
				// the "Code:" header
			case c.Type == html.ElementNode:
				rec(c)
			}
		}
	}
	rec(code)
	return strings.TrimRight(t.b.String(), "\n")
}

func renderSpoiler(div *html.Node) forum.Spoiler {
	var s forum.Spoiler
	if tn := findClass(div, "spoiler_title"); tn != nil {
		tt := newTextBuf()
		walk(tn, tt, &bodyParts{}, false)
		s.Title = strings.TrimSpace(tt.String())
	}
	content := findClass(div, "spoiler_content")
	if content == nil {
		content = div
	}
	t := newTextBuf()
	walk(content, t, &bodyParts{}, false)
	s.Text = t.String()
	return s
}

// findClass finds the first descendant of n with the class.
func findClass(n *html.Node, class string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if hasClass(c, class) {
			return c
		}
		if f := findClass(c, class); f != nil {
			return f
		}
	}
	return nil
}
