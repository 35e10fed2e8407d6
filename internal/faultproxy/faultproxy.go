// Package faultproxy owns forumgm's fault-injection harness: a reverse proxy on loopback in front
// of a forum (the sandbox, in tests) that answers some requests with the faults real forums and
// their CDNs bring, scripted and seeded so that a scenario replays exactly: a 5xx before the
// forum saw a request or after it took it (the CDN's 502/504 after a post was stored), a
// connection reset before or after, a hang (bounded) before or after, a page cut short (a PHP
// fatal error mid-page), the login page instead of the page asked for (a lost session), the
// forum's flood-control page, a page whose declared charset is not the one it is sent in (UTF-8
// declared as windows-1251, windows-1251 declared as UTF-8: a misconfigured board or proxy), and
// another thread's page for the one asked (a moderator moved or merged threads, a caching front, a
// wrong redirect).
//
// The proxy passes requests on with their own Host header, so a forum that builds its links from
// Host (the sandbox does) links back through the proxy; Location headers naming the upstream are
// rewritten too.
package faultproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/internal/loopback"
)

// Kind is a fault.
type Kind string

// The faults.
const (
	None         Kind = ""
	Status5xx    Kind = "5xx-before"   // 502 or 503 answered without passing the request on
	Status5xxOut Kind = "5xx-after"    // passed on (the forum acted), then 502 or 504 answered
	Reset        Kind = "reset-before" // the connection closed without an answer, nothing passed on
	ResetOut     Kind = "reset-after"  // passed on (the forum acted), then the connection closed
	Hang         Kind = "hang-before"  // held for Options.Hang (or until the client gives up), then 504; nothing passed on
	HangOut      Kind = "hang-after"   // passed on, then held for Options.Hang before the answer
	Truncate     Kind = "truncate"     // passed on; a 200 HTML answer cut short with a PHP fatal error
	LoginPage    Kind = "login-page"   // the forum's login page (as a guest) answered instead
	Flood        Kind = "flood"        // Options.FloodPage answered, nothing passed on
	// Declared1251: passed on; a 200 HTML answer declares windows-1251 (its Content-Type header
	// and its <meta>) while its bytes stay the UTF-8 they are.
	Declared1251 Kind = "charset-declared-1251"
	// Sent1251: passed on; a 200 HTML answer in UTF-8 is re-encoded in windows-1251 (what it cannot
	// hold as &#NNNN;) while it still declares UTF-8.
	Sent1251 Kind = "charset-sent-1251"
	// OtherThread: passed on as the request Options.OtherThread makes of it: the page of another
	// thread answered for the one asked.
	OtherThread Kind = "other-thread"
)

// Forwards reports whether the forum sees a request answered with the fault.
func (k Kind) Forwards() bool {
	switch k {
	case None, Status5xxOut, ResetOut, HangOut, Truncate, Declared1251, Sent1251, OtherThread:
		return true
	}
	return false
}

// Rule says which requests may be faulted, how, and how often.
type Rule struct {
	Name  string
	Match func(r *http.Request) bool // the requests it applies to; nil: all
	Kinds []Kind                     // one is drawn (seeded) for each fault
	Rate  float64                    // the chance a matching request is faulted, 0..1
	Nth   []int                      // or: exactly these matching requests (1-based) are faulted
	Max   int                        // at most this many faults from the rule; 0: no limit
}

// Options configure a Proxy.
type Options struct {
	Seed  uint64
	Rules []Rule // the first rule that faults a request decides
	// Hang is how long a hang lasts at most; default 2s.
	Hang time.Duration
	// MaxInRow caps faults in a row (then a request passes): every scenario ends. Default 3.
	MaxInRow int
	// LoginPath is the forum's login page, fetched from the upstream as a guest for LoginPage.
	LoginPath string
	// FloodPage is the forum's flood-control answer to a post, for Flood.
	FloodPage []byte
	// CutAfter, when set and found on a page, makes Truncate cut a few bytes (seeded) after its
	// last occurrence (the start of the page's last post body, say): a page cut mid-post. Else the
	// cut falls anywhere between a third and nine tenths of the page.
	CutAfter string
	// OtherThread changes a request's URL to ask for another thread's page (tid=1 to tid=2), for
	// OtherThread; nil: the fault passes requests on unchanged.
	OtherThread func(u *url.URL)
	// Transport reaches the upstream; default a fresh http.Transport.
	Transport http.RoundTripper
}

// Event is one request through the proxy.
type Event struct {
	N         int // 1-based, in arrival order
	Method    string
	Path      string // path and query
	Rule      string
	Fault     Kind
	Forwarded bool // the forum saw it
	Status    int  // what the forum answered when forwarded (0: no answer)
}

// Proxy is the fault-injecting reverse proxy.
type Proxy struct {
	up   *url.URL
	opt  Options
	srv  *http.Server
	ln   net.Listener
	base string
	rt   http.RoundTripper

	mu      sync.Mutex
	rnd     *rand.Rand
	matched []int // per rule: matching requests seen
	faulted []int // per rule: faults given
	inRow   int
	events  []Event
}

// Start serves a proxy to upstream (a base URL such as http://127.0.0.1:8081) on a free loopback
// port until Close or ctx ends.
func Start(ctx context.Context, upstream string, opt Options) (*Proxy, error) {
	up, err := url.Parse(strings.TrimRight(upstream, "/"))
	if err != nil || up.Host == "" {
		return nil, fmt.Errorf("faultproxy: bad upstream %q", upstream)
	}
	if !loopback.Host(up.Host) {
		return nil, fmt.Errorf("faultproxy: upstream %s is not on loopback", up.Host)
	}
	if opt.Hang <= 0 {
		opt.Hang = 2 * time.Second
	}
	if opt.MaxInRow <= 0 {
		opt.MaxInRow = 3
	}
	p := &Proxy{up: up, opt: opt, rt: opt.Transport, rnd: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)),
		matched: make([]int, len(opt.Rules)), faulted: make([]int, len(opt.Rules))}
	if p.rt == nil {
		p.rt = &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}
	}
	var lc net.ListenConfig
	p.ln, err = lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: %w", err)
	}
	p.base = "http://" + p.ln.Addr().String()
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(p.ln) }()
	go func() {
		<-ctx.Done()
		p.Close()
	}()
	return p, nil
}

// URL is the proxy's base URL (http://127.0.0.1:PORT).
func (p *Proxy) URL() string { return p.base }

// Close stops the proxy.
func (p *Proxy) Close() error {
	if t, ok := p.rt.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	return p.srv.Close()
}

// Events lists the requests so far.
func (p *Proxy) Events() []Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Event(nil), p.events...)
}

// Counts gives the faults given so far by kind, and the requests seen.
func (p *Proxy) Counts() (faults map[Kind]int, requests int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	faults = map[Kind]int{}
	for _, e := range p.events {
		if e.Fault != None {
			faults[e.Fault]++
		}
	}
	return faults, len(p.events)
}

// decide picks the fault for a request (None: pass it on) and records the event.
func (p *Proxy) decide(r *http.Request) (int, Kind, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kind, rule := None, ""
	for i, ru := range p.opt.Rules {
		if ru.Match != nil && !ru.Match(r) {
			continue
		}
		p.matched[i]++
		if kind != None || len(ru.Kinds) == 0 || ru.Max > 0 && p.faulted[i] >= ru.Max || p.inRow >= p.opt.MaxInRow {
			continue
		}
		hit := false
		for _, n := range ru.Nth {
			hit = hit || n == p.matched[i]
		}
		if !hit && ru.Rate > 0 {
			hit = p.rnd.Float64() < ru.Rate
		}
		if hit {
			p.faulted[i]++
			kind, rule = ru.Kinds[p.rnd.IntN(len(ru.Kinds))], ru.Name
		}
	}
	if kind == None {
		p.inRow = 0
	} else {
		p.inRow++
	}
	p.events = append(p.events, Event{N: len(p.events) + 1, Method: r.Method, Path: r.URL.RequestURI(), Rule: rule, Fault: kind, Forwarded: kind.Forwards()})
	return len(p.events) - 1, kind, rule
}

func (p *Proxy) answered(i, status int) {
	p.mu.Lock()
	p.events[i].Status = status
	p.mu.Unlock()
}

// cut is where a page is cut: a seeded point between a third and nine tenths of it.
func (p *Proxy) cut(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return n/3 + p.rnd.IntN(n*9/10-n/3+1)
}

// pick is a seeded number in [0, n).
func (p *Proxy) pick(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rnd.IntN(n)
}

// fatal is what PHP prints when a script dies mid-page.
const fatal = "\n<br />\n<b>Fatal error</b>:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in <b>/var/www/forum/inc/class_parser.php</b> on line <b>1021</b><br />\n"

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "faultproxy: read request: "+err.Error(), http.StatusBadRequest)
		return
	}
	i, kind, _ := p.decide(r)
	switch kind {
	case Status5xx:
		errorPage(w, []int{http.StatusBadGateway, http.StatusServiceUnavailable}[p.pick(2)])
		return
	case Reset:
		reset(w)
		return
	case Hang:
		t := time.NewTimer(p.opt.Hang)
		defer t.Stop()
		select {
		case <-r.Context().Done():
		case <-t.C:
			errorPage(w, http.StatusGatewayTimeout)
		}
		return
	case LoginPage:
		page, hdr, err := p.guestPage(r.Context(), r.Host)
		if err != nil {
			errorPage(w, http.StatusBadGateway)
			return
		}
		copyHeader(w.Header(), hdr)
		w.Header().Del("Content-Length")
		w.WriteHeader(http.StatusOK)
		w.Write(page)
		return
	case Flood:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusOK)
		w.Write(p.opt.FloodPage)
		return
	}
	fwd := r
	if kind == OtherThread && p.opt.OtherThread != nil {
		u := *r.URL
		p.opt.OtherThread(&u)
		fwd = r.Clone(r.Context())
		fwd.URL = &u
	}
	resp, rbody, err := p.forward(fwd, body)
	if err != nil {
		errorPage(w, http.StatusBadGateway)
		return
	}
	p.answered(i, resp.StatusCode)
	switch k := kind; k {
	case Status5xxOut:
		errorPage(w, []int{http.StatusBadGateway, http.StatusGatewayTimeout}[p.pick(2)])
		return
	case ResetOut:
		reset(w)
		return
	case HangOut:
		t := time.NewTimer(p.opt.Hang)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
	case Truncate:
		if resp.StatusCode == http.StatusOK && strings.Contains(resp.Header.Get("Content-Type"), "html") && len(rbody) > 10 {
			c := p.cut(len(rbody))
			if i := bytes.LastIndex(rbody, []byte(p.opt.CutAfter)); p.opt.CutAfter != "" && i >= 0 {
				c = min(i+len(p.opt.CutAfter)+18+p.pick(31), len(rbody)-1)
			}
			rbody = append(rbody[:c:c], fatal...)
		}
	case Declared1251, Sent1251:
		if resp.StatusCode == http.StatusOK && strings.Contains(resp.Header.Get("Content-Type"), "html") {
			rbody = misdeclare(k, resp.Header, rbody)
		}
	}
	copyHeader(w.Header(), resp.Header)
	if loc := resp.Header.Get("Location"); loc != "" {
		w.Header().Set("Location", strings.Replace(loc, p.up.Scheme+"://"+p.up.Host, "http://"+r.Host, 1))
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(resp.StatusCode)
	w.Write(rbody)
}

// forward passes the request on to the upstream with its own Host header and reads the answer.
func (p *Proxy) forward(r *http.Request, body []byte) (*http.Response, []byte, error) {
	out := r.Clone(context.WithoutCancel(r.Context())) // the forum finishes what it was sent
	out.RequestURI = ""
	u := *r.URL
	u.Scheme, u.Host = p.up.Scheme, p.up.Host
	out.URL = &u
	out.Host = r.Host
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.Header.Del("Accept-Encoding") // plain bodies: a cut page stays readable
	out.Header.Del("Connection")
	resp, err := p.rt.RoundTrip(out)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	return resp, b, nil
}

// guestPage fetches the login page from the upstream without cookies.
func (p *Proxy) guestPage(ctx context.Context, host string) ([]byte, http.Header, error) {
	if p.opt.LoginPath == "" {
		return nil, nil, errors.New("faultproxy: no LoginPath")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.up.String()+"/"+strings.TrimLeft(p.opt.LoginPath, "/"), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Host = host
	resp, err := p.rt.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	h := resp.Header.Clone()
	h.Del("Set-Cookie") // the client's session is left alone: only the page says it is gone
	return b, h, nil
}

var metaCharsetRe = regexp.MustCompile(`(?i)(<meta[^>]+charset=["']?)[a-z0-9_-]+`)

// misdeclare makes a UTF-8 page (header h, body b) lie about its charset as kind says: the
// declaration changed to windows-1251 (Declared1251), or the bytes re-encoded in windows-1251
// (Sent1251). A page not in UTF-8 is left as it is.
func misdeclare(kind Kind, h http.Header, b []byte) []byte {
	if !utf8.Valid(b) {
		return b
	}
	if kind == Sent1251 {
		s, err := forum.EncodeString(charmap.Windows1251, string(b))
		if err != nil {
			return b
		}
		return []byte(s)
	}
	h.Set("Content-Type", "text/html; charset=windows-1251")
	return metaCharsetRe.ReplaceAll(b, []byte("${1}windows-1251"))
}

func errorPage(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><center><h1>%d %s</h1></center><hr><center>nginx</center></body></html>\n",
		status, http.StatusText(status), status, http.StatusText(status))
}

// reset closes the client's connection without an answer.
func reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // RST, not FIN
	}
	conn.Close()
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		if strings.EqualFold(k, "Connection") || strings.EqualFold(k, "Transfer-Encoding") {
			continue
		}
		dst[k] = append([]string(nil), vs...)
	}
}
