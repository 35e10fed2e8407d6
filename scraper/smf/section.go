package smf

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/scraper/extract"
	"forumgm/scraper/htmltext"
)

// sec is the selector table of a board's topic list (index.php?board=N.0, SMF 2.1
// MessageIndex.template.php) and of the linktree that names a topic's board.
var sec = struct {
	list, row, title, sticky, moved, stats, last, lastPara, poster string
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
// another board). A board without topics gives an empty list; a page that is no topic list is an
// error wrapping forum.ErrMarkupChanged.
func Section(doc *goquery.Document, opt Options) ([]forum.ThreadHead, error) {
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
		m := topicIDRe.FindStringSubmatch(a.AttrOr("href", ""))
		if m == nil {
			return
		}
		h := forum.ThreadHead{ID: m[1] + m[2], Title: htmltext.Collapse(a.Text()),
			Replies: extract.Count(s.Find(sec.stats).First().Text()),
			Sticky:  s.Find(sec.sticky).Length() > 0 || s.HasClass("sticky")}
		last := s.Find(sec.last).First()
		h.LastPostID = msgIDFromHref(last.AttrOr("href", ""))
		if h.LastPostID == "" && h.Replies == 0 {
			if fm := firstMsgRe.FindStringSubmatch(a.Parent().AttrOr("id", "")); fm != nil {
				h.LastPostID = fm[1]
			}
		}
		if t, err := ParseTime(htmltext.Collapse(last.Text()), opt.Location, opt.Now); err == nil {
			h.LastAt = t
		}
		if p := s.Find(sec.poster).Last(); p.Length() > 0 {
			h.LastPoster = htmltext.Collapse(p.Text())
		} else if para := s.Find(sec.lastPara).First(); para.Length() > 0 {
			// A guest's name is not linked: the words after the link ("by Name").
			text := htmltext.Collapse(para.Text())
			h.LastPoster = extract.Poster(strings.TrimSpace(strings.TrimPrefix(text, htmltext.Collapse(last.Text()))))
		}
		heads = append(heads, h)
	})
	if len(heads) == 0 && doc.Find(sec.row).Length() > 0 && doc.Find(sec.row).Find(sec.moved).Length() == 0 {
		return nil, fmt.Errorf("smf: a topic list without a readable topic: %w", forum.ErrMarkupChanged)
	}
	return heads, nil
}

// SectionOf reads the board a topic page belongs to from its linktree (the last board link: the
// innermost board); "" when the page shows none.
func SectionOf(doc *goquery.Document) string {
	id := ""
	doc.Find(sec.crumbs).First().Find("a[href]").Each(func(_ int, a *goquery.Selection) {
		if m := boardRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
			id = m[1] + m[2]
		}
	})
	return id
}

// SectionBytes reads a topic list page's UTF-8 HTML (tests, fuzzing).
func SectionBytes(body []byte, opt Options) ([]forum.ThreadHead, error) {
	heads, _, err := extract.ParseBytes("smf", body, opt, Section)
	return heads, err
}
