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
	"forumgm/forum/web"

	"github.com/PuerkitoBio/goquery"
)

// defaultMaxPostLength is MyBB's default maxmessagelength (characters).
const defaultMaxPostLength = 65535

// Option tunes a Forum.
type Option func(*Forum)

// WithClient uses c for HTTP (tests pass a fast one).
func WithClient(c *forum.Client) Option { return func(f *Forum) { f.c = c } }

// Forum is a MyBB 1.8 board as the bot account sees it. It is safe for concurrent use, but
// requests of one Forum are made one at a time.
type Forum struct {
	cfg       forum.Config
	base      *url.URL
	c         *forum.Client
	maxLen    int
	attach    bool          // the board takes attachments from the bot (Extra["attachments"])
	maxAttach int64         // bytes (Extra["max_attachment_size"])
	merge     time.Duration // the board's postmergemins (Extra["merge_minutes"])

	mu       sync.Mutex // serialises operations (one session, one cookie jar)
	loggedIn bool
	// rd reads threads and PM folders (forumgm/dialects/mybb) through this session.
	rd reader
	// sentCache holds the Sent Items messages already read, by pmid (a sent copy never changes);
	// inboxCache the inbox's (a received message never changes either: the daemon's rescan of the
	// inbox, which looks for a message shown late, then costs the folder's listing only).
	sentCache, inboxCache map[string]forum.Post
	// staged is a reply with its files uploaded, refused for flood control (attach.go).
	staged *staged
	// lastBytes is the body size of the last page read; boardBytes the board index's (0: not
	// read yet), for LookCosts.
	lastBytes, boardBytes int
	// quick holds, by thread, the quick reply form of the last page of the thread read for the
	// bot (quick.go); charset is the last page's charset.
	quick   map[string]quickForm
	charset string
	// formCharset is the charset of the last login or full reply form page read: the board's
	// own; a quick reply form is kept only from a page in it (a page re-encoded on the way, a
	// proxy's, would post the reply in the wrong encoding).
	formCharset string
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
	f := &Forum{cfg: cfg, base: base, maxLen: defaultMaxPostLength}
	if s := cfg.Extra["max_post_length"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			return nil, fmt.Errorf("mybb: bad max_post_length %q", s)
		}
		f.maxLen = n
	}
	if f.attach, f.maxAttach, err = attachCaps(cfg.Extra); err != nil {
		return nil, err
	}
	f.merge = defaultMergeWindow
	if s := cfg.Extra["merge_minutes"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("mybb: bad merge_minutes %q (the board's postmergemins: 0 or more)", s)
		}
		f.merge = time.Duration(n) * time.Minute
	}
	for _, o := range opts {
		o(f)
	}
	if f.c == nil {
		f.c = forum.NewClient(cfg.ClientConfig())
	}
	read := optionsFrom(cfg)
	read.BaseURL = base.String()
	f.rd = reader{
		Get: func(ctx context.Context, path string) (*goquery.Document, error) {
			p, doc, err := f.get(ctx, path)
			if p != nil {
				f.lastBytes = len(p.Raw)
			}
			return doc, err
		},
		Relogin: f.relogin,
		Seen:    f.keepQuickForm,
		Probe: func(ctx context.Context, path string) (string, error) {
			p, err := f.c.GetNoRedirect(ctx, f.abs(path), sessionCookies...)
			if err != nil || p.Status < 300 || p.Status > 399 {
				return "", err
			}
			loc, err := p.Location()
			if err != nil {
				return "", err
			}
			return loc.String(), nil
		},
		Options:  read,
		Username: cfg.Username,
		Now:      cfg.Now,
	}
	return f, nil
}

// sessionCookies are the cookies that carry a MyBB session (the board's cookie prefix before
// them): a probe sends only these, not mybb[lastvisit], mybb[lastactive] or loginattempts, which a
// logged-in member's request does not need (issue 23: the probe's request trimmed).
var sessionCookies = []string{"sid", "mybbuser"}

// Capabilities: private messages, and MyBB's default maximum message length unless configured
// (Extra["max_post_length"]); attachments of MyBB's default image types up to its default size
// unless configured (Extra["attachments"]: off, Extra["max_attachment_size"]: bytes).
func (f *Forum) Capabilities() forum.Capabilities {
	c := forum.Capabilities{PrivateMessages: true, MaxPostLength: f.maxLen}
	if f.attach {
		c.Attachments, c.MaxAttachmentSize, c.AttachmentTypes = true, f.maxAttach, attachmentTypes
	}
	return c
}

func (f *Forum) abs(path string) string {
	u, err := f.base.Parse(path)
	if err != nil {
		return f.base.String() + path
	}
	return u.String()
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
	f.charset = p.Charset
	doc, err := p.Doc()
	if err != nil {
		return nil, nil, err
	}
	return p, doc, nil
}

func (f *Forum) post(ctx context.Context, form Form, charset string) (*forum.Page, *goquery.Document, error) {
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
	f.quick = nil // a new session: the forms' my_post_key is the old one's
	p, doc, err := f.get(ctx, loginPath)
	if err != nil {
		return fmt.Errorf("mybb: login form: %w", err)
	}
	f.formCharset = p.Charset
	sel := doc.Find(selectors.LoginForm).First()
	if sel.Length() == 0 {
		if LoggedIn(doc) {
			f.loggedIn = true
			return nil
		}
		return fmt.Errorf("mybb: no login form (%s) on %s: %w", selectors.LoginForm, loginPath, forum.ErrMarkupChanged)
	}
	form := readForm(sel, p.URL)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", myPostKey(doc))
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
	if _, err := result(rdoc, rp.URL); err != nil {
		if LoggedIn(rdoc) {
			f.loggedIn = true
			return nil
		}
		if rdoc.Find(selectors.LoginForm).Length() > 0 && !errors.Is(err, forum.ErrBadLogin) && errors.Is(err, forum.ErrMarkupChanged) {
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
	return web.Retry{Login: f.login}.Do(ctx, op)
}

// Posts lists the posts of thread t after the cursor, oldest first, and the new cursor (the
// newest post's id and the page it is on): scrape.Reader.Posts, through this session.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.Posts(ctx, t.ID, after)
}

// UnreadPM reports whether the last thread page read showed the bot an unread private message
// (forum.PMNotifier): the daemon then reads the inbox even when the game expects none.
func (f *Forum) UnreadPM() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.UnreadPM()
}

// PMSeen is when the PM signal (UnreadPM) was last read: a logged-in page that shows the header's
// counter, or the inbox (forum.PMWatcher).
func (f *Forum) PMSeen() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.PMSeen()
}

// LookPM refreshes the PM signal with the board index (forum.PMWatcher): the cheapest logged-in
// page MyBB has, and its header shows the counter (it tells every section's counts too).
func (f *Forum) LookPM(ctx context.Context) error {
	_, err := f.Board(ctx)
	return err
}

// defaultMergeWindow is MyBB's default postmergemins.
const defaultMergeWindow = 60 * time.Minute

// MergeWindow is how long after a member's post MyBB may still append their next one to it
// (postmergemins: 60 minutes unless Extra["merge_minutes"] says the board's own; 0 never):
// forum.Merger. The window counts from the post's own time: a merge does not move the thread's
// last post time.
func (f *Forum) MergeWindow() time.Duration { return f.merge }

// What an idle look costs, both ways with the headers: the lastpost redirect as measured on the
// sandbox (307 bytes sent, 195 received: README "What an idle check costs"), and the headers of
// a page read (added to the index's body as last read).
const (
	probeBytes      = 502
	pageHeaderBytes = 600
	// boardGuessBytes is the index before it was read: a real MyBB 1.8 index as the bot sees it.
	boardGuessBytes = 14000
)

// LookCosts are the bytes of one lastpost probe and of one read of the board index (the last
// one read, or a real MyBB index's size before any): forum.LookCoster.
func (f *Forum) LookCosts() (probe, board int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.boardBytes == 0 {
		return probeBytes, boardGuessBytes
	}
	return probeBytes, f.boardBytes + pageHeaderBytes
}

// Inbox lists the private messages received after the cursor (pmid), oldest first, each read
// in full (reading marks it read on the board) once per Forum: later calls read the folder's
// listing and the messages not read before (or read garbled). When reading one fails, the
// messages read so far are returned with their cursor and the error.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return nil, after, err
	}
	if f.inboxCache == nil {
		f.inboxCache = map[string]forum.Post{}
	}
	return f.rd.Folder(ctx, inboxFolderPath, after, f.inboxCache)
}

// Sent lists the bot's sent private messages (the Sent Items folder, private.php?fid=2: the
// copies MyBB keeps when options[savecopy] is set, which SendPM always sends) after the cursor
// (pmid), oldest first, each read in full so that its text can be searched (the daemon looks for
// a message's marker there after a crash). A message's Author is the sender (the bot) as the
// message page shows it; its Subject is the message's subject. The sender's copy has a pmid of
// its own, different from the recipient's copy.
//
// Sent copies never change, so each is fetched once per Forum: later calls read only the folder
// listing and the messages not seen before. When reading one fails, the messages read so far are
// returned with their cursor and the error.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return nil, after, err
	}
	if f.sentCache == nil {
		f.sentCache = map[string]forum.Post{}
	}
	return f.rd.Folder(ctx, sentFolderPath, after, f.sentCache)
}
