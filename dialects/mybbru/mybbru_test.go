package mybbru

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/internal/meter"
	"forumgm/internal/testkit"
)

// board is a loopback MyBB.ru stand-in serving the windows-1251 test pages.
type board struct {
	t        *testing.T
	base     string
	mu       sync.Mutex
	requests []string
	posted   []url.Values // decoded from windows-1251
	rawBody  []string
	logins   int
	floods   int
	tooLong  int
	nextID   int
	mergeID  string
	lastPID  string        // the post action=last names ("" = 12)
	meter    *meter.Server // counts what the board exchanges
	// wording replaces texts of the pages (in UTF-8; the page is re-encoded to windows-1251).
	wording *strings.Replacer
}

func (b *board) serve(w http.ResponseWriter, name string) {
	raw, err := os.ReadFile(filepath.Join("testdata", "pages", name))
	if err != nil {
		b.t.Fatal(err)
	}
	// The pages link to the hosting's name; point them at the loopback server.
	raw = []byte(strings.ReplaceAll(string(raw), "http://forum.example.mybb.ru", b.base))
	if b.wording != nil {
		page, err := charmap.Windows1251.NewDecoder().String(string(raw))
		if err != nil {
			b.t.Fatal(err)
		}
		if page, err = charmap.Windows1251.NewEncoder().String(b.wording.Replace(page)); err != nil {
			b.t.Fatal(err)
		}
		raw = []byte(page)
	}
	w.Header().Set("Content-Type", "text/html; charset=windows-1251")
	_, _ = w.Write(raw)
}

func decode1251(t *testing.T, v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		for _, s := range vs {
			d, err := charmap.Windows1251.NewDecoder().String(s)
			if err != nil {
				t.Fatal(err)
			}
			out.Add(k, d)
		}
	}
	return out
}

func (b *board) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests = append(b.requests, r.Method+" "+r.URL.RequestURI())
	q := r.URL.Query()
	logged := false
	if c, err := r.Cookie("mybb_ru"); err == nil && c.Value == "gm-bot" {
		logged = true
	}
	switch {
	case r.URL.Path == "/login.php" && r.Method == "GET":
		b.serve(w, "login-form.html")
	case r.URL.Path == "/login.php":
		if err := r.ParseForm(); err != nil {
			b.t.Fatal(err)
		}
		v := decode1251(b.t, r.PostForm)
		b.logins++
		if q.Get("action") != "in" || v.Get("form_sent") != "1" || v.Get("req_username") != "gm-bot" || v.Get("req_password") != "Пароль1" {
			b.serve(w, "login-error.html")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "mybb_ru", Value: "gm-bot", Path: "/"})
		http.Redirect(w, r, v.Get("redirect_url"), http.StatusFound)
	case r.URL.Path == "/viewtopic.php":
		if q.Get("action") == "last" {
			last := b.lastPID
			if last == "" {
				last = "12"
			}
			http.Redirect(w, r, "/viewtopic.php?pid="+last+"#p"+last, http.StatusFound)
			return
		}
		if q.Get("p") == "1" {
			b.serve(w, "viewtopic-id2-p1.html")
			return
		}
		b.serve(w, "viewtopic-id2-p2.html")
	case r.URL.Path == "/viewforum.php" && q.Get("id") == "2":
		b.serve(w, "viewforum-id2.html")
	case r.URL.Path == "/post.php" && r.Method == "GET":
		if !logged {
			b.serve(w, "message-no-permission.html")
			return
		}
		b.serve(w, "post-reply-form.html")
	case r.URL.Path == "/post.php":
		body := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		b.rawBody = append(b.rawBody, string(body))
		pv, err := url.ParseQuery(string(body))
		if err != nil {
			b.t.Fatal(err)
		}
		v := decode1251(b.t, pv)
		b.posted = append(b.posted, v)
		switch {
		case q.Get("action") != "post" || q.Get("tid") != "2":
			http.NotFound(w, r)
		case b.floods > 0:
			b.floods--
			b.serve(w, "post-error-flood.html")
		case b.tooLong > 0 && len(v.Get("req_message")) > b.tooLong:
			b.serve(w, "post-error-too-long.html")
		case b.mergeID != "":
			http.Redirect(w, r, "/viewtopic.php?pid="+b.mergeID+"#p"+b.mergeID, http.StatusFound)
		default:
			b.nextID++
			http.Redirect(w, r, "/viewtopic.php?pid="+strconv.Itoa(b.nextID)+"#p"+strconv.Itoa(b.nextID), http.StatusFound)
		}
	default:
		http.NotFound(w, r)
	}
}

func setup(t *testing.T) (*board, *testkit.Clock, *Forum) {
	t.Helper()
	clock := testkit.NewClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	b := &board{t: t, nextID: 12}
	srv := meter.NewServer(b)
	b.meter = srv
	t.Cleanup(srv.Close)
	b.base = srv.URL
	msk, _ := time.LoadLocation("Europe/Moscow")
	cfg := forum.Config{BaseURL: srv.URL + "/", Username: "gm-bot", Password: "Пароль1", Location: msk, Now: clock.Now}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, Sleep: clock.Sleep})
	f, err := New(cfg, options{Client: c, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	return b, clock, f
}

func TestLogin(t *testing.T) {
	b, _, f := setup(t)
	if err := f.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.cfg.Password = "нет"
	if err := f.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("err = %v, want ErrBadLogin", err)
	}
	if b.logins != 2 {
		t.Errorf("%d logins", b.logins)
	}
}

// The reply goes out in windows-1251 with &#NNNN; for what cp1251 lacks, with all the form's fields.
func TestReplyWindows1251(t *testing.T) {
	b, _, f := setup(t)
	ctx := context.Background()
	body := "1-й ход сарацина н2 на G5 ♞ «ёЁ»"
	id, merged, err := f.Reply(ctx, forum.Thread{ID: "2"}, body) // not logged in yet: relogin
	if err != nil {
		t.Fatal(err)
	}
	if id != "13" || merged {
		t.Errorf("id %q merged %v", id, merged)
	}
	if b.logins != 1 {
		t.Errorf("%d logins, want 1 (re-login on the guest's no-permission page)", b.logins)
	}
	got := b.posted[0]
	want := url.Values{
		"form_sent":   {"1"},
		"form_user":   {"gm-bot"},
		"req_message": {"1-й ход сарацина н2 на G5 &#9822; «ёЁ»"},
		"subscribe":   {"1"},
		"submit":      {"Отправить"},
	}
	if got.Encode() != want.Encode() {
		t.Errorf("fields:\n %v\nwant\n %v", got, want)
	}
	if !strings.Contains(b.rawBody[0], "%F5%EE%E4") { // "ход" in cp1251
		t.Errorf("body not windows-1251: %s", b.rawBody[0])
	}
}

// Flood control and a message too long come back typed: the daemon waits and splits.
func TestReplyFloodAndTooLong(t *testing.T) {
	b, clock, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.floods = 1
	var fe *forum.FloodError
	if _, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст"); !errors.As(err, &fe) || fe.Wait != 15*time.Second {
		t.Fatalf("flood: %v, want the 15 s the message names", err)
	}
	if sleeps := clock.Sleeps(); len(sleeps) != 0 {
		t.Errorf("sleeps %v: the dialect never waits out flood control", sleeps)
	}
	b.tooLong = 25
	body := "первый абзац\n\nвторой абзац\n\nтретий абзац"
	if _, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, body); !errors.Is(err, forum.ErrTooLong) {
		t.Fatalf("too long: %v", err)
	}
}

// The flood refusal in PunBB 1.2's Russian wording (github.com/neofutur/MyBestBB commit
// e3773d1d4659846c038992b91358724043af1cb9, lang/Russian/post.php 'Flood start' + N + 'flood end'):
// its interval is the wait of the flood error.
func TestReplyFloodPunBB12Wording(t *testing.T) {
	b, _, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.wording = strings.NewReplacer("Должно пройти как минимум 15 секунд между сообщениями. Подождите немного и попробуйте снова.",
		"Должно пройти, по крайней мере 40 секунд, между отправкой сообщений. Пожалуйста, попробуйте отправить очередное сообщение немного позже.")
	b.floods = 1
	var fe *forum.FloodError
	if _, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст"); !errors.As(err, &fe) || fe.Wait != 40*time.Second {
		t.Errorf("flood: %v, want the 40 s the message names", err)
	}
}

func TestMergedReply(t *testing.T) {
	b, _, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "11"}); err != nil {
		t.Fatal(err)
	}
	b.mergeID = "12" // the board glued the text onto post 12
	id, merged, err := f.Reply(ctx, forum.Thread{ID: "2"}, "ещё")
	if err != nil || id != "12" || !merged {
		t.Errorf("id %q merged %v err %v", id, merged, err)
	}
}

func TestPostsFromCursor(t *testing.T) {
	b, _, f := setup(t)
	ctx := context.Background()
	posts, cur, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "10"})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 2 || posts[0].ID != "11" || cur.PostID != "12" || cur.Page != 2 {
		t.Errorf("posts %v cursor %+v", posts, cur)
	}
	if strings.Join(b.requests, ",") != "GET /viewtopic.php?id=2&action=last,GET /viewtopic.php?pid=12" {
		t.Errorf("requests %v", b.requests)
	}
	b.requests = nil
	posts, _, err = f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "6"})
	if err != nil || len(posts) != 6 || posts[0].ID != "7" {
		t.Errorf("walk back: %d posts, err %v", len(posts), err)
	}
	if len(b.requests) != 3 || !strings.HasSuffix(b.requests[2], "id=2&p=1") {
		t.Errorf("requests %v", b.requests)
	}
	if posts[0].Author != "Moderator" || posts[0].Time.IsZero() {
		t.Errorf("post %+v", posts[0])
	}
}

func TestNoPM(t *testing.T) {
	_, _, f := setup(t)
	// Refused as forum.ErrNoPM, the log saying where the operator reads why and what unblocks it.
	if err := f.SendPM(context.Background(), "a", "b", "c"); !errors.Is(err, forum.ErrNoPM) || !strings.Contains(err.Error(), "dialects/mybbru/README.md") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := f.Inbox(context.Background(), forum.Cursor{}); !errors.Is(err, forum.ErrNoPM) || !strings.Contains(err.Error(), "dialects/mybbru/README.md") {
		t.Errorf("err = %v", err)
	}
	if f.Capabilities().PrivateMessages {
		t.Error("claims PMs")
	}
}

func TestClassify(t *testing.T) {
	_, _, f := setup(t)
	var fe *forum.FloodError
	if err := f.classify("Должно пройти как минимум 15 секунд между сообщениями. Подождите немного и попробуйте снова."); !errors.As(err, &fe) || fe.Wait != 15*time.Second {
		t.Errorf("flood: %v", err)
	}
	if err := f.classify("Сообщения не могут быть длиннее 65535 байт (64 КБ)."); !errors.Is(err, forum.ErrTooLong) {
		t.Errorf("too long: %v", err)
	}
	if err := f.classify("У вас нет прав для доступа к этой странице."); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("no permission: %v", err)
	}
	// PunBB 1.2's Russian pack, which MyBB.ru grew out of: github.com/neofutur/MyBestBB, commit
	// e3773d1d4659846c038992b91358724043af1cb9 (windows-1251), and github.com/Gemorroj/punbb-mod,
	// commit 8e52d5e01ea5b7806437282809c3713814d9f9c2, lang/Russian/post.php ('Flood start' + the
	// group's interval + 'flood end', as post.php joins them; 'No message'; 'Too long message'),
	// common.php 'No permission', login.php 'Wrong user/pass'.
	if err := f.classify("Должно пройти, по крайней мере 30 секунд, между отправкой сообщений. Пожалуйста, попробуйте отправить очередное сообщение немного позже."); !errors.As(err, &fe) || fe.Wait != 30*time.Second {
		t.Errorf("PunBB 1.2 flood: %v", err)
	}
	for msg, want := range map[string]error{
		"Вы должны ввести текст сообщения.":                       forum.ErrTooShort,
		"Сообщение не может быть длиннее 65535 символов (64 KB).": forum.ErrTooLong,
		"Вы не имеете прав для доступа к этой странице.":          forum.ErrNoPermission,
	} {
		if err := f.classify(msg); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", msg, err, want)
		}
	}
	if !reBadUser.MatchString("Неправильное имя и/или пароль.") {
		t.Error("PunBB 1.2 'Wrong user/pass' not recognised")
	}
}
