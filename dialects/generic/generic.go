// Package generic is the configurable dialect of forum.Forum ("generic" in a configuration): URLs,
// selectors, form fields and error patterns come from forum.Config.Extra (keys in README.md). The
// form helpers it shares with the built-in dialects are in forum/web.
//
// With Extra["browser"] = "true" the login and the reply are made by filling the forms in a real
// headless chromium (dialects/generic/browser) instead of HTTP form posts; reading stays plain HTTP.
package generic

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

// BrowserWriter is what a real-browser writer does for the generic dialect (dialects/generic/browser
// implements it; the program wires it in through Options.NewBrowser, so this package does not
// import rod).
type BrowserWriter interface {
	Login(ctx context.Context, loginURL, form, userField, passField, user, pass string) error
	// Reply fills field of form on formURL with body, submits, and returns the URL and HTML the
	// browser ends on.
	Reply(ctx context.Context, formURL, form, field, body string) (finalURL, html string, err error)
	Close() error
}

// Options are the injectable parts: the client and clock (tests), and the real-browser writer.
type Options struct {
	Client *forum.Client
	Sleep  web.Sleeper
	// Browser writes instead of HTTP form posts (a test's writer); nil: NewBrowser builds one when
	// Extra["browser"] = "true".
	Browser BrowserWriter
	// NewBrowser builds the real-browser writer for Extra["browser"] = "true" (forumgm passes
	// dialects/generic/browser's); nil: such a configuration does not open.
	NewBrowser func(cfg forum.Config) BrowserWriter
}

// Forum is a board described by configuration.
type Forum struct {
	cfg   forum.Config
	x     map[string]string
	base  *url.URL
	c     *forum.Client
	opt   Options
	table *scrape.Table
	now   func() time.Time
	max   int
	pats  map[string]*regexp.Regexp
}

// New builds the dialect from cfg.Extra.
func New(cfg forum.Config, opt Options) (*Forum, error) {
	t, err := scrape.TableFromExtra(cfg.Extra)
	if err != nil {
		return nil, err
	}
	if cfg.BaseURL == "" {
		return nil, errors.New("generic: BaseURL is empty")
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("generic: bad BaseURL: %w", err)
	}
	x := cfg.Extra
	if x["thread_url"] == "" {
		return nil, errors.New("generic: thread_url missing (e.g. viewtopic.php?id={thread}&p={page})")
	}
	if opt.Sleep == nil {
		opt.Sleep = forum.Sleep
	}
	if opt.Client == nil {
		opt.Client = forum.NewClient(cfg.ClientConfig().WithSleep(opt.Sleep))
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	f := &Forum{cfg: cfg, x: x, base: base, c: opt.Client, opt: opt, table: t, now: now, pats: map[string]*regexp.Regexp{}}
	if n, err := strconv.Atoi(x["max_post_chars"]); err == nil && n > 0 {
		f.max = n
	}
	for _, k := range []string{"error_flood", "error_token", "error_too_long", "error_too_short", "error_no_permission", "error_bad_login"} {
		if s := x[k]; s != "" {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("generic: %s: %w", k, err)
			}
			f.pats[k] = re
		}
	}
	if x["browser"] == "true" && opt.Browser == nil {
		if opt.NewBrowser == nil {
			return nil, errors.New("generic: browser=true but no real-browser writer is wired in (Options.NewBrowser)")
		}
		f.opt.Browser = opt.NewBrowser(cfg)
	}
	return f, nil
}

// opener opens the generic dialect with opt (the real-browser writer, say) for every config.
func opener(opt Options) forum.Opener {
	return func(cfg forum.Config) (forum.Forum, error) {
		f, err := New(cfg, opt)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// Capabilities: PMs are not configurable in the generic dialect.
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{MaxPostLength: f.max}
}

func (f *Forum) expand(pattern, thread string, page int) string {
	per, _ := strconv.Atoi(f.x["per_page"])
	r := strings.NewReplacer("{thread}", url.QueryEscape(thread), "{page}", strconv.Itoa(page), "{start}", strconv.Itoa((page-1)*per))
	u, _ := f.base.Parse(r.Replace(pattern))
	return u.String()
}

func (f *Forum) duration(key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(f.x[key]); err == nil && d > 0 {
		return d
	}
	return def
}

func (f *Forum) loggedIn(d *goquery.Document) bool {
	sel := f.x["logged_in"]
	return sel == "" || d.Find(sel).Length() > 0
}

func (f *Forum) errorText(d *goquery.Document) string {
	sel := f.x["error"]
	if sel == "" {
		return ""
	}
	var parts []string
	d.Find(sel).Each(func(_ int, s *goquery.Selection) {
		if t := strings.Join(strings.Fields(s.Text()), " "); t != "" {
			parts = append(parts, t)
		}
	})
	return strings.Join(parts, " | ")
}

func (f *Forum) match(k, msg string) bool { return f.pats[k] != nil && f.pats[k].MatchString(msg) }

func (f *Forum) classify(msg string) error {
	switch {
	case f.match("error_flood", msg):
		return fmt.Errorf("generic: %q: %w", msg, &forum.FloodError{Wait: web.FloodWait(msg, f.duration("flood_wait", 60*time.Second))})
	case f.match("error_token", msg):
		return fmt.Errorf("generic: %q: %w", msg, forum.ErrBadToken)
	case f.match("error_too_long", msg):
		return fmt.Errorf("generic: %q: %w", msg, forum.ErrTooLong)
	case f.match("error_too_short", msg):
		return fmt.Errorf("generic: %q: %w", msg, forum.ErrTooShort)
	case f.match("error_no_permission", msg):
		return fmt.Errorf("generic: %q: %w", msg, forum.ErrNoPermission)
	}
	return fmt.Errorf("generic: rejected: %q", msg)
}

func extraValues(s string) url.Values {
	v, _ := url.ParseQuery(s)
	return v
}

func (f *Forum) waitFormAge(ctx context.Context, loaded time.Time) error {
	if d := f.duration("min_form_age", 0) - f.now().Sub(loaded); d > 0 {
		return f.opt.Sleep(ctx, d)
	}
	return nil
}

func (f *Forum) getDoc(ctx context.Context, u string) (*forum.Page, *goquery.Document, error) {
	p, err := f.c.Get(ctx, u)
	if p == nil {
		return nil, nil, err
	}
	if err == nil {
		if werr := forum.CheckWhole(p); werr != nil { // a page cut short is never read
			return nil, nil, fmt.Errorf("generic: %w", werr)
		}
	}
	d, derr := p.Doc()
	if derr != nil {
		return nil, nil, derr
	}
	return p, d, err
}

// Login fills login_form on login_url with login_user_field / login_pass_field (+ login_extra).
func (f *Forum) Login(ctx context.Context) error {
	if f.x["login_url"] == "" {
		return nil // a board read as a guest
	}
	loginURL := f.expand(f.x["login_url"], "", 1)
	formSel := orDefault(f.x["login_form"], "form")
	userField, passField := orDefault(f.x["login_user_field"], "username"), orDefault(f.x["login_pass_field"], "password")
	if f.opt.Browser != nil {
		return f.opt.Browser.Login(ctx, loginURL, formSel, userField, passField, f.cfg.Username, f.cfg.Password)
	}
	p, d, err := f.getDoc(ctx, loginURL)
	if err != nil {
		return err
	}
	fm, err := web.Read(p, d, formSel)
	if err != nil {
		return scrape.Markup("generic", "%v", err)
	}
	loaded := f.now()
	fm.Values.Set(userField, f.cfg.Username)
	fm.Values.Set(passField, f.cfg.Password)
	for k, v := range extraValues(f.x["login_extra"]) {
		fm.Values[k] = v
	}
	if err := f.waitFormAge(ctx, loaded); err != nil {
		return err
	}
	rp, err := f.c.PostForm(ctx, fm.Action.String(), fm.Values, f.charset(p))
	if rp == nil {
		return err
	}
	rd, derr := rp.Doc()
	if derr != nil {
		return derr
	}
	msg := f.errorText(rd)
	refused := f.match("error_bad_login", msg) || rd.Find(formSel).Find("input[name='"+passField+"']").Length() > 0
	if target := web.RedirectTarget(rp, rd); !refused && !f.loggedIn(rd) && target.String() != rp.URL.String() {
		// A "Redirecting…" page (MyBB, PunBB 1.2, FluxBB) shows no navigation: the page it
		// leads to tells whether the login took.
		if _, td, terr := f.getDoc(ctx, target.String()); terr == nil {
			rd = td
		}
	}
	if refused || !f.loggedIn(rd) {
		return fmt.Errorf("generic: login: %q: %w", msg, forum.ErrBadLogin)
	}
	return err
}

func (f *Forum) charset(p *forum.Page) string {
	if c := f.x["charset"]; c != "" {
		return c
	}
	return p.Charset
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Posts reads last_page_url (or the page the cursor was on, else page 1 of thread_url) and walks
// back with thread_url while the page's oldest post is newer than the cursor; the cursor's own
// post is read again when the cursor asks for it (forum.Cursor.Include).
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	o, err := scrape.OptionsFromConfig(f.cfg)
	if err != nil {
		return nil, after, err
	}
	next := f.expand(f.x["thread_url"], t.ID, 1)
	if f.x["last_page_url"] != "" {
		next = f.expand(f.x["last_page_url"], t.ID, 1)
	}
	var out []forum.Post
	cur := after
	for pages := 0; next != "" && pages < 10000; pages++ {
		p, d, err := f.getDoc(ctx, next)
		if err != nil {
			return nil, after, err
		}
		o.Base = p.URL
		pi, err := scrape.Extract(d, f.table, o)
		if err != nil {
			if !f.loggedIn(d) {
				return nil, after, fmt.Errorf("generic: %w: %v", forum.ErrLoggedOut, err)
			}
			return nil, after, err
		}
		if err := forum.CheckThread(t.ID, pageThread(f.table, d)); err != nil {
			return nil, after, fmt.Errorf("generic: %w", err)
		}
		if pages == 0 {
			cur.Page = pi.Current
			if f.x["last_page_url"] == "" && pi.Last > pi.Current {
				// Without a last-page URL: jump to the last page shown.
				next = f.expand(f.x["thread_url"], t.ID, pi.Last)
				pages--
				out = nil
				f.x = cloneWith(f.x, "last_page_url", strings.ReplaceAll(f.x["thread_url"], "{page}", strconv.Itoa(pi.Last)))
				continue
			}
		}
		older := false
		for _, post := range pi.Posts {
			if after.Listed(post.ID) { // after the cursor, or its own post asked for (Include)
				out = append(out, post)
			}
			if after.PostID != "" && !forum.IDLess(after.PostID, post.ID) {
				older = true // the cursor's post or older: no page before this one is needed
			}
		}
		if older || pi.Current <= 1 {
			break
		}
		next = pi.Prev
		if next == "" {
			next = f.expand(f.x["thread_url"], t.ID, pi.Current-1)
		}
	}
	forum.SortPosts(out)
	if len(out) > 0 {
		cur.PostID = out[len(out)-1].ID
	}
	cur.Include = false
	return out, cur, nil
}

// pageThread is the id of the thread doc is a page of where the table says (thread_id); "" when
// it does not say, or the page does not show it.
func pageThread(t *scrape.Table, doc *goquery.Document) string {
	if t.Thread.IsZero() {
		return ""
	}
	id, _ := t.Thread.Get(doc.Selection)
	return id
}

// PageThread is the descriptor's PageThread: the thread of a saved page where cfg's table says
// (thread_id).
func PageThread(page []byte, contentType string, cfg forum.Config) (string, bool) {
	t, err := scrape.TableFromExtra(cfg.Extra)
	if err != nil {
		return "", false
	}
	doc, err := scrape.Parse(page, contentType)
	if err != nil {
		return "", false
	}
	id := pageThread(t, doc)
	return id, id != ""
}

func cloneWith(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// Reply posts body through reply_url / reply_form / reply_field, with the same recovery as the
// built-in dialects (form.Retry): log in again, retry a rejected token.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	return web.Retry{Login: f.Login}.Post(ctx, func() (string, bool, error) {
		id, err := f.replyOnce(ctx, t, body)
		return id, false, err
	})
}

func (f *Forum) replyOnce(ctx context.Context, t forum.Thread, body string) (string, error) {
	if f.x["reply_url"] == "" {
		return "", errors.New("generic: reply_url not configured")
	}
	formURL := f.expand(f.x["reply_url"], t.ID, 1)
	formSel := orDefault(f.x["reply_form"], "form")
	field := orDefault(f.x["reply_field"], "message")
	var finalURL *url.URL
	var rd *goquery.Document
	if f.opt.Browser != nil {
		fu, h, err := f.opt.Browser.Reply(ctx, formURL, formSel, field, body)
		if err != nil {
			return "", err
		}
		if finalURL, err = url.Parse(fu); err != nil {
			return "", err
		}
		if rd, err = goquery.NewDocumentFromReader(strings.NewReader(h)); err != nil {
			return "", err
		}
	} else {
		p, d, err := f.getDoc(ctx, formURL)
		if err != nil {
			return "", err
		}
		if !f.loggedIn(d) {
			return "", fmt.Errorf("generic: reply form: %w", forum.ErrLoggedOut)
		}
		fm, err := web.Read(p, d, formSel)
		if err != nil {
			if msg := f.errorText(d); msg != "" {
				return "", f.classify(msg)
			}
			return "", scrape.Markup("generic", "%v", err)
		}
		loaded := f.now()
		fm.Values.Set(field, body)
		for k, v := range extraValues(f.x["reply_extra"]) {
			fm.Values[k] = v
		}
		if err := f.waitFormAge(ctx, loaded); err != nil {
			return "", err
		}
		rp, err := f.c.PostForm(ctx, fm.Action.String(), fm.Values, f.charset(p))
		if rp == nil {
			return "", err
		}
		if rd, err = rp.Doc(); err != nil {
			return "", err
		}
		finalURL = web.RedirectTarget(rp, rd)
	}
	if msg := f.errorText(rd); msg != "" {
		return "", f.classify(msg)
	}
	id := web.IDFromURL(finalURL, strings.Split(orDefault(f.x["reply_id_param"], "p,pid"), ",")...)
	if id == "" {
		return "", scrape.Markup("generic", "no post id after replying (at %s)", finalURL)
	}
	return id, nil
}

// SendPM: the generic dialect has no private messages.
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	return fmt.Errorf("generic: %w", forum.ErrNoPM)
}

// Inbox: the generic dialect has no private messages.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	return nil, after, fmt.Errorf("generic: %w", forum.ErrNoPM)
}
