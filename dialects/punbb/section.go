package punbb

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sec is the selector table of a forum's topic list (viewforum.php?id=N) and of the breadcrumb
// that names a topic's forum. PunBB 1.4 (viewforum.php of v1.4.4) writes a topic as
// div.main-item#topicN with ul.item-info; PunBB 1.2/1.3, FluxBB 1.4/1.5 (viewforum.php) and
// MyBB.ru write a table row: td.tcl (title), td.tc2 (replies), td.tc3 (views), td.tcr (last post).
var sec = struct {
	page14, row14, title14, replies14, last14, poster14       string
	pageTbl, rowTbl, titleTbl, repliesTbl, lastTbl, posterTbl string
	empty                                                     string
	crumbs                                                    string
}{
	page14:    "#brd-viewforum, div.main-forum",
	row14:     "div.main-forum div.main-item",
	title14:   "div.item-subject h3 a[href]",
	replies14: "li.info-replies strong",
	last14:    "li.info-lastpost strong a[href]",
	poster14:  "li.info-lastpost cite",

	rowTbl:     "tr:has(td.tcl)",
	titleTbl:   "td.tcl a[href*='viewtopic.php?id=']",
	repliesTbl: "td.tc2",
	lastTbl:    "td.tcr a[href]",
	posterTbl:  "td.tcr span.byuser",

	empty: "div.main-item.empty, tr.inone",
	// The breadcrumb of a topic page: PunBB 1.4 #brd-crumbs-top, FluxBB ul.crumbs, PunBB 1.2
	// div.linkst ul, MyBB.ru #pun-crumbs1.
	crumbs: "#brd-crumbs-top, ul.crumbs, #pun-crumbs1, div.linkst",
}

var (
	topicDivRe = regexp.MustCompile(`^topic(\d+)$`)
	fragPostRe = regexp.MustCompile(`#p(\d+)$`)
	forumIDRe  = regexp.MustCompile(`viewforum\.php\?(?:[^#]*&)?id=(\d+)`)
)

// Section reads the first page of a forum's topic list into thread heads, in the order shown
// (sticky topics first). Moved-topic stubs are left out (they stand for a topic in another
// forum). A forum without topics gives an empty list; a page that is no topic list is an error
// wrapping forum.ErrMarkupChanged.
func Section(doc *goquery.Document, opt options) ([]forum.ThreadHead, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	var heads []forum.ThreadHead
	switch {
	case doc.Find(sec.row14).Length() > 0:
		doc.Find(sec.row14).Each(func(_ int, s *goquery.Selection) {
			if s.HasClass("moved") || s.HasClass("empty") {
				return
			}
			a := s.Find(sec.title14).Last()
			h := forum.ThreadHead{ID: idFromHref(a.AttrOr("href", "")), Title: scrape.Collapse(a.Text()),
				Replies: scrape.Count(s.Find(sec.replies14).First().Text()), Sticky: s.HasClass("sticky")}
			if h.ID == "" {
				if m := topicDivRe.FindStringSubmatch(s.AttrOr("id", "")); m != nil {
					h.ID = m[1]
				}
			}
			last := s.Find(sec.last14).First()
			h.LastPostID = postIDOf(last.AttrOr("href", ""))
			h.LastAt = when(last.Text(), opt)
			h.LastPoster = scrape.Poster(s.Find(sec.poster14).First().Text())
			if h.ID != "" {
				heads = append(heads, h)
			}
		})
	case doc.Find(sec.rowTbl).Length() > 0 && doc.Find(sec.titleTbl).Length() > 0:
		doc.Find(sec.rowTbl).Each(func(_ int, s *goquery.Selection) {
			if s.HasClass("imoved") || s.HasClass("inone") {
				return
			}
			a := s.Find(sec.titleTbl).First()
			id := idFromHref(a.AttrOr("href", ""))
			if id == "" {
				return
			}
			h := forum.ThreadHead{ID: id, Title: scrape.Collapse(a.Text()),
				Replies: scrape.Count(s.Find(sec.repliesTbl).First().Text()),
				Sticky:  hasClassSuffix(s, "isticky") || s.Find("span.stickytext").Length() > 0}
			last := s.Find(sec.lastTbl).First()
			h.LastPostID = postIDOf(last.AttrOr("href", ""))
			h.LastAt = when(last.Text(), opt)
			h.LastPoster = scrape.Poster(s.Find(sec.posterTbl).First().Text())
			heads = append(heads, h)
		})
	case doc.Find(sec.empty).Length() > 0:
		return nil, nil
	default:
		return nil, fmt.Errorf("punbb: not a forum's topic list: %w", forum.ErrMarkupChanged)
	}
	if len(heads) == 0 && doc.Find(sec.empty).Length() == 0 {
		return nil, fmt.Errorf("punbb: a topic list without a readable topic: %w", forum.ErrMarkupChanged)
	}
	return heads, nil
}

// SectionOf reads the forum a topic page belongs to from its breadcrumb (the last forum link of
// it: the innermost forum); "" when the page shows none.
func SectionOf(doc *goquery.Document) string {
	id := ""
	doc.Find(sec.crumbs).Find("a[href*='viewforum.php']").Each(func(_ int, a *goquery.Selection) {
		if m := forumIDRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
			id = m[1]
		}
	})
	return id
}

// postIDOf is the post a last-post link names: pid=N, else the #pN anchor (MyBB.ru links
// viewtopic.php?id=T&p=N#pP).
func postIDOf(href string) string {
	if id := pidFromHref(href); id != "" {
		return id
	}
	if m := fragPostRe.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

// when is a last post's date; zero when it cannot be read.
func when(text string, opt options) time.Time {
	t, err := parseTime(scrape.Collapse(text), opt.Location, opt.Now)
	if err != nil {
		return time.Time{}
	}
	return t
}

func hasClassSuffix(s *goquery.Selection, suffix string) bool {
	for _, c := range strings.Fields(s.AttrOr("class", "")) {
		if strings.HasSuffix(c, suffix) {
			return true
		}
	}
	return false
}

// sectionBytes reads a topic list page's UTF-8 HTML (tests, fuzzing).
func sectionBytes(body []byte, opt options) ([]forum.ThreadHead, error) {
	heads, _, err := scrape.ParseBytes("punbb", body, opt, Section)
	return heads, err
}
