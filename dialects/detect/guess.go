package detect

import (
	"bytes"
	"fmt"
	"regexp"
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
	p.Find("blockquote").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		extra["quote"] = "blockquote"
		if s.Find("cite").Length() > 0 {
			extra["quote_cite"] = "cite"
		}
		return false
	})
	return extra
}

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
