package discourse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"forumgm/forum"
	"forumgm/forum/web"
)

// DefaultMaxPostLength is Discourse's default max_post_length (characters).
const DefaultMaxPostLength = 32000

// Option tunes a Forum.
type Option func(*Forum)

// WithClient uses c for HTTP (tests pass a fast one).
func WithClient(c *forum.Client) Option { return func(f *Forum) { f.c = c } }

// Forum is a Discourse forum as the bot sees it. It is safe for concurrent use; its requests are
// made one at a time.
type Forum struct {
	cfg  forum.Config
	base *url.URL
	c    *forum.Client
	max  int
	// attach: the forum takes uploads from the bot (Extra "attachments"); maxAttach: bytes.
	attach    bool
	maxAttach int64
	// apiHeader is sent with every request when the forum is reached with an API key.
	apiHeader http.Header

	mu       sync.Mutex
	csrf     string // the session's CSRF token (cookie sessions), "" until fetched
	loggedIn bool
	rd       Reader
	// links are the permalinks of the topics' posts read, by post id (PostURL), under their own
	// lock: a page linking posts never waits for a read in progress.
	links     sync.Mutex
	permalink map[string]string
}

// New builds a Forum from cfg. cfg.BaseURL is the forum root (https://forum.example/).
func New(cfg forum.Config, opts ...Option) (*Forum, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("discourse: no base URL")
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("discourse: base URL %q: %w", cfg.BaseURL, err)
	}
	f := &Forum{cfg: cfg, base: base, max: DefaultMaxPostLength}
	if s := cfg.Extra["max_post_length"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			return nil, fmt.Errorf("discourse: bad max_post_length %q", s)
		}
		f.max = n
	}
	if f.attach, f.maxAttach, err = attachCaps(cfg.Extra); err != nil {
		return nil, err
	}
	// The key: Extra "auth" says the configured password is one (so it stays in the environment,
	// like any password), or Extra "api_key" / "user_api_key" holds it.
	apiKey, userKey := cfg.Extra["api_key"], cfg.Extra["user_api_key"]
	switch auth := cfg.Extra["auth"]; auth {
	case "", "session":
	case "api_key":
		apiKey = cfg.Password
	case "user_api_key":
		userKey = cfg.Password
	default:
		return nil, fmt.Errorf("discourse: extra auth %q: want session, api_key or user_api_key", auth)
	}
	switch {
	case apiKey != "":
		user := cfg.Extra["api_username"]
		if user == "" {
			user = cfg.Username
		}
		if user == "" {
			return nil, errors.New("discourse: an API key needs api_username (or the user name)")
		}
		f.apiHeader = http.Header{"Api-Key": {apiKey}, "Api-Username": {user}}
	case userKey != "":
		f.apiHeader = http.Header{"User-Api-Key": {userKey}}
		if id := cfg.Extra["user_api_client_id"]; id != "" {
			f.apiHeader.Set("User-Api-Client-Id", id)
		}
	case cfg.Extra["auth"] != "" && cfg.Extra["auth"] != "session":
		return nil, fmt.Errorf("discourse: extra auth %q and no key (the password is the key)", cfg.Extra["auth"])
	}
	for _, o := range opts {
		o(f)
	}
	if f.c == nil {
		f.c = forum.NewClient(cfg.ClientConfig())
	}
	chunk, _ := strconv.Atoi(cfg.Extra["chunk"])
	f.rd = Reader{Get: f.get, BaseURL: base.String(), Username: f.user(), Chunk: chunk}
	return f, nil
}

// user is the bot's user name on the forum.
func (f *Forum) user() string {
	if f.apiHeader != nil && f.apiHeader.Get("Api-Username") != "" {
		return f.apiHeader.Get("Api-Username")
	}
	return f.cfg.Username
}

// Capabilities: private messages; Discourse's default max_post_length unless configured;
// attachments (uploads) of Discourse's default authorized extensions up to its default
// max_image_size_kb unless configured (Extra "attachments": off, "max_attachment_size": bytes).
func (f *Forum) Capabilities() forum.Capabilities {
	c := forum.Capabilities{PrivateMessages: true, MaxPostLength: f.max}
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

// header is what every request sends: JSON wanted, the XHR mark Discourse's own client sends
// (its CSRF and login checks answer JSON to it), the API key when configured, plus extra.
func (f *Forum) header(extra http.Header) http.Header {
	h := http.Header{"Accept": {"application/json"}, "X-Requested-With": {"XMLHttpRequest"}}
	for k, v := range f.apiHeader {
		h[k] = v
	}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// get fetches a JSON answer (scraper Reader's Getter): an error answer is typed (typed).
func (f *Forum) get(ctx context.Context, path string) (*forum.Page, error) {
	p, err := f.c.Send(ctx, http.MethodGet, f.abs(path), nil, "", f.header(nil))
	if err != nil {
		return p, f.typed(p, err)
	}
	return p, nil
}

var (
	errBadCSRF = errors.New("discourse: CSRF token refused (BAD CSRF)")
	// ErrQueued: the forum took the post into its review queue; it shows once a moderator
	// approves it, and has no id until then. It wraps forum.ErrNoPermission: the bot's account
	// needs a trust level (or group) whose posts are not reviewed first.
	ErrQueued = fmt.Errorf("discourse: post queued for approval: %w", forum.ErrNoPermission)
	// ErrRejected: the forum refused the post for a reason forum has no type for (a body too
	// similar to the bot's recent one, a body "unclear", a title taken); the message says which.
	ErrRejected = errors.New("discourse: post refused")
)

var (
	reTooShort  = regexp.MustCompile(`(?i)too short|слишком коротк`)
	reTooLong   = regexp.MustCompile(`(?i)is limited to|too long|слишком длинн|не должен превышать|ограничен`)
	reNoUser    = regexp.MustCompile(`(?i)no (such )?user|not (be )?found|does(n't| not) exist|unknown user|not a valid user|не найден|не существует`)
	reRecipient = regexp.MustCompile(`(?i)(can't|cannot|can not) (send|message)|not accepting|doesn't accept|does not accept|disabled|не принимает|нельзя отправить`)
)

// typed turns a failed request into forum's errors, from the HTTP status and Discourse's JSON
// error (render_json_error: {"errors": [...], "error_type": "...", "extras": {...}}).
func (f *Forum) typed(p *forum.Page, err error) error {
	if p == nil {
		return err
	}
	e, ok := ParseError(p.Raw)
	msg := e.Message()
	switch {
	case ok && e.ErrorType == "rate_limit", p.Status == http.StatusTooManyRequests && ok:
		wait := e.Wait()
		if wait <= 0 {
			wait = retryAfter(p)
		}
		// Discourse's rate limiter refuses before anything is stored: not ambiguous.
		return fmt.Errorf("discourse: %q: %w", msg, &forum.FloodError{Wait: wait})
	case e.BadCSRF:
		return errBadCSRF
	case ok && e.ErrorType == "not_logged_in":
		return fmt.Errorf("discourse: %q: %w", msg, forum.ErrLoggedOut)
	case p.Status == http.StatusNotFound || ok && e.ErrorType == "not_found":
		return fmt.Errorf("discourse: %s: %w", p.URL, forum.ErrNotFound)
	case p.Status == http.StatusForbidden:
		if msg == "" {
			msg = "HTTP 403"
		}
		return fmt.Errorf("discourse: %q: %w", msg, forum.ErrNoPermission)
	case p.Status == http.StatusUnprocessableEntity && ok:
		return classify(msg)
	}
	return err
}

// classify reads the messages of a refused post (HTTP 422, {"errors": [...]}).
func classify(msg string) error {
	switch {
	case reTooLong.MatchString(msg):
		return fmt.Errorf("discourse: %q: %w", msg, forum.ErrTooLong)
	case reTooShort.MatchString(msg):
		return fmt.Errorf("discourse: %q: %w", msg, forum.ErrTooShort)
	}
	return fmt.Errorf("%w: %q", ErrRejected, msg)
}

func retryAfter(p *forum.Page) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(p.Header.Get("Retry-After"))); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// send posts payload (JSON, or a form when it is url.Values) with the session's CSRF token,
// fetching the token first when the session has none. A refused token clears it (errBadCSRF: the
// caller sends again).
func (f *Forum) send(ctx context.Context, path string, payload any) (*forum.Page, error) {
	extra, err := f.writeHeader(ctx)
	if err != nil {
		return nil, err
	}
	var body []byte
	ctype := "application/json"
	if v, ok := payload.(url.Values); ok {
		body, ctype = []byte(v.Encode()), "application/x-www-form-urlencoded; charset=UTF-8"
	} else if body, err = json.Marshal(payload); err != nil {
		return nil, err
	}
	p, err := f.c.Send(ctx, http.MethodPost, f.abs(path), body, ctype, f.header(extra))
	if err != nil {
		err = f.typed(p, err)
		if errors.Is(err, errBadCSRF) {
			f.csrf = ""
		}
		return p, err
	}
	return p, nil
}

// writeHeader is what a write sends besides header: a cookie session's CSRF token, fetched
// first when the session has none; nothing with an API key.
func (f *Forum) writeHeader(ctx context.Context) (http.Header, error) {
	if f.apiHeader != nil {
		return nil, nil
	}
	if f.csrf == "" {
		if err := f.fetchCSRF(ctx); err != nil {
			return nil, err
		}
	}
	return http.Header{"X-Csrf-Token": {f.csrf}}, nil
}

// parseErr is the message of a JSON error answer.
func parseErr(body []byte) (string, bool) {
	e, ok := ParseError(body)
	return e.Message(), ok
}

// fetchCSRF asks the session's CSRF token (GET /session/csrf: {"csrf": "..."}).
func (f *Forum) fetchCSRF(ctx context.Context) error {
	p, err := f.get(ctx, "session/csrf")
	if err != nil {
		return fmt.Errorf("discourse: CSRF token: %w", err)
	}
	var v struct {
		CSRF string `json:"csrf"`
	}
	if err := json.Unmarshal(p.Body, &v); err != nil || v.CSRF == "" {
		return fmt.Errorf("discourse: session/csrf answered no token: %w", forum.ErrMarkupChanged)
	}
	f.csrf = v.CSRF
	return nil
}

// Login logs in with the configured account. With an API key it checks the key
// (GET /session/current.json names the key's user; a refused key is ErrBadLogin); otherwise it
// fetches a CSRF token and posts the login and password to /session, whose answer is the user
// or {"error": "..."} (ErrBadLogin, with Discourse's message).
func (f *Forum) Login(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.login(ctx)
}

func (f *Forum) login(ctx context.Context) error {
	f.loggedIn = false
	if f.apiHeader != nil {
		p, err := f.get(ctx, "session/current.json")
		if errors.Is(err, forum.ErrNotFound) || errors.Is(err, forum.ErrNoPermission) || errors.Is(err, forum.ErrLoggedOut) {
			return fmt.Errorf("discourse: API key refused (%v): %w", err, forum.ErrBadLogin)
		}
		if err != nil {
			return err
		}
		var v struct {
			CurrentUser struct {
				Username string `json:"username"`
			} `json:"current_user"`
		}
		if json.Unmarshal(p.Body, &v) != nil || v.CurrentUser.Username == "" {
			return fmt.Errorf("discourse: session/current.json named no user: %w", forum.ErrMarkupChanged)
		}
		f.rd.Username = v.CurrentUser.Username
		f.loggedIn = true
		return nil
	}
	for attempt := 0; ; attempt++ {
		f.csrf = ""
		p, err := f.send(ctx, "session", url.Values{"login": {f.cfg.Username}, "password": {f.cfg.Password}})
		if errors.Is(err, errBadCSRF) && attempt == 0 {
			continue
		}
		if err != nil {
			return fmt.Errorf("discourse: login: %w", err)
		}
		e, ok := ParseError(p.Body)
		if ok && e.Error != "" {
			return fmt.Errorf("discourse: login: %q (%s): %w", e.Error, e.Reason, forum.ErrBadLogin)
		}
		// The session changed: its token is fetched again before the next write.
		f.csrf = ""
		f.loggedIn = true
		return nil
	}
}

// ensureLogin logs in once before the first write or private read.
func (f *Forum) ensureLogin(ctx context.Context) error {
	if f.loggedIn {
		return nil
	}
	return f.login(ctx)
}

func (f *Forum) relogin(ctx context.Context, op func() error) error {
	return web.Retry{Login: f.login}.Do(ctx, op)
}

// Posts lists the posts of topic t after the cursor, oldest first, and the new cursor (the
// newest post's id, and its post number as Page): scr.Reader.Posts through this session. Public
// topics are read without logging in; a topic a guest may not see (Discourse answers 404 or 403
// for a private category) is read again once logged in.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var posts []forum.Post
	cur := after
	read := func() error {
		var err error
		posts, cur, err = f.rd.Posts(ctx, t.ID, after)
		return err
	}
	err := f.relogin(ctx, read)
	if !f.loggedIn && (errors.Is(err, forum.ErrNotFound) || errors.Is(err, forum.ErrNoPermission)) {
		if lerr := f.login(ctx); lerr != nil {
			return nil, after, fmt.Errorf("%w (logging in to read it failed: %w)", err, lerr)
		}
		err = read()
	}
	if err != nil {
		return nil, after, err
	}
	f.links.Lock()
	if f.permalink == nil {
		f.permalink = map[string]string{}
	}
	for _, p := range posts {
		if p.Permalink != "" {
			f.permalink[p.ID] = p.Permalink
		}
	}
	f.links.Unlock()
	return posts, cur, nil
}

// Inbox lists the private messages received after the cursor (a post id), oldest first:
// scr.Reader.Inbox through this session.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return nil, after, err
	}
	var posts []forum.Post
	cur := after
	err := f.relogin(ctx, func() error {
		var err error
		posts, cur, err = f.rd.Inbox(ctx, after)
		return err
	})
	return posts, cur, err
}

// Sent lists the private messages the bot sent after the cursor, oldest first (the daemon looks
// for an outbox marker there before it sends a message again): scr.Reader.Sent.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return nil, after, err
	}
	var posts []forum.Post
	cur := after
	err := f.relogin(ctx, func() error {
		var err error
		posts, cur, err = f.rd.Sent(ctx, after)
		return err
	})
	return posts, cur, err
}

// Section lists a category's topics (forum.SectionReader): section is the category's id, or its
// slug path and id ("games/5").
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.Section(ctx, section)
}

// SectionOf is the category id of topic t, as the topic JSON read last told ("" before).
func (f *Forum) SectionOf(t forum.Thread) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.SectionOf(t.ID)
}

// UserExists asks the forum for the user's public profile (GET /u/<name>.json: 404 when there is
// no such user).
func (f *Forum) UserExists(ctx context.Context, name string) (bool, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return false, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.get(ctx, "u/"+url.PathEscape(name)+".json")
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, forum.ErrNotFound):
		return false, nil
	}
	return false, fmt.Errorf("discourse: look up user %q: %w", name, err)
}

// created is the answer of POST /posts.json: the new post at the root, or, when the post went
// to the review queue, {"action": "enqueued", "pending_post": {...}}.
type created struct {
	ID         int    `json:"id"`
	TopicID    int    `json:"topic_id"`
	PostNumber int    `json:"post_number"`
	Action     string `json:"action"`
}

// retry is how a write is tried again (form.Retry): a lost session logged in again, a refused
// CSRF token fetched again.
func (f *Forum) retry() web.Retry {
	return web.Retry{Login: f.login, Again: []error{errBadCSRF}}
}

// Reply posts body (forumgm's BBCode, through Markup) to topic t (POST /posts.json {topic_id,
// raw}) and returns the new post's id; Discourse never merges posts.
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	topic, err := strconv.Atoi(t.ID)
	if err != nil {
		return "", false, fmt.Errorf("discourse: topic id %q is not a number", t.ID)
	}
	return f.retry().Post(ctx, func() (string, bool, error) {
		c, err := f.create(ctx, map[string]any{"topic_id": topic, "raw": Markup(body)})
		if err != nil {
			return "", false, err
		}
		return ID(c.ID), false, nil
	})
}

// SendPM starts a private-message topic with the recipient (POST /posts.json {title, raw,
// target_recipients, archetype: private_message}). An unknown recipient is ErrNotFound, one who
// takes no messages ErrRecipient.
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Do(ctx, func() error {
		_, err := f.create(ctx, map[string]any{"title": subject, "raw": Markup(body), "target_recipients": to, "archetype": "private_message"})
		if errors.Is(err, ErrRejected) {
			switch msg := err.Error(); {
			case reNoUser.MatchString(msg):
				err = fmt.Errorf("discourse: recipient %q: %v: %w", to, err, forum.ErrNotFound)
			case reRecipient.MatchString(msg):
				err = fmt.Errorf("discourse: recipient %q: %v: %w", to, err, forum.ErrRecipient)
			}
		}
		return err
	})
}

// create posts to /posts.json and reads the new post.
func (f *Forum) create(ctx context.Context, payload map[string]any) (created, error) {
	var c created
	if err := f.ensureLogin(ctx); err != nil {
		return c, err
	}
	p, err := f.send(ctx, "posts.json", payload)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(p.Body, &c); err != nil {
		return c, fmt.Errorf("discourse: posts.json answered no post (%v); the post may be on the forum: %w", err, forum.ErrAmbiguous)
	}
	if c.Action == "enqueued" {
		return c, ErrQueued
	}
	if c.ID == 0 {
		return c, fmt.Errorf("discourse: posts.json answered no post id; the post may be on the forum: %w", forum.ErrAmbiguous)
	}
	return c, nil
}
