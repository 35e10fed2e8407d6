package xenforo

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sectionSel is the selector table of a XenForo 2 forum's thread list (forums/<slug>.<id>/: the
// forum_view template, its rows written by thread_list_macros' "item" macro) and of the
// breadcrumb that names a thread's forum (PAGE_CONTAINER's ul.p-breadcrumbs).
var sectionSel = struct {
	Container, Row, Title, Replies, LastTime, LastPoster string
	Sticky                                               string // a row's mark of a sticky thread
	Crumb                                                string
}{
	Container:  ".structItemContainer",
	Row:        "div.structItem--thread",
	Title:      ".structItem-title a:not(.labelLink)", // a prefix's labelLink comes first
	Replies:    ".structItem-cell--meta dl.pairs--justified dd",
	LastTime:   ".structItem-cell--latest time",
	LastPoster: ".structItem-cell--latest .username",
	// 2.0: the status icon (and the sticky group); later styles also class the row is-sticky.
	Sticky: ".structItem-status--sticky",
	Crumb:  ".p-breadcrumbs a[href*='forums/']",
}

var (
	threadRe   = regexp.MustCompile(`threads/(?:[^/?#]*\.)?(\d+)(?:/|$)`)
	rowIDRe    = regexp.MustCompile(`\bjs-threadListItem-(\d+)\b`)
	forumIDRe  = regexp.MustCompile(`forums/(?:[^/?#]*\.)?(\d+)(?:/|$)`)
	xfDateTime = "2006-01-02T15:04:05-0700"       // xf:date's datetime attribute (no colon in the zone)
	shortRe    = regexp.MustCompile(`\d\s*\p{L}`) // number_short: "1.2K", "1,2 тыс."
)

// readSection reads the first page of a forum's thread list into thread heads, in the order shown
// (the sticky group first, Sticky). The list shows no last post id. A forum without threads
// gives an empty list; a page that is no thread list is an error wrapping forum.ErrMarkupChanged.
func readSection(doc *goquery.Document) ([]forum.ThreadHead, error) {
	rows := doc.Find(sectionSel.Row)
	if rows.Length() == 0 && doc.Find(sectionSel.Container).Length() == 0 {
		return nil, scrape.Markup("xenforo", "not a forum's thread list")
	}
	var heads []forum.ThreadHead
	rows.Each(func(_ int, s *goquery.Selection) {
		a := s.Find(sectionSel.Title).Last()
		id := ""
		if m := threadRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
			id = m[1]
		} else if m := rowIDRe.FindStringSubmatch(s.AttrOr("class", "")); m != nil {
			id = m[1]
		}
		if id == "" {
			return
		}
		h := forum.ThreadHead{ID: id, Title: strings.Join(strings.Fields(a.Text()), " "),
			Replies: replies(s.Find(sectionSel.Replies).First().Text()),
			Sticky: s.Find(sectionSel.Sticky).Length() > 0 || s.HasClass("is-sticky") ||
				s.ParentFiltered(".structItemContainer-group--sticky").Length() > 0,
			LastPoster: strings.Join(strings.Fields(s.Find(sectionSel.LastPoster).First().Text()), " ")}
		h.LastAt = xfTime(s.Find(sectionSel.LastTime).First())
		heads = append(heads, h)
	})
	if len(heads) == 0 && rows.Length() > 0 {
		return nil, scrape.Markup("xenforo", "a thread list without a readable thread")
	}
	return heads, nil
}

// replies reads the replies count; -1 when missing ("&ndash;" of a redirect thread) or written
// short: XenForo 2.1 and later filter it through number_short ("1.2K" from 1000 on), which names
// no exact count.
func replies(text string) int {
	if shortRe.MatchString(text) {
		return -1
	}
	return scrape.Count(text)
}

// xfTime reads an xf:date element: data-time (Unix seconds), else its datetime attribute.
func xfTime(t *goquery.Selection) time.Time {
	if n, err := strconv.ParseInt(t.AttrOr("data-time", ""), 10, 64); err == nil && n > 0 {
		return time.Unix(n, 0).UTC()
	}
	dt := t.AttrOr("datetime", "")
	for _, layout := range []string{xfDateTime, time.RFC3339} {
		if v, err := time.Parse(layout, dt); err == nil {
			return v
		}
	}
	return time.Time{}
}

// sectionOf reads the forum a thread page belongs to from its breadcrumb (the innermost forum
// link), else, on a board whose route filters renamed forums/ (RageZone's community/<slug>.N/),
// from the node PAGE_CONTAINER names as the thread's container (html[data-container-key=
// "node-N"] with data-content-key="thread-M", XenForo 2.1+); "" when the page shows none.
func sectionOf(doc *goquery.Document) string {
	if m := forumIDRe.FindStringSubmatch(doc.Find(sectionSel.Crumb).Last().AttrOr("href", "")); m != nil {
		return m[1]
	}
	h := doc.Find("html").First()
	if strings.HasPrefix(h.AttrOr("data-content-key", ""), "thread-") {
		if m := nodeKeyRe.FindStringSubmatch(h.AttrOr("data-container-key", "")); m != nil {
			return m[1]
		}
	}
	return ""
}

var nodeKeyRe = regexp.MustCompile(`^node-(\d+)$`)

// sectionBytes reads a saved thread list (tests, fuzzing).
func sectionBytes(page []byte, contentType string) ([]forum.ThreadHead, error) {
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	return readSection(doc)
}
