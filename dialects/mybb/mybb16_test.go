package mybb

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// fake16 serves the pages captured from a real MyBB 1.6.18 (testdata/forums/mybb16) over
// loopback HTTP the way that board answered: login form (guest my_post_key) → login result
// (mybbuser cookie); thread pages as guest or member (horizontal postbit, or classic when the
// classic flag is set); action=lastpost → 302; the reply and PM forms for members; POSTs
// answered from scripts of captured result pages.
type fake16 struct {
	t   testing.TB
	srv *httptest.Server
	dir string

	mu       sync.Mutex
	requests []string
	logins   []url.Values
	posts    []url.Values
	sessions map[string]bool
	replies  []string // pages answering newreply POSTs, in order
	pms      []string // pages answering private.php POSTs
	lastPID  string   // what action=lastpost points at
	classic  bool     // thread pages in the classic postbit layout
	// moderator: page 1 as the administrator saw it (the moderation tools), for the bot
	moderator bool
}

func newFake16(t testing.TB) *fake16 {
	f := &fake16{t: t, dir: fixture.Dir(t, "mybb16"), sessions: map[string]bool{}, lastPID: "14"}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake16) page(name string) []byte {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(b), "http://127.0.0.1:18300", f.srv.URL))
}

func (f *fake16) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s1", Path: "/", HttpOnly: true})
	q := r.URL.Query()
	send := func(name string) { w.Write(f.page(name)) }
	c, err := r.Cookie("mybbuser")
	member := err == nil && f.sessions[c.Value]
	next := func(script *[]string) {
		if len(*script) == 0 {
			f.t.Errorf("unexpected POST %s", r.URL)
			send("27-reply-error-badkey.gm-bot.html")
			return
		}
		name := (*script)[0]
		*script = (*script)[1:]
		send(name)
	}
	switch {
	case r.URL.Path == "/member.php" && r.Method == http.MethodGet && q.Get("action") == "login":
		send("01-login-form.guest.html")
	case r.URL.Path == "/member.php" && r.Method == http.MethodPost:
		f.logins = append(f.logins, r.PostForm)
		if r.PostForm.Get("username") != "gm-bot" || r.PostForm.Get("password") != "GmBotPass1" {
			send("03-login-error.guest.html")
			return
		}
		f.sessions["2_key"] = true
		http.SetCookie(w, &http.Cookie{Name: "mybbuser", Value: "2_key", Path: "/", HttpOnly: true})
		send("02-login-success.gm-bot.html")
	case r.URL.Path == "/showthread.php" && q.Get("action") == "lastpost":
		w.Header().Set("Location", "showthread.php?tid=1&pid="+f.lastPID+"#pid"+f.lastPID)
		w.WriteHeader(http.StatusFound)
	case r.URL.Path == "/showthread.php":
		p2 := q.Get("page") == "2" || len(q.Get("pid")) > 1 || q.Get("pid") == "9"
		name := map[[3]bool]string{
			{false, false, false}: "10-thread-p1.guest.html", {true, false, false}: "11-thread-p2.guest.html",
			{false, true, false}: "12-thread-p1.gm-bot.html", {true, true, false}: "13-thread-p2.gm-bot.html",
			{false, false, true}: "60-thread-p1-classic.guest.html", {true, false, true}: "61-thread-p2-classic.guest.html",
			{false, true, true}: "62-thread-p1-classic.gm-bot.html", {true, true, true}: "63-thread-p2-classic.gm-bot.html",
		}[[3]bool{p2, member, f.classic}]
		if f.moderator && member && !p2 {
			name = "19-thread-p1-classic.admin.html"
		}
		send(name)
	case r.URL.Path == "/forumdisplay.php" && q.Get("fid") == "2":
		send("16-forumdisplay-fid2.guest.html")
	case r.URL.Path == "/xmlhttp.php" && q.Get("action") == "get_users":
		// What the board answered for "Дже" and for "nobody" (LIKE ignores case); shorter queries get nothing.
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		switch {
		case strings.HasPrefix("джелу", strings.ToLower(q.Get("query"))) && len([]rune(q.Get("query"))) >= 3:
			send("38-xmlhttp-get-users-dzhe.gm-bot.txt")
		default:
			send("39-xmlhttp-get-users-nobody.gm-bot.txt")
		}
	case r.URL.Path == "/index.php":
		send("17-index-with-pm-notice.dzhelu.html")
	case r.URL.Path == "/newreply.php" && !member:
		send("26-newreply-noperm.guest.html")
	case r.URL.Path == "/newreply.php" && r.Method == http.MethodGet:
		send("20-newreply-form.gm-bot.html")
	case r.URL.Path == "/newreply.php":
		f.posts = append(f.posts, r.PostForm)
		next(&f.replies)
	case r.URL.Path == "/editpost.php" && !member:
		send("26-newreply-noperm.guest.html")
	case r.URL.Path == "/editpost.php" && r.Method == http.MethodGet && q.Get("pid") == "5":
		send("40-editpost-form-pid5.dzhelu.html")
	case r.URL.Path == "/editpost.php" && r.Method == http.MethodPost:
		f.posts = append(f.posts, r.PostForm)
		send("41-editpost-success.dzhelu.html")
	case r.URL.Path == "/private.php" && !member:
		send("26-newreply-noperm.guest.html")
	case r.URL.Path == "/private.php" && r.Method == http.MethodPost:
		f.posts = append(f.posts, r.PostForm)
		next(&f.pms)
	case r.URL.Path == "/private.php" && q.Get("action") == "send":
		send("30-pm-compose.gm-bot.html")
	case r.URL.Path == "/private.php" && q.Get("action") == "read" && q.Get("pmid") == "1":
		send("34-pm-read.dzhelu.html")
	case r.URL.Path == "/private.php" && q.Get("action") == "" && q.Get("fid") == "2":
		send("35-pm-sent-folder.gm-bot.html")
	case r.URL.Path == "/private.php" && q.Get("action") == "":
		send("33-pm-inbox.dzhelu.html")
	default:
		http.NotFound(w, r)
	}
}

func (f *fake16) forum(tb testing.TB) *Forum {
	tb.Helper()
	client := forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, BaseDelay: time.Millisecond,
		Sleep: func(ctx2 context.Context, d time.Duration) error { return ctx2.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC,
		Now: func() time.Time { return time.Date(2026, 12, 1, 9, 47, 0, 0, time.UTC) }}, WithClient(client))
	if err != nil {
		tb.Fatal(err)
	}
	return fm
}

// MyBB 1.6's login page has no my_post_key input (only the page's script variable): the guest
// key goes back with the form, and the redirect page means logged in. A wrong password is
// ErrBadLogin.
func TestMyBB16Login(t *testing.T) {
	fk := newFake16(t)
	if err := fk.forum(t).Login(ctx); err != nil {
		t.Fatal(err)
	}
	got := fk.logins[0]
	for k, v := range map[string]string{"action": "do_login", "my_post_key": "a929c623c9db0bd5dda2e922b968b9d2",
		"username": "gm-bot", "password": "GmBotPass1", "remember": "yes", "url": "", "submit": "Login"} {
		if got.Get(k) != v || !got.Has(k) {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	fm := fk.forum(t)
	fm.cfg.Password = "wrong"
	if err := fm.Login(ctx); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("wrong password: %v", err)
	}
}

// A reply through 1.6's full form: its fields go back with the message, the flood error ("Please
// wait 31 more seconds.") comes back with its wait, and the next try's redirect names the new post.
func TestMyBB16ReplyFloodThenSuccess(t *testing.T) {
	fk := newFake16(t)
	fk.lastPID = "13"
	fk.replies = []string{"28-reply-error-flood.snezhana.html", "22-reply-success.gm-bot.html"}
	fm := fk.forum(t)
	var fe *forum.FloodError
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход 3 сарацин принят (н2 на F4)."); !errors.As(err, &fe) || fe.Wait != 31*time.Second {
		t.Fatalf("flood: %v, want 31 s", err)
	}
	id, merged, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход 3 сарацин принят (н2 на F4).")
	if err != nil || id != "14" || merged {
		t.Fatalf("reply: %q merged=%v %v", id, merged, err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs, want 2", len(fk.posts))
	}
	for i, got := range fk.posts {
		for k, v := range map[string]string{"my_post_key": "b18233f3fcd4bf0b6741c81c8bd1e8f1", "posthash": postHash16(t, fk),
			"tid": "1", "action": "do_newreply", "subject": "RE: Крестовый поход — партия 1", "replyto": "0", "icon": "-1",
			"message": "Ход 3 сарацин принят (н2 на F4).", "submit": "Post Reply", "postoptions[signature]": "1"} {
			if !got.Has(k) || got.Get(k) != v {
				t.Errorf("POST %d: %s = %q, want %q", i, k, got.Get(k), v)
			}
		}
		if got.Has("previewpost") || got.Has("savedraft") {
			t.Errorf("POST %d pressed another button", i)
		}
	}
}

func postHash16(t *testing.T, fk *fake16) string {
	page := string(fk.page("20-newreply-form.gm-bot.html"))
	i := strings.Index(page, `name="posthash" value="`)
	if i < 0 {
		t.Fatal("no posthash in the captured form")
	}
	rest := page[i+len(`name="posthash" value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// A PM through 1.6's compose form: flood ("Please wait 55 more seconds.") comes back with its
// wait, then the next try is sent;
// no read receipt asked for, a copy kept.
func TestMyBB16SendPM(t *testing.T) {
	fk := newFake16(t)
	fk.pms = []string{"37-pm-send-error-flood.gm-bot.html", "31-pm-send-success.gm-bot.html"}
	fm := fk.forum(t)
	var fe *forum.FloodError
	if err := fm.SendPM(ctx, "Джелу", "Ваш ход — партия 1", "Джелу, ваш ход."); !errors.As(err, &fe) || fe.Wait != 55*time.Second {
		t.Fatalf("flood: %v, want 55 s", err)
	}
	if err := fm.SendPM(ctx, "Джелу", "Ваш ход — партия 1", "Джелу, ваш ход."); err != nil {
		t.Fatal(err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs", len(fk.posts))
	}
	got := fk.posts[1]
	for k, v := range map[string]string{"my_post_key": "b18233f3fcd4bf0b6741c81c8bd1e8f1", "action": "do_send", "to": "Джелу",
		"subject": "Ваш ход — партия 1", "message": "Джелу, ваш ход.", "options[savecopy]": "1", "submit": "Send Message"} {
		if !got.Has(k) || got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	if got.Has("options[readreceipt]") {
		t.Error("a read receipt was asked for")
	}
	// The same PM again within five minutes: MyBB says it has it already.
	fk.pms = []string{"32-pm-send-error-duplicate.gm-bot.html"}
	if err := fk.forum(t).SendPM(ctx, "Джелу", "Ваш ход — партия 1", "Джелу, ваш ход."); !errors.Is(err, forum.ErrAmbiguous) {
		t.Errorf("duplicate PM: %v", err)
	}
}

// Reading a 1.6 thread from a cursor: the idle check is one action=lastpost probe and no page;
// a newer post reads the pages from the cursor's; both postbit layouts give the same posts.
func TestMyBB16PostsAndIdleCheck(t *testing.T) {
	for _, classic := range []bool{false, true} {
		fk := newFake16(t)
		fk.classic = classic
		fm := fk.forum(t)
		posts, cur, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
		if err != nil || len(posts) != 14 || cur.PostID != "14" || cur.Page != 2 {
			t.Fatalf("classic=%v: %d posts, cursor %+v, %v", classic, len(posts), cur, err)
		}
		if posts[4].ID != "5" || posts[4].Author != "Джелу" || !posts[4].Edited || posts[9].Quotes[0].Author != "gm-bot" {
			t.Errorf("classic=%v: posts %+v / %+v", classic, posts[4], posts[9])
		}
		n := len(fk.requests)
		posts, cur2, err := fm.Posts(ctx, forum.Thread{ID: "1"}, cur)
		if err != nil || len(posts) != 0 || cur2.PostID != "14" || len(fk.requests) != n+1 || !strings.Contains(fk.requests[n], "action=lastpost") {
			t.Errorf("classic=%v idle: %d posts, %+v, %v, requests %v", classic, len(posts), cur2, err, fk.requests[n:])
		}
		// A cursor on page 1 (pid 8): the probe says 14, pages 1 and 2 are read.
		posts, cur3, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "8", Page: 1})
		if err != nil || len(posts) != 6 || posts[0].ID != "9" || cur3.PostID != "14" || cur3.Page != 2 {
			t.Errorf("classic=%v from 8: %d posts, %+v, %v", classic, len(posts), cur3, err)
		}
	}
}

// The section list and the board index of 1.6; the inbox read through the session.
func TestMyBB16SectionBoardInbox(t *testing.T) {
	fk := newFake16(t)
	fm := fk.forum(t)
	heads, err := fm.Section(ctx, "2")
	if err != nil || len(heads) != 2 || heads[1].ID != "1" || heads[1].Replies != 13 || heads[1].LastPoster != "gm-bot" ||
		!heads[1].LastAt.Equal(time.Date(2026, 12, 1, 9, 46, 0, 0, time.UTC)) {
		t.Errorf("section %+v, %v", heads, err)
	}
	board, err := fm.Board(ctx)
	if err != nil || len(board) != 1 || board[0].Posts != 15 {
		t.Errorf("board %+v, %v", board, err)
	}
	in, cur, err := fm.Inbox(ctx, forum.Cursor{})
	if err != nil || len(in) != 1 || in[0].ID != "1" || in[0].Author != "gm-bot" || len(in[0].Code) != 1 || cur.PostID != "1" {
		t.Errorf("inbox %+v %+v, %v", in, cur, err)
	}
	// The thread page tells the forum it is in (the breadcrumb), as on 1.8.
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	if s := fm.SectionOf(forum.Thread{ID: "1"}); s != "2" {
		t.Errorf("section of thread 1: %q", s)
	}
}

// A session the board dropped: 1.6's no-permission page (its message holds a login form's table)
// is read as logged out, the bot logs in again and the reply is made.
func TestMyBB16ReloginOnNoPermission(t *testing.T) {
	fk := newFake16(t)
	fk.lastPID = "13"
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	fm := fk.forum(t)
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	fk.mu.Lock()
	fk.sessions = map[string]bool{}
	fk.mu.Unlock()
	id, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят.")
	if err != nil || id != "14" || len(fk.logins) != 2 {
		t.Errorf("reply %q, %v, %d logins (want 2)", id, err, len(fk.logins))
	}
}

// The PM form's name lookup on 1.6: an HTML fragment per user, nothing for no user; a name
// shorter than the board's 3-character minimum cannot be told.
func TestMyBB16UserExists(t *testing.T) {
	fm := newFake16(t).forum(t)
	for name, want := range map[string]bool{"Джелу": true, "джелу": true, "Дже": false, "nobody": false} {
		if got, err := fm.UserExists(ctx, name); err != nil || got != want {
			t.Errorf("UserExists(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := fm.UserExists(ctx, "Дж"); err == nil {
		t.Error("a 2-character name was answered")
	}
}

// FloodExempt on 1.6: the thread page's moderation tools tell a moderator (whom MyBB's flood
// check skips); the bot's own page shows none.
func TestMyBB16FloodExempt(t *testing.T) {
	for _, mod := range []bool{false, true} {
		fk := newFake16(t)
		fk.moderator = mod
		exempt, why, err := fk.forum(t).FloodExempt(ctx, forum.Thread{ID: "1"})
		if err != nil || exempt != mod || why == "" {
			t.Errorf("moderator=%v: exempt %v (%q), %v", mod, exempt, why, err)
		}
	}
}

// A 1.6 reply merged into the thread's last post: the redirect names that post (not above the
// thread's newest, probed with action=lastpost), so the reply is reported merged.
func TestMyBB16ReplyMerged(t *testing.T) {
	fk := newFake16(t)
	fk.lastPID = "15"
	fk.replies = []string{"23-reply-automerged-tid2.snezhana.html"}
	id, merged, err := fk.forum(t).Reply(ctx, forum.Thread{ID: "2"}, "Уточнение.")
	if err != nil || id != "15" || !merged {
		t.Errorf("%q merged=%v %v", id, merged, err)
	}
}

// Editing through 1.6's edit form (the page also has the delete form first, and no edit-reason
// field): the raw text comes from the form, the new text goes back with its other fields.
func TestMyBB16EditPost(t *testing.T) {
	fk := newFake16(t)
	var seen string
	err := fk.forum(t).EditPost(ctx, forum.Thread{ID: "1"}, "5", func(text string) (string, error) {
		seen = text
		return strings.Replace(text, "на С5", "на C4", 1), nil
	})
	if err != nil || seen != "Мой ход:\n1-й ход крестоносца в1 на С5" || len(fk.posts) != 1 {
		t.Fatalf("%v, seen %q, %d POSTs", err, seen, len(fk.posts))
	}
	got := fk.posts[0]
	for k, v := range map[string]string{"my_post_key": "9741954f4e50348607af83feb17326bf", "action": "do_editpost",
		"subject": "RE: Крестовый поход — партия 1", "message": "Мой ход:\n1-й ход крестоносца в1 на C4", "submit": "Update Post"} {
		if !got.Has(k) || got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	if got.Has("delete") {
		t.Error("the delete box was sent")
	}
	// 1.6's form carries the post id only in its action URL.
	if last := fk.requests[len(fk.requests)-1]; last != "POST /editpost.php?pid=5&processed=1" {
		t.Errorf("posted to %q", last)
	}
}
