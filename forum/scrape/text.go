package scrape

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// newText is the text layout of a post body (htmltext.Text): a no-break space is a visible space.
func newText() *text { return &text{NbspVisible: true} }

// verbatim writes a code block without its leading line breaks and trailing white space.
func verbatim(w *text, s string) {
	w.Verbatim(strings.TrimRight(strings.TrimLeft(s, "\r\n"), "\r\n \t"))
}

var blockTags = map[string]int{
	"p": 2, "div": 1, "blockquote": 1, "ul": 1, "ol": 1, "li": 1, "dl": 1, "dt": 1, "dd": 1,
	"h1": 1, "h2": 1, "h3": 1, "h4": 1, "h5": 1, "h6": 1, "table": 1, "tr": 1, "pre": 1,
	"hr": 1, "cite": 1, "fieldset": 1, "legend": 1, "section": 1, "article": 1, "aside": 1,
	"header": 1, "footer": 1, "form": 1, "center": 1, "details": 1, "summary": 1,
}

var skipTags = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "head": true, "iframe": true, "button": true, "input": true, "select": true, "textarea": true}

// smileyAlt is the text a reader "sees" for an image: smileys are shown as their code.
func smileyAlt(n *html.Node) string {
	alt := strings.TrimSpace(Attr(n, "alt"))
	if alt == "" || len([]rune(alt)) > 12 {
		return ""
	}
	src := strings.ToLower(Attr(n, "src"))
	cls := strings.ToLower(Attr(n, "class"))
	if strings.Contains(src, "smil") || strings.Contains(cls, "smil") || strings.ContainsAny(alt, ":;)(") {
		return alt
	}
	return ""
}

// rawText is a node's text with every space and newline kept (for code blocks).
func rawText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, pre bool) {
		switch n.Type {
		case html.TextNode:
			// Old boards indent code with no-break spaces (&nbsp;); code is copied as spaces.
			s := strings.ReplaceAll(n.Data, "\u00a0", " ")
			if !pre {
				s = unpreformatted(s, b.Len() == 0 || strings.HasSuffix(b.String(), "\n"), n.NextSibling)
			}
			b.WriteString(s)
		case html.ElementNode:
			if n.Data == "br" {
				b.WriteByte('\n')
				return
			}
			if skipTags[n.Data] && n.Data != "textarea" {
				return
			}
			pre = pre || n.Data == "pre"
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, pre)
		}
	}
	walk(n, inPre(n))
	return b.String()
}

// inPre says whether n is a <pre> or inside one: its text is shown as written.
func inPre(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && n.Data == "pre" {
			return true
		}
	}
	return false
}

// unpreformatted is the text of code outside a <pre> as a browser shows it: the code's lines
// are its <br>s (vBulletin's highlighted [PHP] blocks, div.bbcode_code), so the source's own
// line breaks beside them are not shown, and one between words is a space.
func unpreformatted(s string, lineStart bool, next *html.Node) string {
	s = strings.ReplaceAll(s, "\r", "")
	if lineStart {
		s = strings.TrimLeft(s, "\n")
	}
	if next == nil || next.Type == html.ElementNode && next.Data == "br" {
		s = strings.TrimRight(s, "\n")
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// zeroWidth are the invisible characters boards put into text (XenForo after quotes and
// mentions, editors around smileys): removed from every text but code.
var zeroWidth = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "")

// expandLine is a line of an engine's own chrome inside a quote or spoiler ("Click to
// expand...", "Нажмите для раскрытия..."): not the author's words.
var expandLine = regexp.MustCompile(`(?im)^[ \t]*(?:click to expand|нажмите для раскрытия|нажмите, чтобы раскрыть|развернуть|expand)(?:\.\.\.|…)?[ \t]*$\n?`)

// Clean removes zero-width characters and "click to expand" lines from a text read off a page,
// and the blank edges that leaves.
func Clean(s string) string {
	s = zeroWidth.Replace(s)
	s = expandLine.ReplaceAllString(s, "")
	return strings.Trim(s, "\n")
}
