package punbb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/internal/fixture"
	"forumgm/internal/meter"
)

// fakePunBB serves the captured PunBB pages over loopback in the order the real engine would,
// with the captured host replaced by the test server's.
type fakePunBB struct {
	t     *testing.T
	srv   *httptest.Server
	meter *meter.Server // counts what srv exchanges
	dir   string
	// cp1251 serves every page re-encoded to windows-1251 (header, meta and accept-charset).
	cp1251 bool
	// russian replaces texts of the captured pages with a Russian pack's wording.
	russian *strings.Replacer

	mu       sync.Mutex
	log      []string
	posts    []url.Values
	rawPosts [][]byte
	loggedIn bool
	replies  []string // what the next reply POSTs get (file names; "ok" = success)
	logins   []string
	nextPID  int
}

func newFakePunBB(t *testing.T) *fakePunBB {
	f := &fakePunBB{t: t, dir: fixture.Dir(t, "punbb"), nextPID: 18}
	f.meter = meter.NewServer(http.HandlerFunc(f.serve))
	f.srv = f.meter.Server
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakePunBB) file(name string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	page := strings.ReplaceAll(string(b), "http://127.0.0.1:8083", f.srv.URL)
	if f.russian != nil {
		page = f.russian.Replace(page)
	}
	return page
}

func (f *fakePunBB) write(w http.ResponseWriter, name string) {
	page := f.file(name)
	if !f.cp1251 {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
		return
	}
	page = strings.NewReplacer(`<meta charset="utf-8" />`, `<meta charset="windows-1251" />`,
		`accept-charset="utf-8"`, `accept-charset="windows-1251"`).Replace(page)
	enc, err := forum.EncodeString(charmap.Windows1251, page) // what cp1251 cannot hold becomes &#NNNN;
	if err != nil {
		f.t.Fatal(err)
	}
	w.Header().Set("Content-Type", "text/html; charset=windows-1251")
	io.WriteString(w, enc)
}

func (f *fakePunBB) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	f.log = append(f.log, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	if c, err := r.Cookie("forum_cookie_414004"); err == nil && c.Value == "gm-bot" {
		f.loggedIn = true
	}
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		vals, err := url.ParseQuery(string(b))
		if err != nil {
			f.t.Errorf("POST body: %v", err)
		}
		f.posts = append(f.posts, vals)
		f.rawPosts = append(f.rawPosts, b)
		switch {
		case r.URL.Path == "/login.php":
			next := "ok"
			if len(f.logins) > 0 {
				next, f.logins = f.logins[0], f.logins[1:]
			}
			if next != "ok" {
				f.write(w, next)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "forum_cookie_414004", Value: "gm-bot", Path: "/"})
			http.Redirect(w, r, vals.Get("redirect_url")+"&login=1", http.StatusFound)
		case r.URL.Path == "/post.php" && q.Get("tid") == "2":
			next := "ok"
			if len(f.replies) > 0 {
				next, f.replies = f.replies[0], f.replies[1:]
			}
			if next != "ok" {
				f.write(w, next)
				return
			}
			loc := fmt.Sprintf("%s/viewtopic.php?pid=%d#p%d", f.srv.URL, f.nextPID, f.nextPID)
			f.nextPID++
			w.Header().Set("Location", loc)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusFound)
			io.WriteString(w, strings.ReplaceAll(f.file("22-reply-success.gm-bot.html"), "pid=17#p17", loc))
		default:
			f.t.Errorf("unexpected POST %s", r.URL)
			w.WriteHeader(404)
		}
		return
	}
	switch {
	case r.URL.Path == "/login.php":
		f.write(w, "01-login-form.guest.html")
	case r.URL.Path == "/post.php" && q.Get("tid") == "2":
		if !f.loggedIn {
			f.write(w, "26-reply-noperm.guest.html")
			return
		}
		f.write(w, "20-reply-form.gm-bot.html")
	case r.URL.Path == "/viewforum.php" && q.Get("id") == "2":
		f.write(w, "16-viewforum-fid2.guest.html")
	case r.URL.Path == "/viewtopic.php" && q.Get("action") == "last":
		// As captured (14-thread-lastpost): 302, empty body, Content-type text/html; charset=UTF-8.
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.Header().Set("Location", f.srv.URL+"/viewtopic.php?pid=17#p17")
		w.WriteHeader(http.StatusFound)
	case r.URL.Path == "/viewtopic.php" && q.Get("id") == "2" && q.Get("login") == "1":
		f.write(w, "12-thread-p1.gm-bot.html")
	case r.URL.Path == "/viewtopic.php" && q.Get("id") == "2" && q.Get("p") == "":
		f.write(w, "10-thread-p1.guest.html")
	case r.URL.Path == "/viewtopic.php" && q.Get("pid") != "":
		f.write(w, "11-thread-p2.guest.html")
	default:
		f.t.Errorf("unexpected GET %s", r.URL)
		w.WriteHeader(404)
	}
}

func (f *fakePunBB) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

// sleeps records the waits the board's flood errors named while a test sends the way the daemon
// does (fixture.AfterFlood: after the wait, the same write again).
type sleeps struct {
	d []time.Duration
}

func (s *sleeps) send(send func() error) error {
	w, err := fixture.AfterFlood(send)
	s.d = append(s.d, w...)
	return err
}

func newForum(t *testing.T, f *fakePunBB, extra map[string]string) (*Forum, *sleeps) {
	sl := &sleeps{}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL, Username: "gm-bot", Password: "GmBotPass1",
		Location: time.UTC, Now: func() time.Time { return captureNow }, Extra: extra},
		withClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return fm, sl
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A reply from a logged-out bot: "no permission" to a guest → log in (every field of the login
// form) → the reply form → flood control: PunBB's 10 s come back → the daemon's next try after the
// wait gets a fresh form → the 302 names the new post.
func TestReplyReloginFloodAndID(t *testing.T) {
	srv := newFakePunBB(t)
	srv.replies = []string{"25b-reply-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum(t, srv, nil)
	var id string
	var merged bool
	err := sl.send(func() (err error) {
		id, merged, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, "Ход принят.\n[code]\n 9|__|\n[/code]")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if id != "18" || merged {
		t.Fatalf("id %q merged %v", id, merged)
	}
	want := []string{
		"GET /post.php?tid=2",
		"GET /login.php?",
		"POST /login.php?",
		"GET /viewtopic.php?id=2&login=1",
		"GET /post.php?tid=2",
		"POST /post.php?tid=2", // flood
		"GET /post.php?tid=2",
		"POST /post.php?tid=2",
		"GET /viewtopic.php?pid=18",
	}
	if got := srv.requests(); !equalStrings(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(sl.d) != 1 || sl.d[0] != 10*time.Second {
		t.Errorf("sleeps %v, want [10s]", sl.d)
	}
	wantLogin := url.Values{"form_sent": {"1"}, "redirect_url": {srv.srv.URL + "/viewtopic.php?id=2"},
		"csrf_token": {"1490d1f709fd037adbf9dc0aef8abb8e8a8b2fb9"}, "req_username": {"gm-bot"},
		"req_password": {"GmBotPass1"}, "save_pass": {"1"}, "login": {"Login"}}
	if got := srv.posts[0]; got.Encode() != wantLogin.Encode() {
		t.Errorf("login fields %v\nwant %v", got, wantLogin)
	}
	wantReply := url.Values{"form_sent": {"1"}, "form_user": {"gm-bot"},
		"csrf_token":  {"510ff3026807d28fe09f3e33a2194e8c26e43bb3"},
		"req_message": {"Ход принят.\n[code]\n 9|__|\n[/code]"}, "submit_button": {"Submit reply"}}
	for i, p := range srv.posts[1:] {
		if p.Encode() != wantReply.Encode() {
			t.Errorf("reply POST %d fields %v\nwant %v", i+1, p, wantReply)
		}
	}
}

func TestReplyErrors(t *testing.T) {
	srv := newFakePunBB(t)
	srv.loggedIn = true
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	srv.replies = []string{"24-reply-error-empty.gm-bot.html"}
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "2"}, " "); !errors.Is(err, forum.ErrTooShort) {
		t.Fatalf("empty: %v", err)
	}
	srv.replies = []string{"28-reply-error-flood.snovaya.html", "28-reply-error-flood.snovaya.html",
		"28-reply-error-flood.snovaya.html", "28-reply-error-flood.snovaya.html"}
	var fe *forum.FloodError
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "2"}, "x"); !errors.As(err, &fe) || fe.Wait != 10*time.Second {
		t.Fatalf("flood beyond retries: %v", err)
	}
	if _, _, err := fm.Inbox(ctx, forum.Cursor{}); !errors.Is(err, forum.ErrNoPM) {
		t.Errorf("inbox: %v", err)
	}
	if err := fm.SendPM(ctx, "Джелу", "s", "b"); !errors.Is(err, forum.ErrNoPM) {
		t.Errorf("send PM: %v", err)
	}
	if fm.Capabilities().PrivateMessages {
		t.Error("capabilities claim PMs")
	}
}

func TestLoginErrors(t *testing.T) {
	srv := newFakePunBB(t)
	srv.logins = []string{"03-login-error.guest.html"}
	fm, _ := newForum(t, srv, nil)
	if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("wrong password: %v", err)
	}
	// A rejected token: a fresh form once.
	srv.logins = []string{"04-login-error-badtoken.guest.html", "ok"}
	if err := fm.Login(context.Background()); err != nil {
		t.Fatalf("after bad token: %v", err)
	}
}

// A board with PunBB 1.4's Russian pack (github.com/punbb/punbb commit
// 841d7a39570d210cbaa6ca8b1e6899c5321b8e07, lang/Russian/post.php 'Flood', login.php
// 'Wrong user/pass'; the captured pages, their English messages replaced): the flood wait is read,
// the wrong password is a bad login.
func TestRussianRefusals(t *testing.T) {
	srv := newFakePunBB(t)
	srv.loggedIn = true
	srv.russian = strings.NewReplacer(
		"At least 10 seconds have to pass between posts. Please wait a while and try posting again.",
		"Должно пройти не менее 20 секунд между двумя сообщениями. Подождите немного и попытайтесь отправить сообщение ещё раз.",
		"Incorrect username and/or password.", "Неправильное имя или пароль.")
	for _, p := range []string{"25b-reply-error-flood.gm-bot.html", "03-login-error.guest.html"} {
		if !strings.Contains(srv.file(p), "Подождите немного") && !strings.Contains(srv.file(p), "Неправильное имя") {
			t.Fatalf("%s: the English message was not replaced", p)
		}
	}
	srv.replies = []string{"25b-reply-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum(t, srv, nil)
	var id string
	if err := sl.send(func() (err error) {
		id, _, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, "Ход принят.")
		return err
	}); err != nil || id != "18" {
		t.Fatalf("reply: %q %v", id, err)
	}
	if len(sl.d) != 1 || sl.d[0] != 20*time.Second {
		t.Errorf("sleeps %v, want [20s]", sl.d)
	}
	srv.logins = []string{"03-login-error.guest.html"}
	if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("wrong password: %v", err)
	}
}

// Posts from a cursor: the idle poll is the one action=last redirect; new posts cost the last
// page, and older pages only while they may hold posts after the cursor.
func TestPostsFromCursor(t *testing.T) {
	srv := newFakePunBB(t)
	fm, _ := newForum(t, srv, nil)
	last := "GET /viewtopic.php?action=last&id=2"
	for _, c := range []struct {
		after    string
		ids      string
		requests []string
	}{
		{"", "2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", []string{last, "GET /viewtopic.php?pid=17", "GET /viewtopic.php?id=2"}},
		{"12", "13 14 15 16 17", []string{last, "GET /viewtopic.php?pid=17"}},
		{"17", "", []string{last}},
	} {
		n := len(srv.requests())
		posts, next, err := fm.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: c.after})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range posts {
			ids = append(ids, p.ID)
		}
		if strings.Join(ids, " ") != c.ids || next.PostID != "17" {
			t.Errorf("after %q: %v, cursor %+v", c.after, ids, next)
		}
		if got := srv.requests()[n:]; !equalStrings(got, c.requests) {
			t.Errorf("after %q: requests %v, want %v", c.after, got, c.requests)
		}
	}
}

// A windows-1251 board: pages are decoded from cp1251 (characters cp1251 lacks arrive as &#NNNN;),
// and replies are encoded in cp1251 with &#NNNN; for what it cannot hold.
func TestWindows1251Board(t *testing.T) {
	srv := newFakePunBB(t)
	srv.cp1251 = true
	srv.loggedIn = true
	fm, _ := newForum(t, srv, nil)
	posts, _, err := fm.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: "12"})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]forum.Post{}
	for _, p := range posts {
		byID[p.ID] = p
	}
	if got := byID["14"]; got.Author != "Джелу" || got.Text != "Понял, исправляюсь.\n2-й ход крестоносца в2 на H4" {
		t.Errorf("post 14 from cp1251: %+v", got)
	}
	if got := byID["15"].Text; !strings.HasPrefix(got, "Ход принят: крестоносец в2 H3 → H4.\n") {
		t.Errorf("post 15 from cp1251: %q", got)
	}
	if q := byID["13"].Quotes; len(q) != 1 || q[0].Author != "gm-bot" || !strings.Contains(q[0].Text, "Ход отклонён") {
		t.Errorf("post 13 quotes from cp1251: %+v", q)
	}
	body := "Ход принят: в2 H3 → H4 ♞ «ок»"
	if _, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, body); err != nil {
		t.Fatal(err)
	}
	raw := srv.rawPosts[len(srv.rawPosts)-1]
	if !bytes.Contains(raw, []byte("req_message=%D5%EE%E4+")) {
		t.Errorf("reply not encoded in cp1251: %s", raw)
	}
	msg, err := charmap.Windows1251.NewDecoder().String(srv.posts[len(srv.posts)-1].Get("req_message"))
	if err != nil {
		t.Fatal(err)
	}
	if msg != "Ход принят: в2 H3 &#8594; H4 &#9822; «ок»" {
		t.Errorf("cp1251 reply decodes to %q", msg)
	}
}

func TestRegistered(t *testing.T) {
	fm, err := Dialect().Open(forum.Config{BaseURL: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	if c := fm.Capabilities(); c.PrivateMessages || c.MaxPostLength != 32767 {
		t.Errorf("capabilities %+v", c)
	}
}
