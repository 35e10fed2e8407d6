package generic

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// textWriter turns rendered HTML into plain text the way a reader sees it: runs of white space
// collapse to one space, <br> and block boundaries become line breaks, paragraphs are separated by
// a blank line, and verbatim blocks (code) keep every space and newline.
type textWriter struct {
	b            strings.Builder
	pendingNL    int  // line breaks owed before the next visible character
	pendingSpace bool // a collapsed space owed before the next visible character
}

func (w *textWriter) empty() bool { return w.b.Len() == 0 }

func (w *textWriter) flush() {
	if w.empty() {
		w.pendingNL, w.pendingSpace = 0, false
		return
	}
	if w.pendingNL > 0 {
		n := w.pendingNL
		if n > 2 {
			n = 2 // never more than one blank line outside code
		}
		w.b.WriteString(strings.Repeat("\n", n))
		w.pendingNL, w.pendingSpace = 0, false
		return
	}
	if w.pendingSpace {
		w.b.WriteByte(' ')
		w.pendingSpace = false
	}
}

func (w *textWriter) text(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) && r != '\u00a0' {
			w.pendingSpace = true
			continue
		}
		if r == '\u00a0' {
			r = ' '
		}
		w.flush()
		w.b.WriteRune(r)
	}
}

// br is a hard line break: several in a row make blank lines.
func (w *textWriter) br() {
	w.pendingNL++
	w.pendingSpace = false
}

// block makes sure what follows starts on a new line (n=1) or after a blank line (n=2).
func (w *textWriter) block(n int) {
	if w.pendingNL < n {
		w.pendingNL = n
	}
	w.pendingSpace = false
}

// verbatim writes s on lines of its own with its white space intact.
func (w *textWriter) verbatim(s string) {
	s = strings.TrimRight(strings.TrimLeft(s, "\r\n"), "\r\n \t")
	if s == "" {
		return
	}
	w.block(1)
	w.flush()
	w.b.WriteString(s)
	w.block(1)
}

func (w *textWriter) String() string { return w.b.String() }

var blockTags = map[string]int{
	"p": 2, "div": 1, "blockquote": 1, "ul": 1, "ol": 1, "li": 1, "dl": 1, "dt": 1, "dd": 1,
	"h1": 1, "h2": 1, "h3": 1, "h4": 1, "h5": 1, "h6": 1, "table": 1, "tr": 1, "pre": 1,
	"hr": 1, "cite": 1, "fieldset": 1, "legend": 1, "section": 1, "article": 1, "aside": 1,
	"header": 1, "footer": 1, "form": 1, "center": 1, "details": 1, "summary": 1,
}

var skipTags = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "head": true, "iframe": true, "button": true, "input": true, "select": true, "textarea": true}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// smileyAlt is the text a reader "sees" for an image: smileys are shown as their code.
func smileyAlt(n *html.Node) string {
	alt := strings.TrimSpace(attr(n, "alt"))
	if alt == "" || len([]rune(alt)) > 12 {
		return ""
	}
	src := strings.ToLower(attr(n, "src"))
	cls := strings.ToLower(attr(n, "class"))
	if strings.Contains(src, "smil") || strings.Contains(cls, "smil") || strings.ContainsAny(alt, ":;)(") {
		return alt
	}
	return ""
}

// rawText is a node's text with every space and newline kept (for code blocks).
func rawText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			if n.Data == "br" {
				b.WriteByte('\n')
				return
			}
			if skipTags[n.Data] && n.Data != "textarea" {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
