package invision

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sectionSel is the selector table of an Invision Community 4 forum's topic list (forum/<id>-<slug>/:
// forums/front/forums/forumTable with its rows from topicRow) and of the breadcrumb that names a
// topic's forum (core/front/global/breadcrumb).
var sectionSel = struct {
	Table, Row, Title, Stats, Replies, LastPoster, LastTime, Pinned, Crumb string
}{
	Table: "[data-tableid='topics'], ol.cForumTopicTable",
	// A moved topic's row and an advertisement's are li.ipsDataItem too, without data-rowid.
	Row:   "li.ipsDataItem[data-rowid]",
	Title: "h4.ipsDataItem_title span.ipsType_break a",
	Stats: "ul.ipsDataItem_stats > li",
	// The replies stat (lang forums_comments); its number is written short ("1.6k") from 1000.
	Replies:    "ul.ipsDataItem_stats > li[data-stattype='forums_comments'] .ipsDataItem_stats_number",
	LastPoster: "ul.ipsDataItem_lastPoster > li",
	LastTime:   "ul.ipsDataItem_lastPoster time[datetime]",
	Pinned:     "h4.ipsDataItem_title .ipsBadge i.fa-thumb-tack, h4.ipsDataItem_title .ipsBadge i.fa-thumbtack",
	Crumb:      "nav.ipsBreadcrumb [data-role='breadcrumbList'] a[href], nav.ipsBreadcrumb a[href]",
}

var (
	topicRe   = regexp.MustCompile(`/topic/(\d+)(?:[-/?#]|$)`)
	forumIDRe = regexp.MustCompile(`/forum/(\d+)(?:[-/?#]|$)`)
	shortRe   = regexp.MustCompile(`\d\s*\p{L}`) // "1.6k", "2 тыс."
)

// readSection reads the first page of a forum's topic list into thread heads, in the order shown
// (pinned topics first, Sticky). The list shows no last comment id. A forum without topics gives
// an empty list; a page that is no topic list is an error wrapping forum.ErrMarkupChanged.
func readSection(doc *goquery.Document) ([]forum.ThreadHead, error) {
	rows := doc.Find(sectionSel.Row)
	if rows.Length() == 0 && doc.Find(sectionSel.Table).Length() == 0 {
		return nil, scrape.Markup("invision", "not a forum's topic list")
	}
	var heads []forum.ThreadHead
	rows.Each(func(_ int, s *goquery.Selection) {
		a := s.Find(sectionSel.Title).First()
		id := strings.TrimSpace(s.AttrOr("data-rowid", ""))
		if _, err := strconv.Atoi(id); err != nil {
			id = ""
			if m := topicRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
				id = m[1]
			}
		}
		if id == "" {
			return
		}
		h := forum.ThreadHead{ID: id, Title: strings.Join(strings.Fields(a.Text()), " "),
			Replies: replies(s), Sticky: s.Find(sectionSel.Pinned).Length() > 0}
		if t, err := time.Parse(time.RFC3339, s.Find(sectionSel.LastTime).First().AttrOr("datetime", "")); err == nil {
			h.LastAt = t
		}
		// The second item names the last commenter (a profile link, or the bare name of a guest);
		// the first holds the photo, the third the time.
		if li := s.Find(sectionSel.LastPoster); li.Length() >= 2 {
			h.LastPoster = strings.Join(strings.Fields(li.Eq(1).Text()), " ")
		}
		heads = append(heads, h)
	})
	if len(heads) == 0 && rows.Length() > 0 {
		return nil, scrape.Markup("invision", "a topic list without a readable topic")
	}
	return heads, nil
}

// replies reads the replies stat (the first stat when none is typed forums_comments); -1 when
// it is missing or written short ("1.6k" names no exact count).
func replies(row *goquery.Selection) int {
	n := row.Find(sectionSel.Replies).First()
	if n.Length() == 0 {
		n = row.Find(sectionSel.Stats).First().Find(".ipsDataItem_stats_number")
	}
	text := strings.TrimSpace(n.Text())
	if shortRe.MatchString(text) {
		return -1
	}
	return scrape.Count(text)
}

// sectionOf reads the forum a topic page belongs to from its breadcrumb (the innermost forum
// link, forum/<id>-<slug>/); "" when the page shows none.
func sectionOf(doc *goquery.Document) string {
	links := doc.Find(sectionSel.Crumb)
	for i := links.Length() - 1; i >= 0; i-- {
		if m := forumIDRe.FindStringSubmatch(links.Eq(i).AttrOr("href", "")); m != nil {
			return m[1]
		}
	}
	return ""
}

// sectionBytes reads a saved topic list (tests, fuzzing).
func sectionBytes(page []byte, contentType string) ([]forum.ThreadHead, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	return readSection(doc)
}
