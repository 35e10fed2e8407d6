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

// fakeRu serves the pages captured from a real MyBB 1.8.37 running the Russian pack of
// kmitrakov/MyBB-Russian-Language-Pack (testdata/forums/mybb-russian) over loopback HTTP the
// way that board answered: login form → login result (mybbuser cookie) or the pack's "неверную
// комбинацию имени пользователя/пароля"; thread pages as guest or member; action=lastpost →
// 302; the reply and PM forms for members; POSTs answered from scripts of captured result pages.
type fakeRu struct {
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
}

func newFakeRu(t testing.TB) *fakeRu {
	f := &fakeRu{t: t, dir: fixture.Dir(t, "mybb-russian"), sessions: map[string]bool{}, lastPID: "13"}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeRu) page(name string) []byte {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(b), "http://127.0.0.1:18450", f.srv.URL))
}

func (f *fakeRu) serve(w http.ResponseWriter, r *http.Request) {
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
		f.sessions["4_key"] = true
		http.SetCookie(w, &http.Cookie{Name: "mybbuser", Value: "4_key", Path: "/", HttpOnly: true})
		send("02-login-success.gm-bot.html")
	case r.URL.Path == "/showthread.php" && q.Get("action") == "lastpost":
		w.Header().Set("Location", "showthread.php?tid=1&pid="+f.lastPID+"#pid"+f.lastPID)
		w.WriteHeader(http.StatusFound)
	case r.URL.Path == "/showthread.php":
		p2 := q.Get("page") == "2" || len(q.Get("pid")) > 1 || q.Get("pid") == "9"
		send(map[[2]bool]string{
			{false, false}: "10-thread-p1.guest.html", {true, false}: "11-thread-p2.guest.html",
			{false, true}: "12-thread-p1.gm-bot.html", {true, true}: "13-thread-p2.gm-bot.html",
		}[[2]bool{p2, member}])
	case r.URL.Path == "/forumdisplay.php" && q.Get("fid") == "2":
		send("16-forumdisplay-fid2.guest.html")
	case r.URL.Path == "/index.php":
		send("17-index-with-pm-notice.dzhelu.html")
	case r.URL.Path == "/newreply.php" && !member:
		send("26-newreply-noperm.guest.html")
	case r.URL.Path == "/newreply.php" && r.Method == http.MethodGet:
		send("20-newreply-form.gm-bot.html")
	case r.URL.Path == "/newreply.php":
		f.posts = append(f.posts, r.PostForm)
		next(&f.replies)
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

func (f *fakeRu) forum(tb testing.TB, password string) *Forum {
	tb.Helper()
	client := forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, BaseDelay: time.Millisecond,
		Sleep: func(ctx2 context.Context, d time.Duration) error { return ctx2.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL + "/", Username: "gm-bot", Password: password,
		Location: time.FixedZone("MSK", 3*3600), // the board's time zone
		Now:      func() time.Time { return time.Date(2026, 12, 1, 11, 12, 0, 0, time.UTC) }}, WithClient(client))
	if err != nil {
		tb.Fatal(err)
	}
	return fm
}

// End to end on the Russian board's pages: a wrong password is the pack's "неверную комбинацию
// имени пользователя/пароля" (ErrBadLogin); the right one logs in; a reply refused with the
// pack's flood message ("подождите еще 22 секунд(ы)") is waited out and posted, the redirect
// naming the new post; the same reply again is the pack's "Вы уже отправляли этот ответ"
// (ErrAlreadyPosted); a too short one is ErrTooShort.
func TestRussianLoginAndReply(t *testing.T) {
	fk := newFakeRu(t)
	if err := fk.forum(t, "WrongPass9").Login(ctx); !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("wrong password: %v", err)
	}
	fm := fk.forum(t, "GmBotPass1")
	if err := fm.Login(ctx); err != nil {
		t.Fatalf("login: %v", err)
	}
	for i, got := range fk.logins {
		for k, v := range map[string]string{"action": "do_login", "my_post_key": "e836f93e560029ffe29ebbd514ffd912", "username": "gm-bot"} {
			if got.Get(k) != v {
				t.Errorf("login %d: %s = %q, want %q", i, k, got.Get(k), v)
			}
		}
	}

	fk.replies = []string{"46-reply-error-flood.gm-bot.html", "47-reply-after-flood.gm-bot.html"}
	fk.lastPID = "17"
	fm = fk.forum(t, "GmBotPass1")
	var fe *forum.FloodError
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход 12 принят, сарацины думают."); !errors.As(err, &fe) || fe.Wait != 22*time.Second {
		t.Fatalf("flood: %v, want 22 s", err)
	}
	id, merged, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход 12 принят, сарацины думают.")
	if err != nil || id != "18" || merged {
		t.Fatalf("reply: %q merged=%v %v", id, merged, err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs, want 2", len(fk.posts))
	}
	for i, got := range fk.posts {
		for k, v := range map[string]string{"my_post_key": "7573832497df62537b9ef9bc49718de5", "posthash": "2eb087392aff7bfcaed894c930efff91",
			"tid": "1", "action": "do_newreply", "subject": "RE: Крестовый поход — партия (русский пакет)",
			"message": "Ход 12 принят, сарацины думают.", "postoptions[signature]": "1"} {
			if !got.Has(k) || got.Get(k) != v {
				t.Errorf("POST %d: %s = %q, want %q", i, k, got.Get(k), v)
			}
		}
		if got.Has("previewpost") || got.Has("savedraft") || got.Has("language") {
			t.Errorf("POST %d pressed another button or sent the language form", i)
		}
	}

	for _, c := range []struct {
		page string
		want error
	}{
		{"23-reply-error-duplicate.gm-bot.html", forum.ErrAmbiguous},
		{"25-reply-error-tooshort.gm-bot.html", forum.ErrTooShort},
		{"24-reply-error-empty.gm-bot.html", forum.ErrTooShort},
	} {
		fk.replies = []string{c.page}
		if _, _, err := fk.forum(t, "GmBotPass1").Reply(ctx, forum.Thread{ID: "1"}, "Ход 12 принят, сарацины думают."); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.page, err, c.want)
		}
	}
}

// A PM on the Russian board: the pack's flood message ("подождите еще 59 секунд(ы)") comes back
// with its wait, then the next try is sent; the same PM again is the pack's "Вы уже отправляли такое же личное сообщение"
// (ErrAmbiguous); the inbox and the PM read page are read.
func TestRussianSendPM(t *testing.T) {
	fk := newFakeRu(t)
	fk.pms = []string{"37-pm-send-error-flood.gm-bot.html", "31-pm-send-success.gm-bot.html"}
	fm := fk.forum(t, "GmBotPass1")
	var fe *forum.FloodError
	if err := fm.SendPM(ctx, "Джелу", "Ваш ход в партии", "Джелу, ваш ход."); !errors.As(err, &fe) || fe.Wait != 59*time.Second {
		t.Fatalf("flood: %v, want 59 s", err)
	}
	if err := fm.SendPM(ctx, "Джелу", "Ваш ход в партии", "Джелу, ваш ход."); err != nil {
		t.Fatal(err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs", len(fk.posts))
	}
	got := fk.posts[1]
	for k, v := range map[string]string{"my_post_key": "7573832497df62537b9ef9bc49718de5", "action": "do_send", "to": "Джелу",
		"subject": "Ваш ход в партии", "message": "Джелу, ваш ход.", "options[savecopy]": "1"} {
		if !got.Has(k) || got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	if got.Has("options[readreceipt]") || got.Has("language") {
		t.Error("a read receipt was asked for, or the language form sent")
	}
	fk.pms = []string{"32-pm-send-error-duplicate.gm-bot.html"}
	if err := fm.SendPM(ctx, "Джелу", "Ваш ход в партии", "Джелу, ваш ход."); !errors.Is(err, forum.ErrAmbiguous) {
		t.Errorf("duplicate PM: %v", err)
	}

	pms, _, err := fm.Inbox(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pms) != 1 || pms[0].ID != "1" || pms[0].Author != "gm-bot" || pms[0].Subject != "Ваш ход в партии" ||
		!strings.Contains(pms[0].Text, "Джелу, ваш ход.") || pms[0].Time.IsZero() {
		t.Errorf("inbox: %+v", pms)
	}
}

// Reading the Russian thread from a cursor through the session: the posts after the cursor,
// dated in the board's time (GMT+3): «2 часов назад» with its title "01.12.2026, 12:10".
func TestRussianPosts(t *testing.T) {
	fk := newFakeRu(t)
	fm := fk.forum(t, "GmBotPass1")
	posts, cur, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "10", Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 3 || posts[0].ID != "11" || posts[2].ID != "13" || cur.PostID != "13" ||
		!posts[2].Time.Equal(time.Date(2026, 12, 1, 9, 10, 0, 0, time.UTC)) || !posts[1].Edited {
		t.Errorf("posts %+v cursor %+v", posts, cur)
	}
}

// A session the board dropped: the pack's guest no-permission page ("Вы либо не вошли в
// систему…", with its login form) is read as logged out, the bot logs in again and the reply is
// made.
func TestRussianReloginOnNoPermission(t *testing.T) {
	fk := newFakeRu(t)
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	fm := fk.forum(t, "GmBotPass1")
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	fk.mu.Lock()
	fk.sessions = map[string]bool{}
	fk.mu.Unlock()
	id, merged, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход 8 принят.")
	if err != nil || id != "14" || merged || len(fk.logins) != 2 {
		t.Errorf("reply %q merged=%v, %v, %d logins (want 2)", id, merged, err, len(fk.logins))
	}
}

// The Russian board's thread list ("1 час назад" with its title "01.12.2026, 12:10"), the board
// index and the forum a thread page names.
func TestRussianSectionBoard(t *testing.T) {
	fk := newFakeRu(t)
	fm := fk.forum(t, "GmBotPass1")
	heads, err := fm.Section(ctx, "2")
	if err != nil || len(heads) != 1 || heads[0].ID != "1" || heads[0].Replies != 12 || heads[0].LastPoster != "gm-bot" ||
		!heads[0].LastAt.Equal(time.Date(2026, 12, 1, 9, 10, 0, 0, time.UTC)) {
		t.Errorf("section %+v, %v", heads, err)
	}
	board, err := fm.Board(ctx)
	if err != nil || len(board) != 1 || board[0].ID != "2" {
		t.Errorf("board %+v, %v", board, err)
	}
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	if s := fm.SectionOf(forum.Thread{ID: "1"}); s != "2" {
		t.Errorf("section of thread 1: %q", s)
	}
}
