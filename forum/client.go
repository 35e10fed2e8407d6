package forum

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/textproto"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/time/rate"
)

// maxPage is the largest page read: a larger answer is refused (ErrTooLarge).
const maxPage = 16 << 20

// defaultBurst is the requests a host's scheduler lets out at once after a quiet spell, and (at
// the default rate of 1 a second) the most it lets out in any second: a move's three requests (the
// probe that sees it, its page, the post) go out together.
const defaultBurst = 3

// defaultUserAgent identifies forumgm to forum operators.
const defaultUserAgent = "forumgm/0.1 (play-by-post game master bot; +https://github.com/forumgm)"

// ClientConfig tunes a Client. Zero values take the defaults noted.
type ClientConfig struct {
	UserAgent  string        // defaultUserAgent
	Timeout    time.Duration // per request, 30s
	Rate       rate.Limit    // requests per second per host, 1
	Burst      int           // 3
	MaxRetries int           // retries of an idempotent request (GET) on network errors, 5xx and 429; 3
	BaseDelay  time.Duration // first backoff, 1s; doubled each retry, with jitter
	// Sleep waits for d or until ctx ends (tests inject a fast one). Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Transport overrides the HTTP transport (tests).
	Transport http.RoundTripper
	// Limits, if set, holds the per-host request schedulers shared with other clients (several
	// bot accounts and games on one forum host share its politeness, replies first); nil: this
	// client's own. A request's class is its context's (WithClass).
	Limits *HostLimits
	// Slow, if set, is told of each request that took SlowAfter or longer (a stalled read that
	// timed out included, err then says so), whether or not a retry then worked: the caller logs
	// it, so a forum that stalls leaves a line naming the URL and how long.
	Slow func(method, url string, took time.Duration, err error)
	// SlowAfter is when a request counts as slow; 10s.
	SlowAfter time.Duration
}

// WithSleep is c with its Sleep set (nil keeps the default).
func (c ClientConfig) WithSleep(sleep func(ctx context.Context, d time.Duration) error) ClientConfig {
	c.Sleep = sleep
	return c
}

// Client is a polite HTTP session with a forum: one cookie jar, a per-host rate limit, timeouts,
// retries with jittered backoff, charset decoding, and conditional GETs where the server honours
// them. It is safe for concurrent use.
type Client struct {
	cfg  ClientConfig
	http *http.Client
	Jar  http.CookieJar

	limits *HostLimits // cfg.Limits, or the client's own

	mu    sync.Mutex
	cache map[string]cached // by URL: validators and the last body
}

type cached struct {
	etag, lastModified string
	page               *Page
}

// Page is a fetched page.
type Page struct {
	URL         *url.URL // final URL after redirects
	Status      int
	Header      http.Header
	Raw         []byte // the body as sent
	Body        []byte // the body decoded to UTF-8
	Charset     string // the charset the body was decoded from ("utf-8", "windows-1251", ...)
	NotModified bool   // the server answered 304; Body is the cached copy
}

// Doc parses the page's HTML.
func (p *Page) Doc() (*goquery.Document, error) {
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(p.Body))
	if err != nil {
		return nil, fmt.Errorf("forum: parse %s: %w", p.URL, err)
	}
	return d, nil
}

// Location is the redirect target of a 3xx page fetched without following redirects, resolved.
func (p *Page) Location() (*url.URL, error) {
	loc := p.Header.Get("Location")
	if loc == "" {
		return nil, fmt.Errorf("forum: %s: no Location header", p.URL)
	}
	return p.URL.Parse(loc)
}

// NewClient builds a Client.
func NewClient(cfg ClientConfig) *Client {
	if cfg.UserAgent == "" {
		cfg.UserAgent = defaultUserAgent
	}
	if cfg.SlowAfter == 0 {
		cfg.SlowAfter = 10 * time.Second
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Rate == 0 {
		cfg.Rate = 1
	}
	if cfg.Burst == 0 {
		cfg.Burst = defaultBurst
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	if cfg.BaseDelay == 0 {
		cfg.BaseDelay = time.Second
	}
	if cfg.Sleep == nil {
		cfg.Sleep = Sleep
	}
	jar, _ := cookiejar.New(nil) // never fails without options
	limits := cfg.Limits
	if limits == nil {
		limits = NewHostLimits(SchedulerOptions{})
	}
	return &Client{
		cfg:    cfg,
		http:   &http.Client{Jar: jar, Timeout: cfg.Timeout, Transport: cfg.Transport},
		Jar:    jar,
		limits: limits,
		cache:  map[string]cached{},
	}
}

// Sleep waits on a timer for d, or until ctx ends (then it returns ctx's error). It is the one
// real sleep of the forum layer and the daemon; tests inject their own.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// limiter is host's request scheduler.
func (c *Client) limiter(host string) *Scheduler {
	return c.limits.Host(host, c.cfg.Rate, c.cfg.Burst)
}

// Get fetches a page, following redirects. It sends the validators of the last answer for the
// same URL; a 304 gives back the cached page with NotModified set.
func (c *Client) Get(ctx context.Context, rawURL string) (*Page, error) {
	return c.do(ctx, http.MethodGet, rawURL, nil, "", reqOpts{follow: true})
}

// Send makes a request with headers of its own on top of the client's (a JSON API's key, a CSRF
// token, Accept: application/json), following redirects. A GET or HEAD is retried as Get is; any
// other method never is: like PostForm, an answer that leaves its outcome unknown is an
// *ambiguousError. Conditional GETs work as for Get.
func (c *Client) Send(ctx context.Context, method, rawURL string, body []byte, contentType string, header http.Header) (*Page, error) {
	return c.do(ctx, method, rawURL, body, contentType, reqOpts{follow: true, header: header})
}

// GetNoRedirect fetches a page without following a redirect (to read a Location header: an idle
// probe), with only the headers such a request needs: no list of page types (Accept: */*), and,
// when cookies names some, only those of the client's cookies (the session's; not the board's
// cookies of last visits, login attempts and the like); a name matches a cookie whose name ends
// with it (a board's cookie prefix). Cookies the answer sets are kept as usual.
func (c *Client) GetNoRedirect(ctx context.Context, rawURL string, cookies ...string) (*Page, error) {
	return c.do(ctx, http.MethodGet, rawURL, nil, "", reqOpts{header: probeHeader, cookies: cookies})
}

// reqOpts are a request's ways beyond its method, URL and body.
type reqOpts struct {
	follow  bool        // follow redirects
	header  http.Header // on top of the client's headers (an empty value removes one)
	cookies []string    // send only the jar's cookies whose names end with one of these (nil: all)
	sendBy  time.Time   // a guarded write goes out only until then (zero: no guard; set by do)
}

// probeHeader trims an idle probe's request (a redirect's answer has no body to negotiate).
var probeHeader = http.Header{"Accept": {"*/*"}}

// PostForm sends a url-encoded form whose values are encoded in the board's charset (characters
// the charset cannot hold become &#NNNN;). A POST is never repeated by the client: when the answer
// leaves it unknown whether the forum took it (429, 5xx, a timeout, a reset connection) the error
// is an *ambiguousError (errors.Is(err, ErrAmbiguous)), and the caller must look for what it
// posted before it posts again.
func (c *Client) PostForm(ctx context.Context, rawURL string, form url.Values, boardCharset string) (*Page, error) {
	enc, err := EncodeForm(form, boardCharset)
	if err != nil {
		return nil, err
	}
	return c.do(ctx, http.MethodPost, rawURL, []byte(enc), "application/x-www-form-urlencoded", reqOpts{follow: true})
}

// FormFile is a file field of a multipart form.
type FormFile struct {
	Field       string // the form field's name, e.g. "attachments[]"
	Name        string // the file name sent
	ContentType string
	Data        []byte
}

// PostMultipart posts form and files as multipart/form-data (an upload form), the values encoded
// in the board's charset as EncodeForm does. Like PostForm it is never repeated by the client: an
// unknown outcome is an *ambiguousError.
func (c *Client) PostMultipart(ctx context.Context, rawURL string, form url.Values, files []FormFile, boardCharset string) (*Page, error) {
	return c.SendMultipart(ctx, rawURL, form, files, boardCharset, nil)
}

// SendMultipart is PostMultipart with headers of its own on top of the client's (a JSON API's key
// or CSRF token), as Send is to Get.
func (c *Client) SendMultipart(ctx context.Context, rawURL string, form url.Values, files []FormFile, boardCharset string, header http.Header) (*Page, error) {
	body, ctype, err := multipartBody(form, files, boardCharset)
	if err != nil {
		return nil, err
	}
	return c.do(ctx, http.MethodPost, rawURL, body, ctype, reqOpts{follow: true, header: header})
}

// multipartBody encodes form and files as multipart/form-data, the values in the board's charset.
func multipartBody(form url.Values, files []FormFile, boardCharset string) ([]byte, string, error) {
	enc, err := encodingFor(boardCharset)
	if err != nil {
		return nil, "", err
	}
	conv := func(s string) (string, error) {
		if enc == nil {
			return s, nil
		}
		return EncodeString(enc, s)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(form))
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ks, err := conv(k)
		if err != nil {
			return nil, "", err
		}
		for _, v := range form[k] {
			vs, err := conv(v)
			if err != nil {
				return nil, "", err
			}
			if err := w.WriteField(ks, vs); err != nil {
				return nil, "", err
			}
		}
	}
	for _, f := range files {
		name, err := conv(f.Name)
		if err != nil {
			return nil, "", err
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, quoteEscaper.Replace(f.Field), quoteEscaper.Replace(name)))
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		pw, err := w.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		if _, err := pw.Write(f.Data); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

func (c *Client) do(ctx context.Context, method, rawURL string, body []byte, ctype string, o reqOpts) (*Page, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("forum: bad URL %q: %w", rawURL, err)
	}
	delay := c.cfg.BaseDelay
	for attempt := 0; ; attempt++ {
		done, err := c.limiter(u.Host).Take(ctx)
		if err != nil {
			return nil, fmt.Errorf("forum: %s %s: %w", method, u, err)
		}
		if err := c.limits.Shared(ctx, u.Host, c.cfg.Rate); err != nil {
			done()
			return nil, fmt.Errorf("forum: %s %s: the shared request budget: %w", method, u, err)
		}
		o.sendBy = time.Time{} // zero: no guard
		if method != http.MethodGet {
			within, guarded, err := guardWrite(ctx)
			if err != nil {
				done()
				return nil, fmt.Errorf("forum: %s %s: not sent: %w", method, u, err)
			}
			if guarded {
				o.sendBy = time.Now().Add(within) // real time (monotonic), as the leases'
			}
		}
		t0 := time.Now()
		page, retry, err := c.once(ctx, method, u, body, ctype, o)
		done() // the turn ends with the answer (the scheduler's cap a second counts from it)
		if took := time.Since(t0); c.cfg.Slow != nil && took >= c.cfg.SlowAfter && ctx.Err() == nil {
			c.cfg.Slow(method, u.String(), took, err)
		}
		if err == nil || !retry || attempt >= c.cfg.MaxRetries || ctx.Err() != nil {
			return page, err
		}
		wait := delay/2 + rand.N(delay)
		if ra := retryAfter(page); ra > wait {
			wait = ra
		}
		if err := c.cfg.Sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("forum: %s %s: %w", method, u, err)
		}
		delay *= 2
	}
}

// StatusError is an HTTP answer forumgm did not expect.
type StatusError struct {
	Method, URL string
	Status      int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("forum: %s %s: HTTP %d", e.Method, e.URL, e.Status)
}

// ErrAmbiguous is the class of *ambiguousError: a request that is not idempotent (a POST) may or
// may not have been carried out.
var ErrAmbiguous = errors.New("forum: outcome unknown")

// ambiguousError is the answer to a non-idempotent request (a POST) that leaves its outcome
// unknown: a 429 or 5xx status (a proxy or CDN may answer 502/504 after the forum stored the post),
// a timeout, or a connection reset. The client never repeats such a request; the caller looks for
// the effect (the daemon: the outbox marker) before sending again. Err is the *StatusError or the
// transport error.
type ambiguousError struct {
	Method, URL string
	Err         error
}

func (e *ambiguousError) Error() string {
	return fmt.Sprintf("forum: %s %s: outcome unknown (the forum may have taken it): %v", e.Method, e.URL, e.Err)
}

// Unwrap gives the status or transport error.
func (e *ambiguousError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrAmbiguous) true.
func (e *ambiguousError) Is(target error) bool { return target == ErrAmbiguous }

// idempotent says whether a request may be repeated blindly.
func idempotent(method string) bool {
	return method == http.MethodGet || method == http.MethodHead
}

func retryAfter(p *Page) time.Duration {
	if p == nil {
		return 0
	}
	if s, err := strconv.Atoi(p.Header.Get("Retry-After")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// once makes one request. A guarded write (o.sendBy not zero) goes out only until o.sendBy: its
// body is cut if the transport reads it later (sendByBody), and the request is then not sent.
func (c *Client) once(ctx context.Context, method string, u *url.URL, body []byte, ctype string, o reqOpts) (*Page, bool, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, false, fmt.Errorf("forum: %s %s: %w", method, u, err)
	}
	switch {
	case o.sendBy.IsZero():
	case len(body) > 0:
		req.Body, req.GetBody = &sendByBody{r: bytes.NewReader(body), until: o.sendBy}, nil // ContentLength stays
	case !time.Now().Before(o.sendBy):
		return nil, false, fmt.Errorf("forum: %s %s: not sent: %w", method, u, errSendLate) // no body to cut
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	// No Accept-Encoding here: Go's transport then asks for gzip itself and decodes the answer
	// transparently (a header set here would leave the body compressed).
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, vs := range o.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	key := u.String()
	c.mu.Lock()
	prev, havePrev := c.cache[key]
	c.mu.Unlock()
	if method == http.MethodGet && havePrev {
		if prev.etag != "" {
			req.Header.Set("If-None-Match", prev.etag)
		}
		if prev.lastModified != "" {
			req.Header.Set("If-Modified-Since", prev.lastModified)
		}
	}
	hc := c.http
	if !o.follow || o.cookies != nil {
		cp := *c.http
		if !o.follow {
			cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		}
		if o.cookies != nil {
			cp.Jar = nil // the cookies named, by hand, and the answer's kept by hand below
			for _, ck := range c.Jar.Cookies(u) {
				if slices.ContainsFunc(o.cookies, func(n string) bool { return strings.HasSuffix(ck.Name, n) }) {
					req.AddCookie(ck)
				}
			}
		}
		hc = &cp
	}
	resp, err := hc.Do(req)
	if err == nil && o.cookies != nil {
		if set := resp.Cookies(); len(set) > 0 {
			c.Jar.SetCookies(resp.Request.URL, set)
		}
	}
	if err != nil {
		if errors.Is(err, errSendLate) {
			return nil, false, fmt.Errorf("forum: %s %s: not sent: %w", method, u, errSendLate)
		}
		// A POST that may have reached the server is never retried: its outcome is unknown.
		if !idempotent(method) {
			return nil, false, &ambiguousError{Method: method, URL: u.String(), Err: err}
		}
		return nil, true, fmt.Errorf("forum: %s %s: %w", method, u, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxPage+1))
	if err != nil {
		if !idempotent(method) {
			return nil, false, &ambiguousError{Method: method, URL: u.String(), Err: fmt.Errorf("read body: %w", err)}
		}
		return nil, true, fmt.Errorf("forum: %s %s: read body: %w", method, u, err)
	}
	if len(raw) > maxPage {
		// Refused whole, not read cut short (and not retried: it would be as large again).
		err := fmt.Errorf("forum: %s %s: over the %d MiB cap: %w", method, u, maxPage>>20, ErrTooLarge)
		if !idempotent(method) {
			return nil, false, &ambiguousError{Method: method, URL: u.String(), Err: err}
		}
		return nil, false, err
	}
	page := &Page{URL: resp.Request.URL, Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if resp.StatusCode == http.StatusNotModified && havePrev {
		cp := *prev.page
		cp.NotModified = true
		cp.Header = resp.Header
		return &cp, false, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		se := &StatusError{Method: method, URL: u.String(), Status: resp.StatusCode}
		if !idempotent(method) {
			return page, false, &ambiguousError{Method: method, URL: u.String(), Err: se}
		}
		return page, true, se
	}
	page.Body, page.Charset, err = Decode(raw, resp.Header.Get("Content-Type"))
	if err != nil {
		return nil, false, fmt.Errorf("forum: %s %s: %w", method, u, err)
	}
	if method == http.MethodGet && resp.StatusCode == http.StatusOK {
		et, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		if et != "" || lm != "" {
			c.mu.Lock()
			c.cache[key] = cached{etag: et, lastModified: lm, page: page}
			c.mu.Unlock()
		}
	}
	if resp.StatusCode >= 400 {
		return page, false, &StatusError{Method: method, URL: u.String(), Status: resp.StatusCode}
	}
	return page, false, nil
}

// EncodeForm url-encodes form values in the named charset; characters the charset cannot hold
// are written as HTML numeric references (&#NNNN;), as browsers do.
func EncodeForm(form url.Values, boardCharset string) (string, error) {
	enc, err := encodingFor(boardCharset)
	if err != nil {
		return "", err
	}
	if enc == nil {
		return form.Encode(), nil
	}
	out := url.Values{}
	for k, vs := range form {
		for _, v := range vs {
			s, err := EncodeString(enc, v)
			if err != nil {
				return "", err
			}
			ks, err := EncodeString(enc, k)
			if err != nil {
				return "", err
			}
			out[ks] = append(out[ks], s)
		}
	}
	return out.Encode(), nil
}

func encodingFor(name string) (encoding.Encoding, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || n == "utf-8" || n == "utf8" {
		return nil, nil
	}
	enc, err := htmlindex.Get(n)
	if err != nil {
		return nil, fmt.Errorf("forum: unknown charset %q: %w", name, err)
	}
	return enc, nil
}

// EncodeString encodes s in enc, writing characters enc cannot hold as &#NNNN;.
func EncodeString(enc encoding.Encoding, s string) (string, error) {
	e := enc.NewEncoder()
	var b strings.Builder
	for _, r := range s {
		out, err := e.String(string(r))
		if err != nil {
			if errors.Is(err, encoding.ErrInvalidUTF8) {
				return "", fmt.Errorf("forum: encode: %w", err)
			}
			fmt.Fprintf(&b, "&#%d;", r)
			continue
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// errSendLate: a guarded write's time to send ran out before its body went out (the process was
// paused or starved after its guard said yes); the forum got at most a cut request, which it
// does not carry out.
var errSendLate = errors.New("the time its write guard gave ran out before the request went out")

// sendByBody is a guarded write's body: read (by the transport, as it writes the request) only
// until its time to send; later the read fails and the transport drops the request unfinished.
// The check is the last step before the bytes leave, so a process frozen after its guard's
// answer (a SIGSTOP, a VM paused) sends nothing on waking once the guard's time has passed.
type sendByBody struct {
	r     *bytes.Reader
	until time.Time
}

func (b *sendByBody) Read(p []byte) (int, error) {
	if !time.Now().Before(b.until) {
		return 0, errSendLate
	}
	return b.r.Read(p)
}

func (b *sendByBody) Close() error { return nil }

// writeGuardKey carries a write guard in a context (WithWriteGuard).
type writeGuardKey struct{}

// WriteGuard is asked right before a write goes out: an error sends nothing; else it says how
// long the write may still take to leave (real time: the rest of the caller's lease less its
// margin).
type WriteGuard func(context.Context) (time.Duration, error)

// WithWriteGuard returns ctx whose writes (every request but a GET) first ask guard, right
// before they go out (after the rate wait): an error sends nothing and is returned wrapped. A
// daemon sharing its games with other daemons guards its posts with the game's lease, so one
// paused past its lease (between deciding to post and posting) cannot post after another took
// the game over.
func WithWriteGuard(ctx context.Context, guard WriteGuard) context.Context {
	if guard == nil {
		return ctx
	}
	return context.WithValue(ctx, writeGuardKey{}, guard)
}

func guardWrite(ctx context.Context) (time.Duration, bool, error) {
	if g, ok := ctx.Value(writeGuardKey{}).(WriteGuard); ok {
		within, err := g(ctx)
		return within, true, err
	}
	return 0, false, nil
}
