package punbb

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// bodyMarkup is how PunBB 1.4 marks up a message body, for htmltext.
var bodyMarkup = scrape.Dialect{
	QuoteBoxClass:     sel.quoteBoxClass,
	CodeBoxClass:      sel.codeBoxClass,
	SkipClasses:       []string{sel.signatureClass, "postedit", "lastedit", "sig-line"},
	CiteTitlesSpoiler: true,
	ParagraphGap:      true,
	Smiley:            smileyText,
	QuoteAuthor:       quoteAuthor,
}

// body is what a message body holds once taken apart.
type body struct {
	text     string
	quotes   []forum.Quote
	code     []string
	spoilers []forum.Spoiler
}

func renderBody(s *goquery.Selection) body {
	b := scrape.Render(s, &bodyMarkup)
	return body{text: b.Text, quotes: b.Quotes, code: b.Code, spoilers: b.Spoilers}
}

// smileys maps PunBB's smiley images (img/smilies/<name>.png) back to the text typed.
var smileys = map[string]string{
	"smile": ":)", "neutral": ":|", "sad": ":(", "big_smile": ":D", "yikes": ":o", "wink": ";)",
	"hmm": ":/", "tongue": ":P", "lol": ":lol:", "mad": ":mad:", "roll": ":rolleyes:", "cool": ":cool:",
}

func smileyText(n *html.Node) string {
	src := scrape.Attr(n, "src")
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
	return scrape.Attr(n, "alt")
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
