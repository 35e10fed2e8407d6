package discourse

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"forumgm/forum/scrape"
)

// QuoteID names the post a quote of post number n of topic quotes ("" when not known). topic is
// the quote's data-topic, "" when the quote names none (a quote of the same topic).
type QuoteID func(topic string, n string) string

// cookedMarkup is how Discourse cooks a post (its markdown-it engine, pretty-text): a quote is
// aside.quote naming its author and post in data-username and data-post (data-topic when it
// quotes another topic), the quoted text in its blockquote and a div.title header outside it; a
// bare <blockquote> ("> text") is a quote naming nobody; code is <pre><code>; [details] is
// <details><summary>; the spoiler plugin's is div.spoiler; emoji are img.emoji whose alt is
// ":name:"; an uploaded picture's lightbox-wrapper carries a file name and size, left out.
// Paragraphs are separated by a blank line, as typed.
func cookedMarkup(quoteID QuoteID) *scrape.Dialect {
	return &scrape.Dialect{
		PreIsCode:    true,
		ParagraphGap: true,
		SkipClasses:  []string{"lightbox-wrapper", "quote-controls"},
		Smiley: func(img *html.Node) string {
			if scrape.HasClass(img, "emoji") {
				return scrape.Attr(img, "alt")
			}
			return ""
		},
		QuoteAttrs: func(n *html.Node) (string, string, *html.Node, bool) {
			if n.Data != "aside" || !scrape.HasClass(n, "quote") {
				return "", "", nil, false
			}
			content := n
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "blockquote" {
					content = c
					break
				}
			}
			author := strings.TrimSpace(scrape.Attr(n, "data-username"))
			id := ""
			if num := strings.TrimSpace(scrape.Attr(n, "data-post")); num != "" && quoteID != nil {
				id = quoteID(strings.TrimSpace(scrape.Attr(n, "data-topic")), num)
			}
			return author, id, content, true
		},
	}
}

// Cooked takes apart a post's cooked HTML: the author's own text, the top-level quotes (their
// post ids through quoteID), code blocks and spoilers.
func Cooked(cooked string, quoteID QuoteID) scrape.Body {
	nodes, err := html.ParseFragment(strings.NewReader(cooked), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil { // x/net/html's fragment parser reports only reader errors
		return scrape.Body{Text: scrape.Collapse(cooked)}
	}
	root := &html.Node{Type: html.ElementNode, Data: "div"}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	return scrape.Render(goquery.NewDocumentFromNode(root).Selection, cookedMarkup(quoteID))
}
