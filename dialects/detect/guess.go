package detect

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum/scrape"
)

// postIDRe are the id attributes boards give a post's element.
var postIDRe = regexp.MustCompile(`^(p|post|post_|post-|msg|msg_|entry|comment-|reply-|elComment_)(\d+)$`)

// Guess proposes generic selectors for a thread page of an unknown engine: the most repeated
// kind of element whose id carries a number (div#p123, li#post_123, …) is the post; inside it, a
// profile link names the author, a <time> or an element whose class says date or time holds the
// date, and the element whose class says message, content, body or text with the most text is
// the body. nil when the page has no such posts.
func Guess(html []byte) map[string]string {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return nil
	}
	type group struct {
		sel, prefix string
		n           int
		first       *goquery.Selection
	}
	groups := map[string]*group{}
	doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		m := postIDRe.FindStringSubmatch(s.AttrOr("id", ""))
		if m == nil {
			return
		}
		tag := goquery.NodeName(s)
		key := tag + "|" + m[1]
		g := groups[key]
		if g == nil {
			g = &group{sel: fmt.Sprintf("%s[id^='%s']", tag, m[1]), prefix: m[1], first: s}
			groups[key] = g
		}
		g.n++
	})
	var best *group
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		// A post holds text; anchors and empty markers do not count.
		if strings.TrimSpace(g.first.Text()) == "" {
			continue
		}
		if best == nil || g.n > best.n {
			best = g
		}
	}
	if best == nil || best.n < 1 {
		return nil
	}
	extra := map[string]string{
		"post":       best.sel,
		"post_id":    "@id",
		"post_id_re": "^" + regexp.QuoteMeta(best.prefix) + `(\d+)$`,
	}
	p := best.first
	for _, sel := range []string{"a[href*='profile']", "a[href*='member']", "a[href*='user']", "a.username", ".username", ".author a", ".author", "strong"} {
		if strings.TrimSpace(p.Find(sel).First().Text()) != "" {
			extra["author"] = sel
			break
		}
	}
	if p.Find("time[datetime]").Length() > 0 {
		extra["time"] = "time@datetime"
	} else if sel := dateElement(p); sel != "" {
		extra["time"] = sel
	}
	bestLen := 0
	for _, sel := range []string{"[id^='post_message_']", "[id^='message']", "[class*='message']", "[class*='content']", "[class*='body']", "[class*='text']", "[class*='postmsg']", "[class*='entry']", "blockquote"} {
		p.Find(sel).Each(func(_ int, s *goquery.Selection) {
			if n := len(strings.TrimSpace(s.Text())); n > bestLen {
				if name := selectorOf(s); name != "" {
					bestLen = n
					extra["body"] = name
				}
			}
		})
	}
	// Quotes: blockquote, or, when the style writes the body (vBulletin 4's
	// blockquote.postcontent) or signatures as blockquotes too, the kind of blockquote that
	// says quote or holds a cite.
	posts := doc.Find(best.sel)
	cands := []string{"blockquote"}
	posts.Find("blockquote").Each(func(_ int, s *goquery.Selection) {
		sel := selectorOf(s)
		if sel == "" || slices.Contains(cands, sel) || !strings.Contains(strings.ToLower(s.AttrOr("class", "")+" "+s.AttrOr("id", "")), "quote") && s.Find("cite").Length() == 0 {
			return
		}
		cands = append(cands, sel)
	})
	for _, sel := range cands {
		q := posts.Find(sel)
		if q.Length() == 0 || takesBody(posts, extra["body"], sel) {
			continue
		}
		extra["quote"] = sel
		if q.Find("cite").Length() > 0 {
			extra["quote_cite"] = "cite"
		}
		break
	}
	return extra
}

// takesBody reports whether sel, a selector of a post's inner parts (quotes, code), would take
// the post's text: in some post it matches the body (bodySel; the post itself when "") or an
// element holding it, or it matches in every post and in most of them holds at least half of
// the body's text (a style's wrapper of the text, not a quote).
func takesBody(posts *goquery.Selection, bodySel, sel string) bool {
	taken, every := false, true
	n, most := 0, 0
	posts.EachWithBreak(func(_ int, p *goquery.Selection) bool {
		body := p
		if bodySel != "" {
			body = p.Find(bodySel).First()
		}
		if body.Length() == 0 {
			return true
		}
		n++
		all, big := textLen(body), false
		m := p.Find(sel)
		every = every && m.Length() > 0
		m.Each(func(_ int, s *goquery.Selection) {
			if s.Nodes[0] == body.Nodes[0] || s.Contains(body.Nodes[0]) {
				taken = true
			}
			big = big || all > 0 && 2*textLen(s) >= all
		})
		if big {
			most++
		}
		return !taken
	})
	return taken || n > 0 && every && 2*most > n
}

// textLen is the length of an element's text with its white space collapsed.
func textLen(s *goquery.Selection) int { return len(strings.Join(strings.Fields(s.Text()), " ")) }

var idPrefixRe = regexp.MustCompile(`^([A-Za-z_-]+?)[_-]?\d+$`)

// selectorOf names an element the way a post's other elements of its kind are named too: by tag
// and first class, or by tag and the prefix of a numbered id; "" when it has neither.
func selectorOf(s *goquery.Selection) string {
	tag := goquery.NodeName(s)
	if cls := strings.Fields(s.AttrOr("class", "")); len(cls) > 0 {
		return tag + "." + cls[0]
	}
	if m := idPrefixRe.FindStringSubmatch(s.AttrOr("id", "")); m != nil {
		return fmt.Sprintf("%s[id^='%s']", tag, strings.TrimRight(s.AttrOr("id", ""), "0123456789"))
	}
	return ""
}

// dateElement is a selector of the first element of the post whose own short text reads as a
// date with a year, or a relative one ("Today 12:34").
func dateElement(p *goquery.Selection) string {
	found := ""
	now := time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)
	p.Find("*").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		txt := strings.Join(strings.Fields(s.Text()), " ")
		if txt == "" || len(txt) > 60 {
			return true
		}
		if _, err := scrape.ParseDate(txt, time.UTC, now); err != nil {
			return true
		}
		if sel := selectorOf(s); sel != "" {
			found = sel
			return false
		}
		return true
	})
	return found
}
