package mybb

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"

	"github.com/PuerkitoBio/goquery"
)

// options are what extraction needs besides the page: where the board lives (to make links
// absolute), its time zone, and the clock that relative dates are resolved against.
type options struct {
	BaseURL     string
	Location    *time.Location
	Now         func() time.Time
	DateLayouts []string // extra absolute layouts (Go syntax), tried first
}

// optionsFrom takes the extraction options from a dialect config. Extra["date_layout"] adds a
// board-specific absolute date layout.
func optionsFrom(cfg forum.Config) options {
	o := options{BaseURL: cfg.BaseURL, Location: cfg.Location, Now: cfg.Now}
	if l := cfg.Extra["date_layout"]; l != "" {
		o.DateLayouts = []string{l}
	}
	return o
}

func (o *options) loc() *time.Location {
	if o.Location == nil {
		return time.UTC
	}
	return o.Location
}

func (o *options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Kind is the kind of a MyBB page.
type Kind int

// Page kinds.
const (
	kindUnknown Kind = iota
	kindThread       // showthread.php
	kindPMList       // private.php (a folder)
	kindPM           // private.php?action=read&pmid=N
)

func (k Kind) String() string {
	switch k {
	case kindThread:
		return "thread"
	case kindPMList:
		return "pm-list"
	case kindPM:
		return "pm"
	}
	return "unknown"
}

// Page is what one page yields.
type Page struct {
	Kind     Kind
	ThreadID string // thread pages
	ForumID  string // thread pages: the forum the thread is in (the breadcrumb's last forum link)
	// Moderator: the page shows the bot moderation tools of the thread's forum (moderates).
	Moderator bool
	Subject   string // the thread's or the PM's title
	Page      int    // current page (1-based); 1 when there is no pagination
	LastPage  int    // the last page; equals Page when there is no pagination
	// LastPID is the thread's newest post id as the quick-reply form states it (members only);
	// empty when the page does not say.
	LastPID   string
	MyPostKey string
	LoggedIn  bool
	// UnreadPM: the page shows the bot has an unread private message (the new-PM notice, or
	// the header's counter "(Unread N, …)" with N > 0).
	UnreadPM bool
	Posts    []forum.Post // in page order (thread and PM: oldest first; PM folder: as listed)
}

// MaxPID is the highest post id on the page ("" when none).
func (p *Page) MaxPID() string {
	best := ""
	for _, q := range p.Posts {
		if forum.CompareIDs(q.ID, best) > 0 {
			best = q.ID
		}
	}
	return best
}

// parse parses HTML (already UTF-8).
func parse(body []byte) (*goquery.Document, error) {
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("mybb: parse: %w", err)
	}
	return d, nil
}

// detect tells what kind of page doc is.
func detect(doc *goquery.Document) Kind {
	posts := doc.Find(selectors.Post)
	if posts.Length() > 0 {
		if isPMRead(doc) {
			return kindPM
		}
		return kindThread
	}
	if doc.Find(selectors.PMForm).Length() > 0 {
		return kindPMList
	}
	return kindUnknown
}

func isPMRead(doc *goquery.Document) bool {
	if doc.Find(selectors.PMReplyBtn+", "+selectors.PMDelete).Length() > 0 {
		return true
	}
	id, _ := doc.Find(selectors.Post).First().Attr("id")
	return id == "post_0" && doc.Find("form[action*='private.php']").Length() > 0
}

// extract detects the page kind and extracts it. A page that is none of the known kinds is a
// MyBB error page (its typed error) or an unknown page (forum.ErrMarkupChanged).
func extract(doc *goquery.Document, o options) (*Page, error) {
	switch detect(doc) {
	case kindThread:
		return extractThread(doc, o)
	case kindPM:
		return extractPM(doc, o)
	case kindPMList:
		return extractPMList(doc, o)
	}
	if err := pageError(doc); err != nil {
		return nil, err
	}
	// A login page (a lost session, a proxy's) or a maintenance page is no theme change.
	return nil, forum.Unrecognised(doc.Find("body").Text(), doc.Find("input[type=password]").Length() > 0,
		fmt.Errorf("mybb: no thread, private message or message list on the page: %w", forum.ErrMarkupChanged))
}

// Extractor is the registered forum.Extractor: it decodes the page, detects its kind and
// returns its posts (for a PM folder: one entry per message, without text).
func Extractor(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	body, _, err := forum.Decode(page, contentType)
	if err != nil {
		return nil, err
	}
	doc, err := parse(body)
	if err != nil {
		return nil, err
	}
	p, err := extract(doc, optionsFrom(cfg))
	if err != nil {
		return nil, err
	}
	return p.Posts, nil
}

// pageThread is the id of the thread a thread page is of (Page.ThreadID: the quick-reply form's
// tid, the new-reply button, the posts' permalinks, the search form, the print link), for the
// descriptor's PageThread.
func pageThread(doc *goquery.Document) string {
	if p, err := extractThread(doc, options{}); err == nil {
		return p.ThreadID
	}
	return ""
}

// baseURL is the board root used to make links absolute: the configured one, else the page's
// own `var rootpath = "…"`.
func baseURL(doc *goquery.Document, o options) *url.URL {
	raw := o.BaseURL
	if raw == "" {
		doc.Find("script").EachWithBreak(func(_ int, s *goquery.Selection) bool {
			txt := s.Text()
			if i := strings.Index(txt, `var rootpath = "`); i >= 0 {
				rest := txt[i+len(`var rootpath = "`):]
				if j := strings.IndexByte(rest, '"'); j >= 0 {
					raw = rest[:j]
					return false
				}
			}
			return true
		})
	}
	if raw == "" {
		return nil
	}
	if !strings.HasSuffix(raw, "/") {
		raw += "/"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	return u
}

func absolute(base *url.URL, href string) string {
	if href == "" {
		return ""
	}
	if base == nil {
		return href
	}
	u, err := base.Parse(href)
	if err != nil {
		return href
	}
	return u.String()
}

func firstMatch(re interface{ FindStringSubmatch(string) []string }, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func markup(format string, args ...any) error {
	return fmt.Errorf("mybb: "+format+": %w", append(args, forum.ErrMarkupChanged)...)
}

// extractThread reads a showthread.php page.
func extractThread(doc *goquery.Document, o options) (*Page, error) {
	posts := doc.Find(selectors.Post)
	if posts.Length() == 0 {
		if err := pageError(doc); err != nil {
			return nil, err
		}
		return nil, markup("no post container (%s) on the thread page", selectors.Post)
	}
	base := baseURL(doc, o)
	p := &Page{Kind: kindThread, LoggedIn: LoggedIn(doc), MyPostKey: myPostKey(doc), UnreadPM: UnreadPM(doc),
		ForumID: breadcrumbFID(doc), Moderator: moderates(doc)}
	p.Page, p.LastPage = pagination(doc)
	p.LastPID, _ = doc.Find(selectors.LastPID).First().Attr("value")
	if v, ok := doc.Find(selectors.QuickTID).First().Attr("value"); ok {
		p.ThreadID = v
	} else if href, ok := doc.Find(selectors.NewReply).First().Attr("href"); ok {
		p.ThreadID = firstMatch(reTID, queryOf(href))
	}
	p.Subject = strings.TrimSpace(doc.Find("title").First().Text())
	var err error
	posts.EachWithBreak(func(_ int, s *goquery.Selection) bool {
		var post forum.Post
		post, err = extractPost(s, base, &o)
		if err != nil {
			return false
		}
		if p.ThreadID == "" {
			p.ThreadID = firstMatch(reTID, queryOf(post.Permalink))
		}
		p.Posts = append(p.Posts, post)
		return true
	})
	if err != nil {
		return nil, err
	}
	if p.ThreadID == "" {
		p.ThreadID = threadIDElsewhere(doc, p.Posts)
	}
	for _, post := range p.Posts {
		if post.Author != "" || post.Text != "" || len(post.Quotes) > 0 {
			return p, nil
		}
	}
	return nil, markup("no post has an author or a body (%s, %s)", selectors.AuthorName, selectors.Body)
}

// threadIDElsewhere is the thread id of a page that has neither the quick-reply form nor the
// new-reply button nor a tid= permalink (a guest's page on a board with SEO URLs): MyBB's own
// SEO permalinks (thread-T-post-P.html), the "search this thread" form's tid, the print link.
func threadIDElsewhere(doc *goquery.Document, posts []forum.Post) string {
	for _, post := range posts {
		if id := firstMatch(reTIDSEO, post.Permalink); id != "" {
			return id
		}
	}
	if v := doc.Find(selectors.ThreadTID).First().AttrOr("value", ""); v != "" {
		return v
	}
	href := doc.Find(selectors.PrintThread).First().AttrOr("href", "")
	return firstMatch(reTID, queryOf(strings.ReplaceAll(href, "&amp;", "&")))
}

// UnreadPM reports whether a member's page shows an unread private message: MyBB's new-PM notice
// (#pm_notice), or the header's counter "Private Messages (Unread N, Total M)" with N > 0 (the
// first number in its brackets, whatever the language pack's words).
func UnreadPM(doc *goquery.Document) bool {
	if doc.Find(selectors.PMNotice).Length() > 0 {
		return true
	}
	m := rePMCounter.FindStringSubmatch(doc.Find(selectors.PMCounter).First().Text())
	return m != nil && strings.TrimLeft(m[1], "0") != ""
}

var rePMCounter = regexp.MustCompile(`\(\D*?(\d+)`)

// extractPost reads one div.post.
func extractPost(s *goquery.Selection, base *url.URL, o *options) (forum.Post, error) {
	var post forum.Post
	idAttr, _ := s.Attr("id")
	m := rePostID.FindStringSubmatch(idAttr)
	if m == nil {
		return post, markup("post container id %q is not post_N", idAttr)
	}
	post.ID = m[1]

	// From here on a part that cannot be read costs that part (a problem of the post), not the
	// page.
	name := firstOf(s, selectors.AuthorName)
	if name.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemAuthor, selectors.AuthorName))
	}
	post.Author = scrape.Collapse(name.Text())
	post.AuthorID = authorID(s, name)

	if a := outsideBody(s, selectors.Permalink); a.Length() > 0 {
		href, _ := a.Attr("href")
		post.Permalink = absolute(base, href)
		post.Subject, _ = a.Attr("title")
	}
	if post.Subject == "" {
		post.Subject = scrape.Collapse(outsideBody(s, selectors.PostSubject).Text())
	}

	date := firstOf(s, selectors.PostDate+" || "+selectors.PostDateAlt)
	if date.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemTime, selectors.PostDate))
	} else if t, ok := postTime(date, o); ok {
		post.Time = t
	} else {
		post.Problems = append(post.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: fmt.Sprintf("%q not understood", scrape.Collapse(date.Text()))})
	}
	post.Edited = edited(s)

	post.Quotes = []forum.Quote{}
	body := s.Find(selectors.Body).First()
	if body.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemText, selectors.Body))
		return post, nil
	}
	parts := renderBody(body.Nodes[0])
	post.Text = parts.text
	post.Code = parts.code
	post.Quotes = parts.quotes
	if post.Quotes == nil {
		post.Quotes = []forum.Quote{}
	}
	post.Spoilers = parts.spoilers
	post.Parts = parts.merged
	return post, nil
}

// firstOf is the first element with text matching the first alternative of sels ("||") that
// has one.
func firstOf(s *goquery.Selection, sels string) *goquery.Selection {
	for _, alt := range strings.Split(sels, "||") {
		found := s.Find(strings.TrimSpace(alt)).FilterFunction(func(_ int, e *goquery.Selection) bool {
			return scrape.Collapse(e.Text()) != ""
		})
		if found.Length() > 0 {
			return found.First()
		}
	}
	return s.Find("#none-of-these").First()
}

// outsideBody is the first element matching the first alternative of sels ("||") that has one
// outside the post's body (a quote's link to its post is not the post's permalink).
func outsideBody(s *goquery.Selection, sels string) *goquery.Selection {
	for _, alt := range strings.Split(sels, "||") {
		found := s.Find(strings.TrimSpace(alt)).FilterFunction(func(_ int, e *goquery.Selection) bool {
			return e.Closest(selectors.Body).Length() == 0
		})
		if found.Length() > 0 {
			return found.First()
		}
	}
	return s.Find("#none-of-these").First()
}

// authorID is the author's uid: from the name's profile link (member.php?action=profile&uid=N,
// or the SEO form user-N.html), else from the post's other links that carry the uid (the PM,
// find-posts, reputation and e-mail buttons, the avatar) when the name links a User-Name.html
// URL that has none. Links inside the message are never read: they name other people.
func authorID(s, name *goquery.Selection) string {
	if href, ok := name.Find("a[href]").AddSelection(name.Filter("a[href]")).First().Attr("href"); ok {
		if id := uidOf(href); id != "" {
			return id
		}
	}
	var id string
	s.Find(selectors.AuthorIDLinks).EachWithBreak(func(_ int, a *goquery.Selection) bool {
		if a.Closest(selectors.Body).Length() > 0 {
			return true
		}
		id = uidOf(a.AttrOr("href", ""))
		return id == ""
	})
	return id
}

func uidOf(href string) string {
	if id := firstMatch(reUID, queryOf(href)); id != "" {
		return id
	}
	return firstMatch(reUIDSEO, href)
}

// edited: the edit notice (span.edited_post) in the date line or the edit holder, or a holder
// (span or div.post_edit, as themes write it) that has text of its own.
func edited(s *goquery.Selection) bool {
	if s.Find(selectors.EditNotice).Length() > 0 {
		return true
	}
	return scrape.Collapse(s.Find(selectors.EditSpan).Text()) != ""
}

// postTime reads span.post_date: the first span[title] outside the edit notice is the date.
func postTime(date *goquery.Selection, o *options) (time.Time, bool) {
	c := date.Clone()
	c.Find(selectors.EditSpan).Remove()
	c.Find(selectors.EditNotice).Remove()
	titled := c.Find(selectors.DateTitled).First()
	if titled.Length() > 0 {
		title, _ := titled.Attr("title")
		text := scrape.Collapse(titled.Text())
		whole := scrape.Collapse(c.Text())
		rest := strings.TrimSpace(strings.Replace(whole, text, "", 1))
		return o.parseDateTitle(title, text, rest)
	}
	return o.parseShown(c.Text())
}

// pagination reads "Pages (N):" and the current page from the first pagination block.
func pagination(doc *goquery.Document) (cur, last int) {
	pg := doc.Find(selectors.Pagination).First()
	if pg.Length() == 0 {
		return 1, 1
	}
	cur, _ = strconv.Atoi(strings.TrimSpace(pg.Find(selectors.PageCurrent).First().Text()))
	if n := firstMatch(rePagesN, pg.Find(selectors.PagesLabel).First().Text()); n != "" {
		last, _ = strconv.Atoi(n)
	}
	pg.Find("a").Each(func(_ int, a *goquery.Selection) {
		if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil && n > last {
			last = n
		}
		if href, ok := a.Attr("href"); ok {
			if n, err := strconv.Atoi(firstMatch(rePage, queryOf(href))); err == nil && n > last {
				last = n
			}
		}
	})
	if cur < 1 {
		cur = 1
	}
	if last < cur {
		last = cur
	}
	return cur, last
}

// extractPM reads a private.php?action=read&pmid=N page: one post, whose id is the pmid.
func extractPM(doc *goquery.Document, o options) (*Page, error) {
	s := doc.Find(selectors.Post).First()
	if s.Length() == 0 {
		if err := pageError(doc); err != nil {
			return nil, err
		}
		return nil, markup("no message (%s) on the PM page", selectors.Post)
	}
	base := baseURL(doc, o)
	p := &Page{Kind: kindPM, Page: 1, LastPage: 1, LoggedIn: LoggedIn(doc), MyPostKey: myPostKey(doc)}
	post, err := extractPost(s, base, &o)
	if err != nil {
		return nil, err
	}
	pmid := ""
	if v, ok := doc.Find(selectors.PMIDInput).First().Attr("value"); ok && v != "0" {
		pmid = v
	}
	if pmid == "" {
		doc.Find(selectors.PMReplyBtn + ", " + selectors.PMDelete).EachWithBreak(func(_ int, a *goquery.Selection) bool {
			href, _ := a.Attr("href")
			pmid = firstMatch(rePMID, queryOf(href))
			return pmid == ""
		})
	}
	if pmid == "" {
		return nil, markup("PM page without its pmid")
	}
	post.ID = pmid
	post.Permalink = absolute(base, pmPath(pmid))
	post.Subject = strings.TrimSpace(doc.Find(selectors.Posts).Closest("table").Find(selectors.PMSubject).First().Text())
	if post.Subject == "" {
		post.Subject = strings.TrimSpace(strings.TrimPrefix(doc.Find("title").First().Text(), "Viewing PM:"))
	}
	p.Subject = post.Subject
	p.Posts = []forum.Post{post}
	return p, nil
}

// extractPMList reads a private.php folder listing: one Post per message (id = pmid, subject,
// sender or recipient, time), without text.
func extractPMList(doc *goquery.Document, o options) (*Page, error) {
	form := doc.Find(selectors.PMForm).First()
	if form.Length() == 0 {
		if err := pageError(doc); err != nil {
			return nil, err
		}
		return nil, markup("no message list (%s)", selectors.PMForm)
	}
	base := baseURL(doc, o)
	p := &Page{Kind: kindPMList, LoggedIn: LoggedIn(doc), MyPostKey: myPostKey(doc)}
	p.Page, p.LastPage = pagination(doc)
	// The folder's title heads the table of its messages (MyBB 1.6's form also holds the User
	// CP menu, headed "Menu").
	p.Subject = strings.TrimSpace(form.Find(selectors.PMRowLink).First().Closest("table").Find("td.thead strong").First().Text())
	if p.Subject == "" {
		p.Subject = strings.TrimSpace(form.Find("td.thead strong").First().Text())
	}
	var err error
	form.Find("tr").EachWithBreak(func(_ int, tr *goquery.Selection) bool {
		link := tr.Find(selectors.PMRowLink).Not("[href*='denyreceipt']").First()
		if link.Length() == 0 || tr.Find("tr").Find(selectors.PMRowLink).Length() > 0 {
			// no message, or a layout row around the list (MyBB 1.6's form holds the whole
			// User CP table): the message is read from its own row
			return true
		}
		href, _ := link.Attr("href")
		pmid := firstMatch(rePMID, queryOf(href))
		var post forum.Post
		post.ID = pmid
		post.Subject = scrape.Collapse(link.Text())
		post.Permalink = absolute(base, href)
		post.Quotes = []forum.Quote{}
		if who := tr.Find("a[href*='member.php'][href*='uid=']").First(); who.Length() > 0 {
			post.Author = scrape.Collapse(who.Text())
			h, _ := who.Attr("href")
			post.AuthorID = firstMatch(reUID, queryOf(h))
		}
		tds := tr.Children()
		dateCell := tr.Find(selectors.DateTitled).Last().Closest("td")
		if dateCell.Length() == 0 && tds.Length() >= 2 {
			dateCell = tds.Eq(tds.Length() - 2)
		}
		t, ok := postTime(dateCell, &o)
		if !ok {
			err = markup("PM %s: date %q not understood", pmid, scrape.Collapse(dateCell.Text()))
			return false
		}
		post.Time = t
		p.Posts = append(p.Posts, post)
		return true
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}
