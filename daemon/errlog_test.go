package daemon

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/ops"
)

// Errors a person must see are logged at error level, each kind at most once a minute, the next
// line saying how many were not logged; every one is counted.
func TestErrorLogLevelsAndRateLimit(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	for i := 0; i < 5; i++ {
		r.d.fail("store", errors.New("disk I/O error"))
		r.d.fail("flood", errors.New("wait 30s"))
	}
	logs := r.logText()
	if n := strings.Count(logs, `"kind":"store"`); n != 1 {
		t.Fatalf("store errors logged %d times in a minute:\n%s", n, logs)
	}
	if !strings.Contains(logs, `{"level":"error","game":"g1","error":"disk I/O error","kind":"store"`) {
		t.Fatalf("a store error is not at error level:\n%s", logs)
	}
	if !strings.Contains(logs, `{"level":"warn","game":"g1","error":"wait 30s","kind":"flood"`) {
		t.Fatalf("flood control is not a warning:\n%s", logs)
	}
	if got := counterValue(t, r.d.m.Errors.WithLabelValues("g1", "store")); got != 5 {
		t.Fatalf("errors{kind=store} = %v, want 5", got)
	}
	r.clock.Advance(time.Minute)
	r.d.fail("store", errors.New("disk I/O error"))
	if !strings.Contains(r.logText(), `"not_logged_since":4`) {
		t.Fatalf("the next line does not say how many were not logged:\n%s", r.logText())
	}
}

// loginFails refuses the bot's login a number of times first (a login page where the forum
// should be: a proxy in trouble, or a password being fixed).
type loginFails struct {
	forum.Forum
	left int
}

func (l *loginFails) Login(ctx context.Context) error {
	if l.left > 0 {
		l.left--
		return forum.ErrBadLogin
	}
	return l.Forum.Login(ctx)
}

// A refused login at start-up does not end the daemon: it is retried with back-off, /healthz says
// why meanwhile, and the game starts once the login works.
func TestLoginRetriedAtStartUp(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	h := ops.NewHealth(r.clock.Now, time.Hour)
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	lf := &loginFails{Forum: r.fo, left: 3}
	d := r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Forum = lf
		o.Health = h
		o.Hook = func(step string) {
			if step == "cycle" {
				cancel()
			}
		}
	})
	if err := d.Run(ctx); err != nil {
		t.Fatalf("Run ended with %v; a refused login must be retried", err)
	}
	if lf.left != 0 {
		t.Fatalf("login attempts left: %d", lf.left)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if !strings.Contains(rec.Body.String(), "login as gm-bot") {
		t.Fatalf("/healthz does not say why: %s", rec.Body.String())
	}
	if !strings.Contains(r.logText(), `"level":"error"`) || !strings.Contains(r.logText(), "login as gm-bot") {
		t.Fatalf("the refused login is not logged as an error:\n%s", r.logText())
	}
	if got := counterValue(t, d.m.Errors.WithLabelValues("g1", "login")); got != 3 {
		t.Fatalf("errors{kind=login} = %v", got)
	}
}

// A game stopped while its loop is starting (a fleet gives the game up, or its lease went to
// another daemon while this one was paused) ends quietly: the store call it was in fails only
// because the loop was told to stop, which is not a game that stopped for good (the fleet ends
// the process on those).
func TestStoppedWhileStartingEndsQuietly(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	ctx, cancel := context.WithCancel(r.ctx)
	cancel()
	d := r.newDaemon(t, fakeFactory)
	if err := d.Run(ctx); err != nil {
		t.Fatalf("Run of a game stopped before its first step ended with %v, want nil", err)
	}
}
