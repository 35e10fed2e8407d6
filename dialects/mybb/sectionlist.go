package mybb

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sectionPath is the first page of forum fid's thread list (forumdisplay.php).
func sectionPath(fid string) string { return "forumdisplay.php?fid=" + url.QueryEscape(fid) }

// section is what a forumdisplay.php page yields.
type section struct {
	ForumID  string `json:"forum_id"` // from the page's own links (new-thread button, sort links, pagination)
	Page     int    `json:"page"`     // current page of the thread list (1-based)
	LastPage int    `json:"last_page"`
	LoggedIn bool   `json:"logged_in"`
	UnreadPM bool   `json:"unread_pm,omitempty"` // as Page.UnreadPM
	// Threads in the order the page lists them: sticky ones first ("Important Threads"), then
	// the others by last post, newest first (MyBB's default sort).
	Threads []forum.ThreadHead `json:"threads"`
}

// extractSection reads the thread list of a forumdisplay.php page: per thread its id, title,
// replies (the "who posted" link), the last post's time (the board's relative dates resolved
// like a thread page's) and poster, and whether it is sticky. The list does not show the last
// post's id (its link is action=lastpost), so LastPostID stays empty. A page without a thread
// list is its MyBB error or forum.ErrMarkupChanged; a forum without threads is an empty list
// (MyBB's "no threads" row).
func extractSection(doc *goquery.Document, o options) (*section, error) {
	rows := findAlt(doc.Selection, selectors.SectionRow)
	s := &section{LoggedIn: LoggedIn(doc), UnreadPM: UnreadPM(doc), ForumID: sectionFID(doc)}
	s.Page, s.LastPage = pagination(doc)
	if rows.Length() == 0 {
		if err := pageError(doc); err != nil {
			return nil, err
		}
		if doc.Find(selectors.SectionEmpty).Length() > 0 || doc.Find(selectors.NewThread).Length() > 0 && s.ForumID != "" {
			return s, nil
		}
		return nil, markup("no thread rows (%s) on the forum page", selectors.SectionRow)
	}
	var problems []string
	rows.Each(func(_ int, row *goquery.Selection) {
		subj := findAlt(row, selectors.SectionSubject).First()
		if subj.Length() == 0 {
			return // not a thread row (an announcement, a separator)
		}
		href, _ := subj.Attr("href")
		h := forum.ThreadHead{ID: firstMatch(reTID, queryOf(strings.ReplaceAll(href, "&amp;", "&"))), Replies: -1}
		if h.ID == "" {
			h.ID = firstMatch(reTIDSEO, href)
		}
		if h.ID == "" { // Google SEO's Thread-Name links: the id is only on the title's span
			h.ID = firstMatch(reSpanTID, subj.Parent().AttrOr("id", ""))
		}
		if h.ID == "" {
			problems = append(problems, "thread link without an id: "+href)
			return
		}
		h.Title = scrape.Collapse(subj.Text())
		h.Sticky = row.Find(selectors.SectionSticky).Length() > 0
		if n, ok := countOf(findAlt(row, selectors.SectionReplies).First().Text()); ok {
			h.Replies = n
		}
		last := row.Find(selectors.SectionLastPost).First()
		if last.Length() > 0 {
			title, text, rest := lastPostDate(last)
			if t, ok := o.parseDateTitle(title, text, rest); ok {
				h.LastAt = t
			}
			h.LastPoster = lastPoster(last)
		}
		s.Threads = append(s.Threads, h)
	})
	if len(s.Threads) == 0 {
		return nil, markup("no thread on the forum page could be read (%s): %s", selectors.SectionSubject, strings.Join(problems, "; "))
	}
	return s, nil
}

// findAlt is what the first alternative of sels ("||") that matches anything in s matches.
func findAlt(s *goquery.Selection, sels string) *goquery.Selection {
	for _, alt := range strings.Split(sels, "||") {
		if found := s.Find(strings.TrimSpace(alt)); found.Length() > 0 {
			return found
		}
	}
	return s.Find("#none-of-these")
}

var (
	reTIDSEO  = regexp.MustCompile(`(?i)thread-(\d+)(?:-[^/]*)?\.html`)
	reSpanTID = regexp.MustCompile(`^tid_(\d+)$`)
)

// countOf reads a count as MyBB prints it ("1,234", "1 234", "1.234").
func countOf(s string) (int, bool) {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(b.String())
	return n, err == nil
}

// lastPostDate splits the date part of the last-post cell (everything before its first <br>):
// a span[title] ("<span title="12-01-2026, 07:33 AM">1 minute ago</span>", or
// "<span title="11-30-2026">Yesterday</span>, 11:33 AM") with the text beside it, or plain text
// ("11-26-2026, 07:33 AM").
func lastPostDate(cell *goquery.Selection) (title, text, rest string) {
	var restB strings.Builder
	for n := cell.Nodes[0].FirstChild; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "br" {
			break
		}
		if n.Type == html.ElementNode && n.Data == "a" {
			break // a theme without the <br>: the date ends where the links start
		}
		sel := goquery.NewDocumentFromNode(n).Selection
		if n.Type == html.ElementNode && title == "" {
			if t, ok := sel.Attr("title"); ok {
				title, text = t, sel.Text()
				continue
			}
		}
		restB.WriteString(sel.Text())
	}
	rest = scrape.Collapse(restB.String())
	if title == "" {
		return "", rest, ""
	}
	return title, scrape.Collapse(text), rest
}

// lastPoster is the last poster's name in the last-post cell: the profile link, or (a guest's
// post) the plain name after the "Last Post:" link.
func lastPoster(cell *goquery.Selection) string {
	if a := cell.Find(selectors.AuthorLink + ", a[href*='member.php'], a[href*='user-']").Last(); a.Length() > 0 {
		return scrape.Collapse(a.Text())
	}
	lp := cell.Find("a[href*='action=lastpost']").Last()
	if lp.Length() == 0 {
		return ""
	}
	var b strings.Builder
	for n := lp.Nodes[0].NextSibling; n != nil; n = n.NextSibling {
		b.WriteString(goquery.NewDocumentFromNode(n).Text())
	}
	return strings.TrimSpace(strings.TrimPrefix(scrape.Collapse(b.String()), ":"))
}

var reFID = regexp.MustCompile(`(?:^|[?&;])fid=(\d+)`)
var reFIDSEO = regexp.MustCompile(`(?i)forum-(\d+)(?:-[^/]*)?\.html`)

// fidOf reads a forum id from a forumdisplay.php link (or a SEO forum-N.html one).
func fidOf(href string) string {
	href = strings.ReplaceAll(href, "&amp;", "&")
	if strings.Contains(href, "forumdisplay.php") {
		return firstMatch(reFID, queryOf(href))
	}
	return firstMatch(reFIDSEO, href)
}

// sectionFID is the forum a forumdisplay page shows: its new-thread button, its sort links, its
// mark-read link, else its pagination (the breadcrumb ends with the forum itself as plain text).
func sectionFID(doc *goquery.Document) string {
	var fid string
	doc.Find(selectors.NewThread + ", " + selectors.SectionEmpty + ", a[href*='action=markread'], " + selectors.Pagination + " a").
		EachWithBreak(func(_ int, a *goquery.Selection) bool {
			href := strings.ReplaceAll(a.AttrOr("href", ""), "&amp;", "&")
			if fid = firstMatch(reFID, queryOf(href)); fid == "" {
				fid = fidOf(href)
			}
			return fid == ""
		})
	if fid == "" { // Google SEO's Forum-Name links carry no id: the forum jump's selection
		fid = doc.Find(selectors.ForumJump).First().AttrOr("value", "")
	}
	return fid
}

// breadcrumbFID is the forum a thread page (or a forum page) belongs to: the last forum link of
// the breadcrumb (div.navigation), the innermost forum ("" when the page has none).
func breadcrumbFID(doc *goquery.Document) string {
	fid := ""
	doc.Find(selectors.Breadcrumb).Each(func(_ int, a *goquery.Selection) {
		if f := fidOf(a.AttrOr("href", "")); f != "" {
			fid = f
		}
	})
	if fid == "" { // Google SEO's Forum-Name links carry no id: the forum jump's selection
		fid = doc.Find(selectors.ForumJump).First().AttrOr("value", "")
	}
	return fid
}

// moderates reports whether a page shows the account the moderation tools of the thread's forum:
// showthread.php's inline moderation (a checkbox per post and the "moderation.php" form), which
// MyBB draws exactly when is_moderator(fid) holds — the test that also exempts a poster from
// flood control — or a reply form's moderator options (close, stick), drawn for a moderator with
// those rights. A reply form alone is not proof either way: a moderator without the close and
// stick rights sees no options there (testdata/forums/mybb/section 36, 37), so read a thread page.
func moderates(doc *goquery.Document) bool {
	return doc.Find(selectors.InlineMod+", "+selectors.ModOptions).Length() > 0
}

// Section reads the first page of forum fid's thread list.
func (r *reader) Section(ctx context.Context, fid string) (*section, error) {
	if fid == "" {
		return nil, fmt.Errorf("mybb: empty forum id")
	}
	var s *section
	err := r.relogin(ctx, func() error {
		doc, err := r.Get(ctx, sectionPath(fid))
		if err != nil {
			return err
		}
		s, err = extractSection(doc, r.Options)
		if err == nil && s.ForumID != "" && s.ForumID != fid {
			// A link forum, or the board answered another page: its list is not this section's.
			err = markup("forumdisplay.php?fid=%s answered the list of forum %s", fid, s.ForumID)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.LoggedIn {
		r.notePM(s.UnreadPM)
	}
	return s, nil
}

// SectionOf is the forum thread tid belongs to, as the breadcrumb of its last page read showed
// it ("" before any page of it was read).
func (r *reader) SectionOf(tid string) string {
	if st, ok := r.threads[tid]; ok {
		return st.Section
	}
	return ""
}
