// Package smf is the forum.Forum of Simple Machines Forum 2.1 ("smf" in a configuration): it logs
// in, reads a topic from a cursor, replies, and sends and reads private messages, through SMF's
// own HTML forms (every hidden field and token of a freshly fetched form replayed: the session
// check pair, seqnum, last_msg).
//
// Reading: the idle check is the board's feed of its newest posts
// (index.php?action=.xml;type=rss;board=B;limit=5, B learnt from the linktree of the topic's pages
// already read): a page is read only when the feed names a post of the topic past the cursor, or
// cannot tell (its oldest post is still past the cursor, the feed is off, the board not yet known,
// the cursor asks for its own post again). Then the last page is one request
// (index.php?topic=T.msg999999 — any msg id past the last gives the last page; SMF honours no
// conditional GET), and the poller walks back through the "prev" links only as far as the cursor.
// The topic lists of boards are read for forum.SectionReader.
//
// Writing: SMF never says the new post's id (the 302 goes to topic=T.new#new), so after a reply
// the writer reads the page it lands on, and the last page if needed, for the bot's newest post
// carrying the text it sent. Errors are typed (forum.FloodError with SMF's wait, ErrBadToken,
// ErrTooShort, ErrTooLong, ErrNoPermission, ErrLoggedOut) and acted on (web.Retry): logged out →
// log in again once, session timed out → a fresh form once, "new reply while typing" → a fresh
// form; flood control and a message too long come back to the daemon, which waits and splits.
package smf

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/web"
)

// Defaults of SMF 2.1 and of the poster's behaviour.
const (
	defaultMaxPostLength = 20000 // max_messageLength, characters
	maxPagesPerPoll      = 1000
	// defaultFeedLimit is how many of a board's newest posts the idle check's feed lists (SMF's
	// own default; Extra "feed_limit", "0" turns the feed off).
	defaultFeedLimit = 5
)

// Forum is an SMF 2.1 board as the bot account sees it.
type Forum struct {
	cfg    forum.Config
	script *url.URL // .../index.php
	board  web.Board
	maxLen int
	// attach: the board takes attachments from the bot; maxAttach: bytes (Extra).
	attach    bool
	maxAttach int64

	mu       sync.Mutex   // one write at a time: SMF's flood control is per IP
	memberID atomic.Int64 // the bot's member id, learnt from the pages (0 until known)
	sent     sentCache    // the bot's sent messages already read (Sent)

	feedLimit int         // posts the idle check's feed asks for; 0: no feed
	noFeed    atomic.Bool // the board answered the feed with something else: feeds are off
	secMu     sync.Mutex
	sections  map[string]string // topic id → board id, from the linktrees of the pages read
	// feedChecks counts the idle checks of each topic (every feedRecheck-th reads the page).
	feedChecks map[string]int
}

// option changes how New builds a Forum.
type option func(*Forum)

// withClient uses c for every request (tests pass a fast one).
func withClient(c *forum.Client) option { return func(f *Forum) { f.board.Client = c } }

// New builds the SMF Forum for cfg. cfg.Extra may set "max_post_length" (characters).
func New(cfg forum.Config, opts ...option) (*Forum, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("smf: bad base URL %q", cfg.BaseURL)
	}
	if !strings.HasSuffix(base.Path, "/") && !strings.HasSuffix(base.Path, ".php") {
		base.Path += "/"
	}
	script := base
	if !strings.HasSuffix(base.Path, ".php") {
		script = base.ResolveReference(&url.URL{Path: "index.php"})
	}
	cfg = web.ConfigDefaults(cfg)
	f := &Forum{cfg: cfg, script: script, maxLen: web.ExtraInt(cfg, "max_post_length", defaultMaxPostLength),
		feedLimit: web.ExtraInt(cfg, "feed_limit", defaultFeedLimit),
		sections:  map[string]string{}, feedChecks: map[string]int{},
		board: web.Board{Name: "smf", Check: checkError}}
	if f.attach, f.maxAttach, err = attachSettings(cfg.Extra); err != nil {
		return nil, err
	}
	if cfg.Extra["feed_limit"] == "0" {
		f.feedLimit = 0
	}
	for _, o := range opts {
		o(f)
	}
	f.board.Defaults(cfg)
	return f, nil
}

var _ forum.Forum = (*Forum)(nil)

// Capabilities: SMF has private messages; posts are limited to max_messageLength characters;
// attachments of SMF's default image extensions up to its default size unless configured
// (Extra["attachments"]: off, Extra["max_attachment_size"]: bytes).
func (f *Forum) Capabilities() forum.Capabilities {
	c := forum.Capabilities{PrivateMessages: true, MaxPostLength: f.maxLen}
	if f.attach {
		c.Attachments, c.MaxAttachmentSize, c.AttachmentTypes = true, f.maxAttach, attachmentTypes
	}
	return c
}

// u builds an index.php URL with SMF's own query syntax ("action=post;topic=2.0").
func (f *Forum) u(query string) string {
	u := *f.script
	u.RawQuery = query
	return u.String()
}

func (f *Forum) opts() options {
	return options{Base: f.script, Location: f.cfg.Location, Now: f.cfg.Now()}
}

// fetch GETs (vals == nil) or POSTs a page, parses it and, when check is set, turns the error it
// shows into a typed error. A page that shows the bot's member id teaches it.
func (f *Forum) fetch(ctx context.Context, rawURL string, vals url.Values, charset string, check bool) (*forum.Page, *goquery.Document, error) {
	p, doc, err := f.board.Fetch(ctx, rawURL, vals, charset, check)
	if err != nil {
		return p, doc, err
	}
	if id, _, _ := session(doc); id > 0 {
		f.memberID.Store(int64(id))
	}
	return p, doc, nil
}

// Login logs in with the configured account (flood control on logins is a *forum.FloodError).
func (f *Forum) Login(ctx context.Context) error {
	page, doc, err := f.fetch(ctx, f.u("action=login"), nil, "", false)
	if err != nil {
		return fmt.Errorf("smf: login form: %w", err)
	}
	fs := doc.Find("form#frmLogin").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok {
		if perr := checkError(doc, page.Status); perr != nil {
			return perr
		}
		return fmt.Errorf("smf: no login form at %s: %w", page.URL, forum.ErrMarkupChanged)
	}
	vals := web.Replay{TrimTextarea: true}.Values(fs)
	vals.Set("user", f.cfg.Username)
	vals.Set("passwrd", f.cfg.Password)
	if vals.Get("cookielength") == "" {
		vals.Set("cookielength", "3153600")
	}
	page, doc, err = f.fetch(ctx, action, vals, web.Charset(fs, page), true)
	if err != nil {
		if errors.Is(err, forum.ErrLoggedOut) {
			// The login form came back without a message: the login did not take.
			return fmt.Errorf("smf: login as %q refused: %w", f.cfg.Username, forum.ErrBadLogin)
		}
		return fmt.Errorf("smf: login as %q: %w", f.cfg.Username, err)
	}
	// SMF 2.1 names the member in smf_member_id; SMF 2.0 has no such variable, its member pages
	// have a logout link instead.
	if !LoggedIn(doc) {
		return fmt.Errorf("smf: login as %q: still a guest at %s: %w", f.cfg.Username, page.URL, forum.ErrBadLogin)
	}
	return nil
}

// read fetches and parses a page of the kind wanted, logging in again once when SMF shows the
// login form instead.
func (f *Forum) read(ctx context.Context, rawURL string, kind Kind) (*Page, error) {
	for relogged := false; ; relogged = true {
		_, doc, err := f.fetch(ctx, rawURL, nil, "", true)
		if errors.Is(err, forum.ErrLoggedOut) && !relogged {
			if err := f.Login(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		p, err := parse(doc, f.opts())
		if err != nil {
			return nil, err
		}
		if p.Kind != kind {
			return nil, fmt.Errorf("smf: %s is not the page expected: %w", rawURL, forum.ErrMarkupChanged)
		}
		return p, nil
	}
}

func (f *Forum) lastPageURL(topic string) string { return f.u("topic=" + topic + ".msg999999") }

// Posts lists the posts of thread after the cursor, oldest first. An idle poll is one request
// (the board's feed, feedIdle; the last page when the feed cannot tell); older pages are read
// only while they may hold posts after the cursor.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if _, err := strconv.Atoi(t.ID); err != nil {
		return nil, after, fmt.Errorf("smf: topic id %q is not a number", t.ID)
	}
	if after.PostID != "" && !after.Include && f.feedIdle(ctx, t.ID, after.PostID) {
		return nil, after, nil
	}
	page, err := f.topicPage(ctx, t, f.lastPageURL(t.ID))
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
	p, err := f.read(ctx, rawURL, kindThread)
	if err != nil {
		return nil, err
	}
	if err := forum.CheckThread(t.ID, p.TopicID); err != nil {
		return nil, fmt.Errorf("smf: %w", err)
	}
	return p, nil
}

// Reply posts body to the topic and returns the new post's id, found on the page SMF redirects
// to (or the last page) as the bot's newest post with that text.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	if _, err := strconv.Atoi(t.ID); err != nil {
		return "", false, fmt.Errorf("smf: topic id %q is not a number", t.ID)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Post(ctx, func() (string, bool, error) { return f.replyAttempt(ctx, t, body) })
}

// retry is how a write is tried again (web.Retry): logged out → log in once, bad token (session
// timed out, form already submitted) → a fresh form once, new replies while typing → a fresh form
// (bounded).
func (f *Forum) retry() web.Retry {
	return web.Retry{Login: f.Login, Again: []error{errNewReplies}}
}

func (f *Forum) replyAttempt(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	page, doc, err := f.fetch(ctx, f.u("action=post;topic="+t.ID+".0"), nil, "", true)
	if err != nil {
		return "", false, err
	}
	fs := doc.Find("form#postmodify").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok || fs.Find("textarea[name='message']").Length() == 0 {
		return "", false, fmt.Errorf("smf: no post form on %s: %w", page.URL, forum.ErrMarkupChanged)
	}
	vals := web.Replay{Submit: "post", TrimTextarea: true}.Values(fs)
	vals.Set("message", body)
	lastMsg := vals.Get("last_msg")
	page, doc, err = f.fetch(ctx, action, vals, web.Charset(fs, page), true)
	if err != nil {
		return "", false, err
	}
	if doc.Find("form#postmodify textarea[name='message']").Length() > 0 {
		return "", false, fmt.Errorf("smf: the post form came back without a recognised error at %s", page.URL)
	}
	return f.findNewPost(ctx, t, doc, body, lastMsg)
}

// findNewPost finds the post just made: the bot's newest post carrying body, on the page SMF
// redirected to, else on the last page; failing a text match, the bot's newest post after
// last_msg. merged is set when that post is older than the newest post at form time.
func (f *Forum) findNewPost(ctx context.Context, t forum.Thread, doc *goquery.Document, body, lastMsg string) (string, bool, error) {
	pages := []*Page{}
	if doc != nil {
		if p, err := parse(doc, f.opts()); err == nil && p.Kind == kindThread && p.TopicID == t.ID {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 || pages[0].Current != pages[0].Last {
		p, err := f.read(ctx, f.lastPageURL(t.ID), kindThread)
		if err != nil {
			return "", false, fmt.Errorf("smf: posted, but reading the last page failed: %w", err)
		}
		pages = append(pages, p)
	}
	mine := func(p forum.Post) bool {
		if me := f.memberID.Load(); me > 0 && p.AuthorID != "" {
			return p.AuthorID == strconv.FormatInt(me, 10)
		}
		return strings.EqualFold(p.Author, f.cfg.Username)
	}
	newest := func(match func(forum.Post) bool) (string, bool) {
		best := ""
		for _, pg := range pages {
			for _, p := range pg.Posts {
				if mine(p) && match(p) && (best == "" || forum.IDLess(best, p.ID)) {
					best = p.ID
				}
			}
		}
		return best, best != ""
	}
	if id, ok := newest(func(p forum.Post) bool { return sameText(p, body) }); ok {
		return id, lastMsg != "" && !forum.IDLess(lastMsg, id), nil
	}
	if id, ok := newest(func(p forum.Post) bool { return lastMsg == "" || forum.IDLess(lastMsg, p.ID) }); ok {
		return id, false, nil
	}
	return "", false, fmt.Errorf("smf: posted, but the new post was not found on the last page of topic %s", t.ID)
}

// SendPM sends a private message to the member named to.
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Do(ctx, func() error {
		page, doc, err := f.fetch(ctx, f.u("action=pm;sa=send"), nil, "", true)
		if err != nil {
			return err
		}
		fs := doc.Find("form#postmodify").First()
		action, ok := web.Action(fs, page)
		if fs.Length() == 0 || !ok || fs.Find("input[name='to']").Length() == 0 {
			return fmt.Errorf("smf: no PM form on %s: %w", page.URL, forum.ErrMarkupChanged)
		}
		vals := web.Replay{Submit: "post", TrimTextarea: true}.Values(fs)
		vals.Set("to", to)
		vals.Set("subject", subject)
		vals.Set("message", body)
		page, _, err = f.fetch(ctx, action, vals, web.Charset(fs, page), true)
		if err != nil {
			return err
		}
		if !strings.Contains(page.URL.RawQuery, "done=sent") {
			return fmt.Errorf("smf: PM to %q not confirmed (landed on %s)", to, page.URL)
		}
		return nil
	})
}

// Inbox lists the private messages received after the cursor, oldest first. Messages the folder
// page does not show in full are read one by one (which marks them read, as a browser would).
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	page, err := f.read(ctx, f.u("action=pm;f=inbox;start=0"), kindPM)
	if err != nil {
		return nil, after, err
	}
	isNew := func(id string) bool { return after.PostID == "" || forum.IDLess(after.PostID, id) }
	byID := map[string]forum.Post{}
	var wanted []string
	for n := 0; n < maxPagesPerPoll; n++ {
		for _, p := range page.Posts {
			byID[p.ID] = p
		}
		older := false
		for _, r := range page.PMList {
			if isNew(r.ID) {
				wanted = append(wanted, r.ID)
			} else {
				older = true
			}
		}
		for _, p := range page.Posts {
			if isNew(p.ID) {
				wanted = append(wanted, p.ID)
			}
		}
		next := page.PageLinks[page.Current+1]
		if older || next == "" {
			break
		}
		if page, err = f.read(ctx, next, kindPM); err != nil {
			return nil, after, err
		}
	}
	var out []forum.Post
	done := map[string]bool{}
	for _, id := range wanted {
		if done[id] {
			continue
		}
		done[id] = true
		p, ok := byID[id]
		if !ok {
			pp, err := f.read(ctx, f.u("action=pm;f=inbox;pmsg="+id), kindPM)
			if err != nil {
				return nil, after, err
			}
			for _, q := range pp.Posts {
				byID[q.ID] = q
			}
			if p, ok = byID[id]; !ok {
				return nil, after, fmt.Errorf("smf: PM %s listed but not shown: %w", id, forum.ErrMarkupChanged)
			}
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return forum.IDLess(out[i].ID, out[j].ID) })
	next := forum.Cursor{PostID: after.PostID}
	if len(out) > 0 {
		next.PostID = out[len(out)-1].ID
	}
	return out, next, nil
}
