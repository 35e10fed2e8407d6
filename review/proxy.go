package review

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Who a request comes from and how, when the UI sits behind a reverse proxy on this machine: the
// real client's address (the login throttle keys on it) and whether the browser reached the UI
// over https (the cookies are then Secure).

// The headers a reverse proxy may be trusted to set (WebOptions.TrustedProxyHeader).
const (
	headerRealIP       = "X-Real-Ip"       // nginx: proxy_set_header X-Real-IP $remote_addr;
	headerForwardedFor = "X-Forwarded-For" // nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
	headerProto        = "X-Forwarded-Proto"
)

// ProxyHeader checks a trusted proxy header's name (review.trusted_proxy_header) and returns it
// in canonical form; "" stays "" (no proxy trusted).
func ProxyHeader(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	switch c := http.CanonicalHeaderKey(strings.TrimSpace(name)); c {
	case headerRealIP, headerForwardedFor:
		return c, nil
	}
	return "", fmt.Errorf("%q: want X-Forwarded-For or X-Real-IP (the header the reverse proxy sets)", name)
}

// peerLoopback reports whether the request's TCP peer is on this machine (the reverse proxy).
func peerLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// viaProxy reports whether r came through the trusted reverse proxy: one is configured and the
// TCP peer is loopback (a proxy elsewhere cannot reach the loopback listener).
func (w *Web) viaProxy(r *http.Request) bool {
	return w.proxyHeader != "" && peerLoopback(r)
}

// client is the address the login throttle counts r's failures under: the address the trusted
// proxy names (X-Real-IP, or X-Forwarded-For's last entry, the one the proxy appended itself;
// earlier entries are the client's own word), else the TCP peer. An IPv6 client counts by its
// /64 (one machine commonly holds the whole prefix).
func (w *Web) client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if w.viaProxy(r) {
		if vs := r.Header.Values(w.proxyHeader); len(vs) > 0 {
			last := vs[len(vs)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			host = strings.TrimSpace(last)
		}
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.String()
		}
	}
	return a.String()
}

// secure reports whether the browser reached the UI over https: the request came over TLS, the
// trusted proxy says so (X-Forwarded-Proto), or it is addressed to the https public URL's host
// (only the reverse proxy serves that name).
func (w *Web) secure(r *http.Request) bool {
	switch {
	case r.TLS != nil:
		return true
	case w.viaProxy(r) && strings.EqualFold(strings.TrimSpace(r.Header.Get(headerProto)), "https"):
		return true
	}
	return w.publicHTTPS && strings.EqualFold(r.Host, w.public)
}

// cookie sets a cookie of the UI's: HttpOnly, SameSite=Strict, Secure when r came over https.
func (w *Web) cookie(rw http.ResponseWriter, r *http.Request, name, value, at string, maxAge int) {
	http.SetCookie(rw, &http.Cookie{Name: name, Value: value, Path: at, MaxAge: maxAge, HttpOnly: true,
		Secure: w.secure(r), SameSite: http.SameSiteStrictMode})
}

// safeNext keeps a redirect after login on this site: a path that starts with a single "/" and
// holds no backslash, whitespace or control character anywhere (browsers drop tabs and newlines
// and read "\" as "/", so "/\t/evil.example/" would leave the site), and that names no scheme or
// host once parsed and cleaned. Anything else is "/".
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || !utf8.ValidString(next) ||
		strings.ContainsFunc(next, func(r rune) bool { return r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	if c := path.Clean(u.Path); !strings.HasPrefix(c, "/") || strings.HasPrefix(c, "//") {
		return "/"
	}
	return next
}
