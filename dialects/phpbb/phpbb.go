// Package phpbb is the phpBB 3.3 dialect of forum.Forum ("phpbb" in a configuration): login through
// ucp.php (form_token + creation_time + sid), reading a thread from the cursor's own post
// (viewtopic.php?t=T&start=K, K its place in the topic: an idle check is a page of one post) or
// from its last page backwards to the cursor, the topic lists of forums (forum.SectionReader), replying through posting.php (the form is replayed with all its hidden inputs and sent no
// sooner than MinFormAge after it was loaded, since check_form_key rejects a form sent within the
// second it was made), private messages through ucp.php?i=pm.
//
// Config.Extra keys: "max_post_chars" (default 60000, phpBB's max_post_chars), "flood_wait"
// (a Go duration, default 15s = phpBB's flood_interval; phpBB's message does not say how long),
// "min_form_age" (default 2s), "rate" (requests per second, default 1).
package phpbb

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

// options are the injectable parts (tests): the HTTP client, the sleep and the limits.
type options struct {
	Client     *forum.Client
	Sleep      web.Sleeper   // default: a timer
	MinFormAge time.Duration // default 2s
	FloodWait  time.Duration // the wait of a flood error, default 15s (phpBB's message names none)
}

// Forum is a phpBB board logged in as the bot.
type Forum struct {
	cfg  forum.Config
	base *url.URL
	c    *forum.Client
	opt  options
	now  func() time.Time
	max  int
	// attach: the board takes attachments from the bot; maxAttach: bytes (Extra).
	attach    bool
	maxAttach int64

	mu       sync.Mutex
	lastSeen map[string]string // thread -> newest post id seen
	// pos: where the newest post handed out sits in its topic (the idle check's start=), by topic.
	pos      map[string]position
	sections map[string]string // topic id → forum id, from the breadcrumbs of the pages read
	sent     sentCache         // the bot's sent messages already read (Sent)
}

// New builds the dialect.
func New(cfg forum.Config, opt options) (*Forum, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("phpbb: BaseURL is empty")
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("phpbb: bad BaseURL: %w", err)
	}
	if opt.Sleep == nil {
		opt.Sleep = forum.Sleep
	}
	if opt.MinFormAge == 0 {
		opt.MinFormAge = durationExtra(cfg, "min_form_age", 2*time.Second)
	}
	if opt.FloodWait == 0 {
		opt.FloodWait = durationExtra(cfg, "flood_wait", 15*time.Second)
	}
	if opt.Client == nil {
		opt.Client = forum.NewClient(cfg.ClientConfig().WithSleep(opt.Sleep))
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	f := &Forum{cfg: cfg, base: base, c: opt.Client, opt: opt, now: now, max: 60000, lastSeen: map[string]string{},
		pos: map[string]position{}, sections: map[string]string{}}
	if n, err := strconv.Atoi(cfg.Extra["max_post_chars"]); err == nil && n > 0 {
		f.max = n
	}
	if f.attach, f.maxAttach, err = attachSettings(cfg.Extra); err != nil {
		return nil, err
	}
	return f, nil
}

func durationExtra(cfg forum.Config, key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(cfg.Extra[key]); err == nil && d > 0 {
		return d
	}
	return def
}

// Capabilities: phpBB has private messages; posts up to max_post_chars; attachments of phpBB's
// default image extensions up to its default max_filesize unless configured
// (Extra["attachments"]: off, Extra["max_attachment_size"]: bytes).
func (f *Forum) Capabilities() forum.Capabilities {
	c := forum.Capabilities{PrivateMessages: true, MaxPostLength: f.max}
	if f.attach {
		c.Attachments, c.MaxAttachmentSize, c.AttachmentTypes = true, f.maxAttach, attachmentTypes
	}
	return c
}

func (f *Forum) url(path string) string {
	u, _ := f.base.Parse(path)
	return u.String()
}

func (f *Forum) get(ctx context.Context, path string) (*forum.Page, *goquery.Document, error) {
	p, err := f.c.Get(ctx, f.url(path))
	if err != nil {
		if terr := typed404(err); terr != err {
			return nil, nil, terr
		}
		if p == nil {
			return nil, nil, err
		}
	} else if werr := forum.CheckWhole(p); werr != nil { // a page cut short is never read
		return nil, nil, fmt.Errorf("phpbb: %w", werr)
	}
	doc, derr := p.Doc()
	if derr != nil {
		return nil, nil, derr
	}
	return p, doc, err
}

// typed404 is err with an answer 404 typed as forum.ErrNotFound (phpBB answers NO_TOPIC and
// NO_FORUM with 404 and its message page).
func typed404(err error) error {
	var se *forum.StatusError
	if errors.As(err, &se) && se.Status == 404 {
		return fmt.Errorf("phpbb: %w: %v", forum.ErrNotFound, err)
	}
	return err
}

func (f *Forum) post(ctx context.Context, fm *web.Form, charset string) (*forum.Page, *goquery.Document, error) {
	p, err := f.c.PostForm(ctx, fm.Action.String(), fm.Values, charset)
	if p == nil {
		return nil, nil, err
	}
	doc, derr := p.Doc()
	if derr != nil {
		return nil, nil, derr
	}
	return p, doc, err
}

// waitFormAge sleeps until the form loaded at loaded is old enough for check_form_key.
func (f *Forum) waitFormAge(ctx context.Context, loaded time.Time) error {
	if d := f.opt.MinFormAge - f.now().Sub(loaded); d > 0 {
		return f.opt.Sleep(ctx, d)
	}
	return nil
}

// The login and posting forms: prosilver's form#login and form#postform; subsilver2 (phpBB 3.0)
// names neither login form (it is the one posting to ucp.php?mode=login with a password field)
// and names the posting form only by name="postform".
const (
	loginSel = "form#login, form[action*='mode=login']:has(input[type=password])"
	postSel  = "form#postform, form[name=postform]"
)

// loginShown: the page is (or contains) the login form — the session is gone.
func loginShown(doc *goquery.Document) bool { return doc.Find(loginSel).Length() > 0 }

func errorText(doc *goquery.Document) string {
	var parts []string
	doc.Find("#page-body p.error, #page-body div.error, #message p").Each(func(_ int, s *goquery.Selection) {
		if t := strings.Join(strings.Fields(s.Text()), " "); t != "" {
			parts = append(parts, t)
		}
	})
	return strings.Join(parts, " | ")
}

// Error texts of the English pack and the Russian one (github.com/Olympusrupack/Olympusrupack,
// branches olympusrupack 3.0 to rhearupack-3.3: FLOOD_ERROR, FORM_INVALID, TOO_MANY_CHARS_*,
// TOO_FEW_CHARS, POST_REVIEW_EXPLAIN, USER_CANNOT_REPLY, PM_DISABLED, NO_AUTH_SEND_MESSAGE,
// MESSAGE_STORED).
var (
	reFlood   = regexp.MustCompile(`(?i)another post so soon|too soon|flood|так быстро|слишком част|сразу после`)
	reToken   = regexp.MustCompile(`(?i)form was invalid|форма .*недействительн|форма содержит ошибки|ошибка отправки формы`)
	reTooLong = regexp.MustCompile(`(?i)too many characters|maximum number of allowed characters|слишком много (?:символов|знаков)|максимально допустимое|максимальное разрешённое количество`)
	reTooFew  = regexp.MustCompile(`(?i)too few characters|слишком мало символов|слишком коротк|message is empty|пустое сообщение|must enter a message`)
	reReview  = regexp.MustCompile(`(?i)new post has been made|новое сообщение|было добавлено по крайней мере одно сообщение`)
	reNoPerm  = regexp.MustCompile(`(?i)cannot reply|not authorised|do not have the necessary permissions|нет прав|не можете отвечать|не авторизован|нет доступа|locked`)
	reNoPM    = regexp.MustCompile(`(?i)private messaging has been disabled|not authorised to send private messages|личные сообщения .*отключены|не можете отправлять|нет доступа к отправке личных сообщений`)
	reSent    = regexp.MustCompile(`(?i)sent successfully|успешно отправлено`)
)

var errReview = errors.New("phpbb: new posts since the form was loaded")

// classify turns an error shown on a re-displayed form into a typed error.
func (f *Forum) classify(msg string) error {
	switch {
	case reFlood.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, &forum.FloodError{Wait: f.opt.FloodWait})
	case reToken.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, forum.ErrBadToken)
	case reTooLong.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, forum.ErrTooLong)
	case reTooFew.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, forum.ErrTooShort)
	case reReview.MatchString(msg):
		return fmt.Errorf("%w: %q", errReview, msg)
	case reNoPM.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, forum.ErrNoPM)
	case reNoPerm.MatchString(msg):
		return fmt.Errorf("phpbb: %q: %w", msg, forum.ErrNoPermission)
	}
	return fmt.Errorf("%w: %q", errRejected, msg)
}

// errRejected is a form error classify knows no type for.
var errRejected = errors.New("phpbb: form rejected")

// Login logs in through ucp.php?mode=login.
func (f *Forum) Login(ctx context.Context) error {
	p, doc, err := f.get(ctx, "ucp.php?mode=login")
	if err != nil {
		return err
	}
	if !loginShown(doc) {
		return nil // already logged in (phpBB shows the index instead)
	}
	fm, err := web.Read(p, doc, loginSel)
	if err != nil {
		return scrape.Markup("phpbb", "%v", err)
	}
	loaded := f.now()
	fm.Values.Set("username", f.cfg.Username)
	fm.Values.Set("password", f.cfg.Password)
	fm.Values.Set("autologin", "on")
	fm.Values.Set("login", "Login")
	if err := f.waitFormAge(ctx, loaded); err != nil {
		return err
	}
	_, rdoc, err := f.post(ctx, fm, p.Charset)
	if err != nil {
		return err
	}
	if loginShown(rdoc) {
		msg := errorText(rdoc)
		if reToken.MatchString(msg) {
			return fmt.Errorf("phpbb: login: %q: %w", msg, forum.ErrBadToken)
		}
		return fmt.Errorf("phpbb: login: %q: %w", msg, forum.ErrBadLogin)
	}
	return nil
}

// relogin runs op; when the session turned out to be gone it logs in and runs op once more.
func (f *Forum) relogin(ctx context.Context, op func() error) error {
	return web.Retry{Login: f.Login}.Do(ctx, op)
}

// retry is how a write is tried again (form.Retry): a lost session logged in again, a rejected
// token or new posts since the form was loaded (errReview) sent again on a fresh form.
func (f *Forum) retry() web.Retry {
	return web.Retry{Login: f.Login, Again: []error{errReview}}
}

// Reply posts body and returns the new post's id (form.Retry acts on the board's refusals).
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyOnce(ctx, t, body) })
}

func (f *Forum) replyOnce(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	p, doc, err := f.replyForm(ctx, t)
	if err != nil {
		return "", false, err
	}
	if loginShown(doc) {
		return "", false, fmt.Errorf("phpbb: reply form: %w", forum.ErrLoggedOut)
	}
	fm, err := web.Read(p, doc, postSel)
	if err != nil {
		if msg := errorText(doc); msg != "" {
			return "", false, f.classify(msg)
		}
		return "", false, scrape.Markup("phpbb", "%v", err)
	}
	fm.Values.Set("message", body)
	return f.submitReply(ctx, fm, p.Charset, f.now())
}

// replyForm loads the reply form of topic t. phpBB 3.0 wants the forum id as well
// (posting.php?mode=reply&f=F&t=T; without it NO_FORUM, a 404): it is the forum of the topic's
// breadcrumb when a page of the topic was read, else the one the topic page's reply button
// links to.
func (f *Forum) replyForm(ctx context.Context, t forum.Thread) (*forum.Page, *goquery.Document, error) {
	path := "posting.php?mode=reply&t=" + url.QueryEscape(t.ID)
	if s := f.SectionOf(t); s != "" {
		path = "posting.php?mode=reply&f=" + url.QueryEscape(s) + "&t=" + url.QueryEscape(t.ID)
	}
	p, doc, err := f.get(ctx, path)
	if err == nil || !errors.Is(err, forum.ErrNotFound) || f.SectionOf(t) != "" {
		return p, doc, err
	}
	_, tdoc, terr := f.get(ctx, "viewtopic.php?t="+url.QueryEscape(t.ID))
	if terr != nil {
		return nil, nil, err
	}
	href, ok := tdoc.Find("a[href*='posting.php?mode=reply'][href*='f=']").First().Attr("href")
	if !ok {
		return nil, nil, err
	}
	return f.get(ctx, href)
}

// submitReply posts a filled reply form (loaded at loaded) with "Submit" and reads the answer:
// the new post's id and whether it is not newer than the thread's last post (merged).
func (f *Forum) submitReply(ctx context.Context, fm *web.Form, charset string, loaded time.Time) (string, bool, error) {
	lastID := fm.Values.Get("topic_cur_post_id")
	fm.Values.Set("post", "Submit")
	if err := f.waitFormAge(ctx, loaded); err != nil {
		return "", false, err
	}
	rp, rdoc, err := f.post(ctx, fm, charset)
	if err != nil {
		return "", false, err
	}
	if loginShown(rdoc) {
		return "", false, fmt.Errorf("phpbb: reply: %w", forum.ErrLoggedOut)
	}
	if rdoc.Find(postSel).Length() > 0 {
		return "", false, f.classify(errorText(rdoc))
	}
	target := web.RedirectTarget(rp, rdoc)
	id := web.IDFromURL(target, "p")
	if id == "" {
		if msg := errorText(rdoc); msg != "" {
			return "", false, f.classify(msg)
		}
		return "", false, scrape.Markup("phpbb", "no post id after replying (at %s)", target)
	}
	merged := lastID != "" && !forum.IDLess(lastID, id)
	return id, merged, nil
}

// SendPM composes a private message: the recipient is added first (the board resolves the name to
// address_list[u][UID]), then the message is sent.
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	return f.relogin(ctx, func() error { return f.sendPM(ctx, to, subject, body) })
}

func (f *Forum) sendPM(ctx context.Context, to, subject, body string) error {
	p, doc, err := f.get(ctx, "ucp.php?i=pm&mode=compose")
	if err != nil {
		return err
	}
	if loginShown(doc) {
		return fmt.Errorf("phpbb: compose: %w", forum.ErrLoggedOut)
	}
	fm, err := web.Read(p, doc, postSel)
	if err != nil {
		if msg := errorText(doc); msg != "" {
			return f.classify(msg)
		}
		return scrape.Markup("phpbb", "%v", err)
	}
	loaded := f.now()
	fm.Values.Set("username_list", to)
	fm.Values.Set("add_to", "Add")
	if err := f.waitFormAge(ctx, loaded); err != nil {
		return err
	}
	p2, doc2, err := f.post(ctx, fm, p.Charset)
	if err != nil {
		return err
	}
	fm2, err := web.Read(p2, doc2, postSel)
	if err != nil {
		return scrape.Markup("phpbb", "compose after adding %q: %v", to, err)
	}
	found := false
	for k := range fm2.Values {
		if strings.HasPrefix(k, "address_list[") {
			found = true
		}
	}
	if !found {
		if msg := errorText(doc2); msg != "" {
			return fmt.Errorf("phpbb: recipient %q: %w", to, f.classify(msg))
		}
		return fmt.Errorf("phpbb: recipient %q not accepted", to)
	}
	loaded = f.now()
	fm2.Values.Del("username_list")
	fm2.Values.Set("subject", subject)
	fm2.Values.Set("message", body)
	fm2.Values.Set("post", "Submit")
	if err := f.waitFormAge(ctx, loaded); err != nil {
		return err
	}
	_, doc3, err := f.post(ctx, fm2, p2.Charset)
	if err != nil {
		return err
	}
	if doc3.Find(postSel).Length() > 0 {
		return f.classify(errorText(doc3))
	}
	if msg := errorText(doc3); !reSent.MatchString(msg) {
		return fmt.Errorf("phpbb: private message not confirmed: %q", msg)
	}
	return nil
}

// Inbox lists the inbox and reads each message newer than the cursor.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	var out []forum.Post
	cur := after
	err := f.relogin(ctx, func() error {
		out, cur = nil, after
		p, doc, err := f.get(ctx, "ucp.php?i=pm&folder=inbox")
		if err != nil {
			return err
		}
		if loginShown(doc) {
			return fmt.Errorf("phpbb: inbox: %w", forum.ErrLoggedOut)
		}
		if doc.Find("ul.pmlist, ul.topiclist").Length() == 0 {
			if fl, err := parseFolder(doc); err == nil && len(fl.Rows) == 0 {
				return nil // an empty inbox: "No messages" and no list
			}
			if msg := errorText(doc); msg != "" {
				return f.classify(msg)
			}
			return scrape.Markup("phpbb", "no message list on %s", p.URL)
		}
		var ids []string
		doc.Find("ul.pmlist li.row a.topictitle").Each(func(_ int, s *goquery.Selection) {
			href, _ := s.Attr("href")
			u, err := p.URL.Parse(href)
			if err != nil {
				return
			}
			if id := web.IDFromURL(u, "p"); id != "" && (after.PostID == "" || forum.IDLess(after.PostID, id)) {
				ids = append(ids, id)
			}
		})
		for _, id := range ids {
			mp, err := f.c.Get(ctx, f.url("ucp.php?i=pm&mode=view&p="+id))
			if err == nil {
				err = forum.CheckWhole(mp) // a page cut short is never read
			}
			if err != nil {
				return err
			}
			posts, err := Extract(mp.Body, "text/html; charset=utf-8", f.cfgAt(mp.URL))
			if err != nil {
				return err
			}
			out = append(out, posts...)
		}
		forum.SortPosts(out)
		if len(out) > 0 {
			cur.PostID = out[len(out)-1].ID
		}
		return nil
	})
	return out, cur, err
}

func (f *Forum) cfgAt(u *url.URL) forum.Config {
	c := f.cfg
	c.BaseURL = u.String()
	return c
}
