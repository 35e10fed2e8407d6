// This file reads Simple Machines Forum 2.1 pages (default "Curve2" theme): the posts of a
// topic page and the private messages of the PM inbox / a read PM, into forum.Post values, plus
// what a poller and the writer need from a page (page numbers, the previous page, the topic id,
// the member id of the session, the "new" anchor, the quick-reply last_msg, the board of the
// linktree) and the typed errors of SMF's error pages; and a board's topic list into
// forum.ThreadHead values (section.go, its own table sec).
//
// Every selector of the pages of posts is in the one table sel below; the golden tests in
// testdata/golden pin what they extract from pages captured on a real SMF 2.1.4.

package smf

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// sel is the selector table: everything the package knows about SMF 2.1's markup.
var sel = struct {
	// topic pages
	forumPosts   string // container of the posts of a topic page
	postDiv      string // one post, id="msgN"
	postIDAttr   *regexp.Regexp
	author       string // the poster's heading: profile link or name
	profileHref  string // what a profile link's href holds
	postTime     string // the post's date link
	subject      string
	modified     string // the edit mark, empty when not edited
	inner        string // message body, data-msgid
	inner20      string // 2.0: the message body div.inner#msg_N (the post has no id of its own)
	inner20ID    *regexp.Regexp
	postTime20   string // 2.0: "« Reply #1 on: September 19, 2007, 02:16:51 PM »"
	modified20   string // 2.0: div#modified_N, "« Last Edit: … »" when edited, else empty
	pageLinks    string
	currentPage  string // 2.1: span.current_page; 2.0: "[<strong>2</strong>]"
	navPage      string // 2.1: a.nav_page; 2.0: a.navPages
	prevLink     string // <link rel="prev"> in <head>
	nextLink     string
	topicNavHref string // 2.0's rel=prev/next go to the previous/next topic: not a page
	canonical    string
	newAnchor    string // <a id="new"> inside the post that is new
	lastMsgInput string // quick reply: newest msg id when the page was built
	topicInput   string
	// personal messages
	pmRoot     string
	pmListRow  string // inbox list row
	pmListLink string // link to #msgN inside a row
	pmListTime string // 2.1; 2.0's cell has no class: the cell that reads as a date
	pmListFrom string // 2.1; 2.0: the row's profile link
	pmListNew  string // 2.0: the "new" image of an unread row (2.1: tr.unread_pm)
	pmPost     string // a displayed PM, id="msgN" (2.0: no id; the body div.inner#msg_N, as in topics)
	pmSubject  string
	pmInfo     string // "Sent to: … on: <date>" (2.0: div.keyinfo span.smalltext)
	// error pages
	fatalError   string // 403 pages: div#fatal_error div[id] (the id names the error)
	fatalInner   string
	errorBox     string // re-shown form: div.errorbox (#errors in post forms)
	loginForm    string
	loginError   string // 2.0: p.error inside the login form (2.1: an errorbox)
	guestForm    string // 2.0: the header's login form, shown to guests only
	logoutLink   string // 2.0: a member\'s page has the logout link (it carries the session)
	greetingName string // 2.0: the member's name in the header greeting
	fatalText    string // 2.0: the fatal error's message (no element with the error's id)
	postForm     string
	information  string
	// bits of the body markup
	smileyClass, codeClass, codeHeaderClass, signatureClass string
}{
	forumPosts:   "#forumposts",
	postDiv:      "div[id^='msg']",
	postIDAttr:   regexp.MustCompile(`^msg(\d+)$`),
	author:       "div.poster h4",
	profileHref:  "action=profile",
	postTime:     "div.postinfo a.smalltext",
	subject:      "div.keyinfo div[id^='subject_'] a, div.keyinfo h5",
	modified:     "span.modified",
	inner:        "div.post div.inner, div.inner[id^='msg_']",
	inner20:      "div.inner[id^='msg_']",
	inner20ID:    regexp.MustCompile(`^msg_(\d+)$`),
	postTime20:   "div.keyinfo div.smalltext",
	modified20:   "div[id^='modified_']",
	pageLinks:    "div.pagelinks",
	currentPage:  "span.current_page, strong",
	navPage:      "a.nav_page, a.navPages",
	prevLink:     "head link[rel='prev']",
	nextLink:     "head link[rel='next']",
	canonical:    "head link[rel='canonical']",
	topicNavHref: "prev_next",
	newAnchor:    "a#new",
	lastMsgInput: "input[name='last_msg']",
	topicInput:   "form#postmodify input[name='topic'], form#quickModForm input[name='topic']",

	pmRoot:     "#personal_messages",
	pmListRow:  "table.table_grid tbody tr",
	pmListLink: "td.pm_subject a[href^='#msg'], td a[href^='#msg']",
	pmListTime: "td.pm_time",
	pmListFrom: "td.pm_from_to a",
	pmListNew:  "img[src$='/new.gif']",
	pmPost:     "div.windowbg[id^='msg']",
	pmSubject:  "div.keyinfo h5, div.keyinfo div[id^='subject_']",
	pmInfo:     "div.postinfo, div.keyinfo span.smalltext",

	fatalError:   "#fatal_error",
	fatalInner:   "#fatal_error div[id]",
	errorBox:     "div.errorbox",
	loginForm:    "form#frmLogin",
	loginError:   "form#frmLogin p.error, form#frmLogin .error",
	guestForm:    "form#guest_form",
	logoutLink:   "a[href*='action=logout;']",
	greetingName: "li.greeting span",
	fatalText:    "#fatal_error div.padding, #fatal_error div.windowbg",
	postForm:     "form#postmodify",
	information:  "p.information",

	smileyClass:     "smiley",
	codeClass:       "bbc_code",
	codeHeaderClass: "codeheader",
	signatureClass:  "signature",
}

// Kind is what a page shows.
type Kind int

const (
	kindOther  Kind = iota
	kindThread      // a topic page
	kindPM          // the PM inbox / sent items / a read PM
)

// pmRow is a row of the PM folder list.
type pmRow struct {
	ID       string
	Subject  string
	From     string
	FromID   string
	Time     time.Time
	Unread   bool
	Rendered bool // the message body is shown on the same page
}

// Page is what a poller and the writer need from one SMF page.
type Page struct {
	Kind    Kind
	Posts   []forum.Post // topic posts or displayed PMs, in page order
	PMList  []pmRow      // PM pages: the folder list
	TopicID string
	// Current and Last are the page numbers (1-based); 0 when the page has no pagination.
	Current, Last int
	PrevURL       string // the previous page, absolute; "" on the first page
	NextURL       string
	NewID         string // the post holding <a id="new">
	LastMsg       string // quick reply's last_msg (members only)
	MemberID      int    // smf_member_id: 0 for a guest
	ScriptURL     string // smf_scripturl, e.g. http://host/index.php
	SessionVar    string
	SessionID     string
	// PageLinks are the numbered page links of the pagination, absolute, by page number.
	PageLinks map[int]string
	Section   string // the board the topic is in, from the linktree ("" when not shown)
}

// options are what reading a page needs besides the page: Base resolves relative links (the
// page's own smf_scripturl is used otherwise).
type options = scrape.ReadOptions

var (
	jsVarRe   = regexp.MustCompile(`var (smf_[a-z_]+) = ("[^"]*"|'[^']*'|\d+);`)
	topicIDRe = regexp.MustCompile(`[?;&]topic=(\d+)|/topic,(\d+)\.`)
)

func jsVars(doc *goquery.Document) map[string]string {
	out := map[string]string{}
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		for _, m := range jsVarRe.FindAllStringSubmatch(s.Text(), -1) {
			if _, seen := out[m[1]]; !seen {
				out[m[1]] = strings.Trim(m[2], `"'`)
			}
		}
	})
	return out
}

// session reads the session of any SMF page: the member id (0 for a guest) and the session check
// pair (the hidden input name and value every form must send).
func session(doc *goquery.Document) (memberID int, sessionVar, sessionID string) {
	return sessionOf(doc, jsVars(doc))
}

var (
	sessionVarRe = regexp.MustCompile(`sSessionVar:\s*'([A-Za-z0-9_]+)'`)
	sessionIDRe  = regexp.MustCompile(`sSessionId:\s*'([0-9a-f]+)'`)
	logoutRe     = regexp.MustCompile(`action=logout;([A-Za-z0-9_]+)=([0-9a-f]+)`)
	hashLoginRe  = regexp.MustCompile(`hashLoginPassword\(this,\s*'([0-9a-f]+)'\)`)
)

// sessionOf reads the session by role. SMF 2.1 names it in script variables (smf_member_id,
// smf_session_var, smf_session_id). SMF 2.0 has none of them: the session pair is in the
// editor/quick-reply scripts (sSessionVar/sSessionId), in the logout link
// (action=logout;VAR=ID) or, for a guest, in the login form (hashLoginPassword(this, 'ID') and
// the hidden input holding that id); a member's id is the profile link of the greeting's name,
// and a guest is one shown the login form of the header (form#guest_form).
func sessionOf(doc *goquery.Document, vars map[string]string) (memberID int, sessionVar, sessionID string) {
	memberID, _ = strconv.Atoi(vars["smf_member_id"])
	sessionVar, sessionID = vars["smf_session_var"], vars["smf_session_id"]
	if sessionVar != "" && sessionID != "" {
		return memberID, sessionVar, sessionID
	}
	scripts := doc.Find("script").Text()
	if v, id := sessionVarRe.FindStringSubmatch(scripts), sessionIDRe.FindStringSubmatch(scripts); v != nil && id != nil {
		sessionVar, sessionID = v[1], id[1]
	}
	if sessionVar == "" {
		doc.Find(sel.logoutLink).EachWithBreak(func(_ int, a *goquery.Selection) bool {
			if m := logoutRe.FindStringSubmatch(a.AttrOr("href", "")); m != nil {
				sessionVar, sessionID = m[1], m[2]
				return false
			}
			return true
		})
	}
	if sessionVar == "" {
		doc.Find("form[onsubmit*='hashLoginPassword']").EachWithBreak(func(_ int, f *goquery.Selection) bool {
			m := hashLoginRe.FindStringSubmatch(f.AttrOr("onsubmit", ""))
			if m == nil {
				return true
			}
			f.Find("input[type='hidden']").EachWithBreak(func(_ int, in *goquery.Selection) bool {
				if in.AttrOr("value", "") == m[1] {
					sessionVar, sessionID = in.AttrOr("name", ""), m[1]
					return false
				}
				return true
			})
			return sessionVar == ""
		})
	}
	if _, ok := vars["smf_member_id"]; !ok && doc.Find(sel.guestForm).Length() == 0 && sessionVar != "" {
		name := scrape.Collapse(doc.Find(sel.greetingName).First().Text())
		doc.Find("a[href*='" + sel.profileHref + "']").EachWithBreak(func(_ int, a *goquery.Selection) bool {
			if name != "" && scrape.Collapse(a.Text()) == name {
				memberID, _ = strconv.Atoi(memberIDFromHref(a.AttrOr("href", "")))
				return false
			}
			return true
		})
	}
	return memberID, sessionVar, sessionID
}

// LoggedIn says whether the page was built for a member: SMF 2.1's smf_member_id above 0, or on
// SMF 2.0 (no such variable) a logout link.
func LoggedIn(doc *goquery.Document) bool { return loggedIn(doc, jsVars(doc)) }

func loggedIn(doc *goquery.Document, vars map[string]string) bool {
	if v, ok := vars["smf_member_id"]; ok {
		id, _ := strconv.Atoi(v)
		return id > 0
	}
	return doc.Find(sel.logoutLink).Length() > 0
}

// parse reads a parsed SMF page. A page that shows neither a topic nor personal messages, or whose
// posts lack the parts every SMF 2.1 post has, is an error wrapping forum.ErrMarkupChanged.
func parse(doc *goquery.Document, opt options) (*Page, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	p := &Page{}
	vars := jsVars(doc)
	p.ScriptURL = vars["smf_scripturl"]
	p.MemberID, p.SessionVar, p.SessionID = sessionOf(doc, vars)
	base := opt.Base
	if p.ScriptURL != "" {
		if u, err := url.Parse(p.ScriptURL); err == nil && u.IsAbs() {
			base = u
		}
	}
	if href, ok := doc.Find(sel.prevLink).Attr("href"); ok && !strings.Contains(href, sel.topicNavHref) {
		p.PrevURL = scrape.AbsURL(base, href)
	}
	if href, ok := doc.Find(sel.nextLink).Attr("href"); ok && !strings.Contains(href, sel.topicNavHref) {
		p.NextURL = scrape.AbsURL(base, href)
	}
	p.Current, p.Last = pageNumbers(doc)
	p.PageLinks = map[int]string{}
	doc.Find(sel.pageLinks).First().Find(sel.navPage).Each(func(_ int, a *goquery.Selection) {
		if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil {
			p.PageLinks[n] = scrape.AbsURL(base, a.AttrOr("href", ""))
		}
	})
	// SMF 2.0 has no rel=prev/next for pages: the neighbouring page links stand in.
	if p.PrevURL == "" && p.Current > 1 {
		p.PrevURL = p.PageLinks[p.Current-1]
	}
	if p.NextURL == "" && p.Current > 0 {
		p.NextURL = p.PageLinks[p.Current+1]
	}
	switch {
	case doc.Find(sel.forumPosts).Length() > 0:
		p.Kind = kindThread
		p.Section = sectionOf(doc)
		return p, parseThread(doc, p, base, opt)
	case doc.Find(sel.pmRoot).Length() > 0 && doc.Find(sel.fatalError).Length() == 0:
		p.Kind = kindPM
		return p, parsePMs(doc, p, base, opt)
	}
	return p, fmt.Errorf("smf: neither a topic page nor a personal-message page: %w", forum.ErrMarkupChanged)
}

func pageNumbers(doc *goquery.Document) (cur, last int) {
	links := doc.Find(sel.pageLinks).First()
	if links.Length() == 0 {
		return 0, 0
	}
	cur, _ = strconv.Atoi(strings.TrimSpace(links.Find(sel.currentPage).First().Text()))
	last = cur
	links.Find(sel.navPage).Each(func(_ int, a *goquery.Selection) {
		if n, err := strconv.Atoi(strings.TrimSpace(a.Text())); err == nil && n > last {
			last = n
		}
	})
	return cur, last
}

func parseThread(doc *goquery.Document, p *Page, base *url.URL, opt options) error {
	if href, ok := doc.Find(sel.canonical).Attr("href"); ok {
		if m := topicIDRe.FindStringSubmatch(href); m != nil {
			p.TopicID = m[1] + m[2]
		}
	}
	if p.TopicID == "" {
		p.TopicID = strings.TrimSpace(doc.Find(sel.topicInput).First().AttrOr("value", ""))
	}
	p.LastMsg = strings.TrimSpace(doc.Find(sel.lastMsgInput).First().AttrOr("value", ""))
	var err error
	doc.Find(sel.forumPosts).Find(sel.postDiv).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		m := sel.postIDAttr.FindStringSubmatch(s.AttrOr("id", ""))
		if m == nil {
			return true
		}
		var post forum.Post
		post, err = parsePost(s, m[1], p.TopicID, base, opt)
		if err != nil {
			return false
		}
		if s.Find(sel.newAnchor).Length() > 0 {
			p.NewID = post.ID
		}
		p.Posts = append(p.Posts, post)
		return true
	})
	if err != nil {
		return err
	}
	if len(p.Posts) == 0 {
		// SMF 2.0 (Curve, core and the themes built on them): no div#msgN; the body is
		// div.inner#msg_N and the post is the nearest block around it that holds the poster.
		doc.Find(sel.forumPosts).Find(sel.inner20).EachWithBreak(func(_ int, inner *goquery.Selection) bool {
			m := sel.inner20ID.FindStringSubmatch(inner.AttrOr("id", ""))
			if m == nil {
				return true
			}
			s := postAround(inner)
			var post forum.Post
			post, err = parsePost(s, m[1], p.TopicID, base, opt)
			if err != nil {
				return false
			}
			if s.Find(sel.newAnchor).Length() > 0 {
				p.NewID = post.ID
			}
			p.Posts = append(p.Posts, post)
			return true
		})
		if err != nil {
			return err
		}
		// SMF 2.0 puts the anchors before the post block: <a id="msgN"></a><a id="new"></a>.
		if p.NewID == "" {
			if m := sel.postIDAttr.FindStringSubmatch(doc.Find(sel.forumPosts).Find(sel.newAnchor).First().Prev().AttrOr("id", "")); m != nil {
				p.NewID = m[1]
			}
		}
	}
	if len(p.Posts) == 0 {
		return fmt.Errorf("smf: topic page without posts: %w", forum.ErrMarkupChanged)
	}
	for _, post := range p.Posts {
		if post.Author != "" || post.Text != "" || len(post.Quotes) > 0 {
			return nil
		}
	}
	return fmt.Errorf("smf: no post has an author or a body: %w", forum.ErrMarkupChanged)
}

// postAround is the nearest ancestor of a 2.0 message body that also holds the poster; without
// a poster to be found, the widest ancestor that holds no other message body (so the date, subject
// and edit mark beside the body are still read).
func postAround(inner *goquery.Selection) *goquery.Selection {
	widest := inner.Parent()
	for s := inner.Parent(); s.Length() > 0 && !s.Is("body"); s = s.Parent() {
		if s.Find(sel.inner20).Length() > 1 {
			break
		}
		if s.Find(sel.author).Length() > 0 {
			return s
		}
		widest = s
	}
	return widest
}

// authorOf reads the poster by role: the profile link in the poster's heading, else its first
// link with text (a member sees SMF 2.0's online mark as a PM link with an icon before the name),
// else the heading's text (a guest poster).
func authorOf(s *goquery.Selection) (name, id string) {
	h := s.Find(sel.author).First()
	var link *goquery.Selection
	h.Find("a[href]").EachWithBreak(func(_ int, a *goquery.Selection) bool {
		if scrape.Collapse(a.Text()) == "" {
			return true
		}
		if strings.Contains(a.AttrOr("href", ""), sel.profileHref) {
			link = a
			return false
		}
		if link == nil {
			link = a
		}
		return true
	})
	if link != nil {
		return scrape.Collapse(link.Text()), memberIDFromHref(link.AttrOr("href", ""))
	}
	return scrape.Collapse(h.Text()), ""
}

// parsePost reads one topic post. A part that cannot be read costs that part (a problem of the
// post), not the page.
func parsePost(s *goquery.Selection, id, topic string, base *url.URL, opt options) (forum.Post, error) {
	post := forum.Post{ID: id, Quotes: []forum.Quote{}}
	post.Author, post.AuthorID = authorOf(s)
	if post.Author == "" {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemAuthor, sel.author))
	}
	when := s.Find(sel.postTime).First()
	if when.Length() == 0 {
		when = s.Find(sel.postTime20).First()
	}
	if when.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemTime, sel.postTime+" || "+sel.postTime20))
	} else if t, err := parseTime(dateText(when.Text()), opt.Location, opt.Now); err != nil {
		post.Problems = append(post.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: err.Error()})
	} else {
		post.Time = t
	}
	subject := s.Find(sel.subject).First()
	switch {
	case topic != "" && base != nil:
		post.Permalink = scrape.AbsURL(base, "index.php?topic="+topic+".msg"+id+"#msg"+id)
	case when.Is("a[href]"):
		post.Permalink = scrape.AbsURL(base, when.AttrOr("href", ""))
	case subject.Is("a[href]"):
		post.Permalink = scrape.AbsURL(base, subject.AttrOr("href", ""))
	}
	post.Subject = scrape.Collapse(subject.Text())
	post.Edited = scrape.Collapse(s.Find(sel.modified).First().Text()) != "" ||
		scrape.Collapse(s.Find(sel.modified20).First().Text()) != ""
	inner := s.Find(sel.inner).First()
	if inner.Length() == 0 {
		post.Problems = append(post.Problems, forum.NotFound(forum.ProblemText, sel.inner))
		return post, nil
	}
	b := renderBody(inner)
	post.Text, post.Code, post.Spoilers = b.text, b.code, b.spoilers
	if b.quotes != nil {
		post.Quotes = b.quotes
	}
	return post, nil
}

// dateRe takes the date out of a post header: 2.0 writes "« Reply #1 on: September 19, 2007,
// 02:16:51 PM »", 2.1 just the date.
var dateRe = regexp.MustCompile(`(?s)(?:\bon|\bот)\s*:\s*(.+?)\s*»?\s*$`)

func dateText(s string) string {
	s = scrape.Collapse(s)
	if m := dateRe.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return strings.TrimSpace(strings.Trim(s, "«» "))
}

func parsePMs(doc *goquery.Document, p *Page, base *url.URL, opt options) error {
	root := doc.Find(sel.pmRoot)
	rendered := map[string]bool{}
	// collect reads the PMs among nodes whose id idRe matches; post gives the PM's whole block.
	collect := func(nodes *goquery.Selection, idRe *regexp.Regexp, post func(*goquery.Selection) *goquery.Selection) error {
		var err error
		nodes.EachWithBreak(func(_ int, s *goquery.Selection) bool {
			m := idRe.FindStringSubmatch(s.AttrOr("id", ""))
			if m == nil {
				return true
			}
			var pm forum.Post
			if pm, err = parsePM(post(s), m[1], base, opt); err != nil {
				return false
			}
			rendered[pm.ID] = true
			p.Posts = append(p.Posts, pm)
			return true
		})
		return err
	}
	self := func(s *goquery.Selection) *goquery.Selection { return s }
	if err := collect(root.Find(sel.pmPost), sel.postIDAttr, self); err != nil {
		return err
	}
	if len(p.Posts) == 0 {
		// SMF 2.0: a shown PM is a div.windowbg without an id; its body is div.inner#msg_N.
		if err := collect(root.Find(sel.inner20), sel.inner20ID, postAround); err != nil {
			return err
		}
	}
	root.Find(sel.pmListRow).Each(func(_ int, tr *goquery.Selection) {
		a := tr.Find(sel.pmListLink).First()
		href, ok := a.Attr("href")
		if !ok {
			return
		}
		id := strings.TrimPrefix(href, "#msg")
		if _, err := strconv.Atoi(id); err != nil {
			return
		}
		row := pmRow{ID: id, Rendered: rendered[id],
			Unread: tr.HasClass("unread_pm") || a.Parent().Find(sel.pmListNew).Length() > 0}
		subj := a.Clone()
		subj.Find("span").Remove()
		row.Subject = scrape.Collapse(subj.Text())
		from := tr.Find(sel.pmListFrom).First()
		if from.Length() == 0 {
			from = tr.Find("a[href*='" + sel.profileHref + "']").First()
		}
		row.From = scrape.Collapse(from.Text())
		row.FromID = memberIDFromHref(from.AttrOr("href", ""))
		if cell := tr.Find(sel.pmListTime); cell.Length() > 0 {
			row.Time, _ = parseTime(scrape.Collapse(cell.Text()), opt.Location, opt.Now)
		} else {
			// SMF 2.0: the date cell has no class; it is the cell without links that reads as a date.
			tr.Find("td").EachWithBreak(func(_ int, td *goquery.Selection) bool {
				if td.Find("a, input").Length() > 0 {
					return true
				}
				t, err := parseTime(scrape.Collapse(td.Text()), opt.Location, opt.Now)
				if err == nil {
					row.Time = t
					return false
				}
				return true
			})
		}
		p.PMList = append(p.PMList, row)
	})
	// A displayed PM takes its date from the list row when the post header's is unreadable.
	for i := range p.Posts {
		for _, r := range p.PMList {
			if r.ID == p.Posts[i].ID && p.Posts[i].Time.IsZero() {
				p.Posts[i].Time = r.Time
			}
		}
		if p.Posts[i].Time.IsZero() {
			return fmt.Errorf("smf: PM %s has no readable date: %w", p.Posts[i].ID, forum.ErrMarkupChanged)
		}
	}
	if len(p.Posts) == 0 && len(p.PMList) == 0 && root.Find("table.table_grid").Length() == 0 {
		return fmt.Errorf("smf: PM page without a message list: %w", forum.ErrMarkupChanged)
	}
	return nil
}

func parsePM(s *goquery.Selection, id string, base *url.URL, opt options) (forum.Post, error) {
	post := forum.Post{ID: id, Quotes: []forum.Quote{}}
	post.Author, post.AuthorID = authorOf(s)
	inner := s.Find("div.inner").First()
	if post.Author == "" || inner.Length() == 0 {
		return post, fmt.Errorf("smf: PM %s lacks author or body: %w", id, forum.ErrMarkupChanged)
	}
	post.Subject = scrape.Collapse(s.Find(sel.pmSubject).First().Text())
	info := scrape.Collapse(s.Find(sel.pmInfo).First().Text())
	// "Sent to: Джелу on: Today at 03:48 AM": the date follows the last colon-terminated label.
	if i := strings.LastIndex(info, ":"); i >= 0 {
		for j := i; j >= 0; j = strings.LastIndex(info[:j], ":") {
			if t, err := parseTime(info[j+1:], opt.Location, opt.Now); err == nil {
				post.Time = t
				break
			}
			if j == 0 {
				break
			}
		}
	}
	post.Permalink = scrape.AbsURL(base, "index.php?action=pm;f=inbox;pmsg="+id+"#msg"+id)
	b := renderBody(inner)
	post.Text, post.Code, post.Spoilers = b.text, b.code, b.spoilers
	if b.quotes != nil {
		post.Quotes = b.quotes
	}
	return post, nil
}

// parseBytes parses a page's UTF-8 HTML.
func parseBytes(body []byte, opt options) (*Page, *goquery.Document, error) {
	return scrape.ParseBytes("smf", body, opt, parse)
}

// extract is the registered forum.Extractor: the posts (or PMs) of one saved SMF page, in id order.
func extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	return scrape.Posts(page, contentType, cfg, checkError, func(body []byte, opt options) ([]forum.Post, *goquery.Document, error) {
		p, doc, err := parseBytes(body, opt)
		if err != nil {
			return nil, doc, err
		}
		return p.Posts, doc, nil
	})
}

// pageThread is the topic a topic page is of (Page.TopicID: its canonical link, the topic field
// of its reply or moderation form), for the descriptor's PageThread.
func pageThread(doc *goquery.Document) string {
	if p, err := parse(doc, options{}); err == nil && p.Kind == kindThread {
		return p.TopicID
	}
	return ""
}
