package smf

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sec is the selector table of a board's topic list (index.php?board=N.0) and of the linktree
// that names a topic's board. SMF 2.1 (MessageIndex.template.php of release-2.1) writes a topic as
// a div of #topic_container; SMF 2.0 (the same template in 2.0) as a row of
// #messageindex table.table_grid, with the last post's date as text after its icon link.
var sec = struct {
	list, row, title, sticky, moved, stats, last, lastPara, poster string
	row20, title20, stats20, last20, cell20                        string
	crumbs                                                         string
}{
	list:     "#messageindex, #topic_container",
	row:      "#topic_container > div",
	title:    "div.message_index_title span[id^='msg_'] a[href]",
	sticky:   "div.icons span.main_icons.sticky",
	moved:    "div.icons span.main_icons.move",
	stats:    "div.board_stats p",
	last:     "div.lastpost a[href*='topic']",
	lastPara: "div.lastpost p",
	poster:   "div.lastpost a[href*='action=profile']",

	row20:   "#messageindex table.table_grid > tbody > tr",
	title20: "td.subject span[id^='msg_'] a[href]",
	stats20: "td.stats",
	last20:  "td.lastpost a[href*='topic']",
	cell20:  "td.lastpost",
	// 2.1 div.navigate_section, 2.0 ul.linktree
	crumbs: "div.navigate_section, ul.linktree",
}

var (
	firstMsgRe = regexp.MustCompile(`^msg_(\d+)$`)
	boardRe    = regexp.MustCompile(`[?;&]board=(\d+)|/board,(\d+)\.`)
)

// Section reads the first page of a board's topic list into thread heads, in the order shown
// (sticky topics first). The last post's id is read from its link: a guest's
// topic=T.S#msgM, a member's topic=T.msgM#new, or topic=T.0#new for a topic without replies,
// whose last post is its first. Moved-topic notices are left out (they stand for a topic on
// another board). SMF 2.0's rows (sticky: the stickybg colour class) are read the same way. A
// board without topics gives an empty list; a page that is no topic list is an
// error wrapping forum.ErrMarkupChanged.
func Section(doc *goquery.Document, opt options) ([]forum.ThreadHead, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if doc.Find(sec.list).Length() == 0 {
		return nil, fmt.Errorf("smf: not a board's topic list: %w", forum.ErrMarkupChanged)
	}
	var heads []forum.ThreadHead
	doc.Find(sec.row).Each(func(_ int, s *goquery.Selection) {
		if s.Find(sec.moved).Length() > 0 {
			return
		}
		a := s.Find(sec.title).First()
		h, ok := head(a, s.Find(sec.stats).First().Text(), s.Find(sec.last).First(), opt)
		if !ok {
			return
		}
		h.Sticky = s.Find(sec.sticky).Length() > 0 || s.HasClass("sticky")
		if p := s.Find(sec.poster).Last(); p.Length() > 0 {
			h.LastPoster = scrape.Collapse(p.Text())
		} else if para := s.Find(sec.lastPara).First(); para.Length() > 0 {
			// A guest's name is not linked: the words after the link ("by Name").
			text := scrape.Collapse(para.Text())
			h.LastPoster = scrape.Poster(strings.TrimSpace(strings.TrimPrefix(text, scrape.Collapse(s.Find(sec.last).First().Text()))))
		}
		heads = append(heads, h)
	})
	doc.Find(sec.row20).Each(func(_ int, s *goquery.Selection) {
		cell := s.Find(sec.cell20).First()
		// The cell: the icon link, the date, <br>, "by" and the poster.
		date, by, _ := strings.Cut(cellHTML(cell), "<br")
		h, ok := head(s.Find(sec.title20).First(), s.Find(sec.stats20).First().Text(), cell.Find("a[href*='topic']").First(), opt)
		if !ok {
			return
		}
		if t, err := parseTime(scrape.Collapse(textOf(date)), opt.Location, opt.Now); err == nil {
			h.LastAt = t
		}
		h.Sticky = strings.Contains(s.Find("td.subject").AttrOr("class", ""), "stickybg")
		if p := cell.Find("a[href*='action=profile']").Last(); p.Length() > 0 {
			h.LastPoster = scrape.Collapse(p.Text())
		} else if _, rest, ok := strings.Cut(by, ">"); ok {
			h.LastPoster = scrape.Poster(scrape.Collapse(textOf(rest)))
		}
		heads = append(heads, h)
	})
	rows := doc.Find(sec.row).Length() + doc.Find(sec.row20).Length()
	if len(heads) == 0 && rows > 0 && doc.Find(sec.row).Find(sec.moved).Length() == 0 {
		return nil, fmt.Errorf("smf: a topic list without a readable topic: %w", forum.ErrMarkupChanged)
	}
	return heads, nil
}

// head is a thread head from a topic link (a), the replies cell's text and the last post's link;
// false when the link names no topic.
func head(a *goquery.Selection, stats string, last *goquery.Selection, opt options) (forum.ThreadHead, bool) {
	m := topicIDRe.FindStringSubmatch(a.AttrOr("href", ""))
	if m == nil {
		return forum.ThreadHead{}, false
	}
	h := forum.ThreadHead{ID: m[1] + m[2], Title: scrape.Collapse(a.Text()), Replies: scrape.Count(stats)}
	h.LastPostID = msgIDFromHref(last.AttrOr("href", ""))
	if h.LastPostID == "" && h.Replies == 0 {
		// topic=T.0#new: a topic without replies, whose last post is its first.
		if fm := firstMsgRe.FindStringSubmatch(a.Parent().AttrOr("id", "")); fm != nil {
			h.LastPostID = fm[1]
		}
	}
	if t, err := parseTime(scrape.Collapse(last.Text()), opt.Location, opt.Now); err == nil {
		h.LastAt = t
	}
	return h, true
}

func cellHTML(s *goquery.Selection) string {
	h, _ := s.Html()
	return h
}

// textOf is the text of an HTML fragment.
func textOf(fragment string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader("<div>" + fragment + "</div>"))
	if err != nil {
		return ""
	}
	return doc.Text()
}

// sectionOf reads the board a topic page belongs to from its linktree (the last board link: the
// innermost board); "" when the page shows none.
func sectionOf(doc *goquery.Document) string {
	id := ""
	doc.Find(sec.crumbs).First().Find("a[href]").Each(func(_ int, a *goquery.Selection) {
		if m := boardRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
			id = m[1] + m[2]
		}
	})
	return id
}

// sectionBytes reads a topic list page's UTF-8 HTML (tests, fuzzing).
func sectionBytes(body []byte, opt options) ([]forum.ThreadHead, error) {
	heads, _, err := scrape.ParseBytes("smf", body, opt, Section)
	return heads, err
}
