// Package xenforo is the XenForo 2 dialect of forum.Forum ("xenforo" in a configuration): it logs in
// through login/login, reads a thread from its newest page back to the cursor (the pages are
// read with the tables of extract.go), replies through threads/<id>/add-reply and keeps private messages
// through conversations (conversations/add to send, the conversation list and each unread
// conversation to receive), and lists a forum's threads from its first page (forum.SectionReader).
//
// XenForo checks one CSRF token on every POST: "_xfToken", "<time>,<hash>" bound to the xf_csrf
// cookie and valid for a day, written on every page as html[data-csrf] and in hidden _xfToken
// inputs. The dialect keeps the token of the last page it read and fetches a page for a fresh
// one when XenForo refuses it ("Security error occurred…"); a page that shows the bot logged
// out (html[data-logged-in="false"]) means logging in again, once.
//
// Writes ask for JSON (_xfResponseType=json), the answer XenForo's own JavaScript reads:
// {"status":"ok","message":…,"redirect":URL} for a write that went through (the reply's URL
// names the new post: posts/<id>/), {"status":"error","errors":[…]} (or errors keyed by field
// name) for a refusal, with HTTP 403 for a missing permission and, for a guest, the login form
// instead of an error. Refusals are typed from their wording (XenForo 2.0.2's English phrases and
// the phrases of a real Russian language export of XenForo 2.2.7, see reFlood): flood control
// ("You must wait at least N seconds…") is a *forum.FloodError of N seconds.
//
// Config.Extra keys: "friendly_urls" ("false": the board has no URL rewriting, every route goes
// through index.php?route), "max_post_chars" (default 25000, XenForo's messageMaxLength),
// "flood_wait" (a Go duration used when a flood message names no number, default 30s), "rate".
// Keys of the tables of extract.go (a theme that moved something) override the thread table.
package xenforo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

// Defaults of XenForo 2 and of the dialect's behaviour.
const (
	defaultMaxPostChars = 25000 // XenForo's messageMaxLength option
	defaultFloodWait    = 30 * time.Second
	maxPagesPerPoll     = 1000
)

// Forum is a XenForo 2 board as the bot account sees it.
type Forum struct {
	cfg       forum.Config
	base      *url.URL
	friendly  bool
	board     web.Board
	max       int
	floodWait time.Duration

	mu       sync.Mutex // one write at a time
	tok      sync.Mutex
	token    string                  // the _xfToken of the last page read
	newest   map[string]string       // thread -> newest post id seen
	convSeen map[string]time.Time    // conversation -> its latest message time when last listed
	seenMsg  map[string]bool         // conversation messages already returned
	sentConv map[string][]forum.Post // conversation -> the bot's messages in it (Sent)
	sections map[string]string       // thread -> its forum, from the breadcrumb (SectionOf)
	forumURL map[string]string       // forum id as asked -> the URL XenForo redirected it to
	named    map[string]string       // thread number -> the slug.N id callers name it by
	slugged  map[string]string       // thread as asked -> its slug.N as the board's links name it (PostURL)
	unreadPM bool                    // the last page or answer counted unread conversations
	convList string                  // the conversation list's route as the header links it ("" = conversations/)
}

// option changes how New builds a Forum.
type option func(*Forum)

// withClient uses c for every request (tests pass a fast one).
func withClient(c *forum.Client) option { return func(f *Forum) { f.board.Client = c } }

// New builds the XenForo 2 Forum for cfg.
func New(cfg forum.Config, opts ...option) (*Forum, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || !base.IsAbs() {
		return nil, fmt.Errorf("xenforo: bad base URL %q", cfg.BaseURL)
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
		sentConv: map[string][]forum.Post{}, sections: map[string]string{},
		forumURL: map[string]string{}, named: map[string]string{}}
	f.board = web.Board{Name: "xenforo", Check: f.checkPage}
	for _, o := range opts {
		o(f)
	}
	f.board.Defaults(cfg)
	return f, nil
}

var _ forum.Forum = (*Forum)(nil)

// Capabilities: conversations are XenForo's private messages; posts up to messageMaxLength.
func (f *Forum) Capabilities() forum.Capabilities {
	return forum.Capabilities{PrivateMessages: true, MaxPostLength: f.max}
}

// route is the URL of a XenForo route ("threads/8276/latest"): base + route with friendly URLs,
// base + "index.php?" + route without.
func (f *Forum) route(r string) string {
	if f.friendly {
		u, _ := f.base.Parse(r)
		return u.String()
	}
	u := *f.base
	path, query, _ := strings.Cut(r, "?")
	u.Path += "index.php"
	u.RawQuery = path
	if query != "" {
		u.RawQuery += "&" + query
	}
	return u.String()
}

// threadID checks a thread id: "8276" or XenForo's "slug.8276".
var reThread = regexp.MustCompile(`^(?:[^/?#.]+\.)?\d+$`)

func threadRoute(t forum.Thread) (string, error) {
	if !reThread.MatchString(t.ID) {
		return "", fmt.Errorf("xenforo: thread id %q is neither N nor slug.N", t.ID)
	}
	return "threads/" + t.ID + "/", nil
}

// setToken remembers the CSRF token a page carries, whether its header counts unread
// conversations (PAGE_CONTAINER's a.js-badge--conversations[data-badge]) and where that header
// link goes (the conversation list's route).
func (f *Forum) setToken(doc *goquery.Document) {
	if badge, ok := doc.Find("a.js-badge--conversations").Attr("data-badge"); ok {
		f.setUnread(badge)
	} else if n, ok := configUnread(doc); ok {
		f.setUnread(n)
	}
	if rt := f.routeOf(convLink(doc)); rt != "" {
		f.tok.Lock()
		f.convList = rt
		f.tok.Unlock()
	}
	tok := pageToken(doc)
	if tok == "" {
		return
	}
	f.tok.Lock()
	f.token = tok
	f.tok.Unlock()
}

// setUnread notes a count of unread conversations as XenForo writes it ("0", "3", "1,024").
func (f *Forum) setUnread(count string) {
	count = strings.TrimSpace(count)
	f.tok.Lock()
	f.unreadPM = count != "" && strings.Trim(count, "0,. ") != ""
	f.tok.Unlock()
}

// UnreadPM reports whether the last page read or write answered showed unread conversations
// (forum.PMNotifier: the daemon then reads the inbox).
func (f *Forum) UnreadPM() bool {
	f.tok.Lock()
	defer f.tok.Unlock()
	return f.unreadPM
}

func (f *Forum) currentToken() string {
	f.tok.Lock()
	defer f.tok.Unlock()
	return f.token
}

func (f *Forum) dropToken() {
	f.tok.Lock()
	f.token = ""
	f.tok.Unlock()
}

// reConfigCSRF finds the token in the page's XF.config (PAGE_CONTAINER's script:
// "csrf: '1776376579,ba39…'"), where XenForo 2.3 keeps it: its html[data-csrf] is empty.
var reConfigCSRF = regexp.MustCompile(`\bcsrf:\s*'(\d+,[0-9a-fA-F]+)'`)

// pageToken is a page's _xfToken: html[data-csrf] (XenForo 2.0–2.2), else a hidden _xfToken
// input (forms), else XF.config's csrf (2.3 leaves data-csrf empty, also on pages without a form).
func pageToken(doc *goquery.Document) string {
	if v, ok := doc.Find("html").Attr("data-csrf"); ok && v != "" {
		return v
	}
	if v := doc.Find("input[name='_xfToken'][value!='']").First().AttrOr("value", ""); v != "" {
		return v
	}
	var tok string
	doc.Find("script:not([src])").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if m := reConfigCSRF.FindStringSubmatch(s.Text()); m != nil {
			tok = m[1]
		}
		return tok == ""
	})
	return tok
}

// reConfigUnread finds XF.config's visitorCounts.conversations_unread ("conversations_unread:
// '0'", XenForo 2.3's PAGE_CONTAINER script on pkodev.com and RageZone).
var reConfigUnread = regexp.MustCompile(`\bconversations_unread:\s*'([\d,. ]*)'`)

// configUnread is the unread conversations count of the page script, for a page whose header has
// no badge (a style that leaves the navigation group out).
func configUnread(doc *goquery.Document) (string, bool) {
	var n string
	var ok bool
	doc.Find("script:not([src])").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if m := reConfigUnread.FindStringSubmatch(s.Text()); m != nil {
			n, ok = m[1], true
		}
		return !ok
	})
	return n, ok
}

// convLink is the href of the header's link to the conversation list (PAGE_CONTAINER's
// a.p-navgroup-link--conversations, the one with the js-badge--conversations counter). XenForo
// 2.3 calls conversations "direct messages" and links direct-messages/ there (pkodev.com).
func convLink(doc *goquery.Document) string {
	for _, sel := range []string{"a.js-badge--conversations[href]", "a.p-navgroup-link--conversations[href]"} {
		if v := strings.TrimSpace(doc.Find(sel).First().AttrOr("href", "")); v != "" {
			return v
		}
	}
	return ""
}

// routeOf turns a link of the board into its route ("direct-messages/"): the path under the base
// with friendly URLs, the query's route without; "" for a link elsewhere or to no list (a route
// must end in "/").
func (f *Forum) routeOf(href string) string {
	if href == "" {
		return ""
	}
	u, err := f.base.Parse(href)
	if err != nil || u.Host != f.base.Host {
		return ""
	}
	var rt string
	if f.friendly {
		rt, _ = strings.CutPrefix(u.Path, f.base.Path)
		if rt == u.Path && f.base.Path != "/" {
			return ""
		}
	} else {
		rt, _, _ = strings.Cut(u.RawQuery, "&")
	}
	if rt == "" || !strings.HasSuffix(rt, "/") || strings.ContainsAny(rt, "?#") {
		return ""
	}
	return rt
}

// convRoute is the route of the conversation list: what the header linked on a page read
// ("direct-messages/" on XenForo 2.3), else XenForo 2.0–2.2's "conversations/".
func (f *Forum) convRoute() string {
	f.tok.Lock()
	defer f.tok.Unlock()
	if f.convList != "" {
		return f.convList
	}
	return "conversations/"
}

// listRoute is the conversation list's route, learned first from the board's index when no page
// read so far linked it (a Forum that has not logged in or read a page yet): one request, once.
func (f *Forum) listRoute(ctx context.Context) (string, error) {
	f.tok.Lock()
	known := f.convList != ""
	f.tok.Unlock()
	if known {
		return f.convRoute(), nil
	}
	_, doc, err := f.board.Fetch(ctx, f.route(""), nil, "", true)
	if err != nil {
		return "", err
	}
	if in, known := loggedIn(doc); known && !in {
		return "", fmt.Errorf("xenforo: the index shows a guest: %w", forum.ErrLoggedOut)
	}
	f.setToken(doc)
	return f.convRoute(), nil
}

// convID reads a conversation's id from its URL (<list route><slug>.<id>/), under the list's
// route, XenForo 2.0–2.2's conversations/ or 2.3's direct-messages/.
func (f *Forum) convID(href string) string {
	alts := []string{"conversations/", "direct-messages/"}
	if rt := f.convRoute(); !slices.Contains(alts, rt) {
		alts = append(alts, rt)
	}
	for i, a := range alts {
		alts[i] = regexp.QuoteMeta(a)
	}
	re := regexp.MustCompile(`(?:^|[/?])(?:` + strings.Join(alts, "|") + `)(?:[^/?#]*\.)?(\d+)(?:[/?#]|$)`)
	if m := re.FindStringSubmatch(href); m != nil {
		return m[1]
	}
	return ""
}

// loggedIn reads html[data-logged-in]; known is false on a page without it (not XenForo 2).
func loggedIn(doc *goquery.Document) (in, known bool) {
	v, ok := doc.Find("html").Attr("data-logged-in")
	return v == "true", ok
}

// checkPage turns what a page shows into a typed error: an error page (the "error" template's
// blockMessage under HTTP 4xx), the login form served for a guest. Pages of a logged-in bot
// without an error pass.
func (f *Forum) checkPage(doc *goquery.Document, status int) error {
	if status < 400 {
		return nil
	}
	if in, known := loggedIn(doc); known && !in && (status == 403 || doc.Find("form[action*='login/login']").Length() > 0) {
		return fmt.Errorf("xenforo: HTTP %d, the login form: %w", status, forum.ErrLoggedOut)
	}
	msg := clean(doc.Find(".blockMessage").First().Text())
	return f.classify(status, []string{msg})
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

var (
	// English: XenForo 2.0.2's phrases. Russian: the language exports "Русский (RU)" of XenForo
	// 2.2.7 (base_version_id 2020770; github.com/McShare/MineBBS-Multi-Language, commit
	// 3297d538304708c2f8f8172fcae4e9b36678608f, XenForo/language-Russkij-(RU)-XF.xml) and of
	// XenForo 2.3.6 (2030670; the same repository, commit 7ebcc88315e7319a9c3521323dda4595e722ac80,
	// language-Russkij-(RU).xml); each phrase is quoted with its title in TestClassifyRussian.
	reFlood     = regexp.MustCompile(`(?i)must wait at least|подождать|подождите`)
	reToken     = regexp.MustCompile(`(?i)security error occurred|cookies are required to use this site|ошибка безопасности|сайт использует cookie`)
	reLogin     = regexp.MustCompile(`(?i)must be logged[- ]in|должны быть авторизованы|нужно сначала войти|необходимо (?:войти|авторизоваться)`)
	reTooLong   = regexp.MustCompile(`(?i)no more than \d+ characters|не более (?:чем )?\d+ символ`)
	reTooShort  = regexp.MustCompile(`(?i)enter a valid message|введите текст сообщения|введите сообщение, чтобы начать|корректное сообщение`)
	reRecipient = regexp.MustCompile(`(?i)may not start a conversation with|privacy settings|настроек конфиденциальности|не можете начать переписку`)
	reNotFound  = regexp.MustCompile(`(?i)could not be found|не найден`)
	reBadLogin  = regexp.MustCompile(`(?i)incorrect password|could not be found|(?:неверный|некорректный) пароль|не найден`)
	reLocked    = regexp.MustCompile(`(?i)temporarily been locked|временно заблокирован`)
	rePending   = regexp.MustCompile(`pending_approval=1`)
	rePostID    = regexp.MustCompile(`(?:posts/|post-|#post-)(\d+)`)
)

// classify types the error messages XenForo answered with (HTTP status, message texts).
func (f *Forum) classify(status int, msgs []string) error {
	msg := strings.Join(msgs, " | ")
	switch {
	case reFlood.MatchString(msg) || status == 429:
		return fmt.Errorf("xenforo: %q: %w", msg, &forum.FloodError{Wait: web.FloodWait(msg, f.floodWait)})
	case reToken.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrBadToken)
	case reLogin.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrLoggedOut)
	case reTooLong.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrTooLong)
	case reTooShort.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrTooShort)
	case reRecipient.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrRecipient)
	case status == 404 || reNotFound.MatchString(msg):
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrNotFound)
	case status == 403:
		return fmt.Errorf("xenforo: %q: %w", msg, forum.ErrNoPermission)
	}
	return fmt.Errorf("xenforo: HTTP %d: %q", status, msg)
}

// answer is XenForo's JSON answer to a form sent with _xfResponseType=json (XF\Mvc\Renderer\Json):
// a redirect, a message, errors, or a rendered view (html.content); visitor is only there for a
// logged-in member.
type answer struct {
	Status   string          `json:"status"`
	Message  string          `json:"message"`
	Redirect string          `json:"redirect"`
	Errors   json.RawMessage `json:"errors"`
	HTML     *struct {
		Content string `json:"content"`
	} `json:"html"`
	Visitor json.RawMessage `json:"visitor"`
}

// errorList reads "errors": a list, or an object keyed by field name (a validation error names
// its field: {"recipients": "…"}), its values in key order.
func errorList(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []any
	if json.Unmarshal(raw, &list) == nil {
		out := make([]string, 0, len(list))
		for _, v := range list {
			out = append(out, clean(fmt.Sprint(v)))
		}
		return out
	}
	var byField map[string]any
	if json.Unmarshal(raw, &byField) == nil {
		keys := make([]string, 0, len(byField))
		for k := range byField {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]string, 0, len(keys))
		for _, k := range keys {
			out = append(out, clean(fmt.Sprint(byField[k])))
		}
		return out
	}
	return []string{string(raw)}
}

// postJSON sends a form to route with the token and _xfResponseType=json and reads the answer:
// the answer when XenForo took it, else a typed error.
func (f *Forum) postJSON(ctx context.Context, rt string, vals url.Values) (*answer, error) {
	tok := f.currentToken()
	if tok == "" {
		return nil, fmt.Errorf("xenforo: no form token yet: %w", forum.ErrBadToken)
	}
	vals.Set("_xfToken", tok)
	vals.Set("_xfResponseType", "json")
	p, err := f.board.Client.PostForm(ctx, f.route(rt), vals, "utf-8")
	if p == nil || errors.Is(err, forum.ErrAmbiguous) {
		if err == nil {
			err = fmt.Errorf("xenforo: %s: empty answer", rt)
		}
		return nil, err
	}
	var a answer
	if jerr := json.Unmarshal(p.Body, &a); jerr != nil {
		// Not JSON: an HTML page (a proxy's, or a board ignoring _xfResponseType).
		if doc, derr := p.Doc(); derr == nil {
			f.setToken(doc)
			if cerr := f.checkPage(doc, p.Status); cerr != nil {
				return nil, cerr
			}
			if in, known := loggedIn(doc); known && !in {
				return nil, fmt.Errorf("xenforo: %s answered a guest's page: %w", rt, forum.ErrLoggedOut)
			}
		}
		return &answer{Status: "ok", Redirect: p.URL.String()}, nil
	}
	var visitor struct {
		ConversationsUnread string `json:"conversations_unread"`
	}
	if len(a.Visitor) > 0 && json.Unmarshal(a.Visitor, &visitor) == nil {
		f.setUnread(visitor.ConversationsUnread)
	}
	if msgs := errorList(a.Errors); a.Status == "error" || len(msgs) > 0 {
		if len(msgs) == 0 {
			msgs = []string{a.Message}
		}
		if len(a.Visitor) == 0 && p.Status == 403 {
			return nil, fmt.Errorf("xenforo: %q as a guest: %w", msgs, forum.ErrLoggedOut)
		}
		return nil, f.classify(p.Status, msgs)
	}
	if p.Status == 403 || (len(a.Visitor) == 0 && a.HTML != nil && strings.Contains(a.HTML.Content, "login/login")) {
		// A guest is answered with the login form (XF\ControllerPlugin\Error::actionRegistrationRequired).
		return nil, fmt.Errorf("xenforo: %s answered HTTP %d with the login form: %w", rt, p.Status, forum.ErrLoggedOut)
	}
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// retry runs attempt under form.Retry: logged out → log in once (when relogin is set), bad token
// → a fresh token once.
func (f *Forum) retry(ctx context.Context, relogin bool, attempt func() error) error {
	var r web.Retry
	if relogin {
		r.Login = f.Login
	}
	return r.Do(ctx, func() error {
		err := attempt()
		if errors.Is(err, forum.ErrBadToken) {
			f.dropToken()
		}
		return err
	})
}

// ensureToken fetches a page of the board for a token when none is known (or the last was
// refused): the page given, a page of the board every member can see. A page showing a guest
// means the session is gone.
func (f *Forum) ensureToken(ctx context.Context, rt string) error {
	if f.currentToken() != "" {
		return nil
	}
	_, doc, err := f.board.Fetch(ctx, f.route(rt), nil, "", true)
	if err != nil {
		return err
	}
	if in, known := loggedIn(doc); !known {
		return fmt.Errorf("xenforo: %s has no html[data-logged-in]: %w", rt, forum.ErrMarkupChanged)
	} else if !in {
		return fmt.Errorf("xenforo: %s shows a guest: %w", rt, forum.ErrLoggedOut)
	}
	f.setToken(doc)
	if f.currentToken() == "" {
		return fmt.Errorf("xenforo: %s carries no _xfToken: %w", rt, forum.ErrMarkupChanged)
	}
	return nil
}

// Login logs in with the configured account ("remember": XenForo's "Stay logged in").
func (f *Forum) Login(ctx context.Context) error {
	return f.retry(ctx, false, func() error {
		page, doc, err := f.board.Fetch(ctx, f.route("login/"), nil, "", false)
		if err != nil {
			return fmt.Errorf("xenforo: login form: %w", err)
		}
		if in, _ := loggedIn(doc); in {
			f.setToken(doc)
			return nil
		}
		fs := doc.Find("form[action*='login/login']").First()
		action, ok := web.Action(fs, page)
		if fs.Length() == 0 || !ok {
			return fmt.Errorf("xenforo: no login form at %s: %w", page.URL, forum.ErrMarkupChanged)
		}
		vals := web.Replay{}.Values(fs)
		if vals.Get("_xfToken") == "" {
			vals.Set("_xfToken", pageToken(doc))
		}
		vals.Set("login", f.cfg.Username)
		vals.Set("password", f.cfg.Password)
		vals.Set("remember", "1")
		page, doc, err = f.board.Fetch(ctx, action, vals, "utf-8", true)
		if err != nil {
			return fmt.Errorf("xenforo: login as %q: %w", f.cfg.Username, err)
		}
		if in, _ := loggedIn(doc); in {
			f.setToken(doc)
			return nil
		}
		msg := clean(doc.Find(".blockMessage--error, .blockMessage").First().Text())
		switch {
		case reToken.MatchString(msg):
			return fmt.Errorf("xenforo: login as %q: %q: %w", f.cfg.Username, msg, forum.ErrBadToken)
		case reBadLogin.MatchString(msg), reLocked.MatchString(msg):
			return fmt.Errorf("xenforo: login as %q: %q: %w", f.cfg.Username, msg, forum.ErrBadLogin)
		}
		return fmt.Errorf("xenforo: login as %q: still a guest at %s (%q): %w", f.cfg.Username, page.URL, msg, forum.ErrBadLogin)
	})
}

// readPage fetches and reads one page with table, remembering its token.
func (f *Forum) readPage(ctx context.Context, rawURL string, table map[string]string) (*scrape.Page, *goquery.Document, error) {
	var gp *scrape.Page
	var d *goquery.Document
	err := f.retry(ctx, true, func() error {
		p, doc, err := f.board.Fetch(ctx, rawURL, nil, "", true)
		if err != nil {
			return err
		}
		if in, known := loggedIn(doc); known && !in {
			return fmt.Errorf("xenforo: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		f.setToken(doc)
		d = doc
		gp, err = ReadPage(doc, table, f.cfg)
		return err
	})
	return gp, d, err
}
