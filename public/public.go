// Package public owns the players' read-only game pages: one page per game (the position drawn by
// the game itself through game.Viewer, the standings, what happens next with its deadline in the
// game's zone, the story of the thread with links to its posts, the fair play: the commitment and,
// after the end, the revealed seed with the in-browser check one click away), a moment of the game
// as it stood after event N (replayed from the log), and the list of the community's games. The
// pages are Russian, need no login, no cookie and no JavaScript (the countdown uses it), carry the
// moderator UI's security headers, are rate-limited per client and cached by ETag. A view reads
// the store at most once: Store.Since gives what the log and the thread gained since the last
// view, folded into the page's own referee; nothing else is read. Paths the pages do not own are
// 404. Nothing here names a game.
package public

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"forumgm/fairness"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/review"
	"forumgm/store"
)

//go:embed web
var webFS embed.FS

// Game is one game the pages show.
type Game struct {
	ID    string
	Title string // the game's Russian name ("Крестовый поход")
	Store *store.Store
	// NewReferee builds the game's referee at its start (the page folds the log into it).
	NewReferee func() (*referee.Referee, error)
	// Location is the game's time zone (times and deadlines are shown in it); nil: UTC.
	Location *time.Location
	// ThreadURL is the game's thread; PostURL, if set, a post's address in it by the forum's id
	// (nil or "": the thread's address stands in).
	ThreadURL string
	PostURL   func(id string) string
	// CSS is the style of the game's view (game.Styled), served beside its page; "" none.
	CSS string
}

// Options configure the pages.
type Options struct {
	Now func() time.Time // default time.Now
	// Rate and Burst limit each client's requests (default 20 a second, bursts of 40).
	Rate  float64
	Burst int
	// TrustedProxyHeader is the header a reverse proxy on loopback puts the real client's address
	// in (X-Real-IP, X-Forwarded-For: its last entry); empty: the TCP peer.
	TrustedProxyHeader string
	// Workers is how many views may read the store or draw a page at once (default 1).
	Workers int
}

// Pages is the public pages as an http.Handler.
type Pages struct {
	opt   Options
	tmpl  *template.Template
	css   []byte
	js    []byte
	mu    sync.Mutex
	games map[string]*page
	order []string
	lim   map[string]*rate.Limiter
	limAt time.Time
	// work bounds the views reading the store or drawing a page at once: a crowd of players
	// waits its turn rather than holding every read connection the daemons' polls need.
	work chan struct{}
}

// page is one game's cached state: its referee folded to seq, what the thread said, and the page
// rendered at that point.
type page struct {
	g     Game
	mu    sync.Mutex
	ref   *referee.Referee
	recs  []game.Record
	ats   []time.Time
	seq   int64
	said  map[int64]store.Said
	told  map[int64]telling       // each reply as the story tells it (made once, when read)
	items map[int64]template.HTML // the current page's story entries, drawn once
	maxN  int64
	from  int64  // the next read's replies start after it (before the first still pending)
	html  []byte // the page rendered at key
	gz    []byte // html gzipped (nil until a client took it)
	etag  string
	key   string
	// summary is the list page's line (updated with html).
	summary  summary
	moments  map[int64][]byte
	deadline time.Time // the rendered view's deadline (past it, the page is drawn again)
	read     time.Time // when the store was last read for it
}

type summary struct {
	ID, Title, Status string
	Over              bool
	Started           bool
}

// New builds the pages over games.
func New(opt Options, games ...Game) (*Pages, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Rate <= 0 {
		opt.Rate = 20
	}
	if opt.Burst <= 0 {
		opt.Burst = 40
	}
	t, err := template.New("").Funcs(funcs).ParseFS(webFS, "web/*.html")
	if err != nil {
		return nil, fmt.Errorf("public: templates: %w", err)
	}
	css, err := webFS.ReadFile("web/style.css")
	if err != nil {
		return nil, fmt.Errorf("public: %w", err)
	}
	js, err := webFS.ReadFile("web/countdown.js")
	if err != nil {
		return nil, fmt.Errorf("public: %w", err)
	}
	if opt.Workers <= 0 {
		opt.Workers = 1 // a view costs a fraction of a millisecond: one at a time leaves the polls the rest
	}
	p := &Pages{opt: opt, tmpl: t, css: css, js: js, games: map[string]*page{}, lim: map[string]*rate.Limiter{},
		work: make(chan struct{}, opt.Workers)}
	p.SetGames(games...)
	return p, nil
}

// SetGames replaces the games served (a config reload); a game kept keeps its cache.
func (p *Pages) SetGames(games ...Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	next := map[string]*page{}
	var order []string
	for _, g := range games {
		if old, ok := p.games[g.ID]; ok {
			next[g.ID] = old
		} else {
			next[g.ID] = &page{g: g, said: map[int64]store.Said{}, told: map[int64]telling{}, items: map[int64]template.HTML{}, moments: map[int64][]byte{}}
		}
		order = append(order, g.ID)
	}
	sort.Strings(order)
	p.games, p.order = next, order
}

const csp = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// checkCSP is the fair-play check page's own policy (its script and style are inline).
const checkCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

var (
	reCSS    = regexp.MustCompile(`^/g/([A-Za-z0-9_.-]+)/view\.css$`)
	rePage   = regexp.MustCompile(`^/g/([A-Za-z0-9_.-]+)/$`)
	reMoment = regexp.MustCompile(`^/g/([A-Za-z0-9_.-]+)/at/([0-9]{1,9})$`)
	rePic    = regexp.MustCompile(`^/g/([A-Za-z0-9_.-]+)/(?:at/([0-9]{1,9})/)?pic/([A-Za-z0-9_.-]+\.png)$`)
)

// ServeHTTP serves the pages.
func (p *Pages) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	review.SecurityHeaders(h, csp)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(rw, "Страница только для чтения.", http.StatusMethodNotAllowed)
		return
	}
	if !p.allow(p.client(r)) {
		h.Set("Retry-After", "1")
		http.Error(rw, "Слишком много запросов: подождите секунду.", http.StatusTooManyRequests)
		return
	}
	path := r.URL.Path
	switch {
	case path == "/":
		p.serveList(rw, r)
	case path == "/style.css":
		p.static(rw, r, "text/css; charset=utf-8", p.css)
	case path == "/countdown.js":
		p.static(rw, r, "text/javascript; charset=utf-8", p.js)
	case path == "/check":
		review.SecurityHeaders(h, checkCSP)
		p.static(rw, r, "text/html; charset=utf-8", fairness.Page())
	default:
		if m := reCSS.FindStringSubmatch(path); m != nil {
			if g := p.game(m[1]); g != nil {
				p.static(rw, r, "text/css; charset=utf-8", []byte(g.g.CSS))
			} else {
				p.notFound(rw)
			}
		} else if m := rePage.FindStringSubmatch(path); m != nil {
			p.serveGame(rw, r, m[1])
		} else if m := reMoment.FindStringSubmatch(path); m != nil {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			p.serveMoment(rw, r, m[1], n)
		} else if m := rePic.FindStringSubmatch(path); m != nil {
			n, _ := strconv.ParseInt(m[2], 10, 64) // "": 0, the current view
			p.servePicture(rw, r, m[1], n, m[3])
		} else {
			p.notFound(rw)
		}
	}
}

func (p *Pages) notFound(rw http.ResponseWriter) {
	http.Error(rw, "Такой страницы нет.", http.StatusNotFound)
}

func (p *Pages) static(rw http.ResponseWriter, r *http.Request, ctype string, data []byte) {
	sum := sha256.Sum256(data)
	p.send(rw, r, ctype, data, `"`+hex.EncodeToString(sum[:8])+`"`, "public, max-age=3600")
}

// send writes a page with its ETag, or 304 when the client has it.
func (p *Pages) send(rw http.ResponseWriter, r *http.Request, ctype string, data []byte, etag, cache string) {
	h := rw.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", cache)
	if match := r.Header.Get("If-None-Match"); match != "" {
		for _, m := range strings.Split(match, ",") {
			if m = strings.TrimSpace(m); m == etag || m == "W/"+etag || m == "*" {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
		}
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = rw.Write(data)
}

func (p *Pages) game(id string) *page {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.games[id]
}

func (p *Pages) fail(rw http.ResponseWriter, err error) {
	_ = err // nothing is logged here; the daemon's own log has the store's failures
	http.Error(rw, "Страница сейчас недоступна: попробуйте через минуту.", http.StatusServiceUnavailable)
}

func (p *Pages) serveGame(rw http.ResponseWriter, r *http.Request, id string) {
	g := p.game(id)
	if g == nil {
		p.notFound(rw)
		return
	}
	html, etag, err := g.current(r.Context(), p)
	if err != nil {
		p.fail(rw, err)
		return
	}
	rw.Header().Set("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		// A long game's page is mostly its story: gzip makes a phone's download a tenth.
		g.mu.Lock()
		if g.gz == nil || !bytes.Equal(g.html, html) {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
			_, _ = zw.Write(html)
			_ = zw.Close()
			if bytes.Equal(g.html, html) {
				g.gz = b.Bytes()
			}
			html = b.Bytes()
		} else {
			html = g.gz
		}
		g.mu.Unlock()
		rw.Header().Set("Content-Encoding", "gzip")
		etag = strings.TrimSuffix(etag, `"`) + `-gz"`
	}
	p.send(rw, r, "text/html; charset=utf-8", html, etag, "no-cache")
}

// acceptsGzip reports whether the client takes a gzipped answer.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

func (p *Pages) serveMoment(rw http.ResponseWriter, r *http.Request, id string, n int64) {
	g := p.game(id)
	if g == nil {
		p.notFound(rw)
		return
	}
	html, err := g.moment(r.Context(), p, n)
	if errors.Is(err, errNoMoment) {
		p.notFound(rw)
		return
	}
	if err != nil {
		p.fail(rw, err)
		return
	}
	sum := sha256.Sum256(html)
	p.send(rw, r, "text/html; charset=utf-8", html, `"`+hex.EncodeToString(sum[:8])+`"`, "public, max-age=300")
}

func (p *Pages) servePicture(rw http.ResponseWriter, r *http.Request, id string, n int64, name string) {
	g := p.game(id)
	if g == nil {
		p.notFound(rw)
		return
	}
	data, err := g.picture(r.Context(), p, n, name)
	if errors.Is(err, errNoMoment) {
		p.notFound(rw)
		return
	}
	if err != nil {
		p.fail(rw, err)
		return
	}
	sum := sha256.Sum256(data)
	p.send(rw, r, "image/png", data, `"`+hex.EncodeToString(sum[:8])+`"`, "public, max-age=86400")
}

func (p *Pages) serveList(rw http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	ids := append([]string(nil), p.order...)
	p.mu.Unlock()
	var rows []summary
	for _, id := range ids {
		g := p.game(id)
		if g == nil {
			continue
		}
		// The list reads a game's news only when its summary is older than listFresh (a list of
		// many games is not a store read per game per view).
		g.mu.Lock()
		stale := p.opt.Now().Sub(g.read) > listFresh || g.html == nil
		g.mu.Unlock()
		if stale {
			if _, _, err := g.current(r.Context(), p); err != nil {
				rows = append(rows, summary{ID: id, Title: g.g.Title, Status: "недоступна"})
				continue
			}
		}
		g.mu.Lock()
		rows = append(rows, g.summary)
		g.mu.Unlock()
	}
	var running, ended []summary
	for _, s := range rows {
		if s.Over {
			ended = append(ended, s)
		} else {
			running = append(running, s)
		}
	}
	var b bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&b, "list.html", map[string]any{"Running": running, "Ended": ended}); err != nil {
		p.fail(rw, err)
		return
	}
	sum := sha256.Sum256(b.Bytes())
	p.send(rw, r, "text/html; charset=utf-8", b.Bytes(), `"`+hex.EncodeToString(sum[:8])+`"`, "no-cache")
}

// ---- rate limit ----

func (p *Pages) client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if name := p.opt.TrustedProxyHeader; name != "" {
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			if v := r.Header.Values(name); len(v) > 0 {
				parts := strings.Split(v[len(v)-1], ",")
				if c := strings.TrimSpace(parts[len(parts)-1]); c != "" {
					return c
				}
			}
		}
	}
	return host
}

func (p *Pages) allow(client string) bool {
	now := p.opt.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.limAt) > 10*time.Minute || len(p.lim) > 100000 {
		p.lim, p.limAt = map[string]*rate.Limiter{}, now
	}
	l := p.lim[client]
	if l == nil {
		l = rate.NewLimiter(rate.Limit(p.opt.Rate), p.opt.Burst)
		p.lim[client] = l
	}
	return l.AllowN(now, 1)
}

var errNoMoment = errors.New("public: no such moment")

// listFresh is how old a game's line in the list of games may be.
const listFresh = 30 * time.Second
