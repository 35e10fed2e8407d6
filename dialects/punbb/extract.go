// This file reads PunBB 1.3 and 1.4 pages (div.main-topic, default "Oxygen" style), and the
// "blockpost" topic pages of PunBB 1.2 and FluxBB 1.2-1.5 (blockpost.go): the posts of a topic
// page into forum.Post values, each part by role with fallbacks (an unreadable part costs that
// part, reported in the post's Problems), plus what a poller and the writer need from a page (page
// numbers, the previous page, the topic id, who is logged in, the quick-post form's token, the
// forum of the breadcrumb) and the typed errors of the error pages of every version; and a
// forum's topic list into forum.ThreadHead values (section.go: PunBB 1.3/1.4, FluxBB, PunBB 1.2
// and MyBB.ru rows). PunBB and FluxBB core have no private messages and no spoilers.
//
// Every selector of the 1.3/1.4 markup is in the one table sel below, the blockposts' in blk; the
// golden tests in testdata/golden pin what they extract from pages captured on a real PunBB 1.4.4
// and, in versions_test.go, on real PunBB 1.3.6 and FluxBB 1.2.24, 1.4.13 and 1.5.11.

package punbb

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sel is the selector table: everything the package knows about PunBB 1.4's markup.
var sel = struct {
	topic        string // the posts container of a topic page
	post         string
	postHead     string // div.posthead id="pN"
	postHeadID   *regexp.Regexp
	postNum      string
	byline       string // "Reply by <a>name</a>" (guests: <strong>name</strong>)
	permalink    string // the post's date, linking to viewtopic.php?pid=N#pN
	permalinkAny string // fallback: any permalink of the post
	authorBox    string // fallback for the author: the box beside the post
	edited       string // "(edited by X date)"
	editNote     string // PunBB 1.3: "Last edited by X (date)" under the body
	subject      string
	subjectID    *regexp.Regexp // h4.entry-title id="pcN"
	body         string
	bodyAny      string // fallback for the body: the whole entry (its h4 subject left out)
	paging       string
	mainTitle    string // h1 with the topic permalink and "(Page 1 of 2)"
	prevLink     string
	nextLink     string
	lastLink     string
	navLogin     string // present only for guests
	navLogout    string // present only for members (every version)
	welcomeName  string // 1.3/1.4: "Logged in as <strong>name</strong>"; 1.2/FluxBB: #brdwelcome
	quickPost    string // the quick-post form at the bottom of a topic page
	// error pages
	errorItems  string // the re-shown form's error list (1.3/1.4; 1.2/FluxBB: #posterror)
	confirmForm string // "Confirm action": the CSRF token was rejected
	message     string // "Forum message" pages (1.2/FluxBB: the "Info" box #msg)
	redirect    string // the "Redirecting…" page after a successful form
	// bits of the body markup
	quoteBoxClass, codeBoxClass, signatureClass, smileyPath string
}{
	topic:        "div.main-topic",
	post:         "div.post",
	postHead:     "div.posthead",
	postHeadID:   regexp.MustCompile(`^p(\d+)$`),
	postNum:      "span.post-num",
	byline:       "span.post-byline",
	permalink:    "span.post-link a",
	permalinkAny: "a.permalink[href*='pid='], a[rel='bookmark'][href*='pid=']",
	authorBox:    "div.post-author li.username",
	edited:       "span.post-edit",
	editNote:     "p.lastedit, p.postedit",
	subject:      "h4.entry-title",
	subjectID:    regexp.MustCompile(`^pc(\d+)$`),
	body:         "div.entry-content",
	bodyAny:      "div.post-entry",
	paging:       "p.paging",
	mainTitle:    "h1.main-title",
	prevLink:     "head link[rel='prev']",
	nextLink:     "head link[rel='next']",
	lastLink:     "head link[rel='last']",
	navLogin:     "#navlogin",
	navLogout:    "#navlogout",
	welcomeName:  "#welcome strong, #brdwelcome strong",
	quickPost:    "form[action*='post.php?tid=']",

	errorItems:  "div.error-box ul.error-list li, #posterror ul li",
	confirmForm: "form input[name='prev_url']",
	message:     "div.main-message, #msg div.inbox > p:first-of-type",
	redirect:    "#brd-redirect, head meta[http-equiv='refresh']",

	quoteBoxClass:  "quotebox",
	codeBoxClass:   "codebox",
	signatureClass: "sig-content",
	smileyPath:     "img/smilies/",
}

// Page is what a poller and the writer need from one PunBB topic page.
type Page struct {
	Posts   []forum.Post // in page order
	TopicID string
	// Current and Last are the page numbers (1-based).
	Current, Last int
	PrevURL       string // absolute; "" on the first page
	NextURL       string
	LastURL       string
	LoggedIn      bool
	User          string // the logged-in user's name
	CSRFToken     string // the quick-post form's token (members)
	Section       string // the forum the topic is in, from the breadcrumb ("" when not shown)
}

// options are what reading a page needs besides the page: Base resolves relative links.
type options = scrape.ReadOptions

var pageOfRe = regexp.MustCompile(`(\d+)\D+(\d+)`)

// parse reads a parsed PunBB topic page. A page that is not a topic page, or whose posts lack the
// parts every PunBB 1.4 post has, is an error wrapping forum.ErrMarkupChanged.
func parse(doc *goquery.Document, opt options) (*Page, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	p := &Page{}
	base := opt.Base
	if href, ok := doc.Find(sel.prevLink).Attr("href"); ok {
		p.PrevURL = scrape.AbsURL(base, href)
	}
	if href, ok := doc.Find(sel.nextLink).Attr("href"); ok {
		p.NextURL = scrape.AbsURL(base, href)
	}
	if href, ok := doc.Find(sel.lastLink).Attr("href"); ok {
		p.LastURL = scrape.AbsURL(base, href)
	}
	p.LoggedIn, p.User = LoggedIn(doc)
	p.CSRFToken = doc.Find(sel.quickPost).Find("input[name='csrf_token']").AttrOr("value", "")
	p.Section = SectionOf(doc)
	title := doc.Find(sel.mainTitle).First()
	p.TopicID = idFromHref(title.Find("a").AttrOr("href", ""))
	if m := pageOfRe.FindStringSubmatch(title.Find("small").Text()); m != nil {
		p.Current, _ = strconv.Atoi(m[1])
		p.Last, _ = strconv.Atoi(m[2])
	}
	if paging := doc.Find(sel.paging).First(); paging.Length() > 0 {
		if cur, err := strconv.Atoi(strings.TrimSpace(paging.Find("strong").First().Text())); err == nil {
			p.Current = cur
		}
		if p.Last < p.Current {
			p.Last = p.Current
		}
		paging.Find("a, strong").Each(func(_ int, a *goquery.Selection) {
			if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil && n > p.Last {
				p.Last = n
			}
		})
	}
	topic := doc.Find(sel.topic)
	if topic.Length() == 0 {
		if doc.Find(blk.root).Find(blk.post).Length() > 0 {
			return p, parseBlockposts(doc, p, base, opt)
		}
		return p, fmt.Errorf("punbb: not a topic page: %w", forum.ErrMarkupChanged)
	}
	var err error
	readable := false
	topic.Find(sel.post).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		var post forum.Post
		post, err = parsePost(s, base, opt)
		if err != nil {
			return false
		}
		readable = readable || post.Author != "" || post.Text != "" || len(post.Quotes) > 0
		p.Posts = append(p.Posts, post)
		return true
	})
	if err != nil {
		return p, err
	}
	if len(p.Posts) == 0 {
		return p, fmt.Errorf("punbb: topic page without posts: %w", forum.ErrMarkupChanged)
	}
	if !readable {
		return p, fmt.Errorf("punbb: no post has an author or a body: %w", forum.ErrMarkupChanged)
	}
	if p.Current == 0 {
		p.Current, p.Last = 1, 1
	}
	return p, nil
}

// parsePost reads one post of PunBB 1.3/1.4 markup by role, each part with its fallbacks: the id
// from div.posthead#pN, else the first pN id in the post, else the permalink's pid, else
// h4.entry-title#pcN; the author from the byline, else the author box (li.username); the date
// from the byline's permalink, else any a.permalink of the post; the body from
// div.entry-content, else div.post-entry. A part that cannot be read costs that part (the post's
// Problems); only a post without any id is an error.
func parsePost(s *goquery.Selection, base *url.URL, opt options) (forum.Post, error) {
	post := forum.Post{Quotes: []forum.Quote{}}
	head := s.Find(sel.postHead).First()
	link := head.Find(sel.permalink).First()
	if link.Length() == 0 {
		link = s.Find(sel.permalinkAny).First()
	}
	if m := sel.postHeadID.FindStringSubmatch(head.AttrOr("id", "")); m != nil {
		post.ID = m[1]
	} else if m := sel.postHeadID.FindStringSubmatch(s.Find("[id^='p']").First().AttrOr("id", "")); m != nil {
		post.ID = m[1]
	} else if id := pidFromHref(link.AttrOr("href", "")); id != "" {
		post.ID = id
	} else if m := sel.subjectID.FindStringSubmatch(s.Find(sel.subject).AttrOr("id", "")); m != nil {
		post.ID = m[1]
	} else {
		return post, fmt.Errorf("punbb: post without an id (no pN head, permalink or pcN subject): %w", forum.ErrMarkupChanged)
	}
	by := head.Find(sel.byline).First()
	if a := by.Find("a[href]").First(); a.Length() > 0 {
		post.Author = scrape.Collapse(a.Text())
		post.AuthorID = idFromHref(a.AttrOr("href", ""))
	} else {
		post.Author = scrape.Collapse(by.Find("strong").First().Text())
	}
	if post.Author == "" { // the author box beside the post
		box := s.Find(sel.authorBox).First()
		post.Author = scrape.Collapse(box.Text())
		post.AuthorID = idFromHref(box.Find("a[href*='profile.php']").AttrOr("href", ""))
	}
	if post.Author == "" {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemAuthor, sel.byline+", "+sel.authorBox))
	}
	if link.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemTime, sel.permalink+", "+sel.permalinkAny))
	} else if t, err := parseTime(scrape.Collapse(link.Text()), opt.Location, opt.Now); err != nil {
		post.Problems = append(post.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: err.Error()})
	} else {
		post.Time = t
	}
	post.Permalink = scrape.AbsURL(base, link.AttrOr("href", "viewtopic.php?pid="+post.ID+"#p"+post.ID))
	post.Edited = s.Find(sel.edited).Length() > 0 || s.Find(sel.editNote).Length() > 0
	post.Subject = scrape.Collapse(s.Find(sel.subject).First().Text())
	body := s.Find(sel.body).First()
	if body.Length() == 0 {
		if entry := s.Find(sel.bodyAny).First(); entry.Length() > 0 {
			body = entry.Clone()
			body.Find(sel.subject).Remove()
		}
	}
	if body.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemText, sel.body+", "+sel.bodyAny))
		return post, nil
	}
	b := renderBody(body)
	post.Text, post.Code, post.Spoilers = b.text, b.code, b.spoilers
	if b.quotes != nil {
		post.Quotes = b.quotes
	}
	return post, nil
}

// maxPostID is the highest post id any permalink on the page links (the reply form's topic review
// lists the newest posts), "" when none.
func maxPostID(doc *goquery.Document) string {
	max := ""
	doc.Find("a[href*='pid=']").Each(func(_ int, a *goquery.Selection) {
		if id := pidFromHref(a.AttrOr("href", "")); id != "" && (max == "" || forum.IDLess(max, id)) {
			max = id
		}
	})
	return max
}

// postIDFromURL reads the post id out of a viewtopic.php?pid=N#pN link (the redirect after a
// reply), "" when there is none.
func postIDFromURL(u string) string { return pidFromHref(u) }

var refreshRe = regexp.MustCompile(`(?i)url=(.+)$`)

// redirectTarget is where a "Redirecting…" page sends the browser (its meta refresh), "" when the
// page has none.
func redirectTarget(doc *goquery.Document) string {
	c := doc.Find("head meta[http-equiv='refresh']").AttrOr("content", "")
	if m := refreshRe.FindStringSubmatch(strings.TrimSpace(c)); m != nil {
		return strings.Trim(m[1], `'" `)
	}
	return ""
}

// LoggedIn says whether the page was rendered for a logged-in member, and which: PunBB 1.4's
// navigation without #navlogin, or (every version, FluxBB too) a #navlogout link.
func LoggedIn(doc *goquery.Document) (bool, string) {
	in := doc.Find(sel.navLogin).Length() == 0 && doc.Find("#brd-navlinks, #brd-visit").Length() > 0 ||
		doc.Find(sel.navLogout).Length() > 0
	if !in {
		return false, ""
	}
	return true, scrape.Collapse(doc.Find(sel.welcomeName).First().Text())
}

// parseBytes parses a page's UTF-8 HTML.
func parseBytes(body []byte, opt options) (*Page, *goquery.Document, error) {
	return scrape.ParseBytes("punbb", body, opt, parse)
}

// extract is the registered forum.Extractor: the posts of one saved PunBB topic page, in id order.
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	return scrape.Posts(page, contentType, cfg, checkError, func(body []byte, opt options) ([]forum.Post, *goquery.Document, error) {
		p, doc, err := parseBytes(body, opt)
		if err != nil {
			return nil, doc, err
		}
		return p.Posts, doc, nil
	})
}

// pageThread is the topic a topic page is of (Page.TopicID: the title's link, the reply link or
// quick-post form, the page links, the breadcrumb, the head links, the feed), for the
// descriptor's PageThread.
func pageThread(doc *goquery.Document) string {
	if p, err := parse(doc, options{}); err == nil {
		return p.TopicID
	}
	return ""
}
