package phpbb

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum/scrape"
)

// fillPages completes pg, a page of a topic read from doc (at base), with the previous and next
// pages' links when the style writes no such links but numbers its pages: phpBB 3.0 prosilver's
// pagination is "1, <strong>2</strong>, 3" only. The links numbered Current-1 and Current+1 are
// taken, session ids left out.
func fillPages(doc *goquery.Document, pg *scrape.Page, base *url.URL) {
	if pg == nil || (pg.Prev != "" || pg.Current <= 1) && (pg.Next != "" || pg.Current >= pg.Last) {
		return
	}
	doc.Find("div.pagination a[href], td.nav a[href], td.gensmall a[href]").Each(func(_ int, s *goquery.Selection) {
		n, err := strconv.Atoi(strings.TrimSpace(s.Text()))
		if err != nil {
			return
		}
		href, _ := s.Attr("href")
		switch {
		case n == pg.Current-1 && pg.Prev == "":
			pg.Prev = scrape.Link(base, href)
		case n == pg.Current+1 && pg.Next == "":
			pg.Next = scrape.Link(base, href)
		}
	})
}
