package fingerprint

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/PuerkitoBio/goquery"
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
	switch {
	case p.Find("time[datetime]").Length() > 0:
		extra["time"] = "time@datetime"
	default:
		for _, sel := range []string{"[class*='date']", "[class*='time']", "a[href*='#p']", "h2 a", "h3 a"} {
			if strings.TrimSpace(p.Find(sel).First().Text()) != "" {
				extra["time"] = sel
				break
			}
		}
	}
	bestLen := 0
	for _, sel := range []string{"[class*='message']", "[class*='content']", "[class*='body']", "[class*='text']", "[class*='postmsg']", "[class*='entry']", "blockquote"} {
		p.Find(sel).Each(func(_ int, s *goquery.Selection) {
			if n := len(strings.TrimSpace(s.Text())); n > bestLen {
				cls := strings.Fields(s.AttrOr("class", ""))
				if len(cls) > 0 {
					bestLen = n
					extra["body"] = goquery.NodeName(s) + "." + cls[0]
				}
			}
		})
	}
	p.Find("blockquote").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		extra["quote"] = "blockquote"
		if s.Find("cite").Length() > 0 {
			extra["quote_cite"] = "cite"
		}
		return false
	})
	return extra
}
