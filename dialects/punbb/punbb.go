// Package punbb is the forum.Forum of PunBB 1.2-1.4 and FluxBB 1.2-1.5 ("punbb" in a
// configuration): it logs in, reads a topic from a cursor and replies through the board's HTML forms
// (every hidden field of a freshly fetched form replayed, csrf_token included where the version
// has one, POSTed to exactly the form's action, since the token is bound to it, with the form's
// page as Referer, which FluxBB 1.4/1.5 demand). The versions' forms differ only in what the
// replay carries (1.2/FluxBB: login.php?action=in, post.php?action=post&tid=T, a "submit" button,
// no token; 1.4: "submit_button"); their default "Redirecting…" pages (200 with a meta refresh
// instead of a 302) name the new post and, after a login, lead to a page that shows the member.
// PunBB and FluxBB core have no private messages: SendPM and Inbox return forum.ErrNoPM and
// Capabilities says so.
//
// Reading: an idle poll is one tiny request — viewtopic.php?id=T&action=last answers 302 to
// viewtopic.php?pid=LAST with an empty body (PunBB honours no conditional GET, not even on its
// feeds). Only when LAST is past the cursor (or is the cursor's own post and the cursor asks for
// it again) is the page holding it (the last page) fetched, and older pages only while they may
// hold posts after the cursor. The topic lists of forums are read for forum.SectionReader
// (viewforum.php?id=N); a topic's forum is learnt from the breadcrumb of its pages.
//
// Writing: the 302 after a reply names the new post (viewtopic.php?pid=N#pN). Errors are typed
// (forum.FloodError with the group's wait, ErrTooShort, ErrTooLong, ErrBadToken, ErrNoPermission,
// ErrLoggedOut) and acted on (web.Retry): logged out → log in again once, bad token → a fresh
// form once; flood control and a message too long come back to the daemon. Forms are encoded in the
// board's charset (windows-1251 boards get &#NNNN; for what cp1251 cannot hold).
package punbb

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/web"
)

// Defaults of PunBB 1.4 and of the poster's behaviour.
const (
	// defaultMaxPostBytes is FORUM_MAX_POSTSIZE: PunBB limits posts in bytes.
	defaultMaxPostBytes = 65535
	maxPagesPerPoll     = 1000
)

// Forum is a PunBB 1.4 board as the bot account sees it.
type Forum struct {
	cfg      forum.Config
	base     *url.URL
	board    web.Board
	maxBytes int

	mu sync.Mutex // one write at a time

	secMu    sync.Mutex
	sections map[string]string // topic id → forum id, from the breadcrumbs of the pages read
}

// option changes how New builds a Forum.
type option func(*Forum)

// withClient uses c for every request (tests pass a fast one).
func withClient(c *forum.Client) option { return func(f *Forum) { f.board.Client = c } }

// New builds the PunBB Forum for cfg. cfg.Extra may set "max_post_bytes".
func New(cfg forum.Config, opts ...option) (*Forum, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("punbb: bad base URL %q", cfg.BaseURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	cfg = web.ConfigDefaults(cfg)
	f := &Forum{cfg: cfg, base: base, maxBytes: web.ExtraInt(cfg, "max_post_bytes", defaultMaxPostBytes),
		board: web.Board{Name: "punbb", Check: checkError}}
	for _, o := range opts {
		o(f)
	}
	f.board.Defaults(cfg)
	return f, nil
}

var (
	_ forum.Forum         = (*Forum)(nil)
	_ forum.SectionReader = (*Forum)(nil)
)

// Capabilities: no private messages in PunBB core; posts up to 65535 bytes, which is at least
// 32767 characters of any text (Cyrillic takes two bytes in UTF-8).
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{PrivateMessages: false, MaxPostLength: f.maxBytes / 2}
}

// SendPM: PunBB 1.4 core has no private messages.
func (f *Forum) SendPM(context.Context, string, string, string) error {
	return fmt.Errorf("punbb: PunBB 1.4 core has no private messages: %w", forum.ErrNoPM)
}

// Inbox: PunBB 1.4 core has no private messages.
func (f *Forum) Inbox(_ context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	return nil, after, fmt.Errorf("punbb: PunBB 1.4 core has no private messages: %w", forum.ErrNoPM)
}

func (f *Forum) u(path string, q url.Values) string {
	u := f.base.ResolveReference(&url.URL{Path: path})
	u.RawQuery = q.Encode()
	return u.String()
}

func (f *Forum) opts() options {
	return options{Base: f.base, Location: f.cfg.Location, Now: f.cfg.Now()}
}

// fetch GETs (vals == nil) or POSTs a page, parses it and, when check is set, turns the error it
// shows into a typed error.
func (f *Forum) fetch(ctx context.Context, rawURL string, vals url.Values, charset string, check bool) (*forum.Page, *goquery.Document, error) {
	return f.board.Fetch(ctx, rawURL, vals, charset, check)
}

// Login logs in with the configured account ("save_pass": the cookie lasts 14 days).
func (f *Forum) Login(ctx context.Context) error {
	return f.retry(ctx, false, func() error {
		page, doc, err := f.fetch(ctx, f.u("login.php", nil), nil, "", false)
		if err != nil {
			return fmt.Errorf("punbb: login form: %w", err)
		}
		fs := doc.Find("form:has(input[name='req_username'])").First()
		action, ok := web.Action(fs, page)
		if fs.Length() == 0 || !ok {
			return fmt.Errorf("punbb: no login form at %s: %w", page.URL, forum.ErrMarkupChanged)
		}
		vals := web.Replay{Submit: "login", TrimTextarea: true}.Values(fs)
		vals.Set("req_username", f.cfg.Username)
		vals.Set("req_password", f.cfg.Password)
		vals.Set("save_pass", "1")
		page, doc, err = f.submit(ctx, action, vals, web.Charset(fs, page), page.URL.String())
		if err != nil {
			return fmt.Errorf("punbb: login as %q: %w", f.cfg.Username, err)
		}
		in, _ := LoggedIn(doc)
		if target := redirectTarget(doc); !in && target != "" {
			// PunBB 1.2/1.3 and FluxBB answer with a "Redirecting…" page (o_redirect_delay 1 by
			// default) that shows no navigation: the page it leads to tells.
			next, err := page.URL.Parse(target)
			if err != nil {
				return fmt.Errorf("punbb: login as %q: redirect to %q: %w", f.cfg.Username, target, forum.ErrMarkupChanged)
			}
			if page, doc, err = f.fetch(ctx, next.String(), nil, "", true); err != nil {
				return fmt.Errorf("punbb: login as %q: %w", f.cfg.Username, err)
			}
			in, _ = LoggedIn(doc)
		}
		if !in {
			return fmt.Errorf("punbb: login as %q: still a guest at %s: %w", f.cfg.Username, page.URL, forum.ErrBadLogin)
		}
		return nil
	})
}

// submit POSTs a form as a browser does, with the form's page as the Referer: FluxBB 1.4/1.5 refuse
// a reply whose Referer is not one of their own pages ("Bad HTTP_REFERER"). It answers as fetch.
func (f *Forum) submit(ctx context.Context, action string, vals url.Values, charset, referer string) (*forum.Page, *goquery.Document, error) {
	body, err := forum.EncodeForm(vals, charset)
	if err != nil {
		return nil, nil, err
	}
	h := http.Header{}
	if referer != "" {
		h.Set("Referer", referer)
	}
	p, err := f.board.Client.Send(ctx, http.MethodPost, action, []byte(body), "application/x-www-form-urlencoded", h)
	if p == nil || p.Body == nil {
		if err == nil {
			err = fmt.Errorf("punbb: %s: empty answer", action)
		}
		return p, nil, err
	}
	doc, derr := p.Doc()
	if derr != nil {
		return p, nil, derr
	}
	if perr := checkError(doc, p.Status); perr != nil {
		return p, doc, perr
	}
	return p, doc, err
}

// retry runs attempt under form.Retry: logged out → log in once (when relogin is set), bad token
// → a fresh form once.
func (f *Forum) retry(ctx context.Context, relogin bool, attempt func() error) error {
	var r web.Retry
	if relogin {
		r.Login = f.Login
	}
	return r.Do(ctx, attempt)
}

// read fetches and parses a topic page.
func (f *Forum) read(ctx context.Context, rawURL string) (*Page, error) {
	var page *Page
	err := f.retry(ctx, true, func() error {
		_, doc, err := f.fetch(ctx, rawURL, nil, "", true)
		if err != nil {
			return err
		}
		page, err = parse(doc, f.opts())
		return err
	})
	return page, err
}

// lastPostID asks PunBB for the topic's newest post: viewtopic.php?id=T&action=last is a 302 to
// viewtopic.php?pid=N#pN with an empty body.
func (f *Forum) lastPostID(ctx context.Context, topic string) (string, error) {
	p, err := f.board.Client.GetNoRedirect(ctx, f.u("viewtopic.php", url.Values{"id": {topic}, "action": {"last"}}))
	if err != nil {
		return "", err
	}
	if p.Status/100 != 3 {
		if werr := forum.CheckWhole(p); werr != nil { // a page cut short is never read
			return "", fmt.Errorf("punbb: %w", werr)
		}
		if doc, derr := p.Doc(); derr == nil {
			if perr := checkError(doc, p.Status); perr != nil {
				return "", perr
			}
		}
		return "", fmt.Errorf("punbb: action=last answered HTTP %d, not a redirect: %w", p.Status, forum.ErrMarkupChanged)
	}
	loc, err := p.Location()
	if err != nil {
		return "", err
	}
	id := postIDFromURL(loc.String())
	if id == "" {
		return "", fmt.Errorf("punbb: action=last redirected to %s, no pid: %w", loc, forum.ErrMarkupChanged)
	}
	return id, nil
}

// Posts lists the posts of thread after the cursor, oldest first. The idle check is lastPostID
// (one request, a 302 without a body): a page is read only when the post it names is past the
// cursor, or is the cursor's own post and the cursor asks for it again (forum.Cursor.Include).
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if _, err := strconv.Atoi(t.ID); err != nil {
		return nil, after, fmt.Errorf("punbb: topic id %q is not a number", t.ID)
	}
	last, err := f.lastPostID(ctx, t.ID)
	if err != nil {
		return nil, after, err
	}
	if after.PostID != "" && !forum.IDLess(after.PostID, last) && !(after.Include && last == after.PostID) {
		return nil, after, nil // idle: nothing after the cursor (nor its own post asked for again)
	}
	page, err := f.topicPage(ctx, t, f.u("viewtopic.php", url.Values{"pid": {last}}))
	if err != nil {
		return nil, after, err
	}
	f.learnSection(t.ID, page.Section)
	return web.PostsAfter(after, page.Current, page.Posts, page.PrevURL, maxPagesPerPoll,
		func(rawURL string) ([]forum.Post, string, error) {
			p, err := f.topicPage(ctx, t, rawURL)
			if err != nil {
				return nil, "", err
			}
			return p.Posts, p.PrevURL, nil
		})
}

// topicPage reads a page of topic t; a page of another topic is a *forum.WrongThreadError.
func (f *Forum) topicPage(ctx context.Context, t forum.Thread, rawURL string) (*Page, error) {
	p, err := f.read(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	if err := forum.CheckThread(t.ID, p.TopicID); err != nil {
		return nil, fmt.Errorf("punbb: %w", err)
	}
	return p, nil
}

// Reply posts body to the topic and returns the new post's id from PunBB's redirect. merged is set
// when the id is not newer than the topic's newest post at form time.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	if _, err := strconv.Atoi(t.ID); err != nil {
		return "", false, fmt.Errorf("punbb: topic id %q is not a number", t.ID)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var id string
	var merged bool
	err := f.retry(ctx, true, func() error {
		var e error
		id, merged, e = f.replyAttempt(ctx, t, body)
		return e
	})
	return id, merged, err
}

func (f *Forum) replyAttempt(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	page, doc, err := f.fetch(ctx, f.u("post.php", url.Values{"tid": {t.ID}}), nil, "", true)
	if err != nil {
		return "", false, err
	}
	fs := doc.Find("form:has(textarea[name='req_message'])").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok {
		return "", false, fmt.Errorf("punbb: no reply form on %s: %w", page.URL, forum.ErrMarkupChanged)
	}
	newest := maxPostID(doc)  // the topic review lists the newest posts
	submit := "submit_button" // PunBB 1.4; 1.2, 1.3 and FluxBB name it "submit"
	if fs.Find("input[name='submit_button']").Length() == 0 && fs.Find("input[name='submit']").Length() > 0 {
		submit = "submit"
	}
	vals := web.Replay{Submit: submit, TrimTextarea: true}.Values(fs)
	vals.Set("req_message", body)
	if vals.Get("form_user") == "" && fs.Find("input[name='form_user']").Length() > 0 {
		vals.Set("form_user", f.cfg.Username)
	}
	page, doc, err = f.submit(ctx, action, vals, web.Charset(fs, page), page.URL.String())
	if err != nil {
		return "", false, err
	}
	id := postIDFromURL(page.URL.String())
	if id == "" {
		id = postIDFromURL(redirectTarget(doc))
	}
	if id == "" {
		if doc.Find("textarea[name='req_message']").Length() > 0 {
			return "", false, fmt.Errorf("punbb: the reply form came back without a recognised error at %s", page.URL)
		}
		return "", false, fmt.Errorf("punbb: reply sent, but %s names no post: %w", page.URL, forum.ErrMarkupChanged)
	}
	return id, newest != "" && !forum.IDLess(newest, id), nil
}

// Section lists the topics on the first page of forum section (viewforum.php?id=N): one request.
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if _, err := strconv.Atoi(section); err != nil {
		return nil, fmt.Errorf("punbb: forum id %q is not a number", section)
	}
	var heads []forum.ThreadHead
	err := f.retry(ctx, true, func() error {
		_, doc, err := f.fetch(ctx, f.u("viewforum.php", url.Values{"id": {section}}), nil, "", true)
		if err != nil {
			return err
		}
		heads, err = Section(doc, f.opts())
		return err
	})
	return heads, err
}

// SectionOf names the forum of topic t as the breadcrumb of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.secMu.Lock()
	defer f.secMu.Unlock()
	return f.sections[t.ID]
}

func (f *Forum) learnSection(topic, section string) {
	if section == "" {
		return
	}
	f.secMu.Lock()
	defer f.secMu.Unlock()
	if f.sections == nil {
		f.sections = map[string]string{}
	}
	f.sections[topic] = section
}
