// Package mybbru is the MyBB.ru / rusff hosting dialect of forum.Forum ("mybbru" in a configuration):
// PunBB-style login (login.php?action=in: form_sent, redirect_url, req_username, req_password,
// save_pass), an idle check of one request (viewtopic.php?id=T&action=last, not followed: its
// Location names the newest post) and, when that post is past the cursor, reading from the page
// holding it backwards with &p=N down to the cursor, the topic lists of forums (forum.SectionReader),
// replying through post.php?tid=T (form#post, textarea req_message; all hidden inputs replayed),
// pages decoded from their charset (usually windows-1251) and forms encoded in it, with &#NNNN;
// for what the charset cannot hold. Private messages are not implemented (ErrNoPM): their form
// could not be confirmed from real pages (see README.md).
//
// Config.Extra keys: "max_post_chars" (default 65535, PunBB's limit in bytes of the board charset
// — one byte a character in windows-1251), "flood_wait" (default 60s when the message gives no
// number), "rate" (requests per second, default 1).
package mybbru

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

// options are the injectable parts (tests).
type options struct {
	Client    *forum.Client
	Sleep     web.Sleeper
	FloodWait time.Duration // the wait of a flood message that names none
}

// Forum is a MyBB.ru-hosted board logged in as the bot.
type Forum struct {
	cfg  forum.Config
	base *url.URL
	c    *forum.Client
	opt  options
	max  int

	mu       sync.Mutex
	lastSeen map[string]string
	sections map[string]string // topic id → forum id, from the breadcrumbs of the pages read
}

// New builds the dialect.
func New(cfg forum.Config, opt options) (*Forum, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("mybbru: BaseURL is empty")
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("mybbru: bad BaseURL: %w", err)
	}
	if opt.Sleep == nil {
		opt.Sleep = forum.Sleep
	}
	if opt.FloodWait == 0 {
		opt.FloodWait = 60 * time.Second
		if d, err := time.ParseDuration(cfg.Extra["flood_wait"]); err == nil && d > 0 {
			opt.FloodWait = d
		}
	}
	if opt.Client == nil {
		opt.Client = forum.NewClient(cfg.ClientConfig().WithSleep(opt.Sleep))
	}
	f := &Forum{cfg: cfg, base: base, c: opt.Client, opt: opt, max: 65535, lastSeen: map[string]string{}}
	if n, err := strconv.Atoi(cfg.Extra["max_post_chars"]); err == nil && n > 0 {
		f.max = n
	}
	return f, nil
}

var _ forum.SectionReader = (*Forum)(nil)

// Capabilities: no private messages through this dialect.
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{PrivateMessages: false, MaxPostLength: f.max}
}

func (f *Forum) url(path string) string {
	u, _ := f.base.Parse(path)
	return u.String()
}

// getDoc is doc for a page read with GET: a page cut short is never read.
func getDoc(p *forum.Page, err error) (*forum.Page, *goquery.Document, error) {
	if err == nil {
		if werr := forum.CheckWhole(p); werr != nil {
			return nil, nil, fmt.Errorf("mybbru: %w", werr)
		}
	}
	return doc(p, err)
}

func doc(p *forum.Page, err error) (*forum.Page, *goquery.Document, error) {
	if p == nil {
		return nil, nil, err
	}
	var se *forum.StatusError
	if errors.As(err, &se) && se.Status == 404 {
		return nil, nil, fmt.Errorf("mybbru: %w: %v", forum.ErrNotFound, err)
	}
	d, derr := p.Doc()
	if derr != nil {
		return nil, nil, derr
	}
	return p, d, err
}

// loggedIn: the navigation has the logout link (login.php?action=out).
func loggedIn(d *goquery.Document) bool {
	return d.Find(`#navlogout, a[href*="login.php?action=out"]`).Length() > 0
}

func message(d *goquery.Document) string {
	var parts []string
	d.Find("#posterror li, #posterror p, #pun-main div.info div.container, #msg p").Each(func(_ int, s *goquery.Selection) {
		if t := strings.Join(strings.Fields(s.Text()), " "); t != "" {
			parts = append(parts, t)
		}
	})
	return strings.Join(parts, " | ")
}

// Refusals by their text. MyBB.ru's engine is closed and no page of its refusals was found; it
// grew out of PunBB 1.2, so the patterns take the wording of PunBB 1.2's Russian pack as public
// repositories ship it (github.com/neofutur/MyBestBB commit e3773d1d4659846c038992b91358724043af1cb9
// and github.com/Gemorroj/punbb-mod commit 8e52d5e01ea5b7806437282809c3713814d9f9c2,
// lang/Russian/{post,common,login}.php; quoted in TestClassify) besides the wording of the
// test pages (written, unverified) and English.
var (
	reFlood   = regexp.MustCompile(`(?i)секунд между сообщениями|секунд, между отправкой сообщений|подождите немного|have to pass between posts|флуд`)
	reTooLong = regexp.MustCompile(`(?i)длиннее|longer th|слишком длинн`)
	reTooFew  = regexp.MustCompile(`(?i)должны ввести (?:текст )?сообщени|must enter a message|слишком коротк`)
	reNoPerm  = regexp.MustCompile(`(?i)нет прав|не имеете прав|no permission|do not have permission|тема закрыта|topic is closed`)
	reBadUser = regexp.MustCompile(`(?i)неверное имя|неправильное имя|неверный пароль|incorrect username|wrong user`)
)

func (f *Forum) classify(msg string) error {
	switch {
	case reFlood.MatchString(msg):
		return fmt.Errorf("mybbru: %q: %w", msg, &forum.FloodError{Wait: web.FloodWait(msg, f.opt.FloodWait)})
	case reTooLong.MatchString(msg):
		return fmt.Errorf("mybbru: %q: %w", msg, forum.ErrTooLong)
	case reTooFew.MatchString(msg):
		return fmt.Errorf("mybbru: %q: %w", msg, forum.ErrTooShort)
	case reNoPerm.MatchString(msg):
		return fmt.Errorf("mybbru: %q: %w", msg, forum.ErrNoPermission)
	}
	return fmt.Errorf("mybbru: rejected: %q", msg)
}

// Login logs in through the PunBB login form.
func (f *Forum) Login(ctx context.Context) error {
	p, d, err := getDoc(f.c.Get(ctx, f.url("login.php")))
	if err != nil {
		return err
	}
	if loggedIn(d) && d.Find("form#login").Length() == 0 {
		return nil
	}
	fm, err := web.Read(p, d, "form#login, form[action*='login.php']")
	if err != nil {
		return scrape.Markup("mybbru", "%v", err)
	}
	fm.Values.Set("req_username", f.cfg.Username)
	fm.Values.Set("req_password", f.cfg.Password)
	fm.Values.Set("save_pass", "1")
	fm.Values.Set("login", "Войти")
	_, rd, err := doc(f.c.PostForm(ctx, fm.Action.String(), fm.Values, p.Charset))
	if err != nil {
		return err
	}
	if !loggedIn(rd) {
		msg := message(rd)
		if reBadUser.MatchString(msg) || rd.Find("form#login").Length() > 0 {
			return fmt.Errorf("mybbru: login: %q: %w", msg, forum.ErrBadLogin)
		}
		return fmt.Errorf("mybbru: login not confirmed: %q: %w", msg, forum.ErrBadLogin)
	}
	return nil
}

// relogin runs op, logging in again once if the session is gone (form.Retry).
func (f *Forum) relogin(ctx context.Context, op func() error) error {
	return web.Retry{Login: f.Login}.Do(ctx, op)
}

// Posts lists the posts of thread t after the cursor, oldest first. The idle check is the
// action=last probe (lastPost: one request, a 302 without a body, not followed): a page is read
// only when the post it names is past the cursor, or is the cursor's own post and the cursor asks
// for it again (forum.Cursor.Include: MyBB.ru glues a post onto the previous one). Then the page
// holding that post (viewtopic.php?pid=P) is read, and earlier pages with &p=N only while the
// oldest post on the page is newer than the cursor.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	var out []forum.Post
	cur := after
	err := f.relogin(ctx, func() error {
		var err error
		out, cur, err = f.posts(ctx, t, after)
		return err
	})
	return out, cur, err
}

// lastPost asks for viewtopic.php?id=T&action=last without following it: the Location names the
// topic's newest post (pid). A board that answers with a page instead (no redirect) gives that
// page back, read as the last page.
func (f *Forum) lastPost(ctx context.Context, tid string) (pid string, page *forum.Page, err error) {
	p, err := f.c.GetNoRedirect(ctx, f.url("viewtopic.php?id="+tid+"&action=last"))
	if err != nil {
		return "", p, err
	}
	if p.Status/100 == 3 {
		loc, err := p.Location()
		if err != nil {
			return "", nil, err
		}
		if id := web.IDFromURL(loc, "pid"); id != "" {
			return id, nil, nil
		}
		return "", nil, scrape.Markup("mybbru", "action=last redirected to %s, no pid", loc)
	}
	return "", p, nil
}

func (f *Forum) posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	o, err := scrape.OptionsFromConfig(f.cfg)
	if err != nil {
		return nil, after, err
	}
	tid := url.QueryEscape(t.ID)
	last, first, err := f.lastPost(ctx, tid)
	if err != nil && first == nil {
		return nil, after, err
	}
	if last != "" && after.PostID != "" && !forum.IDLess(after.PostID, last) && !(after.Include && last == after.PostID) {
		return nil, after, nil // idle: nothing after the cursor
	}
	next := f.url("viewtopic.php?pid=" + last)
	var out []forum.Post
	cur := after
	for pages := 0; next != "" && pages < 10000; pages++ {
		var p *forum.Page
		var d *goquery.Document
		if first != nil {
			p, d, err = getDoc(first, err)
			first = nil
		} else {
			p, d, err = getDoc(f.c.Get(ctx, next))
		}
		if err != nil {
			return nil, after, err
		}
		o.Base = p.URL
		pi, err := scrape.Extract(d, threadTable, o)
		if err != nil {
			if !loggedIn(d) && reNoPerm.MatchString(message(d)) {
				return nil, after, fmt.Errorf("mybbru: thread %s: %w", t.ID, forum.ErrLoggedOut)
			}
			return nil, after, err
		}
		if err := forum.CheckThread(t.ID, pageThread(d)); err != nil {
			return nil, after, fmt.Errorf("mybbru: %w", err)
		}
		f.learnSection(t.ID, d)
		if pages == 0 {
			cur.Page = pi.Current
		}
		older := false
		for _, post := range pi.Posts {
			if after.PostID != "" && !forum.IDLess(after.PostID, post.ID) {
				older = true
			}
			if after.Listed(post.ID) {
				out = append(out, post)
			}
		}
		if older || pi.Current <= 1 {
			break
		}
		next = f.url("viewtopic.php?id=" + tid + "&p=" + strconv.Itoa(pi.Current-1))
	}
	forum.SortPosts(out)
	if len(out) > 0 && (after.PostID == "" || forum.IDLess(after.PostID, out[len(out)-1].ID)) {
		cur.PostID = out[len(out)-1].ID
		f.mu.Lock()
		f.lastSeen[t.ID] = cur.PostID
		f.mu.Unlock()
	}
	return out, cur, nil
}

// Reply posts body, logging in again when the session is gone (form.Retry). MyBB.ru glues a post
// onto the bot's previous one when nobody answered in between: then the old id comes back and
// merged is true.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	return web.Retry{Login: f.Login}.Post(ctx, func() (string, bool, error) { return f.replyOnce(ctx, t, body) })
}

func (f *Forum) replyOnce(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	p, d, err := getDoc(f.c.Get(ctx, f.url("post.php?tid="+url.QueryEscape(t.ID))))
	if err != nil {
		return "", false, err
	}
	if !loggedIn(d) {
		return "", false, fmt.Errorf("mybbru: reply form: %w", forum.ErrLoggedOut)
	}
	fm, err := web.Read(p, d, "form#post")
	if err != nil {
		if msg := message(d); msg != "" {
			return "", false, f.classify(msg)
		}
		return "", false, scrape.Markup("mybbru", "%v", err)
	}
	fm.Values.Set("req_message", body)
	fm.Values.Set("submit", "Отправить")
	f.mu.Lock()
	last := f.lastSeen[t.ID]
	f.mu.Unlock()
	rp, rd, err := doc(f.c.PostForm(ctx, fm.Action.String(), fm.Values, p.Charset))
	if err != nil {
		return "", false, err
	}
	if rd.Find("form#post").Length() > 0 || rd.Find("#posterror").Length() > 0 {
		return "", false, f.classify(message(rd))
	}
	if !loggedIn(rd) && rd.Find("form#login").Length() > 0 {
		return "", false, fmt.Errorf("mybbru: reply: %w", forum.ErrLoggedOut)
	}
	id := web.IDFromURL(web.RedirectTarget(rp, rd), "pid")
	if id == "" {
		if msg := message(rd); msg != "" {
			return "", false, f.classify(msg)
		}
		return "", false, scrape.Markup("mybbru", "no post id after replying (at %s)", rp.URL)
	}
	merged := last != "" && !forum.IDLess(last, id)
	f.mu.Lock()
	if last == "" || forum.IDLess(last, id) {
		f.lastSeen[t.ID] = id
	}
	f.mu.Unlock()
	return id, merged, nil
}

// SendPM is not available through this dialect (errNoPM says why).
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	return fmt.Errorf("mybbru: send a private message: %w", errNoPM)
}

// Inbox is not available through this dialect (errNoPM says why).
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	return nil, after, fmt.Errorf("mybbru: read the inbox: %w", errNoPM)
}

// errNoPM is forum.ErrNoPM with the reason and what unblocks it, for the operator's log.
var errNoPM = fmt.Errorf("%w: not implemented, no captured MyBB.ru private-message page to build from "+
	"(dialects/mybbru/README.md lists the pages that would unblock it)", forum.ErrNoPM)

// Section lists the topics on the first page of forum section (viewforum.php?id=N): one request.
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if _, err := strconv.Atoi(section); err != nil {
		return nil, fmt.Errorf("mybbru: forum id %q is not a number", section)
	}
	var heads []forum.ThreadHead
	err := f.relogin(ctx, func() error {
		_, d, err := getDoc(f.c.Get(ctx, f.url("viewforum.php?id="+section)))
		if err != nil {
			return err
		}
		heads, err = Section(d, f.cfg)
		if err != nil && !loggedIn(d) && reNoPerm.MatchString(message(d)) {
			return fmt.Errorf("mybbru: forum %s: %w", section, forum.ErrLoggedOut)
		}
		return err
	})
	return heads, err
}

// SectionOf names the forum of topic t as the breadcrumb of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sections[t.ID]
}

func (f *Forum) learnSection(topic string, d *goquery.Document) {
	section := sectionOf(d)
	if section == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sections == nil {
		f.sections = map[string]string{}
	}
	f.sections[topic] = section
}

// pageThread is the id of the topic doc is a page of: its canonical link, the reply link or the
// quick-post form (post.php?tid=N), the page links, the breadcrumb's last link.
func pageThread(doc *goquery.Document) string {
	id, tid := forum.ThreadIDFrom(threadURLRe), forum.ThreadIDFrom(tidRe)
	return scrape.PageThread(doc, append(scrape.Canonical(id),
		scrape.ThreadSource{Sel: `a[href*="post.php?tid="]`, Attr: "href", ID: tid},
		scrape.ThreadSource{Sel: `form[action*="post.php?tid="]`, Attr: "action", ID: tid},
		scrape.ThreadSource{Sel: `div.pagelink a[href*="viewtopic.php?id="]`, Attr: "href", ID: id},
		scrape.ThreadSource{Sel: `.crumbs a[href*="viewtopic.php?id="]`, Attr: "href", ID: id})...)
}

var tidRe = regexp.MustCompile(`[?&]tid=(\d+)`)
