package discourse

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
)

// The crawler view is the plain HTML Discourse's server writes into a topic's page (/t/<slug>/<id>)
// for search engines and for browsers without JavaScript (in a <noscript> then): the topic's
// title, then each post as div.topic-body.crawler-post, in two layouts seen on real forums:
//
//   - Discourse 3.x and later: div#post_<number>, the author in span.creator's
//     [itemprop=name], the time in span.crawler-post-infos' <time datetime> (itemprop
//     datePublished on replies), the number in [itemprop=position] ("5"), the cooked HTML in
//     div.post[itemprop=text];
//   - Discourse 2.x: each post its own itemscope, without an id, its number "#5" and its cooked
//     HTML in div.post[itemprop=articleBody].
//
// The view names no post ids and no user ids: a post's id is its post number (as the topic's
// URLs /t/<slug>/<id>/<number> name it), a quote's post the number in its data-post. Whether a
// post was edited is not told (its dateModified also moves for other reasons): Edited stays false.
var (
	crawlerPost   = "div.crawler-post"
	crawlerAuthor = ".creator [itemprop=name]"
	crawlerTime   = ".crawler-post-infos time[datetime], time[itemprop=datePublished][datetime]"
	crawlerBody   = "div.post[itemprop=text], div.post[itemprop=articleBody]"
	postNumberRe  = regexp.MustCompile(`^#?(\d+)$`)
	postIDAttrRe  = regexp.MustCompile(`^post_(\d+)$`)
)

// isHTML reports whether a saved answer is a page rather than JSON.
func isHTML(page []byte, contentType string) bool {
	if strings.Contains(strings.ToLower(contentType), "html") {
		return true
	}
	b := bytes.TrimLeft(bytes.TrimPrefix(page, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(b) > 0 && b[0] == '<'
}

// extractCrawler reads the posts of a topic's HTML page from its crawler view.
func extractCrawler(page []byte, cfg forum.Config) ([]forum.Post, error) {
	// Scripting off: a browser's saved page holds the view inside <noscript>, which a parser
	// running scripts keeps as text.
	root, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, fmt.Errorf("discourse: topic page: %w", err)
	}
	doc := goquery.NewDocumentFromNode(root)
	posts := doc.Find(crawlerPost)
	if posts.Find(crawlerBody).Length() == 0 {
		return nil, fmt.Errorf("discourse: an HTML page without the crawler view's posts (div.crawler-post): save the topic as the server sends it (curl https://<forum>/t/<slug>/<id>, or ?page=N for more posts) or its JSON (/t/<id>.json): %w", forum.ErrMarkupChanged)
	}
	topicURL := crawlerTopicURL(doc, cfg.BaseURL)
	topic := ""
	if m := threadURLRe.FindStringSubmatch(topicURL); m != nil {
		topic = m[1]
	}
	quoteID := func(qt, num string) string {
		if qt != "" && qt != topic || !postNumberRe.MatchString(num) {
			return ""
		}
		return strings.TrimPrefix(num, "#")
	}
	var out []forum.Post
	var bad error
	posts.EachWithBreak(func(i int, s *goquery.Selection) bool {
		content := s.Find(crawlerBody).First()
		if content.Length() == 0 {
			return true // the page links (div.crawler-post[role=navigation]), not a post
		}
		num := crawlerNumber(s)
		if num == "" {
			bad = fmt.Errorf("discourse: post %d of the crawler view has no number (no [itemprop=position], no id post_N): %w", i+1, forum.ErrMarkupChanged)
			return false
		}
		body, _ := content.Html()
		cooked := Cooked(body, quoteID)
		p := forum.Post{
			ID:       num,
			Author:   strings.TrimSpace(s.Find(crawlerAuthor).First().Text()),
			Text:     cooked.Text,
			Quotes:   cooked.Quotes,
			Code:     cooked.Code,
			Spoilers: cooked.Spoilers,
		}
		if p.Quotes == nil {
			p.Quotes = []forum.Quote{}
		}
		if topicURL != "" {
			p.Permalink = topicURL + "/" + num
		}
		if p.Author == "" {
			p.Problems = append(p.Problems, forum.NotFound(forum.ProblemAuthor, crawlerAuthor))
		}
		t, err := ParseTime(s.Find(crawlerTime).First().AttrOr("datetime", ""))
		if err != nil {
			p.Problems = append(p.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: err.Error()})
		}
		p.Time = t
		out = append(out, p)
		return true
	})
	if bad != nil {
		return nil, bad
	}
	return out, nil
}

// crawlerNumber is a post's number: its [itemprop=position] ("5", "#5"), else its id post_5.
func crawlerNumber(s *goquery.Selection) string {
	if m := postNumberRe.FindStringSubmatch(strings.TrimSpace(s.Find("[itemprop=position]").First().Text())); m != nil {
		return m[1]
	}
	if m := postIDAttrRe.FindStringSubmatch(s.AttrOr("id", "")); m != nil {
		return m[1]
	}
	return ""
}

// crawlerTopicURL is the topic's address without a page or post number
// (https://forum/t/<slug>/<id>): the page's canonical link, else its title's link, resolved
// against base; "" when the page names neither.
func crawlerTopicURL(doc *goquery.Document, base string) string {
	href := doc.Find("link[rel=canonical]").AttrOr("href", "")
	if !threadURLRe.MatchString(href) {
		href = doc.Find("#topic-title h1 a").AttrOr("href", "")
	}
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || href == "" {
		return ""
	}
	if b, err := url.Parse(base); err == nil && base != "" {
		u = b.ResolveReference(u)
	}
	u.RawQuery, u.Fragment = "", ""
	loc := threadURLRe.FindStringIndex(u.Path)
	if loc == nil {
		return ""
	}
	u.Path = u.Path[:loc[1]]
	return u.String()
}
