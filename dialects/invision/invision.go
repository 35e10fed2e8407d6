// Package invision is the Invision Community 4 dialect of forum.Forum ("invision"
// in a configuration): it logs in through /login/ (csrfKey, auth, password, remember_me,
// _processLogin=usernamepassword), reads a topic from its newest page back to the cursor (pages
// read with the table of extract.go) and replies through the topic's comment form
// (commentform_<topic id>), the way a browser without JavaScript does: the form's hidden fields
// (csrfKey, commentform_<id>_submitted, _contentReply, plupload, MAX_FILE_SIZE) replayed and the
// body in the editor's no-script field (<editor>_noscript), which Invision turns into HTML line by
// line and parses for BBCode (\IPS\Helpers\Form\Editor::getValue).
//
// Invision answers a reply with a redirect to the new comment (<topic>/page/N/#comment-ID); a
// refusal re-shows the form with the error under the editor (data-role="commentFormError"), an
// error page (#elErrorMessage) for no permission, or, for a csrfKey it no longer takes, the form
// again with no error at all (\IPS\Helpers\Form::values ignores the submission). Private
// messages go through the messenger: messenger/compose/ to send, the conversation list
// (messenger/) and each unread conversation to receive. A forum's topic list is read from its
// first page (forum.SectionReader, forum/<id>-<slug>/).
//
// Config.Extra keys: "friendly_urls" ("false": index.php?/topic/… URLs), "max_post_chars"
// (default 50000), "flood_wait" (a Go duration when the message names no number, default 30s),
// "rate"; keys of the table (extract.go) override the topic table.
package invision

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

// Defaults of the dialect.
const (
	defaultMaxPostChars = 50000
	defaultFloodWait    = 30 * time.Second
	maxPagesPerPoll     = 1000
)

// Forum is an Invision Community 4 board as the bot account sees it.
type Forum struct {
	cfg       forum.Config
	base      *url.URL
	friendly  bool
	board     web.Board
	max       int
	floodWait time.Duration

	mu       sync.Mutex // one write at a time
	state    sync.Mutex
	newest   map[string]string       // topic -> newest comment id seen
	convSeen map[string]time.Time    // conversation -> its latest message time when last listed
	seenMsg  map[string]bool         // messenger messages already returned
	sentConv map[string][]forum.Post // conversation -> the bot's messages in it (Sent)
	unreadPM bool                    // the last page read counted unread messenger conversations
	canon    map[string]string       // topic -> its full URL (with the SEO title), for getLastComment
	sections map[string]string       // topic -> its forum, from the breadcrumb (SectionOf)
	forumURL map[string]string       // forum id as asked -> its full URL Invision sent it on to
	named    map[string]string       // topic number -> the N-slug id callers name it by
}

// option changes how New builds a Forum.
type option func(*Forum)

// withClient uses c for every request (tests pass a fast one).
func withClient(c *forum.Client) option { return func(f *Forum) { f.board.Client = c } }

// New builds the Invision Community Forum for cfg.
func New(cfg forum.Config, opts ...option) (*Forum, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("invision: bad base URL %q", cfg.BaseURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	cfg = web.ConfigDefaults(cfg)
	fw := defaultFloodWait
	if d, err := time.ParseDuration(cfg.Extra["flood_wait"]); err == nil && d > 0 {
		fw = d
	}
	f := &Forum{cfg: cfg, base: base, friendly: cfg.Extra["friendly_urls"] != "false",
		max: web.ExtraInt(cfg, "max_post_chars", defaultMaxPostChars), floodWait: fw,
		newest: map[string]string{}, convSeen: map[string]time.Time{}, seenMsg: map[string]bool{},
		sentConv: map[string][]forum.Post{}, canon: map[string]string{},
		sections: map[string]string{}, forumURL: map[string]string{},
		named: map[string]string{}}
	f.board = web.Board{Name: "invision", Check: f.checkPage}
	for _, o := range opts {
		o(f)
	}
	f.board.Defaults(cfg)
	return f, nil
}

var _ forum.Forum = (*Forum)(nil)

// Capabilities: the messenger is Invision's private messages.
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{PrivateMessages: true, MaxPostLength: f.max}
}

// route is the URL of an Invision path ("topic/7/"): base + path with friendly URLs, base +
// "index.php?/" + path without.
func (f *Forum) route(p string, q url.Values) string {
	u := *f.base
	if f.friendly {
		u.Path += p
		u.RawQuery = q.Encode()
		return u.String()
	}
	u.Path += "index.php"
	u.RawQuery = "/" + p
	if len(q) > 0 {
		u.RawQuery += "&" + q.Encode()
	}
	return u.String()
}

var reTopic = regexp.MustCompile(`^(\d+)(?:-[^/?#]*)?$`)

// topicRoute checks a topic id ("34923" or Invision's "34923-slug") and gives its path and number.
func topicRoute(t forum.Thread) (path, id string, err error) {
	m := reTopic.FindStringSubmatch(t.ID)
	if m == nil {
		return "", "", fmt.Errorf("invision: topic id %q is neither N nor N-slug", t.ID)
	}
	return "topic/" + t.ID + "/", m[1], nil
}

// noteUnread reads the user bar's messenger count (#elFullInbox .ipsNotificationCount
// [data-currentCount], userBar template), when the page has it.
func (f *Forum) noteUnread(doc *goquery.Document) {
	v, ok := doc.Find("#elFullInbox .ipsNotificationCount[data-notificationtype='inbox']").Attr("data-currentcount")
	if !ok {
		return
	}
	v = strings.TrimSpace(v)
	f.state.Lock()
	f.unreadPM = v != "" && strings.Trim(v, "0,. ") != ""
	f.state.Unlock()
}

// UnreadPM reports whether the last page read showed unread messenger conversations
// (forum.PMNotifier: the daemon then reads the inbox).
func (f *Forum) UnreadPM() bool {
	f.state.Lock()
	defer f.state.Unlock()
	return f.unreadPM
}

// signedIn reads the user bar: ul#elUserNav.cSignedIn for a member, .cSignedOut for a guest;
// known is false on a page without it.
func signedIn(doc *goquery.Document) (in, known bool) {
	nav := doc.Find("#elUserNav")
	if nav.Length() == 0 {
		return false, false
	}
	return nav.HasClass("cSignedIn"), true
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkPage turns an error page (#elErrorMessage, HTTP 4xx) into a typed error.
func (f *Forum) checkPage(doc *goquery.Document, status int) error {
	msg := clean(doc.Find("#elErrorMessage").First().Text())
	if msg == "" && status < 400 {
		return nil
	}
	return f.classify(status, msg)
}

var (
	reFlood    = regexp.MustCompile(`(?i)please wait \d+ seconds|posting limits|подождите|подождать`)
	reDaily    = regexp.MustCompile(`(?i)posting limits|wait 24 hours`)
	reGuest    = regexp.MustCompile(`(?i)not available to guests|sign in|войдите`)
	reTooLong  = regexp.MustCompile(`(?i)must be shorter than|не длиннее|слишком длинн`)
	reTooShort = regexp.MustCompile(`(?i)field is required|обязательно`)
	reBadLogin = regexp.MustCompile(`(?i)was incorrect|has been locked|неверн|заблокирован`)
	reComment  = regexp.MustCompile(`comment[-=](\d+)`)
)

// classify types an error Invision showed (its HTTP status and message).
func (f *Forum) classify(status int, msg string) error {
	switch {
	case reDaily.MatchString(msg):
		return fmt.Errorf("invision: %q: %w", msg, &forum.FloodError{Wait: 24 * time.Hour})
	case reFlood.MatchString(msg):
		return fmt.Errorf("invision: %q: %w", msg, &forum.FloodError{Wait: web.FloodWait(msg, f.floodWait)})
	case reTooLong.MatchString(msg):
		return fmt.Errorf("invision: %q: %w", msg, forum.ErrTooLong)
	case reTooShort.MatchString(msg):
		return fmt.Errorf("invision: %q: %w", msg, forum.ErrTooShort)
	case status == 403 && reGuest.MatchString(msg):
		return fmt.Errorf("invision: %q: %w", msg, forum.ErrLoggedOut)
	case status == 404:
		return fmt.Errorf("invision: %q: %w", msg, forum.ErrNotFound)
	case status == 403:
		return fmt.Errorf("invision: %q: %w", msg, forum.ErrNoPermission)
	}
	return fmt.Errorf("invision: HTTP %d: %q", status, msg)
}

// retry runs attempt under form.Retry: logged out → log in once (when relogin is set), bad token →
// a fresh form once.
func (f *Forum) retry(ctx context.Context, relogin bool, attempt func() error) error {
	var r web.Retry
	if relogin {
		r.Login = f.Login
	}
	return r.Do(ctx, attempt)
}

// Login logs in with the configured account (remember_me: Invision's "Remember me").
func (f *Forum) Login(ctx context.Context) error {
	return f.retry(ctx, false, func() error {
		page, doc, err := f.board.Fetch(ctx, f.route("login/", nil), nil, "", false)
		if err != nil {
			return fmt.Errorf("invision: login form: %w", err)
		}
		if in, _ := signedIn(doc); in {
			return nil
		}
		fs := doc.Find("form:has(input[name='auth'])").First()
		action, ok := web.Action(fs, page)
		if fs.Length() == 0 || !ok {
			return fmt.Errorf("invision: no login form at %s: %w", page.URL, forum.ErrMarkupChanged)
		}
		vals := web.Replay{}.Values(fs)
		vals.Set("auth", f.cfg.Username)
		vals.Set("password", f.cfg.Password)
		vals.Set("remember_me", "1")
		vals.Set("_processLogin", "usernamepassword")
		page, doc, err = f.board.Fetch(ctx, action, vals, "utf-8", false)
		if err != nil {
			return fmt.Errorf("invision: login as %q: %w", f.cfg.Username, err)
		}
		if in, _ := signedIn(doc); in {
			return nil
		}
		msg := clean(doc.Find(".ipsMessage_error").First().Text())
		if reBadLogin.MatchString(msg) {
			return fmt.Errorf("invision: login as %q: %q: %w", f.cfg.Username, msg, forum.ErrBadLogin)
		}
		if doc.Find("form:has(input[name='auth'])").Length() > 0 && msg == "" {
			// The form again without a word: the csrfKey was refused.
			return fmt.Errorf("invision: login as %q: the form came back without an error: %w", f.cfg.Username, forum.ErrBadToken)
		}
		return fmt.Errorf("invision: login as %q: still a guest at %s (%q): %w", f.cfg.Username, page.URL, msg, forum.ErrBadLogin)
	})
}

// latest asks Invision for the topic's newest comment: <topic>?do=getLastComment answers with a
// redirect to its page (<topic>/page/N/#comment-ID, \IPS\Content\Controller::getLastComment →
// _find), no page rendered. A topic URL without its SEO title is first sent on to the full one
// (\IPS\Dispatcher\Front::checkUrl, 301, the query kept); the full one is remembered, so an idle
// poll is one request from the second on. It returns the comment id and the page URL without the
// fragment.
func (f *Forum) latest(ctx context.Context, t forum.Thread, path string) (id string, page *url.URL, err error) {
	err = f.retry(ctx, true, func() error {
		f.state.Lock()
		start := f.canon[t.ID]
		f.state.Unlock()
		if start == "" {
			start = f.route(path, nil)
		}
		u, perr := url.Parse(start)
		if perr != nil {
			return perr
		}
		for hop := 0; hop < 3; hop++ {
			q := u.Query()
			if !f.friendly {
				q = url.Values{}
			}
			q.Set("do", "getLastComment")
			if f.friendly {
				u.RawQuery = q.Encode()
			} else {
				u.RawQuery = strings.SplitN(u.RawQuery, "&", 2)[0] + "&" + q.Encode()
			}
			p, err := f.board.Client.GetNoRedirect(ctx, u.String())
			if p == nil {
				return err
			}
			if p.Status/100 != 3 {
				if doc, derr := p.Doc(); derr == nil {
					if cerr := f.checkPage(doc, p.Status); cerr != nil {
						return cerr
					}
				}
				if err != nil {
					return err
				}
				return fmt.Errorf("invision: %s answered HTTP %d, not a redirect: %w", u, p.Status, forum.ErrMarkupChanged)
			}
			loc, lerr := p.Location()
			if lerr != nil {
				return lerr
			}
			if m := reComment.FindStringSubmatch(loc.Fragment + " " + loc.RawQuery); m != nil {
				id = m[1]
				loc.Fragment = ""
				page = loc
				f.state.Lock()
				f.canon[t.ID] = u.Scheme + "://" + u.Host + u.Path + topicQuery(u, f.friendly)
				f.state.Unlock()
				return nil
			}
			u = loc // the topic's full URL: ask it again
		}
		return fmt.Errorf("invision: %s: getLastComment redirected too often, no comment: %w", path, forum.ErrMarkupChanged)
	})
	return id, page, err
}

// topicQuery is what of a topic URL's query names the topic: nothing with friendly URLs, the
// "/topic/…/" path without them.
func topicQuery(u *url.URL, friendly bool) string {
	if friendly {
		return ""
	}
	return "?" + strings.SplitN(u.RawQuery, "&", 2)[0]
}

// readPage fetches and reads one topic page.
func (f *Forum) readPage(ctx context.Context, rawURL string) (*scrape.Page, *forum.Page, *goquery.Document, error) {
	var gp *scrape.Page
	var fp *forum.Page
	var d *goquery.Document
	err := f.retry(ctx, true, func() error {
		p, doc, err := f.board.Fetch(ctx, rawURL, nil, "", true)
		if err != nil {
			return err
		}
		if in, known := signedIn(doc); known && !in {
			return fmt.Errorf("invision: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		fp, d = p, doc
		f.noteUnread(doc)
		gp, err = ReadPage(doc, ips4, f.cfg)
		return err
	})
	return gp, fp, d, err
}

var rePageNo = regexp.MustCompile(`/page/(\d+)/?`)

func pageNumber(u *url.URL) int {
	if m := rePageNo.FindStringSubmatch(u.Path + u.RawQuery); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	if v := u.Query().Get("page"); v != "" {
		var n int
		fmt.Sscan(v, &n)
		return n
	}
	return 1
}

func (f *Forum) sawNewest(topic, id string) {
	f.state.Lock()
	defer f.state.Unlock()
	if cur := f.newest[topic]; cur == "" || forum.IDLess(cur, id) {
		f.newest[topic] = id
	}
}

// Posts lists the comments of the topic after the cursor, oldest first. An idle poll is one
// request (?do=getLastComment, a redirect); the newest page is read only when its newest comment
// is past the cursor (or the cursor asks for its own post again), older pages only while they
// may hold comments after the cursor.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	path, number, err := topicRoute(t)
	if err != nil {
		return nil, after, err
	}
	f.name(t)
	last, pageURL, err := f.latest(ctx, t, path)
	if err == nil {
		err = checkThread(number, nil, pageURL)
	}
	if err != nil {
		return nil, after, err
	}
	f.sawNewest(t.ID, last)
	if after.PostID != "" && !forum.IDLess(after.PostID, last) && !(after.Include && after.PostID == last) {
		return nil, forum.Cursor{PostID: after.PostID, Page: pageNumber(pageURL)}, nil
	}
	page, _, doc, err := f.readPage(ctx, pageURL.String())
	if err == nil {
		err = checkThread(number, doc, nil)
	}
	if err != nil {
		return nil, after, err
	}
	section := sectionOf(doc)
	f.setSection(t, number, section)
	f.noteForumURL(doc, section)
	current := page.Current
	if current <= 1 {
		current = pageNumber(pageURL)
	}
	return web.PostsAfter(after, current, page.Posts, page.Prev, maxPagesPerPoll,
		func(rawURL string) ([]forum.Post, string, error) {
			p, _, doc, err := f.readPage(ctx, rawURL)
			if err == nil {
				err = checkThread(number, doc, nil)
			}
			if err != nil {
				return nil, "", err
			}
			return p.Posts, p.Prev, nil
		})
}

// Reply posts body (BBCode, as Invision's editor parses it) to the topic through its comment
// form and returns the new comment's id from the redirect.
// merged is true when Invision merged the text into the bot's previous comment (its
// mergeConcurrentComment: the redirect names a comment not newer than the newest seen).
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	path, topic, err := topicRoute(t)
	if err != nil {
		return "", false, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var id string
	var merged bool
	err = f.retry(ctx, true, func() error {
		var e error
		id, merged, e = f.replyAttempt(ctx, t, path, topic, body)
		return e
	})
	return id, merged, err
}

// errPending: Invision took the comment but holds it for a moderator ("Your content will need to
// be approved by a moderator"); it has no place in the topic yet.
var errPending = errors.New("invision: the comment awaits a moderator's approval")

func (f *Forum) replyAttempt(ctx context.Context, t forum.Thread, path, topic, body string) (string, bool, error) {
	last, pageURL, err := f.latest(ctx, t, path)
	if err != nil {
		return "", false, err
	}
	f.sawNewest(t.ID, last)
	_, page, doc, err := f.readPage(ctx, pageURL.String())
	if err != nil {
		return "", false, err
	}
	fs, action, vals, err := commentForm(doc, page, topic)
	if err != nil {
		return "", false, err
	}
	submitted := "commentform_" + topic + "_submitted"
	vals.Set(noscriptField(fs), html.EscapeString(body))
	f.state.Lock()
	newest := f.newest[t.ID]
	f.state.Unlock()
	p, d, err := f.board.Fetch(ctx, action, vals, web.Charset(fs, page), false)
	if err != nil {
		return "", false, err
	}
	if m := reComment.FindStringSubmatch(p.URL.Fragment); m != nil {
		id := m[1]
		f.sawNewest(t.ID, id)
		return id, newest != "" && !forum.IDLess(newest, id), nil
	}
	if cerr := f.checkPage(d, p.Status); cerr != nil {
		return "", false, cerr
	}
	if in, known := signedIn(d); known && !in {
		return "", false, fmt.Errorf("invision: reply to %s answered a guest's page: %w", t.ID, forum.ErrLoggedOut)
	}
	if msg := clean(d.Find("[data-role='commentFormError']").First().Text()); msg != "" {
		return "", false, f.classify(p.Status, msg)
	}
	if msg := clean(d.Find(".ipsMessage_warning, .ipsMessage").First().Text()); strings.Contains(msg, "approved by a moderator") {
		return "", false, fmt.Errorf("invision: reply to %s: %w", t.ID, errPending)
	}
	if d.Find("form:has(input[name='"+submitted+"'])").Length() > 0 {
		return "", false, fmt.Errorf("invision: reply to %s: the form came back without an error (csrfKey refused): %w", t.ID, forum.ErrBadToken)
	}
	return "", false, fmt.Errorf("invision: reply to %s: %s names no comment: %w", t.ID, p.URL, forum.ErrMarkupChanged)
}

// commentForm finds the topic's comment form on its page (commentTemplate: the form holding
// commentform_<topic>_submitted) and gives its action and the fields a browser without
// JavaScript sends (csrfKey, _contentReply, MAX_FILE_SIZE, plupload, …). No form: the bot may
// not reply (a locked topic, no permission). A form without the editor's textarea
// (data-role=contentEditor, whose name the no-script field is built from) is markup changed.
func commentForm(doc *goquery.Document, page *forum.Page, topic string) (*goquery.Selection, string, url.Values, error) {
	submitted := "commentform_" + topic + "_submitted"
	fs := doc.Find("form:has(input[name='" + submitted + "'])").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok {
		// A topic the bot may not reply to shows why in the compose area instead of the form
		// (go-piratia.ru: "This topic is now closed to further replies.").
		why := clean(doc.Find(".ipsComposeArea_unavailable .ipsType_warning, .ipsComposeArea_unavailable").First().Text())
		return nil, "", nil, fmt.Errorf("invision: no reply form (%s) on %s (%q): %w", submitted, page.URL, why, forum.ErrNoPermission)
	}
	if noscriptField(fs) == "" {
		return nil, "", nil, fmt.Errorf("invision: the reply form on %s has no editor: %w", page.URL, forum.ErrMarkupChanged)
	}
	return fs, action, web.Replay{}.Values(fs), nil
}

// noscriptField is the name of the editor's no-script field: the contentEditor textarea's name
// + "_noscript" ("topic_comment_230_noscript"); "" without the editor.
func noscriptField(fs *goquery.Selection) string {
	name, _ := fs.Find("textarea[data-role='contentEditor']").First().Attr("name")
	if name == "" {
		return ""
	}
	return name + "_noscript"
}

// pageThread is the id of the topic doc is a page of: the body's data-pageid (the topic
// controller's), the canonical link or og:url, the comment feed's id ("topic-N"), the comment
// form's commentform_N_submitted.
func pageThread(doc *goquery.Document) string {
	id := forum.ThreadIDFrom(threadURLRe)
	prefixed := func(prefix, suffix string) func(string) (string, bool) {
		return func(v string) (string, bool) {
			v, ok := strings.CutPrefix(v, prefix)
			v, ok2 := strings.CutSuffix(v, suffix)
			return v, ok && ok2 && v != "" && strings.Trim(v, "0123456789") == ""
		}
	}
	return scrape.PageThread(doc, append(append([]scrape.ThreadSource{{Sel: `body[data-pagecontroller="topic"]`, Attr: "data-pageid"}},
		scrape.Canonical(id)...),
		scrape.ThreadSource{Sel: `[data-feedid^="topic-"]`, Attr: "data-feedid", ID: prefixed("topic-", "")},
		scrape.ThreadSource{Sel: `input[name^="commentform_"][name$="_submitted"]`, Attr: "name", ID: prefixed("commentform_", "_submitted")})...)
}

// checkThread checks that a page read for topic number (doc; or the URL a redirect named) is
// that topic's.
func checkThread(number string, doc *goquery.Document, loc *url.URL) error {
	found := ""
	if doc != nil {
		found = pageThread(doc)
	} else if m := threadURLRe.FindStringSubmatch(loc.String()); m != nil {
		found = m[1]
	}
	if err := forum.CheckThread(number, found); err != nil {
		return fmt.Errorf("invision: %w", err)
	}
	return nil
}
