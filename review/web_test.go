package review

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/referee"
	"forumgm/store"
)

const (
	modName = "Moderator"
	modPass = "пароль-модератора-7"
	move    = "1-й ход крестоносца к1 на K16"
)

// webEnv is a real store in a temp dir, the real Crusade referee, and the web UI on a loopback
// httptest server.
type webEnv struct {
	t    *testing.T
	st   *store.Store
	rv   *Review
	web  *Web
	srv  *httptest.Server
	when time.Time
}

func newWebEnv(t *testing.T) *webEnv {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir()+"/s.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.EnsureGame(ctx, "g", "crusade", nil); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 12, 1, 19, 5, 0, 0, msk)
	now := when.Add(20 * time.Minute)
	rv := &Review{Store: st, Game: "g", NewReferee: reviewRef(crusadeFactory(t)), Now: func() time.Time { return now },
		Moderators: []string{modName}, Caps: forum.Capabilities{PrivateMessages: true}, Allowed: []string{modName, "Анна"}}
	web, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}, {Name: "Анна", Password: "другой"}}, Location: msk, Games: known}, rv)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	return &webEnv{t: t, st: st, rv: rv, web: web, srv: srv, when: when}
}

// flagPost stores a post as the daemon would have flagged it and returns the flag's id.
func (e *webEnv) flagPost(id, author string, post forum.Post, kind store.FlagKind, detail string) int64 {
	e.t.Helper()
	ctx := context.Background()
	post.ID, post.Author, post.Time = id, author, e.when
	err := e.st.Commit(ctx, store.Commit{Game: "g", At: e.when,
		Post:  &store.Judgement{Source: store.SourceThread, Post: post, Verdict: store.VerdictFlagged},
		Flags: []store.NewFlag{{Source: store.SourceThread, PostID: id, Kind: kind, Detail: detail}}})
	if err != nil {
		e.t.Fatal(err)
	}
	flags, err := e.st.OpenFlags(ctx, "g")
	if err != nil {
		e.t.Fatal(err)
	}
	for _, f := range flags {
		if f.PostID == id {
			return f.ID
		}
	}
	e.t.Fatalf("flag for post %s not stored", id)
	return 0
}

func (e *webEnv) flag(id int64) store.Flag {
	e.t.Helper()
	f, err := e.st.Flag(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return f
}

func (e *webEnv) events() []store.EventRow {
	e.t.Helper()
	evs, err := e.st.Events(context.Background(), "g")
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

// client is one browser: a cookie jar, redirects not followed (each test looks at them).
type client struct {
	e    *webEnv
	http *http.Client
	csrf string // the session's token, read from the last page shown
}

func (e *webEnv) client() *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return &client{e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type resp struct {
	status   int
	location string
	body     string
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]{64})"`)

func (c *client) do(req *http.Request) resp {
	c.e.t.Helper()
	r, err := c.http.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		c.e.t.Fatal(err)
	}
	if m := csrfRE.FindStringSubmatch(string(b)); m != nil {
		c.csrf = m[1]
	}
	return resp{status: r.StatusCode, location: r.Header.Get("Location"), body: string(b)}
}

func (c *client) get(path string) resp {
	c.e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.e.srv.URL+path, nil)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return c.do(req)
}

// post sends a form as is (add "csrf" yourself, or use send).
func (c *client) post(path string, form url.Values, header ...string) resp {
	c.e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.e.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		c.e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return c.do(req)
}

// send posts an action with the session's CSRF token and follows the redirect to the page that
// shows its outcome.
func (c *client) send(path string, form url.Values) resp {
	c.e.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf", c.csrf)
	r := c.post(path, form)
	if r.status != http.StatusSeeOther {
		c.e.t.Fatalf("POST %s: status %d, want 303; body:\n%s", path, r.status, r.body)
	}
	return c.get(r.location)
}

func (c *client) login(name, password string) resp {
	c.e.t.Helper()
	if r := c.get("/login"); r.status != http.StatusOK {
		c.e.t.Fatalf("login page: %d", r.status)
	}
	return c.post("/login", url.Values{"csrf": {c.csrf}, "name": {name}, "password": {password}, "next": {"/g/g/"}})
}

func (c *client) mustLogin() {
	c.e.t.Helper()
	r := c.login(modName, modPass)
	if r.status != http.StatusSeeOther || r.location != "/g/g/" {
		c.e.t.Fatalf("login: %d %q\n%s", r.status, r.location, r.body)
	}
	if q := c.get("/g/g/"); q.status != http.StatusOK || !strings.Contains(q.body, "Вы: <b>"+modName+"</b>") {
		c.e.t.Fatalf("queue after login: %d\n%s", q.status, q.body)
	}
}

// Without a session a page redirects to the login form and an action is refused with 401; a
// wrong password, an unknown name or a login form from elsewhere give no session; a Host that
// is not loopback (DNS rebinding) is refused; the password never comes back in a page.
func TestWebLogin(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: move}, store.FlagUnreadable, "ошибка судьи")
	c := e.client()

	for _, path := range []string{"/", "/g/g/", "/g/g/log", "/g/g/flag/1"} {
		if r := c.get(path); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/login?next=") {
			t.Errorf("GET %s unauthenticated: %d %q", path, r.status, r.location)
		}
	}
	for _, path := range []string{"/g/g/pause", "/g/g/undo", "/g/g/flag/1/accept", "/logout"} {
		if r := c.post(path, url.Values{"reason": {"x"}}); r.status != http.StatusUnauthorized {
			t.Errorf("POST %s unauthenticated: %d", path, r.status)
		}
	}
	if r := c.get("/login"); r.status != http.StatusOK || !strings.Contains(r.body, "Вход для модераторов") {
		t.Fatalf("login page: %d\n%s", r.status, r.body)
	}

	for _, bad := range [][2]string{{modName, "wrong"}, {modName, ""}, {"Никто", modPass}, {"Анна", modPass}} {
		r := c.login(bad[0], bad[1])
		if r.status != http.StatusUnauthorized || !strings.Contains(r.body, "Неверное имя или пароль") {
			t.Errorf("login %q/%q: %d", bad[0], bad[1], r.status)
		}
		if strings.Contains(r.body, modPass) {
			t.Errorf("the password is echoed in the page")
		}
		if q := c.get("/g/g/"); q.status != http.StatusSeeOther {
			t.Errorf("after a refused login the queue answers %d", q.status)
		}
	}
	// A login form posted without its own token (from another page) is refused.
	if r := c.post("/login", url.Values{"name": {modName}, "password": {modPass}}); r.status != http.StatusForbidden {
		t.Errorf("login without the form's token: %d", r.status)
	}
	if q := c.get("/g/g/"); q.status != http.StatusSeeOther {
		t.Errorf("a login without the token made a session: %d", q.status)
	}

	c.mustLogin()
	if r := c.get("/"); r.status != http.StatusSeeOther || r.location != "/g/g/" {
		t.Errorf("index with one game: %d %q", r.status, r.location)
	}
	if r := c.get("/g/g/"); strings.Contains(r.body, modPass) {
		t.Errorf("the password is in the page")
	}
	// The name is matched without case; the configured spelling is what gets recorded.
	c2 := e.client()
	if r := c2.login("moderator", modPass); r.status != http.StatusSeeOther {
		t.Fatalf("login in lower case: %d", r.status)
	}
	c2.get("/g/g/") // the session's token is on its pages
	c2.send(fmtPath("/g/g/flag/%d/accept", id), nil)
	if f := e.flag(id); f.State != store.FlagAccepted || f.ResolvedBy != modName {
		t.Errorf("flag after accept by a lower-case login: %+v", f)
	}

	// DNS rebinding: the same server asked for another Host name.
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/login", nil)
	req.Host = "evil.example"
	if r := c.do(req); r.status != http.StatusMisdirectedRequest {
		t.Errorf("Host evil.example: %d", r.status)
	}

	// Logging out ends the session.
	c.get("/g/g/")
	if r := c.post("/logout", url.Values{"csrf": {c.csrf}}); r.status != http.StatusSeeOther {
		t.Fatalf("logout: %d", r.status)
	}
	if r := c.get("/g/g/"); r.status != http.StatusSeeOther {
		t.Errorf("after logout the queue answers %d", r.status)
	}
}

func fmtPath(format string, id int64) string { return fmt.Sprintf(format, id) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A session ends after its time to live (the clock is injected; nothing waits).
func TestWebSessionExpires(t *testing.T) {
	e := newWebEnv(t)
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	web, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}}, Now: func() time.Time { return now }, SessionTTL: time.Hour, Games: known}, e.rv)
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Config.Handler = web
	c := e.client()
	c.mustLogin()
	now = now.Add(59 * time.Minute)
	if r := c.get("/g/g/"); r.status != http.StatusOK {
		t.Fatalf("within the hour: %d", r.status)
	}
	now = now.Add(2 * time.Minute)
	if r := c.get("/g/g/"); r.status != http.StatusSeeOther {
		t.Fatalf("after the hour: %d", r.status)
	}
}

// The queue lists the flagged post (kind, author, own text and quotes, when); Accept commits the
// referee's events with the moderator's name and resolves the flag; the flag leaves the queue; a
// second Accept is refused with a friendly message.
func TestWebQueueAndAccept(t *testing.T) {
	e := newWebEnv(t)
	post := forum.Post{Text: move, Quotes: []forum.Quote{{Author: "gm-bot", Text: "доска до хода: |к1|"}}}
	id := e.flagPost("7", "Джелу", post, store.FlagUnreadable, "ошибка судьи")
	c := e.client()
	c.mustLogin()

	q := c.get("/g/g/")
	for _, want := range []string{`id="flag-` + itoa(id) + `"`, "ход не читается", "ошибка судьи", "Джелу", move,
		"Цитата: gm-bot", "доска до хода: |к1|", "01.12.2026 19:05", "Очередь: 1"} {
		if !strings.Contains(q.body, want) {
			t.Errorf("queue lacks %q", want)
		}
	}
	if t.Failed() {
		t.Fatalf("queue:\n%s", q.body)
	}
	fp := c.get(fmtPath("/g/g/flag/%d", id))
	for _, want := range []string{"Флаг №" + itoa(id), move, "доска до хода: |к1|", `id="accept"`, `id="reject"`} {
		if !strings.Contains(fp.body, want) {
			t.Errorf("flag page lacks %q:\n%s", want, fp.body)
		}
	}
	if r := c.get("/g/g/flag/999"); r.status != http.StatusNotFound {
		t.Errorf("unknown flag: %d", r.status)
	}
	if r := c.get("/g/nope/"); r.status != http.StatusNotFound {
		t.Errorf("unknown game: %d", r.status)
	}

	after := c.send(fmtPath("/g/g/flag/%d/accept", id), url.Values{"reason": {"ход читается"}})
	if !strings.Contains(after.body, "ход принят") || !strings.Contains(after.body, "Очередь пуста") || strings.Contains(after.body, `id="flag-`) {
		t.Fatalf("queue after accept:\n%s", after.body)
	}
	f := e.flag(id)
	if f.State != store.FlagAccepted || f.ResolvedBy != modName || f.Note != "ход читается" {
		t.Fatalf("flag: %+v", f)
	}
	evs := e.events()
	turn := false
	for _, ev := range evs {
		if ev.Actor != modName || ev.Cause != store.ModeratorCause(modName) || ev.Reason != "ход читается" {
			t.Errorf("event without the moderator: %+v", ev)
		}
		turn = turn || strings.Contains(ev.Kind, "turn")
	}
	if !turn {
		t.Fatalf("no turn committed: %+v", evs)
	}
	if rec, _, _ := e.st.SeenPost(context.Background(), "g", store.SourceThread, "7"); rec.Verdict != store.VerdictAccepted {
		t.Errorf("post verdict %s", rec.Verdict)
	}
	// The same again: refused, nothing committed.
	again := c.send(fmtPath("/g/g/flag/%d/accept", id), nil)
	if !strings.Contains(again.body, "уже разобран") {
		t.Errorf("second accept:\n%s", again.body)
	}
	if n := len(e.events()); n != len(evs) {
		t.Errorf("second accept committed: %d events, had %d", n, len(evs))
	}
	// The log page shows who and why.
	lg := c.get("/g/g/log")
	for _, want := range []string{"модератор " + modName, "ход читается", "решение модератора по флагу", "ход 1: крестоносцы (Джелу)"} {
		if !strings.Contains(lg.body, want) {
			t.Errorf("log lacks %q:\n%s", want, lg.body)
		}
	}
}

// Reject needs a reason (the shared Review.Reject refuses without one); with one, the refusal
// naming the reason is queued in the outbox as a reply in the thread and the flag is rejected.
func TestWebReject(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: move}, store.FlagDispute, "оспариваю")
	c := e.client()
	c.mustLogin()

	r := c.send(fmtPath("/g/g/flag/%d/reject", id), url.Values{"reason": {"  "}})
	if !strings.Contains(r.body, "Укажите причину") {
		t.Errorf("reject without a reason:\n%s", r.body)
	}
	if f := e.flag(id); f.State != store.FlagOpen {
		t.Fatalf("flag after a refused reject: %+v", f)
	}
	r = c.send(fmtPath("/g/g/flag/%d/reject", id), url.Values{"reason": {"ход из цитаты"}})
	if !strings.Contains(r.body, "ход отклонён") {
		t.Errorf("after reject:\n%s", r.body)
	}
	if f := e.flag(id); f.State != store.FlagRejected || f.ResolvedBy != modName || f.Note != "ход из цитаты" {
		t.Fatalf("flag: %+v", f)
	}
	out, err := e.st.PendingOutbox(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range out {
		if o.Kind == store.OutboxReply && strings.Contains(o.Body, "модератор не принял") && strings.Contains(o.Body, "ход из цитаты") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no refusal in the outbox: %+v", out)
	}
	if rec, _, _ := e.st.SeenPost(context.Background(), "g", store.SourceThread, "7"); rec.Verdict != store.VerdictRefused {
		t.Errorf("post verdict %s", rec.Verdict)
	}
}

// Every POST must carry the session's token: without it, with a wrong one, or with another
// session's, the action is refused (403) and nothing is committed; a cross-site POST is refused
// even with the right token.
func TestWebCSRF(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: move}, store.FlagUnreadable, "?")
	c := e.client()
	c.mustLogin()
	other := e.client()
	other.mustLogin()
	if other.csrf == c.csrf {
		t.Fatal("two sessions share a token")
	}
	accept := fmtPath("/g/g/flag/%d/accept", id)
	cases := []struct {
		name   string
		form   url.Values
		header []string
	}{
		{"no token", url.Values{"reason": {"x"}}, nil},
		{"wrong token", url.Values{"csrf": {strings.Repeat("0", 64)}}, nil},
		{"another session's token", url.Values{"csrf": {other.csrf}}, nil},
		{"cross-site", url.Values{"csrf": {c.csrf}}, []string{"Sec-Fetch-Site", "cross-site"}},
		{"foreign origin", url.Values{"csrf": {c.csrf}}, []string{"Origin", "http://evil.example"}},
	}
	for _, tc := range cases {
		for _, path := range []string{accept, "/g/g/pause", "/logout"} {
			if r := c.post(path, tc.form, tc.header...); r.status != http.StatusForbidden {
				t.Errorf("%s: POST %s: %d", tc.name, path, r.status)
			}
		}
	}
	if f := e.flag(id); f.State != store.FlagOpen {
		t.Errorf("flag: %+v", f)
	}
	if evs := e.events(); len(evs) != 0 {
		t.Errorf("events committed: %+v", evs)
	}
	if g, _ := e.st.Game(context.Background(), "g"); g.Paused {
		t.Error("paused without a token")
	}
	// The session still works with its own token.
	c.get("/g/g/")
	c.send(accept, nil)
	if f := e.flag(id); f.State != store.FlagAccepted {
		t.Errorf("flag after a proper accept: %+v", f)
	}
}

// Undo (reason required) undoes the last applied move with a compensating event; Pause and
// Resume change the game's state; each is in the log with the moderator's name.
func TestWebUndoPauseResume(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: move}, store.FlagUnreadable, "?")
	c := e.client()
	c.mustLogin()

	if q := c.get("/g/g/"); strings.Contains(q.body, `id="undo"`) || !strings.Contains(q.body, "Отменять пока нечего") {
		t.Errorf("queue offers an undo with nothing to undo:\n%s", q.body)
	}
	if u := c.get("/g/g/undo"); !strings.Contains(u.body, `id="undo-none"`) {
		t.Errorf("undo page with nothing to undo:\n%s", u.body)
	}
	r := c.send("/g/g/undo", url.Values{"reason": {"ошибка"}})
	if !strings.Contains(r.body, "Отменять нечего") || strings.Contains(r.body, "no applied move") {
		t.Errorf("undo with nothing to undo:\n%s", r.body)
	}
	c.send(fmtPath("/g/g/flag/%d/accept", id), nil)
	n := len(e.events())

	// The queue names the move an undo undoes; the confirmation page names it again.
	if q := c.get("/g/g/"); !strings.Contains(q.body, "Отменить последний ход: ход 1 (Джелу)") {
		t.Errorf("queue does not name the move to undo:\n%s", q.body)
	}
	if u := c.get("/g/g/undo"); !strings.Contains(u.body, "Будет отменён последний принятый ход: <b>ход 1 (Джелу)</b>") {
		t.Fatalf("undo page:\n%s", u.body)
	}
	label := "ход 1 (Джелу)"
	r = c.send("/g/g/undo", url.Values{"reason": {""}, "label": {label}})
	if !strings.Contains(r.body, "Укажите причину") || len(e.events()) != n {
		t.Fatalf("undo without a reason:\n%s", r.body)
	}
	// A confirmation of another move (the log moved since the page was shown) undoes nothing.
	r = c.send("/g/g/undo", url.Values{"reason": {"ошибка ведущего"}, "label": {"ход 7 (snovaya)"}})
	if !strings.Contains(r.body, "Последний ход уже другой: ход 1 (Джелу)") || len(e.events()) != n {
		t.Fatalf("undo of a stale confirmation:\n%s", r.body)
	}
	r = c.send("/g/g/undo", url.Values{"reason": {"ошибка ведущего"}, "label": {label}})
	if !strings.Contains(r.body, "Отменён ход 1 (Джелу)") {
		t.Fatalf("undo:\n%s", r.body)
	}
	last := e.events()[len(e.events())-1]
	if last.Kind != referee.KindUndone || last.Actor != modName || last.Reason != "ошибка ведущего" {
		t.Fatalf("last event after undo: %+v", last)
	}

	r = c.send("/g/g/pause", url.Values{"reason": {"разбираемся"}})
	if !strings.Contains(r.body, "Игра на паузе") || !strings.Contains(r.body, "на паузе</span>") || !strings.Contains(r.body, `id="resume"`) {
		t.Fatalf("after pause:\n%s", r.body)
	}
	g, err := e.st.Game(context.Background(), "g")
	if err != nil || !g.Paused || g.PausedBy != modName || g.PauseReason != "разбираемся" {
		t.Fatalf("game after pause: %+v %v", g, err)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != referee.KindPaused || last.Actor != modName {
		t.Fatalf("last event after pause: %+v", last)
	}
	r = c.send("/g/g/pause", nil)
	if !strings.Contains(r.body, "Игра уже в этом состоянии") || strings.Contains(r.body, "already paused") {
		t.Errorf("pause twice:\n%s", r.body)
	}
	r = c.send("/g/g/resume", nil)
	if !strings.Contains(r.body, "Игра продолжается") || !strings.Contains(r.body, `id="pause"`) {
		t.Fatalf("after resume:\n%s", r.body)
	}
	if g, _ := e.st.Game(context.Background(), "g"); g.Paused {
		t.Fatalf("still paused: %+v", g)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != referee.KindResumed || last.Actor != modName {
		t.Fatalf("last event after resume: %+v", last)
	}
	lg := c.get("/g/g/log")
	for _, want := range []string{"ход отменён", "пауза", "игра продолжается", "ошибка ведущего", "разбираемся"} {
		if !strings.Contains(lg.body, want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// Player text is HTML-escaped everywhere it is shown (own text, quotes, the author, the flag's
// detail).
func TestWebEscapesPlayerText(t *testing.T) {
	e := newWebEnv(t)
	evil := `<script>alert("own")</script>`
	post := forum.Post{Text: "ход " + evil, Quotes: []forum.Quote{{Author: `<b>x</b>`, Text: `<img src=x onerror=alert(1)>`}},
		Code: []string{`</pre><script>alert(2)</script>`}}
	id := e.flagPost("9", `<i>snovaya</i>`, post, store.FlagNotInRoster, `<script>alert("detail")</script>`)
	c := e.client()
	c.mustLogin()
	for _, path := range []string{"/g/g/", fmtPath("/g/g/flag/%d", id)} {
		body := c.get(path).body
		for _, raw := range []string{"<script>", "<img", "<i>snovaya", "<b>x</b>", "</pre><script>"} {
			if strings.Contains(body, raw) {
				t.Errorf("%s: raw %q in the page", path, raw)
			}
		}
		for _, esc := range []string{"&lt;script&gt;alert(&#34;own&#34;)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "&lt;i&gt;snovaya&lt;/i&gt;"} {
			if !strings.Contains(body, esc) {
				t.Errorf("%s: no escaped %q", path, esc)
			}
		}
	}
}

// Serve (what `forumgm review serve` runs) refuses a non-loopback address, serves the UI on a
// loopback one, and returns when its context ends.
func TestServe(t *testing.T) {
	e := newWebEnv(t)
	if err := Serve(context.Background(), "0.0.0.0:0", e.web, nil); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("0.0.0.0: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, "127.0.0.1:0", e.web, func(u string) { urls <- u }) }()
	var u string
	select {
	case u = <-urls:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	if !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("url %q", u)
	}
	r, err := http.Get(u + "login")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !strings.Contains(string(b), "Вход для модераторов") {
		t.Fatalf("GET login: %d", r.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}

// With review.public_url (a reverse proxy with TLS), the UI answers for that host name too, and
// only for it; a stranger's host name gets a Russian explanation.
func TestWebPublicURL(t *testing.T) {
	e := newWebEnv(t)
	web, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}}, PublicURL: "https://mod.example.org/", Games: known}, e.rv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host string
		want int
	}{{"mod.example.org", http.StatusOK}, {"127.0.0.1:9322", http.StatusOK}, {"evil.example", http.StatusMisdirectedRequest}} {
		req := httptest.NewRequest(http.MethodGet, "/login", nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		web.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("Host %s: %d, want %d", tc.host, rec.Code, tc.want)
		}
		if tc.want != http.StatusOK && !strings.Contains(rec.Body.String(), "SSH-туннель") {
			t.Errorf("Host %s: %q", tc.host, rec.Body.String())
		}
	}
	if _, err := NewWeb(WebOptions{Accounts: []Account{{Name: modName, Password: modPass}}, PublicURL: "mod.example.org"}, e.rv); err == nil {
		t.Error("a public URL without a scheme is accepted")
	}
}

// Every message the UI words in Go code exists in web/messages.tmpl (a typo would show the key).
func TestWebMessagesDefined(t *testing.T) {
	e := newWebEnv(t)
	src, err := os.ReadFile("web.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`w\.msg\("([a-z_.]+)",`).FindAllStringSubmatch(string(src), -1)
	if len(names) < 20 {
		t.Fatalf("only %d messages found in web.go", len(names))
	}
	for _, m := range names {
		if e.web.msgs.Lookup(m[1]) == nil {
			t.Errorf("message %q is not in web/messages.tmpl", m[1])
		}
	}
	for _, k := range []store.FlagKind{store.FlagUnreadable, store.FlagEdited, store.FlagDeleted, store.FlagNotInRoster, store.FlagDispute, store.FlagLate, store.FlagOther} {
		if e.web.msgs.Lookup("kind."+string(k)) == nil {
			t.Errorf("no words for flag kind %s", k)
		}
	}
	for _, st := range []store.FlagState{store.FlagOpen, store.FlagAccepted, store.FlagRejected, store.FlagDismissed} {
		if e.web.msgs.Lookup("state."+string(st)) == nil {
			t.Errorf("no words for flag state %s", st)
		}
	}
	// No Russian text is left in the Go code (it lives in the templates).
	if ru := regexp.MustCompile(`"[^"\n]*\p{Cyrillic}[^"\n]*"`).FindAllString(string(src), -1); len(ru) > 0 {
		t.Errorf("Russian strings in web.go: %q", ru)
	}
}

// An unreadable move is shown with what the game answered the player (Russian, the game's own
// words), not the parser's English detail; accepting a dispute says the decision stands.
func TestWebUnreadableInWordsAndDisputeKept(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("7", "Джелу", forum.Post{Text: "1-й ход крестоносца к1 на К-шестнадцать"}, store.FlagUnreadable, `line 1: no cell to move to`)
	c := e.client()
	c.mustLogin()
	q := c.get("/g/g/")
	if !strings.Contains(q.body, "Ведущий ответил:") || strings.Contains(q.body, "no cell to move to") {
		t.Errorf("queue row of an unreadable move:\n%s", q.body)
	}
	f := c.get(fmtPath("/g/g/flag/%d", id))
	if !strings.Contains(f.body, `id="said"`) || !strings.Contains(f.body, `id="accept-text"`) {
		t.Errorf("flag page of an unreadable move:\n%s", f.body)
	}
	d := e.flagPost("8", "snovaya", forum.Post{Text: "#спор ход был неверный"}, store.FlagDispute, "#спор")
	if f := c.get(fmtPath("/g/g/flag/%d", d)); strings.Contains(f.body, `id="accept-text"`) || !strings.Contains(f.body, "Решение остаётся в силе") {
		t.Errorf("flag page of a dispute:\n%s", f.body)
	}
	r := c.send(fmtPath("/g/g/flag/%d/accept", d), nil)
	if !strings.Contains(r.body, "решение остаётся в силе") {
		t.Errorf("accepting a dispute:\n%s", r.body)
	}
}

// The game page adds a player to the roster and adjusts a side's wounds, each with a reason,
// logged with the moderator's name; a bad number is refused in words.
func TestWebAddPlayerAndAdjust(t *testing.T) {
	e := newWebEnv(t)
	c := e.client()
	c.mustLogin()
	if q := c.get("/g/g/"); !strings.Contains(q.body, `id="add-player"`) || !strings.Contains(q.body, `id="adjust"`) {
		t.Fatalf("the game page has no roster and penalty forms:\n%s", q.body)
	}
	n := len(e.events())
	r := c.send("/g/g/add-player", url.Values{"player": {"Вася"}, "role": {"сарацины"}, "reason": {""}})
	if !strings.Contains(r.body, "Укажите причину") || len(e.events()) != n {
		t.Fatalf("add a player without a reason:\n%s", r.body)
	}
	r = c.send("/g/g/add-player", url.Values{"player": {"Вася"}, "role": {"сарацины"}, "reason": {"записался поздно"}})
	if !strings.Contains(r.body, "Игрок записан в игру") {
		t.Fatalf("add a player:\n%s", r.body)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != "crusade.player_added" || last.Actor != modName {
		t.Fatalf("last event: %+v", last)
	}
	r = c.send("/g/g/adjust", url.Values{"target": {"сарацины"}, "amount": {"ноль"}, "reason": {"x"}})
	if !strings.Contains(r.body, "Нужно целое число") {
		t.Fatalf("a bad number:\n%s", r.body)
	}
	r = c.send("/g/g/adjust", url.Values{"target": {"сарацины"}, "amount": {"2"}, "reason": {"грубость"}})
	if !strings.Contains(r.body, "Изменение записано") {
		t.Fatalf("adjust:\n%s", r.body)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != "crusade.wounds_adjusted" || last.Reason != "грубость" {
		t.Fatalf("last event: %+v", last)
	}
}

// The queue and the flag pages speak the moderator's language: the bot's reply without its
// forum markup (no «[i]», no cut «[/i»), a dispute's words once, an edited post explained in
// Russian (the daemon's English note only under "for the administrator"), a merged post's part
// named as such rather than by the daemon's id («10~2»).
func TestWebQueueInPeoplesWords(t *testing.T) {
	e := newWebEnv(t)
	e.flagPost("7", "Джелу", forum.Post{Text: "1-й ход крестоносца к1 на К-шестнадцать"}, store.FlagUnreadable, "line 1: no cell")
	e.flagPost("8", "snovaya", forum.Post{Text: "#спор ход был неверный"}, store.FlagDispute, "#спор ход был неверный")
	edited := e.flagPost("10~2", "Джелу", forum.Post{Text: move}, store.FlagEdited,
		"the post was edited after the decision (1-й ход крестоносца к1 на K15); the first version stands [0123456789ab]")
	c := e.client()
	c.mustLogin()
	q := c.get("/g/g/")
	for _, bad := range []string{"[i]", "[/i", "[b]", "the post was edited", "10~2"} {
		if strings.Contains(q.body, bad) {
			t.Errorf("the queue shows %q:\n%s", bad, q.body)
		}
	}
	if n := strings.Count(q.body, "ход был неверный"); n != 1 {
		t.Errorf("the dispute's words shown %d times:\n%s", n, q.body)
	}
	f := c.get(fmtPath("/g/g/flag/%d", edited))
	if !strings.Contains(f.body, "исправил пост уже после решения") || !strings.Contains(f.body, "часть 2") || strings.Contains(f.body, "10~2") {
		t.Errorf("the edited post's page:\n%s", f.body)
	}
	if i := strings.Index(f.body, "the post was edited"); i >= 0 && !strings.Contains(f.body[:i], "Подробности для администратора") {
		t.Errorf("the daemon's English note is shown as the explanation:\n%s", f.body)
	}
}

// A late move's flag has its own kind (issue 19): the queue and the flag's page name it in
// Russian, and accepting it judges the move, which the moderator may retype.
func TestWebLateFlag(t *testing.T) {
	e := newWebEnv(t)
	id := e.flagPost("8", "snovaya", forum.Post{Text: "1-й ход сарацина н1 на N1"}, store.FlagLate, "Пост появился в теме с опозданием.")
	c := e.client()
	c.mustLogin()
	if q := c.get("/g/g/"); !strings.Contains(q.body, "ход с опозданием") {
		t.Errorf("the queue does not name a late move:\n%s", q.body)
	}
	f := c.get(fmtPath("/g/g/flag/%d", id))
	if !strings.Contains(f.body, "ход с опозданием") || !strings.Contains(f.body, `id="accept-text"`) {
		t.Errorf("the flag's page of a late move:\n%s", f.body)
	}
}

// The daemon's clock_jump flag is about no post: the queue and its page name it in Russian and
// the page renders without a post (issue 19).
func TestWebClockJumpFlag(t *testing.T) {
	e := newWebEnv(t)
	if err := e.st.Commit(context.Background(), store.Commit{Game: "g", At: e.when,
		Flags: []store.NewFlag{{Kind: store.FlagClockJump, Detail: "Часы сервера ведущего прыгнули вперёд на 24h0m0s."}}}); err != nil {
		t.Fatal(err)
	}
	flags, err := e.rv.List(context.Background())
	if err != nil || len(flags) != 1 {
		t.Fatalf("flags %+v %v", flags, err)
	}
	c := e.client()
	c.mustLogin()
	if q := c.get("/g/g/"); !strings.Contains(q.body, "скачок часов: сроки задержаны") {
		t.Errorf("the queue does not name the clock jump:\n%s", q.body)
	}
	if f := c.get(fmtPath("/g/g/flag/%d", flags[0].ID)); f.status != http.StatusOK || !strings.Contains(f.body, "скачок часов") {
		t.Errorf("the clock_jump flag's page: %d\n%s", f.status, f.body)
	}
}

// The game page replaces a player and removes one, each with a reason, logged with the
// moderator's name; an unknown player is refused in words and changes nothing.
func TestWebReplaceAndRemove(t *testing.T) {
	e := newWebEnv(t)
	c := e.client()
	c.mustLogin()
	if q := c.get("/g/g/"); !strings.Contains(q.body, `id="replace"`) || !strings.Contains(q.body, `id="remove"`) {
		t.Fatalf("the game page has no replace and remove forms:\n%s", q.body)
	}
	n := len(e.events())
	r := c.send("/g/g/replace", url.Values{"player": {"Незнакомец"}, "new": {"Вася"}, "reason": {"ушёл"}})
	if strings.Contains(r.body, "Замена сделана") || len(e.events()) != n {
		t.Fatalf("replacing a stranger:\n%s", r.body)
	}
	r = c.send("/g/g/replace", url.Values{"player": {"snovaya"}, "new": {"Вася"}, "reason": {"уехала в отпуск"}})
	if !strings.Contains(r.body, "Замена сделана") {
		t.Fatalf("replace:\n%s", r.body)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != "crusade.player_replaced" || last.Actor != modName || last.Reason != "уехала в отпуск" {
		t.Fatalf("last event: %+v", last)
	}
	r = c.send("/g/g/remove", url.Values{"player": {"Вася"}, "reason": {"не отвечает неделю"}})
	if !strings.Contains(r.body, "Игрок выведен из игры") {
		t.Fatalf("remove:\n%s", r.body)
	}
	if last := e.events()[len(e.events())-1]; last.Kind != "crusade.player_removed" || last.Reason != "не отвечает неделю" {
		t.Fatalf("last event: %+v", last)
	}
}
