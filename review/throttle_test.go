package review

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Wrong passwords are throttled per account name and per remote address: after the limit a login
// is answered 429 with a Russian message and Retry-After, even with the right password, until the
// wait is over; another account is not held up by one name's failures.
func TestWebLoginThrottled(t *testing.T) {
	e := newWebEnv(t)
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	web, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}, {Name: "Анна", Password: "другой"}},
		Now: func() time.Time { return now }}, e.rv)
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Config.Handler = web
	c := e.client()
	for i := range loginFailuresPerName {
		if r := c.login(modName, "неверный"); r.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d", i+1, r.status)
		}
	}
	for _, pw := range []string{"неверный", modPass} {
		r := c.login(strings.ToLower(modName), pw)
		if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "Слишком много неудачных попыток входа") {
			t.Errorf("login with %q after %d failures: %d\n%s", pw, loginFailuresPerName, r.status, r.body)
		}
	}
	if r := e.client().login("Анна", "другой"); r.status != http.StatusSeeOther {
		t.Errorf("another account is held up: %d", r.status)
	}
	now = now.Add(loginRefill + time.Second)
	if r := c.login(modName, modPass); r.status != http.StatusSeeOther {
		t.Errorf("after the wait: %d\n%s", r.status, r.body)
	}

	// From one address, failures over many names reach the address's limit.
	c2 := e.client()
	now = now.Add(time.Hour)
	for i := range loginFailuresPerAddr {
		if r := c2.login(fmt.Sprintf("гость%d", i), "x"); r.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, r.status)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/login", nil)
	c2.do(req)
	r, err := c2.http.PostForm(e.srv.URL+"/login", map[string][]string{"csrf": {c2.csrf}, "name": {"Анна"}, "password": {"другой"}})
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("after %d failures from one address: %d, Retry-After %q", loginFailuresPerAddr, r.StatusCode, r.Header.Get("Retry-After"))
	}
}

// The throttle's memory is bounded: names whose tokens are all back are forgotten first.
func TestLoginThrottleBounded(t *testing.T) {
	l := newLoginThrottle()
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	for i := range maxThrottleKeys {
		l.failed(now, "127.0.0.1:1", fmt.Sprint("n", i))
	}
	now = now.Add(time.Hour)
	l.failed(now, "127.0.0.1:1", "new")
	if len(l.byName) > 2 {
		t.Errorf("%d names kept after all but one refilled", len(l.byName))
	}
	if l.wait(now, "127.0.0.1:1", "new") != 0 {
		t.Error("one failure throttles")
	}
}
