package review

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// asPeer shapes a request as coming from the TCP peer addr (e.g. "127.0.0.1:40000", the reverse
// proxy) with the headers given in pairs.
func asPeer(addr string, header ...string) func(*http.Request) {
	return func(r *http.Request) {
		r.RemoteAddr = addr
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Add(header[i], header[i+1])
		}
	}
}

// rawLogin fetches the login form and posts it through web.ServeHTTP, each request shaped by
// shape (peer, headers; Host is loopback unless shape sets another); it returns both answers.
func rawLogin(t *testing.T, web *Web, shape func(*http.Request), name, password, next string) (form, answer *httptest.ResponseRecorder) {
	t.Helper()
	get := httptest.NewRequest(http.MethodGet, "/login", nil)
	get.Host = "127.0.0.1:9322"
	shape(get)
	form = httptest.NewRecorder()
	web.ServeHTTP(form, get)
	tok := ""
	for _, c := range form.Result().Cookies() {
		if c.Name == loginCookie {
			tok = c.Value
		}
	}
	if form.Code != http.StatusOK || tok == "" {
		t.Fatalf("login form: %d, token %q", form.Code, tok)
	}
	body := url.Values{"csrf": {tok}, "name": {name}, "password": {password}, "next": {next}}
	post := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(body.Encode()))
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	post.Host = "127.0.0.1:9322"
	shape(post)
	post.AddCookie(&http.Cookie{Name: loginCookie, Value: tok})
	answer = httptest.NewRecorder()
	web.ServeHTTP(answer, post)
	return form, answer
}

func testWeb(t *testing.T, e *webEnv, now *time.Time, opt WebOptions) *Web {
	t.Helper()
	opt.Accounts = []Account{{Name: modName, Password: modPass}, {Name: "Анна", Password: "другой"}}
	if now != nil {
		opt.Now = func() time.Time { return *now }
	}
	web, err := NewWeb(opt, e.rv)
	if err != nil {
		t.Fatal(err)
	}
	return web
}

// After login, next= leads only to a path of this site: anything a browser could read as
// another host (a tab or newline it drops, a backslash it reads as "/", a scheme, "//") leads to
// the start page instead (issue 19).
func TestLoginNextStaysOnSite(t *testing.T) {
	e := newWebEnv(t)
	web := testWeb(t, e, nil, WebOptions{})
	peer := asPeer("127.0.0.1:40000")
	for _, next := range []string{"/", "/g/g/", "/g/g/flag/3", "/g/g/log?x=1#top", "/g/%D0%B8%D0%B3%D1%80%D0%B0/"} {
		if _, r := rawLogin(t, web, peer, modName, modPass, next); r.Code != http.StatusSeeOther || r.Header().Get("Location") != next {
			t.Errorf("next %q: %d, Location %q", next, r.Code, r.Header().Get("Location"))
		}
	}
	for _, next := range []string{"/\t/evil.example/", "/\n/evil.example/", "/\r\n/evil.example/", "\t//evil.example/",
		"//evil.example/", "/\\evil.example/", "/\\/evil.example/", "/ /evil.example/", "/\u00a0/evil.example/",
		"/\x00/evil.example", "/\x7f/evil.example", "https://evil.example/", "evil.example", "javascript:alert(1)",
		"/g/\\..\\\\evil.example", " /g/g/", "/g/g/\t", "/\xff/x", ""} {
		_, r := rawLogin(t, web, peer, modName, modPass, next)
		if r.Code != http.StatusSeeOther || r.Header().Get("Location") != "/" {
			t.Errorf("next %q: %d, Location %q (want /)", next, r.Code, r.Header().Get("Location"))
		}
		// A logged-in moderator opening the login form with it is sent home as well.
		get := httptest.NewRequest(http.MethodGet, "/login?next="+url.QueryEscape(next), nil)
		get.Host, get.RemoteAddr = "127.0.0.1:9322", "127.0.0.1:40000"
		for _, c := range r.Result().Cookies() {
			get.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		web.ServeHTTP(rec, get)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
			t.Errorf("GET /login?next=%q logged in: %d, Location %q (want /)", next, rec.Code, rec.Header().Get("Location"))
		}
	}
}

// Failures from one client lock that client out, not the account: the moderator logging in from
// another address with the right password gets in however often a stranger failed on the public
// name (issue 19).
func TestLoginThrottleSparesOtherClients(t *testing.T) {
	e := newWebEnv(t)
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	web := testWeb(t, e, &now, WebOptions{})
	stranger, moderator := asPeer("192.0.2.66:5555"), asPeer("192.0.2.10:6666")
	for i := range loginFailuresPerAddr + 5 {
		if _, r := rawLogin(t, web, stranger, modName, "неверный", "/"); i < loginFailuresPerName && r.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, r.Code)
		}
	}
	if _, r := rawLogin(t, web, stranger, modName, modPass, "/"); r.Code != http.StatusTooManyRequests {
		t.Errorf("the failing client with the right password: %d, want 429", r.Code)
	}
	if _, r := rawLogin(t, web, moderator, modName, modPass, "/"); r.Code != http.StatusSeeOther {
		t.Errorf("the moderator from another address: %d, want 303\n%s", r.Code, r.Body)
	}
}

// Behind the documented reverse proxy every request comes from 127.0.0.1: with
// review.trusted_proxy_header the throttle keys on the address the proxy names (X-Real-IP, or the
// last X-Forwarded-For entry, the one the proxy appended; the rest is the client's own word). The
// header is believed only from a loopback peer, and not at all unless configured.
func TestLoginThrottleTrustedProxyHeader(t *testing.T) {
	const proxy = "127.0.0.1:40000"
	for _, h := range []string{"X-Forwarded-For", "X-Real-IP"} {
		t.Run(h, func(t *testing.T) {
			e := newWebEnv(t)
			now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
			web := testWeb(t, e, &now, WebOptions{TrustedProxyHeader: strings.ToLower(h)})
			stranger := func(i int) func(*http.Request) {
				if h == "X-Real-IP" {
					return asPeer(proxy, h, "203.0.113.7")
				}
				// The stranger makes up an address of his own each time: the proxy's comes last.
				return asPeer(proxy, h, "10.0.0."+string(rune('0'+i%10))+", 203.0.113.7")
			}
			for i := range loginFailuresPerName {
				if _, r := rawLogin(t, web, stranger(i), modName, "неверный", "/"); r.Code != http.StatusUnauthorized {
					t.Fatalf("failure %d: %d", i+1, r.Code)
				}
			}
			if _, r := rawLogin(t, web, stranger(7), modName, modPass, "/"); r.Code != http.StatusTooManyRequests {
				t.Errorf("the stranger: %d, want 429", r.Code)
			}
			if _, r := rawLogin(t, web, asPeer(proxy, h, "198.51.100.9"), modName, modPass, "/"); r.Code != http.StatusSeeOther {
				t.Errorf("the moderator through the proxy: %d, want 303\n%s", r.Code, r.Body)
			}
		})
	}
	// Not believed from a peer that is not loopback, nor when not configured: the peer counts.
	for name, tc := range map[string]struct {
		opt  WebOptions
		peer string
	}{"remote peer": {WebOptions{TrustedProxyHeader: "X-Real-IP"}, "192.0.2.5:1"}, "not configured": {WebOptions{}, proxy}} {
		e := newWebEnv(t)
		now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
		web := testWeb(t, e, &now, tc.opt)
		for i := range loginFailuresPerName {
			rawLogin(t, web, asPeer(tc.peer, "X-Real-IP", "203.0.113."+string(rune('0'+i))), modName, "неверный", "/")
		}
		if _, r := rawLogin(t, web, asPeer(tc.peer, "X-Real-IP", "198.51.100.9"), modName, modPass, "/"); r.Code != http.StatusTooManyRequests {
			t.Errorf("%s: a made-up X-Real-IP escapes the throttle: %d", name, r.Code)
		}
	}
	e := newWebEnv(t)
	if _, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}}, TrustedProxyHeader: "X-Client"}, e.rv); err == nil {
		t.Error("an unknown proxy header is accepted")
	}
}

// The cookies are Secure whenever the browser reached the UI over https: a request for the https
// public URL's host, one over TLS, or one the trusted proxy says came over https; not over a
// plain loopback tunnel (issue 19).
func TestWebCookiesSecureOverHTTPS(t *testing.T) {
	e := newWebEnv(t)
	web := testWeb(t, e, nil, WebOptions{PublicURL: "https://mod.example.org/", TrustedProxyHeader: "X-Forwarded-For"})
	for _, tc := range []struct {
		name   string
		shape  func(*http.Request)
		secure bool
	}{
		{"public host", func(r *http.Request) { r.Host, r.RemoteAddr = "mod.example.org", "127.0.0.1:40000" }, true},
		{"proxy says https", asPeer("127.0.0.1:40000", "X-Forwarded-Proto", "https"), true},
		{"TLS", func(r *http.Request) {
			r.RemoteAddr = "127.0.0.1:40000"
			r.TLS = &tls.ConnectionState{HandshakeComplete: true}
		}, true},
		{"ssh tunnel", asPeer("127.0.0.1:40000"), false},
		{"https said by a stranger", asPeer("192.0.2.5:1", "X-Forwarded-Proto", "https"), false},
	} {
		form, answer := rawLogin(t, web, tc.shape, modName, modPass, "/")
		if answer.Code != http.StatusSeeOther {
			t.Fatalf("%s: login %d", tc.name, answer.Code)
		}
		for _, rec := range []*httptest.ResponseRecorder{form, answer} {
			for _, c := range rec.Result().Cookies() {
				if c.Secure != tc.secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
					t.Errorf("%s: cookie %s: Secure %v HttpOnly %v SameSite %v", tc.name, c.Name, c.Secure, c.HttpOnly, c.SameSite)
				}
			}
		}
	}
}
