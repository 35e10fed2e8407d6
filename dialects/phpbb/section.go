package phpbb

import (
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sectionSel is the selector table of a forum's topic list (viewforum.php?f=N: prosilver's
// viewforum_body.html) and of the breadcrumb that names a topic's forum (navbar_header.html).
var sectionSel = struct {
	Row, Title, Replies, LastPost, LastTime, LastPoster, LastPosterOld string
	Pinned                                                             []string // row classes of topics kept on top
	Crumb, CrumbLink, ReturnLink                                       string
	TotalPosts                                                         string
}{
	Row:        "ul.topiclist.topics > li.row",
	Title:      "a.topictitle",
	Replies:    "dd.posts",
	LastPost:   "dd.lastpost a[href*='p=']",
	LastTime:   "dd.lastpost time[datetime]",
	LastPoster: "dd.lastpost a.username, dd.lastpost a.username-coloured, dd.lastpost span.username, dd.lastpost span.username-coloured",
	// phpBB 3.0's profile links have no class.
	LastPosterOld: "dd.lastpost a[href*='mode=viewprofile']",
	Pinned:        []string{"sticky", "announce", "global-announce"},
	// 3.1+: span.crumb[data-forum-id]; 3.0: the forum links of ul.navlinks, or the "Return to"
	// link (accesskey r) of styles without a breadcrumb.
	Crumb:      "#nav-breadcrumbs span.crumb[data-forum-id]",
	CrumbLink:  "ul.navlinks a[href*='viewforum.php'], .breadcrumbs a[href*='viewforum.php']",
	ReturnLink: "a[accesskey='r'][href*='viewforum.php']",
	// prosilver's div.pagination ("14 posts"), div.paging of styles built on it, subsilver2's
	// cell after td.nav ("[ 14 posts ]").
	TotalPosts: "div.pagination, div.paging, td.nav + td.gensmall",
}

var (
	topicRe    = regexp.MustCompile(`[?&](?:amp;)?t=(\d+)`)
	lastPostRe = regexp.MustCompile(`[?&](?:amp;)?p=(\d+)|#p(\d+)$`)
	forumRe    = regexp.MustCompile(`viewforum\.php\?(?:[^#]*&)?f=(\d+)`)
)

// readSection reads the first page of a forum's topic list into thread heads, in the order shown
// (announcements and sticky topics first, both Sticky). A forum without topics gives an empty
// list; a page that is no topic list is an error wrapping forum.ErrMarkupChanged.
func readSection(doc *goquery.Document) ([]forum.ThreadHead, error) {
	if doc.Find(sectionSel.Row).Length() == 0 && doc.Find("h2.forum-title").Length() == 0 {
		return nil, scrape.Markup("phpbb", "not a forum's topic list")
	}
	var heads []forum.ThreadHead
	doc.Find(sectionSel.Row).Each(func(_ int, s *goquery.Selection) {
		a := s.Find(sectionSel.Title).First()
		m := topicRe.FindStringSubmatch(a.AttrOr("href", ""))
		if m == nil {
			return
		}
		h := forum.ThreadHead{ID: m[1], Title: strings.Join(strings.Fields(a.Text()), " "),
			Replies: scrape.Count(s.Find(sectionSel.Replies).First().Text())}
		for _, c := range sectionSel.Pinned {
			h.Sticky = h.Sticky || s.HasClass(c)
		}
		if lm := lastPostRe.FindStringSubmatch(s.Find(sectionSel.LastPost).Last().AttrOr("href", "")); lm != nil {
			h.LastPostID = lm[1] + lm[2]
		}
		if t, err := time.Parse(time.RFC3339, s.Find(sectionSel.LastTime).First().AttrOr("datetime", "")); err == nil {
			h.LastAt = t
		}
		h.LastPoster = strings.Join(strings.Fields(s.Find(sectionSel.LastPoster).First().Text()), " ")
		if h.LastPoster == "" {
			h.LastPoster = strings.Join(strings.Fields(s.Find(sectionSel.LastPosterOld).First().Text()), " ")
		}
		heads = append(heads, h)
	})
	if len(heads) == 0 && doc.Find(sectionSel.Row).Length() > 0 {
		return nil, scrape.Markup("phpbb", "a topic list without a readable topic")
	}
	return heads, nil
}

// sectionOf reads the forum a topic page belongs to from its breadcrumb (the innermost forum);
// "" when the page shows none.
func sectionOf(doc *goquery.Document) string {
	if id := doc.Find(sectionSel.Crumb).Last().AttrOr("data-forum-id", ""); id != "" {
		return id
	}
	for _, sel := range []string{sectionSel.CrumbLink, sectionSel.ReturnLink} {
		if m := forumRe.FindStringSubmatch(doc.Find(sel).Last().AttrOr("href", "")); m != nil {
			return m[1]
		}
	}
	return ""
}

// totalPosts is the number of posts of the topic a topic page shows in its pagination bar
// ("14 posts"; TOTAL_POSTS of viewtopic_body.html; subsilver2 "[ 14 posts ]"), -1 when it shows
// none.
func totalPosts(doc *goquery.Document) int {
	p := doc.Find(sectionSel.TotalPosts).First().Clone()
	p.Find("ul, a").Remove()
	return scrape.Count(p.Text())
}

// sectionBytes reads a saved topic list (tests, fuzzing).
func sectionBytes(page []byte, contentType string) ([]forum.ThreadHead, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	return readSection(doc)
}
