package mybb

import (
	"path"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"forumgm/forum"
	"forumgm/forum/scrape"
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

// bodyMarkup is how MyBB 1.8 marks up a message body, for htmltext: quotes are
// blockquote.mycode_quote with a cite header, code is div.codeblock (a "Code:" title and the
// code in div.body, where MyBB's nl2br leaves a raw newline after each <br />), spoilers are the
// board's custom div.spoiler MyCode (or the plugin's div.spoiler_wrap, see renderBody), smileys
// img.smilie.
var bodyMarkup = scrape.Dialect{
	CiteInBlockquote: true,
	CodeBoxClass:     "codeblock",
	CodeBodyClass:    "body",
	CodeBreaksOnly:   true,
	NbspInCode:       true,
	SkipClasses:      []string{"signature", "post_edit", "edited_post"},
	Smiley:           smilieText,
	QuoteCite:        citeInfo,
	KeepBreaks:       true,
	SpoilerClass:     "spoiler",
	NestedQuoteBare:  true,
	HrBlankLine:      true,
	NbspVisible:      true,
}

// bodyParts is a post body split into the author's own text and the parts kept apart.
type bodyParts struct {
	text     string
	code     []string
	quotes   []forum.Quote
	spoilers []forum.Spoiler
	// merged are the posts MyBB merged into this one (see mergedParts); nil: one post.
	merged []forum.Post
}

// renderBody splits a post body node into own text, code blocks, quotes and spoilers. The
// spoilers of the "Spoiler MyCode" plugin (div.spoiler_wrap > div.spoiler_header +
// div.spoiler_body) are read as the board's div.spoiler, on a copy of the body.
//
// A board's own spoiler MyCode may write its head without the spoiler_title class: a first
// div that holds the show/hide button (starbound-fr.net: div.spoiler > div.message with
// "<b>Spoiler :</b> title <input type=button>" + div.corp) is then the title.
func renderBody(body *html.Node) bodyParts {
	sel := goquery.NewDocumentFromNode(body).Selection
	if sel.Find(selectors.SpoilerWrap).Length() > 0 {
		sel = sel.Clone()
		sel.Find(selectors.SpoilerWrap).AddClass("spoiler")
	}
	if buttonHeads(sel).Length() > 0 {
		sel = sel.Clone()
		buttonHeads(sel).AddClass("spoiler_title")
	}
	b := scrape.Render(sel, &bodyMarkup)
	return bodyParts{text: b.Text, code: b.Code, quotes: b.Quotes, spoilers: b.Spoilers, merged: mergedParts(sel)}
}

// mergedParts are the parts of a post MyBB's auto-merge made of a user's consecutive posts: it
// appends the new message after its postmergesep, "[hr]" by default, which the body shows as an
// <hr> of its own (a top-level child of the body; an [hr] inside a quote or spoiler separates
// nothing). Each part is rendered like a whole body; nil unless two parts or more hold something.
// An author's own top-level [hr] reads the same way: its parts are judged each on its own.
func mergedParts(body *goquery.Selection) []forum.Post {
	var groups []*html.Node
	group := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	for _, n := range body.Nodes {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Hr {
				groups = append(groups, group)
				group = &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
				continue
			}
			for _, k := range goquery.NewDocumentFromNode(c).Selection.Clone().Nodes {
				group.AppendChild(k)
			}
		}
	}
	if len(groups) == 0 {
		return nil
	}
	var parts []forum.Post
	for _, g := range append(groups, group) {
		b := scrape.Render(goquery.NewDocumentFromNode(g).Selection, &bodyMarkup)
		if strings.TrimSpace(b.Text) == "" && len(b.Quotes) == 0 && len(b.Code) == 0 && len(b.Spoilers) == 0 {
			continue
		}
		parts = append(parts, forum.Post{Text: b.Text, Quotes: b.Quotes, Code: b.Code, Spoilers: b.Spoilers})
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// buttonHeads are the heads of spoilers without a spoiler_title: a spoiler's first div that
// holds an input button.
func buttonHeads(sel *goquery.Selection) *goquery.Selection {
	return sel.Find(selectors.SpoilerButtonHead).FilterFunction(func(_ int, head *goquery.Selection) bool {
		return head.Siblings().Filter("div.spoiler_title").Length() == 0 &&
			head.ChildrenFiltered("input[type=button]").Length() > 0
	})
}

// smilieText is the code a smilie image stands for (its alt text for one not in the table).
// MyBB 1.8 marks smilies img.smilie; MyBB 1.6 gives them no class: there a smilie is an image
// from the smilies folder (images/smilies/smile.gif, the same names as 1.8's .png files).
func smilieText(img *html.Node) string {
	src := scrape.Attr(img, "src")
	if !scrape.HasClass(img, "smilie") && !strings.Contains(src, "/smilies/") {
		return ""
	}
	name := path.Base(src)
	if strings.HasSuffix(name, ".gif") {
		name = strings.TrimSuffix(name, ".gif") + ".png"
	}
	if code := smilieCodes[name]; code != "" {
		return code
	}
	return scrape.Attr(img, "alt")
}

// citeInfo reads "<cite><span> (<span title>date</span>)</span>Name Wrote:  <a class=quick_jump
// href=…pid=N#pidN></a></cite>" (with SEO URLs the link is post-N.html): the name is the cite's
// own text without the localised "wrote" ("Wrote:", "писал:", French "a écrit :"); an unnamed
// quote's cite is just "Quote:" ("Citation :"). A cite in vBulletin's form without a link,
// "Name;123 Wrote:" (boards converted from vBulletin), gives Name and post 123.
func citeInfo(cite *html.Node) (author, pid string) {
	var own strings.Builder
	for c := cite.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			own.WriteString(c.Data)
		case html.ElementNode:
			if c.DataAtom == atom.A && (scrape.HasClass(c, "quick_jump") || rePID.MatchString(queryOf(scrape.Attr(c, "href")))) {
				if id := pidFromURL(scrape.Attr(c, "href")); id != "" {
					pid = id
				}
			}
		}
	}
	s := scrape.Collapse(own.String())
	if strings.HasSuffix(s, ":") {
		// French typography puts a space before the colon ("Citation :", "X a écrit :").
		s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
		if t, ok := cutWrote(s); ok {
			s = t
		} else if i := strings.LastIndexByte(s, ' '); i >= 0 {
			s = s[:i]
		} else {
			s = ""
		}
	}
	s = strings.TrimSpace(s)
	if m := reVBCite.FindStringSubmatch(s); m != nil && pid == "" {
		return m[1], m[2]
	}
	return s, pid
}

// wroteWords are the language packs' words for "wrote" that are more than one word (a one-word
// one is the cite's last word): French "a écrit".
var wroteWords = []string{"a écrit"}

// cutWrote takes a multi-word "wrote" off the end of a cite's text.
func cutWrote(s string) (string, bool) {
	for _, w := range wroteWords {
		if rest, ok := strings.CutSuffix(s, " "+w); ok {
			return rest, true
		}
	}
	return s, false
}

func queryOf(href string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		return href[i+1:]
	}
	return href
}
