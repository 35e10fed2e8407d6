// Package mybb is forumgm's MyBB 1.8 dialect: the forum.Forum registered as "mybb". It logs
// in through member.php, reads threads from a cursor with as few requests as the engine allows
// (one per idle poll), replies through the full newreply.php form replaying every hidden field
// (my_post_key, posthash, subject, …), recognises MyBB's auto-merge of consecutive posts, sends
// and reads private messages, and turns MyBB's error pages into forum's typed errors. Reply and
// SendPM act on those errors: they wait out flood control (within a bound), log in again when
// logged out, fetch a fresh form on a rejected token, and split a message that is too long at
// line boundaries.
//
// Page markup is read by forumgm/scraper/mybb; HTTP goes through forum.Client.
package mybb

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"forumgm/forum"
	scrape "forumgm/scraper/mybb"

	"github.com/PuerkitoBio/goquery"
)

func init() {
	forum.Register("mybb", func(cfg forum.Config) (forum.Forum, error) { return New(cfg) })
}

// DefaultMaxPostLength is MyBB's default maxmessagelength (characters).
const DefaultMaxPostLength = 65535

// DefaultMaxFloodWait bounds how long Reply and SendPM wait out flood control in total.
const DefaultMaxFloodWait = 3 * time.Minute

// Option tunes a Forum.
type Option func(*Forum)

// WithClient uses c for HTTP (tests pass a fast one).
func WithClient(c *forum.Client) Option { return func(f *Forum) { f.c = c } }

// WithSleep replaces the wait used for flood control (tests inject a fake one).
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(f *Forum) { f.sleep = sleep }
}

// WithMaxFloodWait bounds the total time spent waiting out flood control per message.
func WithMaxFloodWait(d time.Duration) Option { return func(f *Forum) { f.maxFloodWait = d } }

// Forum is a MyBB 1.8 board as the bot account sees it. It is safe for concurrent use, but
// requests of one Forum are made one at a time.
type Forum struct {
	cfg          forum.Config
	base         *url.URL
	c            *forum.Client
	opts         scrape.Options
	sleep        func(ctx context.Context, d time.Duration) error
	maxFloodWait time.Duration
	maxLen       int

	mu       sync.Mutex // serialises operations (one session, one cookie jar)
	loggedIn bool
	threads  map[string]*threadState
	// sentCache holds the Sent Items messages already read, by pmid (a sent copy never changes).
	sentCache map[string]forum.Post
}

// threadState is what the Forum remembers about a thread between calls.
type threadState struct {
	cursorPID  string // the last cursor handed out
	cursorPage int    // the page that cursor's post is on
	knownLast  string // the newest pid seen in the thread
	ownLast    string // the bot's newest post (what MyBB would merge a reply into)
}

// New builds a Forum from cfg. cfg.BaseURL is the board root (http://host/forum/).
func New(cfg forum.Config, opts ...Option) (*Forum, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("mybb: no base URL")
	}
	raw := cfg.BaseURL
	if !strings.HasSuffix(raw, "/") {
		raw += "/"
	}
	base, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("mybb: base URL %q: %w", cfg.BaseURL, err)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	f := &Forum{
		cfg:          cfg,
		base:         base,
		opts:         scrape.OptionsFrom(cfg),
		maxFloodWait: DefaultMaxFloodWait,
		maxLen:       DefaultMaxPostLength,
		threads:      map[string]*threadState{},
	}
	f.opts.BaseURL = base.String()
	if s := cfg.Extra["max_post_length"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			return nil, fmt.Errorf("mybb: bad max_post_length %q", s)
		}
		f.maxLen = n
	}
	for _, o := range opts {
		o(f)
	}
	if f.c == nil {
		f.c = forum.NewClient(forum.ClientConfig{UserAgent: cfg.UserAgent, Rate: cfg.Rate()})
	}
	if f.sleep == nil {
		f.sleep = forum.Sleep
	}
	return f, nil
}

// Capabilities: private messages, and MyBB's default maximum message length unless configured
// (Extra["max_post_length"]).
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{PrivateMessages: true, MaxPostLength: f.maxLen}
}

func (f *Forum) abs(path string) string {
	u, err := f.base.Parse(path)
	if err != nil {
		return f.base.String() + path
	}
	return u.String()
}

func (f *Forum) state(tid string) *threadState {
	st, ok := f.threads[tid]
	if !ok {
		st = &threadState{}
		f.threads[tid] = st
	}
	return st
}

// get fetches a board page and parses it.
func (f *Forum) get(ctx context.Context, path string) (*forum.Page, *goquery.Document, error) {
	p, err := f.c.Get(ctx, f.abs(path))
	if err != nil {
		return nil, nil, err
	}
	if err := forum.CheckWhole(p); err != nil { // a page cut short is never read
		return nil, nil, fmt.Errorf("mybb: %w", err)
	}
	doc, err := p.Doc()
	if err != nil {
		return nil, nil, err
	}
	return p, doc, nil
}

func (f *Forum) post(ctx context.Context, form scrape.Form, charset string) (*forum.Page, *goquery.Document, error) {
	p, err := f.c.PostForm(ctx, form.Action, form.Values, charset)
	if err != nil {
		return nil, nil, err
	}
	doc, err := p.Doc()
	if err != nil {
		return nil, nil, err
	}
	return p, doc, nil
}

// Login logs in with the configured account: GET the login form (it sets the sid cookie the
// guest my_post_key is derived from), POST it back with the credentials.
func (f *Forum) Login(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.login(ctx)
}

func (f *Forum) login(ctx context.Context) error {
	f.loggedIn = false
	p, doc, err := f.get(ctx, scrape.LoginPath)
	if err != nil {
		return fmt.Errorf("mybb: login form: %w", err)
	}
	sel := doc.Find(scrape.Selectors.LoginForm).First()
	if sel.Length() == 0 {
		if scrape.LoggedIn(doc) {
			f.loggedIn = true
			return nil
		}
		return fmt.Errorf("mybb: no login form (%s) on %s: %w", scrape.Selectors.LoginForm, scrape.LoginPath, forum.ErrMarkupChanged)
	}
	form := scrape.ReadForm(sel, p.URL)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", scrape.MyPostKey(doc))
	}
	form.Values.Set("action", "do_login")
	form.Values.Set("username", f.cfg.Username)
	form.Values.Set("password", f.cfg.Password)
	form.Values.Set("remember", "yes")
	form.Values.Set("submit", "Login")
	rp, rdoc, err := f.post(ctx, form, p.Charset)
	if err != nil {
		return fmt.Errorf("mybb: login: %w", err)
	}
	if _, err := scrape.Result(rdoc, rp.URL); err != nil {
		if scrape.LoggedIn(rdoc) {
			f.loggedIn = true
			return nil
		}
		if rdoc.Find(scrape.Selectors.LoginForm).Length() > 0 && !errors.Is(err, forum.ErrBadLogin) && errors.Is(err, forum.ErrMarkupChanged) {
			// The form came back without a recognised message.
			return fmt.Errorf("mybb: login refused (form shown again): %w", forum.ErrBadLogin)
		}
		return fmt.Errorf("mybb: login: %w", err)
	}
	f.loggedIn = true
	return nil
}

// ensureLogin logs in once before the first write.
func (f *Forum) ensureLogin(ctx context.Context) error {
	if f.loggedIn {
		return nil
	}
	return f.login(ctx)
}

// relogin runs op; when op reports ErrLoggedOut it logs in again and runs op once more.
func (f *Forum) relogin(ctx context.Context, op func() error) error {
	return forum.Relogin(ctx, f.login, op)
}

// fetchThread reads one thread page.
func (f *Forum) fetchThread(ctx context.Context, path string) (*scrape.Page, error) {
	_, doc, err := f.get(ctx, path)
	if err != nil {
		return nil, err
	}
	return scrape.ExtractThread(doc, f.opts)
}
