package review

import (
	"math"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Failed logins are throttled per client (the real one, behind a trusted reverse proxy: see
// Web.client), and per account name from that client: each failure spends a token, tokens come
// back one per loginRefill, and with none left a login from that client (even with the right
// password) is answered 429 until one comes back. A name is never locked for everyone: failures
// from one client (a stranger guessing a public name) do not hold up the moderator logging in from
// another, so a right password from a client without failures always gets in.
const (
	loginFailuresPerName = 5  // per account name, from one client
	loginFailuresPerAddr = 20 // per client, over all names
	loginRefill          = 12 * time.Second
	maxThrottleKeys      = 10000 // keys tracked at most per map (full ones are dropped first)
)

type loginThrottle struct {
	mu     sync.Mutex
	byName map[string]*rate.Limiter // by client and account name (nameKey)
	byAddr map[string]*rate.Limiter // by client
}

func newLoginThrottle() *loginThrottle {
	return &loginThrottle{byName: map[string]*rate.Limiter{}, byAddr: map[string]*rate.Limiter{}}
}

// nameKey is an account name as tried from one client.
func nameKey(client, name string) string {
	return client + "\x00" + strings.ToLower(strings.TrimSpace(name))
}

// wait says how long until a login for name from client may be tried (0: now).
func (l *loginThrottle) wait(now time.Time, client, name string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var w time.Duration
	for _, lim := range []*rate.Limiter{l.byName[nameKey(client, name)], l.byAddr[client]} {
		if lim == nil {
			continue
		}
		if tok := lim.TokensAt(now); tok < 1 {
			w = max(w, time.Duration(math.Ceil((1-tok)*float64(loginRefill))))
		}
	}
	return w
}

// failed spends a token of the client and of the name from that client.
func (l *loginThrottle) failed(now time.Time, client, name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	take(l.byName, nameKey(client, name), loginFailuresPerName, now)
	take(l.byAddr, client, loginFailuresPerAddr, now)
}

func take(m map[string]*rate.Limiter, key string, burst int, now time.Time) {
	lim, ok := m[key]
	if !ok {
		if len(m) >= maxThrottleKeys {
			for k, v := range m {
				if v.TokensAt(now) >= float64(v.Burst()) {
					delete(m, k)
				}
			}
		}
		lim = rate.NewLimiter(rate.Every(loginRefill), burst)
		m[key] = lim
	}
	lim.AllowN(now, 1)
}
