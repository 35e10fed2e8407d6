package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A config of two games of different kinds: Moderator moderates the Crusade game (the top-level
// list), Arbiter the football quiz (its own list); both have web accounts.
const twoGamesConfig = `forums:
  main:
    url: "http://127.0.0.1:1/"
    dialect: mybb
    timezone: Europe/Moscow
    bot: {username: gm-bot, password_env: FORUMGM_TEST_REVIEW_BOT}
moderators: [Moderator]
games:
  - id: crusade-1
    kind: crusade
    forum: main
    thread: "1"
    timezone: Europe/Moscow
    start: "2026-12-01T19:00:00+03:00"
    roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
  - id: football-1
    kind: football
    forum: main
    thread: "2"
    timezone: Asia/Yekaterinburg
    start: "2026-12-01T19:00:00+03:00"
    moderators: [Arbiter]
    teams:
      - {name: Команда 1, captain: Вася, members: [Петя]}
      - {name: Команда 2, captain: Гоша, members: [Саша]}
    board: default
    settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m}
store: {path: forumgm.db}
review:
  accounts:
    - {name: Moderator, password_env: FORUMGM_TEST_REVIEW_MOD}
    - {name: Arbiter, password_env: FORUMGM_TEST_REVIEW_ARB}
`

// syncBuffer is a writer the serving goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var (
	uiURL   = regexp.MustCompile(`moderator web UI for games crusade-1, football-1: (http://127\.0\.0\.1:\d+/)`)
	csrfTok = regexp.MustCompile(`name="csrf" value="([0-9a-f]{64})"`)
)

// webUser is one moderator's browser over HTTP: a cookie jar, redirects not followed.
type webUser struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
}

func (u *webUser) do(method, path string, form url.Values) (int, string, string) {
	u.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, strings.TrimRight(u.base, "/")+path, body)
	if err != nil {
		u.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := u.c.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if m := csrfTok.FindStringSubmatch(string(b)); m != nil {
		u.csrf = m[1]
	}
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func loginWeb(t *testing.T, base, name, password string) *webUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &webUser{t: t, base: base, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
	u.do(http.MethodGet, "/login", nil)
	if code, loc, body := u.do(http.MethodPost, "/login", url.Values{"csrf": {u.csrf}, "name": {name}, "password": {password}, "next": {"/"}}); code != http.StatusSeeOther || loc != "/" {
		t.Fatalf("login %s: %d %q\n%s", name, code, loc, body)
	}
	return u
}

// twoGamesUIConfig writes twoGamesConfig and sets its accounts' passwords; it returns the path.
func twoGamesUIConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(twoGamesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FORUMGM_TEST_REVIEW_BOT", "x")
	t.Setenv("FORUMGM_TEST_REVIEW_MOD", "пароль-1")
	t.Setenv("FORUMGM_TEST_REVIEW_ARB", "пароль-2")
	return path
}

// `forumgm review serve` without --game serves every game of a several-game config in one UI:
// the list names both games with their kinds; each account opens the games it moderates and is
// refused on the other.
func TestReviewServeEveryGame(t *testing.T) {
	path := twoGamesUIConfig(t)
	base := serveUI(t, uiURL, "--config", path, "serve", "--listen", "127.0.0.1:0")

	mod := loginWeb(t, base, "Moderator", "пароль-1")
	code, _, idx := mod.do(http.MethodGet, "/", nil)
	if code != http.StatusOK {
		t.Fatalf("list of games: %d\n%s", code, idx)
	}
	for _, want := range []string{`id="game-crusade-1"`, "Крестовый поход", `id="game-football-1"`, "Футбол с кубиком", `href="/g/crusade-1/"`} {
		if !strings.Contains(idx, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	if strings.Contains(idx, `href="/g/football-1/"`) {
		t.Errorf("Moderator's list links to the football game:\n%s", idx)
	}
	if code, _, body := mod.do(http.MethodGet, "/g/crusade-1/", nil); code != http.StatusOK || !strings.Contains(body, "Крестовый поход") {
		t.Errorf("crusade queue: %d", code)
	}
	code, _, body := mod.do(http.MethodGet, "/g/football-1/", nil)
	if code != http.StatusForbidden || !strings.Contains(body, "Вы не модератор этой игры") || !strings.Contains(body, "Arbiter") {
		t.Errorf("Moderator on the football game: %d\n%s", code, body)
	}
	mod.do(http.MethodGet, "/g/crusade-1/", nil)
	if code, _, _ := mod.do(http.MethodPost, "/g/football-1/pause", url.Values{"csrf": {mod.csrf}, "reason": {"x"}}); code != http.StatusForbidden {
		t.Errorf("Moderator pausing the football game: %d", code)
	}

	arb := loginWeb(t, base, "Arbiter", "пароль-2")
	if code, _, body := arb.do(http.MethodGet, "/g/football-1/", nil); code != http.StatusOK || !strings.Contains(body, "football-1 · Футбол с кубиком") {
		t.Errorf("Arbiter on the football game: %d\n%s", code, body)
	}
	if code, _, _ := arb.do(http.MethodGet, "/g/crusade-1/log", nil); code != http.StatusForbidden {
		t.Errorf("Arbiter on the crusade log: %d", code)
	}
	// Arbiter's pause goes through, recorded with the name.
	if code, loc, _ := arb.do(http.MethodPost, "/g/football-1/pause", url.Values{"csrf": {arb.csrf}, "reason": {"перерыв"}}); code != http.StatusSeeOther || loc != "/g/football-1/" {
		t.Errorf("Arbiter's pause: %d %q", code, loc)
	}
	if _, _, body := arb.do(http.MethodGet, "/g/football-1/", nil); !strings.Contains(body, "Игра на паузе") {
		t.Errorf("after the pause:\n%s", body)
	}
	if _, _, idx := mod.do(http.MethodGet, "/", nil); !strings.Contains(between(idx, `id="game-football-1"`, "</tr>"), "на паузе") {
		t.Errorf("the list does not show the football pause:\n%s", idx)
	}
}

// serveUI runs `forumgm review ARGS` serving the web UI until the test ends and returns its URL,
// read from the banner by re.
func serveUI(t *testing.T, re *regexp.Regexp, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errs syncBuffer
	done := make(chan error, 1)
	go func() { done <- cmdReview(ctx, args, &out, &errs) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("serve stopped: %v\n%s%s", err, out.String(), errs.String())
		case <-time.After(20 * time.Millisecond):
		}
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL printed:\n%s", out.String())
		}
	}
}

// With --game, serve serves that game alone: / leads to it, the other game is not there.
func TestReviewServeOneGame(t *testing.T) {
	path := twoGamesUIConfig(t)
	base := serveUI(t, regexp.MustCompile(`moderator web UI for game football-1: (http://127\.0\.0\.1:\d+/)`),
		"--config", path, "serve", "--game", "football-1", "--listen", "127.0.0.1:0")
	arb := loginWeb(t, base, "Arbiter", "пароль-2")
	if code, loc, _ := arb.do(http.MethodGet, "/", nil); code != http.StatusSeeOther || loc != "/g/football-1/" {
		t.Errorf("/ with one game: %d %q", code, loc)
	}
	if code, _, _ := arb.do(http.MethodGet, "/g/crusade-1/", nil); code != http.StatusNotFound {
		t.Errorf("the other game: %d", code)
	}
}

// between is the part of s from the first from to the next to after it.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
