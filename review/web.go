package review

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	ttemplate "text/template"
	"time"

	"forumgm/game"
	"forumgm/internal/loopback"
	"forumgm/parser"
	"forumgm/referee"
	"forumgm/store"
	"forumgm/templates"
)

// The web UI: the moderators' queues in a browser, for one game or several. It is a thin face over
// the same Review methods the CLI calls (Queue, Show, AcceptAs, Reject, Close, Undo, Pause,
// Resume, End, Standing, Described); the logged-in moderator's name is the "by" of every action.
// Every game lives under its own path, /g/ID/ (queue and game page, flag/N, log, undo, end and
// the actions' POSTs), labelled with its id and kind; with several games / lists them (kind,
// open flags, paused or over, last event), with one it leads to the game. One login serves every
// game, but an account opens and acts on only the games it moderates (Review.Allowed); another
// game's pages refuse it. Each game's times are shown in its own time zone (Review.Location). Every Russian text lives
// in the templates under web/ (pages, the event words in words.html, and messages.tmpl for errors,
// flashes and titles). An undo and the end of the game are confirmed on a page of their own. Login is a form against the configured accounts
// (passwords from the environment, compared in constant time; failures throttled per client, see
// throttle.go, the client found behind a trusted reverse proxy, see proxy.go); a session cookie
// (HttpOnly, SameSite=Strict, Secure over https) carries a per-session CSRF token that every POST
// must echo; cross-origin POSTs
// and requests for a Host other than loopback or WebOptions.PublicURL's (DNS rebinding) are
// refused. Player text goes through
// html/template, so it is escaped. Nothing is logged.

//go:embed web
var webFS embed.FS

// Account is a moderator who may log in to the web UI.
type Account struct {
	Name     string // recorded with every action
	Password string // from the environment; never logged
}

// WebOptions configures the web UI.
type WebOptions struct {
	Accounts   []Account
	Location   *time.Location   // times are shown in it unless the game has its own; default UTC
	Now        func() time.Time // session expiry only; default time.Now
	SessionTTL time.Duration    // default 12h
	LogSize    int              // events on the log page; default 50
	// PublicURL is where moderators reach the UI through a reverse proxy with TLS
	// (review.public_url); its host is accepted besides loopback and its origin is trusted for
	// POSTs. Empty: loopback only (an SSH tunnel).
	PublicURL string
	// TrustedProxyHeader is the header the reverse proxy in front of the UI puts the real
	// client's address in (review.trusted_proxy_header): X-Real-IP, or X-Forwarded-For (its last
	// entry, the one the proxy appended). It, and X-Forwarded-Proto, are believed only from a
	// loopback peer. Empty: the client is the TCP peer (behind a proxy, everyone is 127.0.0.1).
	TrustedProxyHeader string
	// Games word the games' kinds by their titles (nil: a kind is shown as is).
	Games *game.Registry
}

// Web is the moderator web UI as an http.Handler, for one or more games.
type Web struct {
	opt      WebOptions
	accounts []account
	set      atomic.Pointer[gameSet]       // the games served (SetGames swaps them)
	plain    map[string]*template.Template // the pages of no game (login, the list), by page
	msgs     *ttemplate.Template
	public   string // PublicURL's host ("" when none)
	// publicHTTPS: PublicURL is https (a request for its host came through the TLS proxy).
	publicHTTPS bool
	proxyHeader string // TrustedProxyHeader, canonical ("" when none)
	handler     http.Handler

	mu       sync.Mutex
	sessions map[string]*session
	throttle *loginThrottle
	kinds    map[string]string // game id -> its engine, as stored (it never changes)
}

// gameSet is the games the UI serves, with each game's pages (its times in its own zone).
type gameSet struct {
	list  []*Review
	byID  map[string]*Review
	pages map[string]map[string]*template.Template // by game id, by page
}

type account struct {
	name   string
	digest [sha256.Size]byte
}

type session struct {
	name    string
	csrf    string
	expires time.Time
	flash   *Flash
}

// Flash is the one-shot message shown after an action.
type Flash struct {
	OK   bool
	Text string
}

const (
	sessionCookie = "forumgm_review_session"
	loginCookie   = "forumgm_review_login"
	maxForm       = 64 << 10
)

// NewWeb builds the web UI for the games (their Review, each with its own id), in the order given.
func NewWeb(opt WebOptions, games ...*Review) (*Web, error) {
	if len(opt.Accounts) == 0 {
		return nil, errors.New("review: web: no moderator accounts (config: review.accounts)")
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 12 * time.Hour
	}
	if opt.LogSize <= 0 {
		opt.LogSize = 50
	}
	w := &Web{opt: opt, sessions: map[string]*session{}, throttle: newLoginThrottle(), kinds: map[string]string{}}
	for _, a := range opt.Accounts {
		if strings.TrimSpace(a.Name) == "" || a.Password == "" {
			return nil, fmt.Errorf("review: web: account %q has no name or no password", a.Name)
		}
		w.accounts = append(w.accounts, account{name: strings.TrimSpace(a.Name), digest: sha256.Sum256([]byte(a.Password))})
	}
	if err := w.parse(); err != nil {
		return nil, err
	}
	if err := w.SetGames(games...); err != nil {
		return nil, err
	}
	cop := http.NewCrossOriginProtection()
	if opt.PublicURL != "" {
		u, err := url.Parse(opt.PublicURL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("review: web: public URL %q: want https://host[:port]/", opt.PublicURL)
		}
		w.public, w.publicHTTPS = strings.ToLower(u.Host), u.Scheme == "https"
		if err := cop.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			return nil, fmt.Errorf("review: web: public URL %q: %w", opt.PublicURL, err)
		}
	}
	ph, err := ProxyHeader(opt.TrustedProxyHeader)
	if err != nil {
		return nil, fmt.Errorf("review: web: trusted proxy header %w", err)
	}
	w.proxyHeader = ph
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", w.loginPage)
	mux.HandleFunc("POST /login", w.login)
	mux.HandleFunc("GET /style.css", w.style)
	mux.HandleFunc("GET /view.css", w.viewStyle)
	mux.HandleFunc("POST /logout", w.auth(w.logout))
	mux.HandleFunc("GET /{$}", w.auth(w.index))
	mux.HandleFunc("GET /g/{game}/{$}", w.auth(w.game(w.queue)))
	mux.HandleFunc("GET /g/{game}/log", w.auth(w.game(w.log)))
	mux.HandleFunc("GET /g/{game}/undo", w.auth(w.game(w.undoPage)))
	mux.HandleFunc("GET /g/{game}/end", w.auth(w.game(w.endPage)))
	mux.HandleFunc("GET /g/{game}/master", w.auth(w.game(w.masterPage)))
	mux.HandleFunc("GET /g/{game}/flag/{id}", w.auth(w.game(w.flag)))
	mux.HandleFunc("POST /g/{game}/flag/{id}/{action}", w.auth(w.game(w.decide)))
	mux.HandleFunc("POST /g/{game}/{action}", w.auth(w.game(w.command)))
	// Cross-origin POSTs (by Sec-Fetch-Site or Origin) are refused before the token is looked at.
	w.handler = cop.Handler(mux)
	return w, nil
}

// parse reads the messages and the pages of no game (login, the list of games).
func (w *Web) parse() error {
	msgs, err := ttemplate.New("messages").Option("missingkey=error").ParseFS(webFS, "web/messages.tmpl")
	if err != nil {
		return fmt.Errorf("review: web messages: %w", err)
	}
	if w.opt.Games != nil {
		for _, name := range w.opt.Games.Names() {
			g, _ := w.opt.Games.Lookup(name)
			if _, err := msgs.New("game." + name).Parse(g.Title()); err != nil {
				return fmt.Errorf("review: the title of %s: %w", name, err)
			}
		}
	}
	w.msgs = msgs
	w.plain, err = w.parsePages(w.opt.Location)
	return err
}

// SetGames makes the games the UI serves (each with its own id, in the order given): a running
// daemon calls it when a config reload adds, changes or removes games. Sessions stay; a page of a
// game no longer served answers 404.
func (w *Web) SetGames(games ...*Review) error {
	if len(games) == 0 {
		return errors.New("review: web: no game")
	}
	gs := &gameSet{list: games, byID: map[string]*Review{}, pages: map[string]map[string]*template.Template{}}
	for _, g := range games {
		if g == nil || g.Game == "" {
			return errors.New("review: web: a game without an id")
		}
		if _, dup := gs.byID[g.Game]; dup {
			return fmt.Errorf("review: web: game %s given twice", g.Game)
		}
		pages, err := w.parsePages(w.location(g))
		if err != nil {
			return err
		}
		gs.byID[g.Game], gs.pages[g.Game] = g, pages
	}
	w.set.Store(gs)
	return nil
}

// location is the zone a game's times are shown in.
func (w *Web) location(g *Review) *time.Location {
	if g != nil && g.Location != nil {
		return g.Location
	}
	return w.opt.Location
}

func (w *Web) parsePages(loc *time.Location) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"when":    func(t time.Time) string { return when(t, loc) },
		"kind":    w.kindText,
		"state":   w.stateText,
		"cause":   w.causeText,
		"trim":    strings.TrimSpace,
		"inc":     func(i int) int { return i + 1 },
		"excerpt": excerpt,
		"retype":  retype,
		"short":   func(s string) string { return templates.Cut(s, 200) },
		"plain":   plain,
		"explain": w.explainFlag,
		"postid":  w.postLabel,
		"reading": w.readingText,
		"dict": func(p store.PostRecord, game string, id int64) postRow {
			return postRow{Post: p, Game: game, ID: id}
		},
	}
	base, err := template.New("layout.html").Funcs(funcs).ParseFS(webFS, "web/layout.html", "web/words.html")
	if err != nil {
		return nil, fmt.Errorf("review: web templates: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, name := range []string{"login", "index", "refused", "queue", "flag", "log", "undo", "end", "master"} {
		t, err := template.Must(base.Clone()).ParseFS(webFS, "web/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("review: web templates: %w", err)
		}
		pages[name] = t
	}
	return pages, nil
}

// msg renders one of the web UI's messages (web/messages.tmpl).
func (w *Web) msg(name string, data any) string {
	var b strings.Builder
	if err := w.msgs.ExecuteTemplate(&b, name, data); err != nil {
		return name // a missing message is a bug the tests catch; never a blank page
	}
	return b.String()
}

// msgData is what messages get.
type msgData struct {
	Game  string
	Kind  string // the game's kind in words
	N     int64
	Label string
	Count int
	Err   string
	State string
	By    string
}

// ServeHTTP serves the UI; requests for a Host that is not loopback are refused (a page on another
// site that rebinds its DNS name to 127.0.0.1 cannot reach it).
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	SecurityHeaders(h, "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Cache-Control", "no-store")
	if !loopback.Host(r.Host) && (w.public == "" || !strings.EqualFold(r.Host, w.public)) {
		http.Error(rw, w.msg("http.not_loopback", nil), http.StatusMisdirectedRequest)
		return
	}
	w.handler.ServeHTTP(rw, r)
}

// SecurityHeaders sets the headers every page forumgm serves to browsers carries (this UI and the
// players' public pages): csp is the page's Content-Security-Policy; no framing, no sniffing, no
// referrer.
func SecurityHeaders(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// ---- sessions ----

func token() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

type ctxKey struct{}

func current(r *http.Request) *session { s, _ := r.Context().Value(ctxKey{}).(*session); return s }

func (w *Web) lookup(r *http.Request) *session {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.sessions[c.Value]
	if s != nil && !w.opt.Now().Before(s.expires) {
		delete(w.sessions, c.Value)
		return nil
	}
	return s
}

// auth lets a logged-in moderator through; a POST must carry the session's CSRF token. Without a
// session a page redirects to the login form and a POST is refused with 401.
func (w *Web) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		s := w.lookup(r)
		if s == nil {
			if r.Method == http.MethodGet {
				http.Redirect(rw, r, "/login?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
				return
			}
			http.Error(rw, w.msg("http.login_needed", nil), http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(rw, r.Body, maxForm)
			if err := r.ParseForm(); err != nil {
				http.Error(rw, w.msg("http.form_unreadable", nil), http.StatusBadRequest)
				return
			}
			if !same(r.PostForm.Get("csrf"), s.csrf) {
				http.Error(rw, w.msg("http.form_stale", nil), http.StatusForbidden)
				return
			}
		}
		next(rw, r.WithContext(context.WithValue(r.Context(), ctxKey{}, s)))
	}
}

func same(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func (w *Web) setFlash(s *session, ok bool, text string) {
	w.mu.Lock()
	s.flash = &Flash{OK: ok, Text: text}
	w.mu.Unlock()
}

func (w *Web) takeFlash(s *session) *Flash {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := s.flash
	s.flash = nil
	return f
}

// check returns the configured spelling of the account's name when name and password match.
// Every account is compared, in constant time per comparison.
func (w *Web) check(name, password string) (string, bool) {
	d := sha256.Sum256([]byte(password))
	found := ""
	for _, a := range w.accounts {
		nameOK := strings.EqualFold(strings.TrimSpace(name), a.name)
		pwOK := subtle.ConstantTimeCompare(d[:], a.digest[:]) == 1
		if nameOK && pwOK {
			found = a.name
		}
	}
	return found, found != ""
}

// ---- pages ----

// page is what every template gets.
type page struct {
	Title string
	User  string
	CSRF  string
	Flash *Flash
	// Many: the UI serves several games (the header links to their list).
	Many bool
	// Rows are the games in the list of games.
	Rows []gameRow
	// Game is the game the page is about ("" on the login page and the list), Kind its kind
	// in words.
	Game     string
	Kind     string
	Refused  bool     // the account does not moderate the game
	Allowed  []string // the game's moderators (the refusal names them)
	State    store.Game
	Standing *Standing
	Cases    []Case
	Case     *Case
	Events   []Entry
	Error    string
	Next     string
	Schedule *Schedule       // the game master's page: deadlines and length
	Reading  *store.Progress // the game's long read under way (nil: none)
}

func (w *Web) render(rw http.ResponseWriter, r *http.Request, status int, name string, p page) {
	if s := current(r); s != nil {
		p.User, p.CSRF = s.name, s.csrf
		if p.Flash == nil {
			p.Flash = w.takeFlash(s)
		}
	}
	gs := w.set.Load()
	p.Many = len(gs.list) > 1
	set := gs.pages[p.Game]
	if set == nil {
		set = w.plain
	}
	var b strings.Builder
	if err := set[name].ExecuteTemplate(&b, "layout.html", p); err != nil {
		http.Error(rw, w.msg("http.page_error", msgData{Err: err.Error()}), http.StatusInternalServerError)
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(status)
	_, _ = rw.Write([]byte(b.String()))
}

func (w *Web) style(rw http.ResponseWriter, r *http.Request) {
	b, err := webFS.ReadFile("web/style.css")
	if err != nil {
		http.NotFound(rw, r)
		return
	}
	rw.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = rw.Write(b)
}

// viewStyle is the style of the games' views (game.Styled), every registered game's.
func (w *Web) viewStyle(rw http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	if reg := w.opt.Games; reg != nil {
		for _, name := range reg.Names() {
			if g, err := reg.Lookup(name); err == nil {
				if st, ok := game.As[game.Styled](g); ok {
					b.WriteString(st.ViewCSS())
				}
			}
		}
	}
	rw.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = rw.Write([]byte(b.String()))
}

func (w *Web) loginPage(rw http.ResponseWriter, r *http.Request) {
	next := safeNext(r.URL.Query().Get("next"))
	if w.lookup(r) != nil {
		http.Redirect(rw, r, next, http.StatusSeeOther)
		return
	}
	w.showLogin(rw, r, http.StatusOK, next, "")
}

// showLogin renders the form with a fresh login token (double submit: cookie and field).
func (w *Web) showLogin(rw http.ResponseWriter, r *http.Request, status int, next, msg string) {
	tok := token()
	w.cookie(rw, r, loginCookie, tok, "/login", 0)
	w.render(rw, r, status, "login", page{Title: w.msg("title.login", nil), CSRF: tok, Next: next, Error: msg})
}

func (w *Web) login(rw http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(rw, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		http.Error(rw, w.msg("http.form_unreadable", nil), http.StatusBadRequest)
		return
	}
	next := safeNext(r.PostForm.Get("next"))
	c, err := r.Cookie(loginCookie)
	if err != nil || !same(r.PostForm.Get("csrf"), c.Value) {
		w.showLogin(rw, r, http.StatusForbidden, next, w.msg("login.stale", nil))
		return
	}
	now := w.opt.Now()
	client := w.client(r)
	if wait := w.throttle.wait(now, client, r.PostForm.Get("name")); wait > 0 {
		secs := int(wait.Round(time.Second) / time.Second)
		rw.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
		w.showLogin(rw, r, http.StatusTooManyRequests, next, w.msg("login.throttled", msgData{N: int64(max(secs, 1))}))
		return
	}
	name, ok := w.check(r.PostForm.Get("name"), r.PostForm.Get("password"))
	if !ok {
		w.throttle.failed(now, client, r.PostForm.Get("name"))
		w.showLogin(rw, r, http.StatusUnauthorized, next, w.msg("login.wrong", nil))
		return
	}
	id := token()
	w.mu.Lock()
	for k, old := range w.sessions {
		if !now.Before(old.expires) {
			delete(w.sessions, k)
		}
	}
	w.sessions[id] = &session{name: name, csrf: token(), expires: now.Add(w.opt.SessionTTL)}
	w.mu.Unlock()
	w.cookie(rw, r, loginCookie, "", "/login", -1)
	w.cookie(rw, r, sessionCookie, id, "/", 0)
	http.Redirect(rw, r, next, http.StatusSeeOther)
}

func (w *Web) logout(rw http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		w.mu.Lock()
		delete(w.sessions, c.Value)
		w.mu.Unlock()
	}
	w.cookie(rw, r, sessionCookie, "", "/", -1)
	http.Redirect(rw, r, "/login", http.StatusSeeOther)
}

// gameRow is one game in the list of games.
type gameRow struct {
	Summary
	Path  string
	Kind  string // in words
	Last  string // the last event's time in the game's zone
	Yours bool   // the moderator may open it
}

// index lists the games; with one game it leads to it.
func (w *Web) index(rw http.ResponseWriter, r *http.Request) {
	gs := w.set.Load()
	if len(gs.list) == 1 {
		http.Redirect(rw, r, gamePath(gs.list[0].Game), http.StatusSeeOther)
		return
	}
	name := current(r).name
	var rows []gameRow
	for _, g := range gs.list {
		sum, err := g.Summary(r.Context())
		if err != nil {
			w.fail(rw, fmt.Errorf("game %s: %w", g.Game, err))
			return
		}
		yours := mayOpen(g, name)
		rows = append(rows, gameRow{Summary: sum, Path: gamePath(g.Game), Kind: w.gameKindText(sum.Kind),
			Last: when(sum.LastEvent, w.location(g)), Yours: yours})
	}
	w.render(rw, r, http.StatusOK, "index", page{Title: w.msg("title.index", nil), Rows: rows})
}

func gamePath(game string) string { return "/g/" + url.PathEscape(game) + "/" }

type gameHandler func(rw http.ResponseWriter, r *http.Request, g *Review)

// game resolves {game} to its Review and lets only the game's moderators through: another
// account is refused (403) on every page and action of the game.
func (w *Web) game(next gameHandler) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		g := w.set.Load().byID[r.PathValue("game")]
		if g == nil {
			http.Error(rw, w.msg("http.no_game", nil), http.StatusNotFound)
			return
		}
		if !mayOpen(g, current(r).name) {
			kind := w.kind(r.Context(), g)
			w.render(rw, r, http.StatusForbidden, "refused", page{Title: w.msg("title.refused", msgData{Game: g.Game, Kind: kind}),
				Game: g.Game, Kind: kind, Refused: true, Allowed: g.Allowed})
			return
		}
		next(rw, r, g)
	}
}

// mayOpen reports whether the account may open and act on the game: it is one of the game's
// moderators. A game with no moderators configured opens to nobody in the web UI (an empty
// Review.Allowed lets any name through for the tools and tests only).
func mayOpen(g *Review, account string) bool {
	if len(g.Allowed) == 0 {
		return false
	}
	_, ok := g.Moderator(account)
	return ok
}

// kind is a game's kind in words ("" when the store does not know the game).
func (w *Web) kind(ctx context.Context, g *Review) string {
	w.mu.Lock()
	k, ok := w.kinds[g.Game]
	w.mu.Unlock()
	if !ok {
		st, err := g.State(ctx)
		if err != nil {
			return ""
		}
		k = st.Name
		w.mu.Lock()
		w.kinds[g.Game] = k
		w.mu.Unlock()
	}
	return w.gameKindText(k)
}

// gameKindText words a game's kind (its title, "game.KIND" in the messages; an unknown kind as is).
func (w *Web) gameKindText(k string) string {
	if k == "" || w.msgs.Lookup("game."+k) == nil {
		return k
	}
	return w.msg("game."+k, nil)
}

// labels are a game's id and kind for a page and its title.
func (w *Web) labels(r *http.Request, g *Review) msgData {
	return msgData{Game: g.Game, Kind: w.kind(r.Context(), g)}
}

func (w *Web) fail(rw http.ResponseWriter, err error) {
	http.Error(rw, w.msg("http.failed", msgData{Err: err.Error()}), http.StatusInternalServerError)
}

func (w *Web) queue(rw http.ResponseWriter, r *http.Request, g *Review) {
	cases, err := g.Queue(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	if err := g.Explain(r.Context(), cases); err != nil {
		w.fail(rw, err)
		return
	}
	st, err := g.State(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	now, err := g.Standing(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	reading, err := g.Reading(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	l := w.labels(r, g)
	w.render(rw, r, http.StatusOK, "queue", page{Title: w.msg("title.game", l), Game: g.Game, Kind: l.Kind, State: st, Standing: &now, Cases: cases, Reading: reading})
}

// undoPage asks to confirm an undo, naming the move it undoes.
func (w *Web) undoPage(rw http.ResponseWriter, r *http.Request, g *Review) {
	now, err := g.Standing(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	l := w.labels(r, g)
	w.render(rw, r, http.StatusOK, "undo", page{Title: w.msg("title.undo", l), Game: g.Game, Kind: l.Kind, Standing: &now})
}

// endPage is the form that ends the game: the winner or a draw, the reason, a confirmation.
func (w *Web) endPage(rw http.ResponseWriter, r *http.Request, g *Review) {
	now, err := g.Standing(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	st, err := g.State(r.Context())
	if err != nil {
		w.fail(rw, err)
		return
	}
	l := w.labels(r, g)
	w.render(rw, r, http.StatusOK, "end", page{Title: w.msg("title.end", l), Game: g.Game, Kind: l.Kind, State: st, Standing: &now})
}

func (w *Web) log(rw http.ResponseWriter, r *http.Request, g *Review) {
	evs, err := g.Described(r.Context(), w.opt.LogSize)
	if err != nil {
		w.fail(rw, err)
		return
	}
	// Newest first on the page.
	for i, j := 0, len(evs)-1; i < j; i, j = i+1, j-1 {
		evs[i], evs[j] = evs[j], evs[i]
	}
	l := w.labels(r, g)
	w.render(rw, r, http.StatusOK, "log", page{Title: w.msg("title.log", l), Game: g.Game, Kind: l.Kind, Events: evs})
}

func flagID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

func (w *Web) flag(rw http.ResponseWriter, r *http.Request, g *Review) {
	id, ok := flagID(r)
	if !ok {
		http.Error(rw, w.msg("http.no_flag", nil), http.StatusNotFound)
		return
	}
	c, err := g.Show(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, ErrOtherGame) {
		http.Error(rw, w.msg("http.no_flag", nil), http.StatusNotFound)
		return
	}
	if err != nil {
		w.fail(rw, err)
		return
	}
	cs := []Case{c}
	if err := g.Explain(r.Context(), cs); err != nil {
		w.fail(rw, err)
		return
	}
	c = cs[0]
	l := w.labels(r, g)
	l.N = id
	w.render(rw, r, http.StatusOK, "flag", page{Title: w.msg("title.flag", l), Game: g.Game, Kind: l.Kind, Case: &c})
}

// decide is Accept, Reject or Close of a flag, or a dispute's Uphold, Overturn or Settle: the
// same Review methods the CLI calls.
func (w *Web) decide(rw http.ResponseWriter, r *http.Request, g *Review) {
	id, ok := flagID(r)
	if !ok {
		http.Error(rw, w.msg("http.no_flag", nil), http.StatusNotFound)
		return
	}
	s, reason := current(r), strings.TrimSpace(r.PostForm.Get("reason"))
	var out game.Outcome
	var err error
	var done string
	n := msgData{N: id}
	switch r.PathValue("action") {
	case "accept":
		c, serr := g.Show(r.Context(), id)
		out, err = g.AcceptAs(r.Context(), id, s.name, reason, strings.TrimSpace(r.PostForm.Get("text")))
		switch {
		case serr == nil && c.Flag.Kind == store.FlagDispute:
			done = w.msg("done.kept_dispute", n)
		case serr == nil && !retype(c.Flag.Kind):
			done = w.msg("done.kept", n)
		case out.Verdict == game.Refused:
			done = w.msg("done.accepted_refused", n)
		default:
			done = w.msg("done.accepted", n)
		}
	case "reject":
		out, err = g.Reject(r.Context(), id, s.name, reason)
		done = w.msg("done.rejected", n)
	case "close":
		out, err = g.Close(r.Context(), id, s.name, reason)
		done = w.msg("done.closed", n)
		if len(out.Messages) > 0 {
			done = w.msg("done.closed_told", n)
		}
	case "uphold":
		out, err = g.Uphold(r.Context(), id, s.name, reason)
		done = w.msg("done.upheld", n)
	case "overturn":
		out, err = g.Overturn(r.Context(), id, s.name, reason, strings.TrimSpace(r.PostForm.Get("text")))
		done = w.msg("done.overturned", n)
	case "settle":
		out, err = g.Settle(r.Context(), id, s.name, reason, strings.TrimSpace(r.PostForm.Get("message")))
		done = w.msg("done.settled", n)
	default:
		http.NotFound(rw, r)
		return
	}
	back := fmt.Sprintf("%sflag/%d", gamePath(g.Game), id)
	w.after(rw, r, s, out, err, done, gamePath(g.Game), back)
}

// command is Undo, Pause, Resume or End: the same Review methods the CLI calls.
func (w *Web) command(rw http.ResponseWriter, r *http.Request, g *Review) {
	s, reason := current(r), strings.TrimSpace(r.PostForm.Get("reason"))
	var out game.Outcome
	var err error
	var done string
	back := gamePath(g.Game)
	switch r.PathValue("action") {
	case "undo":
		// The move confirmed must still be the last one: the daemon may have applied another
		// since the confirmation page was shown.
		back = gamePath(g.Game) + "undo"
		label, ok, lerr := g.LastMove(r.Context())
		switch {
		case lerr != nil:
			err = lerr
		case !ok:
			err = referee.ErrNothingToUndo
		case label != r.PostForm.Get("label"):
			w.setFlash(s, false, w.msg("err.undo_moved", msgData{Label: label}))
			http.Redirect(rw, r, back, http.StatusSeeOther)
			return
		default:
			out, err = g.Undo(r.Context(), s.name, reason)
			done = w.msg("done.undone", msgData{Label: label})
		}
	case "pause":
		out, err = g.Pause(r.Context(), s.name, reason)
		done = w.msg("done.paused", nil)
	case "resume":
		out, err = g.Resume(r.Context(), s.name, reason)
		done = w.msg("done.resumed", nil)
	case "end":
		back = gamePath(g.Game) + "end"
		if r.PostForm.Get("confirm") != "yes" {
			w.setFlash(s, false, w.msg("err.not_confirmed", nil))
			http.Redirect(rw, r, back, http.StatusSeeOther)
			return
		}
		out, err = g.End(r.Context(), s.name, reason, strings.TrimSpace(r.PostForm.Get("winner")))
		done = w.msg("done.ended", nil)
	case "add-player":
		out, err = g.AddPlayer(r.Context(), s.name, reason, strings.TrimSpace(r.PostForm.Get("player")), strings.TrimSpace(r.PostForm.Get("role")))
		done = w.msg("done.player_added", nil)
	case "replace":
		out, err = g.Replace(r.Context(), s.name, reason, strings.TrimSpace(r.PostForm.Get("player")), strings.TrimSpace(r.PostForm.Get("new")))
		done = w.msg("done.replaced", nil)
	case "remove":
		out, err = g.Remove(r.Context(), s.name, reason, strings.TrimSpace(r.PostForm.Get("player")))
		done = w.msg("done.removed", nil)
	case "extend", "holiday", "clarify", "length":
		back = gamePath(g.Game) + "master"
		out, err, done = w.masterCommand(r, g, s.name, reason)
		if err == nil {
			back = gamePath(g.Game)
		}
		w.after(rw, r, s, out, err, done, back, gamePath(g.Game)+"master")
		return
	case "adjust":
		n, aerr := strconv.Atoi(strings.TrimSpace(strings.ReplaceAll(r.PostForm.Get("amount"), "−", "-")))
		if aerr != nil || n == 0 {
			w.setFlash(s, false, w.msg("err.bad_amount", nil))
			http.Redirect(rw, r, back, http.StatusSeeOther)
			return
		}
		out, err = g.Adjust(r.Context(), s.name, reason, strings.TrimSpace(r.PostForm.Get("target")), n)
		done = w.msg("done.adjusted", nil)
	default:
		http.NotFound(rw, r)
		return
	}
	w.after(rw, r, s, out, err, done, gamePath(g.Game), back)
}

// after reports an action's outcome as a flash and redirects (POST, redirect, GET).
func (w *Web) after(rw http.ResponseWriter, r *http.Request, s *session, out game.Outcome, err error, done, okTo, failTo string) {
	if err != nil {
		w.setFlash(s, false, w.errorText(err))
		http.Redirect(rw, r, failTo, http.StatusSeeOther)
		return
	}
	text := done + "."
	if n := len(out.Messages); n > 0 {
		text = done + w.msg("done.queued", msgData{Count: n})
	}
	w.setFlash(s, true, text)
	http.Redirect(rw, r, okTo, http.StatusSeeOther)
}

// errorText words an action's error for the moderator.
func (w *Web) errorText(err error) string {
	var no *NotOpenError
	switch {
	case errors.Is(err, ErrNoReason):
		return w.msg("err.no_reason", nil)
	case errors.As(err, &no):
		return w.msg("err.not_open", msgData{N: no.ID, State: w.stateText(no.State), By: no.By})
	case errors.Is(err, store.ErrNotFound), errors.Is(err, ErrOtherGame):
		return w.msg("err.no_flag", nil)
	case errors.Is(err, store.ErrLogMoved):
		return w.msg("err.log_moved", nil)
	case errors.Is(err, referee.ErrNothingToUndo):
		return w.msg("err.nothing_to_undo", nil)
	case errors.Is(err, referee.ErrPauseState):
		return w.msg("err.pause_state", nil)
	case errors.Is(err, referee.ErrNoReadable):
		return w.msg("err.no_readable", nil)
	case errors.Is(err, referee.ErrMoveRefused):
		said := err.Error()
		if i := strings.Index(said, referee.ErrMoveRefused.Error()+": "); i >= 0 {
			said = said[i+len(referee.ErrMoveRefused.Error())+2:]
		}
		return w.msg("err.move_refused", msgData{Err: said})
	case errors.Is(err, referee.ErrNotDispute):
		return w.msg("err.not_dispute", nil)
	case errors.Is(err, referee.ErrNotPlaying):
		return w.msg("err.not_playing", nil)
	case errors.Is(err, ErrNotModerator):
		return w.msg("err.not_moderator", nil)
	}
	return w.msg("err.other", msgData{Err: err.Error()})
}

// ---- template helpers ----

// readingText says how far a game's long read is (web/messages.tmpl "reading"): pages read of
// all, and about how long is left.
func (w *Web) readingText(p *store.Progress) string {
	left := p.ETA.Round(time.Second)
	d := struct{ Done, Total, H, M, S int }{Done: p.Done, Total: p.Done + p.ToGo}
	switch {
	case left < time.Minute:
		d.S = int(left / time.Second)
	case left < time.Hour:
		d.M = int((left + 30*time.Second) / time.Minute)
	default:
		d.H, d.M = int(left/time.Hour), int(left%time.Hour/time.Minute)
	}
	return w.msg("reading", d)
}

// retype reports whether accepting a flag of this kind judges the post (so the moderator may
// retype the move as the player meant it): an unreadable move, a stranger's move, a late move.
func retype(k store.FlagKind) bool {
	return k == store.FlagUnreadable || k == store.FlagNotInRoster || k == store.FlagLate
}

// postRow is what the queue's "post" template gets.
type postRow struct {
	Post store.PostRecord
	Game string
	ID   int64
}

// Excerpt is the start of a long post for the queue.
type Excerpt struct {
	Text string
	More int // lines left out (0: the whole text)
	Cut  bool
}

// Excerpt limits: the queue shows at most this many lines and letters of a post.
const (
	excerptLines   = 8
	excerptLetters = 600
)

// excerpt is the start of a post's text: at most excerptLines lines and excerptLetters letters.
func excerpt(text string) Excerpt {
	text = strings.TrimSpace(text)
	lines := strings.Split(text, "\n")
	e := Excerpt{Text: text}
	if len(lines) > excerptLines {
		e.Text, e.More, e.Cut = strings.Join(lines[:excerptLines], "\n"), len(lines)-excerptLines, true
	}
	if r := []rune(e.Text); len(r) > excerptLetters {
		e.Text, e.Cut = string(r[:excerptLetters])+"…", true
		if e.More == 0 {
			e.More = len(lines) - len(strings.Split(e.Text, "\n"))
		}
	}
	return e
}

// when is a time as the page shows it, in loc.
func when(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(loc).Format("02.01.2006 15:04")
}

// kindText words a flag's kind ("kind.KIND" in the messages).
func (w *Web) kindText(k store.FlagKind) string {
	if w.msgs.Lookup("kind."+string(k)) == nil {
		k = store.FlagOther
	}
	return w.msg("kind."+string(k), nil)
}

// stateText words a flag's state ("state.STATE"; an unknown state as is).
func (w *Web) stateText(s store.FlagState) string {
	if w.msgs.Lookup("state."+string(s)) == nil {
		return string(s)
	}
	return w.msg("state."+string(s), nil)
}

// causeText words an event's cause: the clock, a moderator, a post, a private message.
// postLabel words a stored post's id for moderators: the forum's number, and for a part of a
// post the forum merged ("10~2", the daemon's id of its second part) which part it is.
func (w *Web) postLabel(id string) string {
	if base, part, ok := strings.Cut(id, "~"); ok {
		return w.msg("post.part", msgData{Label: base, Err: part})
	}
	return id
}

// plain is a bot's reply (forum markup) as the moderator reads it: the text with the markup
// dropped, code blocks (a board) kept.
func plain(body string) string {
	p := parser.FromBBCode(body)
	out := p.Text
	for _, c := range p.Code {
		out += "\n" + c
	}
	return strings.TrimSpace(out)
}

// explainFlag is what a flag of a kind means, in Russian ("" for a kind whose detail is the
// daemon's own English note, shown to the administrator only).
func (w *Web) explainFlag(k store.FlagKind) string {
	switch k {
	case store.FlagEdited, store.FlagDeleted, store.FlagNotInRoster, store.FlagDispute:
		return w.msg("explain."+string(k), nil)
	}
	return ""
}

func (w *Web) causeText(c string) string {
	switch {
	case c == store.TimerCause:
		return w.msg("cause.timer", nil)
	case strings.HasPrefix(c, "moderator:"):
		return w.msg("cause.moderator", msgData{By: strings.TrimPrefix(c, "moderator:")})
	case strings.HasPrefix(c, "post:"):
		return w.msg("cause.post", msgData{Label: w.postLabel(strings.TrimPrefix(c, "post:"))})
	case strings.HasPrefix(c, "pm:"):
		return w.msg("cause.pm", msgData{Label: strings.TrimPrefix(c, "pm:")})
	}
	return c
}

// Serve serves h on addr (loopback only) until ctx is done; ready gets the URL once listening.
func Serve(ctx context.Context, addr string, h http.Handler, ready func(url string)) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("review: serve: %q: want host:port such as 127.0.0.1:9322", addr)
	}
	if !loopback.Host(host) {
		return fmt.Errorf("review: serve: %q is not a loopback address (reach it from elsewhere through an SSH tunnel)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("review: serve: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}
