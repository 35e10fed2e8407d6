package punbb

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// blk is the selector table of the "blockpost" markup: PunBB 1.2 and FluxBB 1.2, 1.4 and 1.5
// (styles Oxygen, Air, Earth, …; viewtopic.php renders each post as div.blockpost#pN).
var blk = struct {
	root, post, permalink, author, authorLink, subject, body, edited, pageLink string
	postID                                                                     *regexp.Regexp
}{
	root:       "#punviewtopic, div.pun",
	post:       "div.blockpost[id^='p']",
	postID:     regexp.MustCompile(`^p(\d+)$`),
	permalink:  "h2 a[href*='pid=']", // its text is the date
	author:     "div.postleft dt strong, div.postleft dt",
	authorLink: "div.postleft dt a[href*='profile.php']",
	subject:    "div.postright h3",
	body:       "div.postright div.postmsg:not(.postsignature)",
	edited:     "p.postedit",
	pageLink:   "p.pagelink",
}

// parseBlockposts reads a blockpost topic page into p.
func parseBlockposts(doc *goquery.Document, p *Page, base *url.URL, opt options) error {
	posts := doc.Find(blk.post).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return blk.postID.MatchString(s.AttrOr("id", ""))
	})
	if posts.Length() == 0 {
		return fmt.Errorf("punbb: topic page without posts: %w", forum.ErrMarkupChanged)
	}
	if pl := doc.Find(blk.pageLink).First(); pl.Length() > 0 {
		p.Current, _ = strconv.Atoi(strings.TrimSpace(pl.Find("strong").First().Text()))
		p.Last = p.Current
		pages := map[int]string{}
		pl.Find("a").Each(func(_ int, a *goquery.Selection) {
			if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil {
				pages[n] = scrape.AbsURL(base, a.AttrOr("href", ""))
				if n > p.Last {
					p.Last = n
				}
			}
		})
		// FluxBB 1.5 has <link rel="prev"> in the head, 1.4 a[rel=prev] in the links, 1.2 only the
		// numbered links.
		if p.PrevURL == "" {
			if href, ok := pl.Find("a[rel='prev']").Attr("href"); ok {
				p.PrevURL = scrape.AbsURL(base, href)
			} else {
				p.PrevURL = pages[p.Current-1]
			}
		}
		if p.NextURL == "" {
			if href, ok := pl.Find("a[rel='next']").Attr("href"); ok {
				p.NextURL = scrape.AbsURL(base, href)
			} else {
				p.NextURL = pages[p.Current+1]
			}
		}
		if p.LastURL == "" && p.Last > p.Current {
			p.LastURL = pages[p.Last]
		}
	}
	p.TopicID = blockTopicID(doc)
	readable := false
	posts.Each(func(_ int, s *goquery.Selection) {
		post := blockpost(s, base, opt)
		readable = readable || post.Author != "" || post.Text != "" || len(post.Quotes) > 0
		p.Posts = append(p.Posts, post)
	})
	if !readable {
		return fmt.Errorf("punbb: no post has an author or a body: %w", forum.ErrMarkupChanged)
	}
	if p.Current == 0 {
		p.Current, p.Last = 1, 1
	}
	return nil
}

// blockTopicID is the topic's id: from the reply link or quick-post form (members), else from a
// link to the topic's own pages (page links, breadcrumb, head links of FluxBB 1.4/1.5), else from
// its feed; "" when the page names none (a one-page topic read by a guest on PunBB 1.2).
func blockTopicID(doc *goquery.Document) string {
	if href, ok := doc.Find("a[href*='post.php?tid=']").Attr("href"); ok {
		return tidRe.FindStringSubmatch(href)[1]
	}
	if action, ok := doc.Find("form[action*='tid=']").Attr("action"); ok && tidRe.MatchString(action) {
		return tidRe.FindStringSubmatch(action)[1]
	}
	for _, s := range []string{blk.pageLink + " a[href*='viewtopic.php?id=']", "ul.crumbs a[href*='viewtopic.php?id='], div.linkst a[href*='viewtopic.php?id=']",
		"head link[href*='viewtopic.php?id=']"} {
		if href, ok := doc.Find(s).Attr("href"); ok {
			if id := idFromHref(href); id != "" {
				return id
			}
		}
	}
	if href, ok := doc.Find("head link[href*='tid=']").Attr("href"); ok && tidRe.MatchString(href) {
		return tidRe.FindStringSubmatch(href)[1]
	}
	return ""
}

var tidRe = regexp.MustCompile(`[?&](?:amp;)?tid=(\d+)`)

// blockpost reads one post; a part that cannot be read costs that part (a problem of the post).
func blockpost(s *goquery.Selection, base *url.URL, opt options) forum.Post {
	post := forum.Post{Quotes: []forum.Quote{}}
	post.ID = blk.postID.FindStringSubmatch(s.AttrOr("id", ""))[1]
	if a := s.Find(blk.authorLink).First(); a.Length() > 0 {
		post.Author = scrape.Collapse(a.Text())
		post.AuthorID = idFromHref(a.AttrOr("href", ""))
	} else {
		post.Author = scrape.Collapse(s.Find(blk.author).First().Text())
	}
	if post.Author == "" {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemAuthor, blk.author))
	}
	link := s.Find(blk.permalink).First()
	post.Permalink = scrape.AbsURL(base, link.AttrOr("href", "viewtopic.php?pid="+post.ID+"#p"+post.ID))
	if link.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemTime, blk.permalink))
	} else if t, err := parseTime(scrape.Collapse(link.Text()), opt.Location, opt.Now); err != nil {
		post.Problems = append(post.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: err.Error()})
	} else {
		post.Time = t
	}
	post.Subject = scrape.Collapse(s.Find(blk.subject).First().Text())
	post.Edited = s.Find(blk.edited).Length() > 0
	body := s.Find(blk.body).First()
	if body.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemText, blk.body))
		return post
	}
	b := renderBody(oldBoxes(body))
	post.Text, post.Code, post.Spoilers = b.text, b.code, b.spoilers
	if b.quotes != nil {
		post.Quotes = b.quotes
	}
	return post
}

// oldBoxes rewrites PunBB 1.2's boxes into the 1.3+ shape on a copy of the body: a quote is
// blockquote > div.incqbox > h4 "Name wrote:" + text (1.3+: div.quotebox > cite + blockquote), a
// code block div.codebox > div.incqbox > h4 "Code:" + div.scrollbox > pre.
func oldBoxes(body *goquery.Selection) *goquery.Selection {
	if body.Find("div.incqbox").Length() == 0 {
		return body
	}
	c := body.Clone()
	c.Find("div.codebox div.incqbox > h4").Remove()
	c.Find("blockquote > div.incqbox").Each(func(_ int, box *goquery.Selection) {
		q := box.Parent()
		cite := ""
		if h := box.ChildrenFiltered("h4").First(); h.Length() > 0 {
			cite = "<cite>" + htmlEscape(scrape.Collapse(h.Text())) + "</cite>"
			h.Remove()
		}
		inner, _ := box.Html()
		q.ReplaceWithHtml(`<div class="` + sel.quoteBoxClass + `">` + cite + "<blockquote>" + inner + "</blockquote></div>")
	})
	return c
}

var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace
