package smf

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// bodyMarkup is how SMF 2.1 marks up a message body, for htmltext. SMF sends code as
// code.bbc_code with runs of spaces as "&nbsp; " and line breaks as <br>.
var bodyMarkup = scrape.Dialect{
	CiteInBlockquote: true,
	CodeClass:        sel.codeClass,
	SkipClasses:      []string{sel.codeHeaderClass, sel.signatureClass, "modified"},
	NbspInCode:       true,
	Smiley:           smileyText,
	QuoteAuthor:      quoteAuthor,
	QuotePostID:      msgIDFromHref,
}

// body is what a message body holds once taken apart.
type body struct {
	text     string
	quotes   []forum.Quote
	code     []string
	spoilers []forum.Spoiler
}

func renderBody(s *goquery.Selection) body {
	s = quotes20(s)
	b := scrape.Render(s, &bodyMarkup)
	return body{text: b.Text, quotes: b.Quotes, code: b.Code, spoilers: b.Spoilers}
}

// smileyText: smileys carry their BBCode in alt (";&#41;" is ";)"); other images add nothing.
func smileyText(n *html.Node) string {
	if scrape.HasClass(n, sel.smileyClass) {
		return scrape.Attr(n, "alt")
	}
	return ""
}

// quoteHead splits a quote header "Quote from: Name on <date>" into the name; a header without a
// name ("Quote") gives "".
var quoteHead = regexp.MustCompile(`^(?s)\s*(?:Quote from|Quote|Цитата|Цитировать)\s*(?::|от)?\s*(.*?)\s*$`)

func quoteAuthor(cite string) string {
	m := quoteHead.FindStringSubmatch(cite)
	if m == nil {
		return strings.TrimSpace(cite)
	}
	rest := m[1]
	// The name ends at the " on " (or Russian " от ") before the date; pick the last separator
	// whose remainder reads as a date, else the first one.
	best := -1
	for _, sep := range []string{" on ", " от "} {
		for i := strings.Index(rest, sep); i >= 0; {
			if best < 0 {
				best = i
			}
			if looksLikeDate(rest[i+len(sep):]) {
				best = i
			}
			j := strings.Index(rest[i+1:], sep)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	if best >= 0 {
		rest = rest[:best]
	}
	return strings.TrimSpace(rest)
}

func looksLikeDate(s string) bool {
	_, err := parseTime(s, nil, zeroNow)
	return err == nil
}

var msgRe = regexp.MustCompile(`(?:[?;&]msg=|\.msg|#msg)(\d+)`)

func msgIDFromHref(href string) string {
	if m := msgRe.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

var uRe = regexp.MustCompile(`[?;&]u=(\d+)`)

func memberIDFromHref(href string) string {
	if m := uRe.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

// quotes20 rewrites SMF 2.0's quotes into 2.1's shape on a copy of the body: 2.0 writes the
// header beside the quote (div.quoteheader "Quote from: X on …", then blockquote, then
// div.quotefooter); 2.1 puts it inside as the blockquote's <cite>.
func quotes20(s *goquery.Selection) *goquery.Selection {
	if s.Find("div.quoteheader").Length() == 0 {
		return s
	}
	c := s.Clone()
	c.Find("div.quoteheader").Each(func(_ int, h *goquery.Selection) {
		q := h.NextAllFiltered("blockquote").First()
		if q.Length() == 0 || q.Prev().Get(0) != h.Get(0) {
			return
		}
		inner, _ := goquery.OuterHtml(h.Children().First())
		q.PrependHtml("<cite>" + inner + "</cite>")
		h.Remove()
	})
	c.Find("div.quotefooter").Remove()
	return c
}
