package mybb

import (
	"context"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// boardPath is the board index (every forum with its thread and post counts and last post).
const boardPath = "index.php"

// extractBoard reads the forums of the board index: per forum row (forumbit) its fid, thread and
// post counts and the last post's thread and poster. Sub-forums listed inside a row are counted
// in their parent's row by MyBB and are not rows of their own. A page without forum rows is its
// MyBB error or forum.ErrMarkupChanged.
func extractBoard(doc *goquery.Document) ([]forum.SectionHead, error) {
	var out []forum.SectionHead
	doc.Find("tr").Each(func(_ int, row *goquery.Selection) {
		link := row.Find("td strong a[href*='forumdisplay.php?fid=']").First()
		if link.Length() == 0 {
			return
		}
		href, _ := link.Attr("href")
		fid := firstMatch(reFID, queryOf(strings.ReplaceAll(href, "&amp;", "&")))
		cells := row.Children().Filter("td")
		if fid == "" || cells.Length() < 5 {
			return
		}
		h := forum.SectionHead{ID: fid, Threads: -1, Posts: -1}
		n := cells.Length()
		if v, ok := count(cells.Eq(n - 3).Text()); ok {
			h.Threads = v
		}
		if v, ok := count(cells.Eq(n - 2).Text()); ok {
			h.Posts = v
		}
		last := cells.Eq(n - 1)
		if a := last.Find("a[href*='showthread.php?tid=']").First(); a.Length() > 0 {
			ahref, _ := a.Attr("href")
			h.LastThread = firstMatch(reTID, queryOf(strings.ReplaceAll(ahref, "&amp;", "&")))
		}
		if a := last.Find("a[href*='member.php']").Last(); a.Length() > 0 {
			h.LastPoster = strings.TrimSpace(a.Text())
		}
		out = append(out, h)
	})
	if len(out) == 0 {
		if err := pageError(doc); err != nil {
			return nil, err
		}
		return nil, markup("no forum rows on the board index")
	}
	return out, nil
}

// count reads a count cell ("1,234" or "1 234").
func count(s string) (int, bool) {
	n := scrape.Count(s)
	return n, n >= 0
}

// Board reads the board index: one request for every section's counts.
func (r *reader) Board(ctx context.Context) ([]forum.SectionHead, error) {
	var out []forum.SectionHead
	err := r.relogin(ctx, func() error {
		doc, err := r.Get(ctx, boardPath)
		if err != nil {
			return err
		}
		if LoggedIn(doc) {
			r.notePM(UnreadPM(doc))
		}
		out, err = extractBoard(doc)
		return err
	})
	return out, err
}
