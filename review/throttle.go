package review

import (
	"math"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Failed logins are throttled per remote address and per account name: each failure spends a
// token, tokens come back one per loginRefill, and with none left a login (even with the right
// password) is answered 429 until one comes back. The web UI listens on loopback only, so every
// request may share one address: that limit is the looser one, the per-name limit the tight one.
const (
	loginFailuresPerName = 5
	loginFailuresPerAddr = 20
	loginRefill          = 12 * time.Second
	maxThrottleKeys      = 10000 // names and addresses tracked at most (full ones are dropped first)
)

type loginThrottle struct {
	mu     sync.Mutex
	byName map[string]*rate.Limiter
	byAddr map[string]*rate.Limiter
}

func newLoginThrottle() *loginThrottle {
	return &loginThrottle{byName: map[string]*rate.Limiter{}, byAddr: map[string]*rate.Limiter{}}
}

func throttleName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

func throttleAddr(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// wait says how long until a login for name from remote may be tried (0: now).
func (l *loginThrottle) wait(now time.Time, remote, name string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var w time.Duration
	for _, lim := range []*rate.Limiter{l.byName[throttleName(name)], l.byAddr[throttleAddr(remote)]} {
		if lim == nil {
			continue
		}
		if tok := lim.TokensAt(now); tok < 1 {
			w = max(w, time.Duration(math.Ceil((1-tok)*float64(loginRefill))))
		}
	}
	return w
}

// failed spends a token of the name and of the address.
func (l *loginThrottle) failed(now time.Time, remote, name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	take(l.byName, throttleName(name), loginFailuresPerName, now)
	take(l.byAddr, throttleAddr(remote), loginFailuresPerAddr, now)
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
