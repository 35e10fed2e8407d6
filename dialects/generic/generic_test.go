package generic

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
	"forumgm/internal/testkit"
)

// punbbExtra configures the generic dialect for PunBB 1.4 (the captured fixtures).
func punbbExtra() map[string]string {
	return map[string]string{
		"post": "div.post", "post_id": ".posthead@id", "post_id_re": `^p(\d+)$`,
		"permalink": ".posthead a.permalink@href", "permalink_format": "viewtopic.php?pid={id}#p{id}", "author": ".posthead .post-byline a || .posthead .post-byline strong",
		"author_id": ".posthead .post-byline a@href", "author_id_re": `id=(\d+)`,
		"time": ".posthead a.permalink", "time_layout": "2006-01-02 15:04:05",
		"body": ".post-entry .entry-content", "edited": ".posthead .post-edit",
		"quote": "div.quotebox", "quote_cite": "cite", "quote_author_re": `^(.+?)\s+wrote:`,
		"code": "div.codebox", "code_text": "pre",
		"page_current": "p.paging strong", "page_numbers": "p.paging a, p.paging strong", "required": "#brd-main",
		"thread_url": "viewtopic.php?id={thread}&p={page}",
		"thread_id":  "head link[href*='viewtopic.php?id=']@href", "thread_id_re": `[?&]id=(\d+)`,
		"last_page_url": "viewtopic.php?id={thread}&action=last",
		"logged_in":     "#navlogout",
		"login_url":     "login.php", "login_form": "form#afocus",
		"login_user_field": "req_username", "login_pass_field": "req_password", "login_extra": "save_pass=1&login=Login",
		"reply_url": "post.php?tid={thread}", "reply_form": "form#afocus", "reply_field": "req_message",
		"reply_extra": "submit_button=Submit reply", "reply_id_param": "pid",
		"error":               ".error-box li, .main-message p",
		"error_flood":         "have to pass between posts",
		"error_no_permission": "do not have permission",
		"error_too_short":     "must enter a message",
		"error_bad_login":     "Incorrect username",
	}
}

// punbbBoard replays the captured PunBB responses on loopback.
type punbbBoard struct {
	t        *testing.T
	base     string
	mu       sync.Mutex
	requests []string
	posted   []url.Values
	floods   int
}

func (b *punbbBoard) serve(w http.ResponseWriter, name string) {
	raw := fixture.Read(b.t, "punbb", name)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(strings.ReplaceAll(string(raw), "http://127.0.0.1:8083", b.base)))
}

func (b *punbbBoard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = r.ParseForm()
	b.requests = append(b.requests, r.Method+" "+r.URL.RequestURI())
	_, err := r.Cookie("forum_cookie_414004")
	member := err == nil
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/login.php" && r.Method == "GET":
		b.serve(w, "01-login-form.guest.html")
	case r.URL.Path == "/login.php":
		if r.PostForm.Get("req_password") != "GmBotPass1" || r.PostForm.Get("csrf_token") == "" || r.PostForm.Get("form_sent") != "1" {
			b.serve(w, "03-login-error.guest.html")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "forum_cookie_414004", Value: "x", Path: "/"})
		http.Redirect(w, r, "/viewtopic.php?id=2&login=1", http.StatusFound)
	case r.URL.Path == "/viewtopic.php" && q.Get("action") == "last":
		http.Redirect(w, r, "/viewtopic.php?pid=17#p17", http.StatusFound)
	case r.URL.Path == "/viewtopic.php" && (q.Get("p") == "2" || q.Get("pid") != ""):
		b.serve(w, map[bool]string{true: "13-thread-p2.gm-bot.html", false: "11-thread-p2.guest.html"}[member])
	case r.URL.Path == "/viewtopic.php":
		b.serve(w, map[bool]string{true: "12-thread-p1.gm-bot.html", false: "10-thread-p1.guest.html"}[member])
	case r.URL.Path == "/post.php" && r.Method == "GET":
		if !member {
			b.serve(w, "26-reply-noperm.guest.html")
			return
		}
		b.serve(w, "20-reply-form.gm-bot.html")
	case r.URL.Path == "/post.php":
		b.posted = append(b.posted, r.PostForm)
		if b.floods > 0 {
			b.floods--
			b.serve(w, "25b-reply-error-flood.gm-bot.html")
			return
		}
		http.Redirect(w, r, "/viewtopic.php?pid=18#p18", http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

func setup(t *testing.T) (*punbbBoard, *testkit.Clock, *Forum) {
	clock := testkit.NewClock(time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC))
	b := &punbbBoard{t: t}
	srv := httptest.NewServer(b)
	t.Cleanup(srv.Close)
	b.base = srv.URL
	cfg := forum.Config{BaseURL: srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC, Now: clock.Now, Extra: punbbExtra()}
	f, err := New(cfg, Options{Client: forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, Sleep: clock.Sleep}), Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	return b, clock, f
}

func TestGenericPunBBReplyWithRelogin(t *testing.T) {
	b, clock, f := setup(t)
	ctx := context.Background()
	b.floods = 1
	// guest → no permission page → ErrLoggedOut (no #navlogout) → login → form → flood: the wait
	// comes back to the caller (the daemon waits) → post again
	_, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "4-й ход крестоносца в1 на D6")
	var fe *forum.FloodError
	if !errors.As(err, &fe) || fe.Wait != 10*time.Second {
		t.Fatalf("flood: %v, want the 10 s the flood message names", err)
	}
	id, merged, err := f.Reply(ctx, forum.Thread{ID: "2"}, "4-й ход крестоносца в1 на D6")
	if err != nil {
		t.Fatal(err)
	}
	if id != "18" || merged {
		t.Errorf("id %q merged %v", id, merged)
	}
	if len(b.posted) != 2 {
		t.Fatalf("%d reply POSTs", len(b.posted))
	}
	v := b.posted[1]
	if v.Get("req_message") != "4-й ход крестоносца в1 на D6" || v.Get("form_sent") != "1" || v.Get("form_user") != "gm-bot" || v.Get("csrf_token") != "510ff3026807d28fe09f3e33a2194e8c26e43bb3" || v.Get("submit_button") != "Submit reply" {
		t.Errorf("fields %v", v)
	}
	if sleeps := clock.Sleeps(); len(sleeps) != 0 {
		t.Errorf("sleeps %v: the dialect never waits out flood control", sleeps)
	}
}

func TestGenericPunBBPosts(t *testing.T) {
	b, _, f := setup(t)
	posts, cur, err := f.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: "8"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "9,10,11,12,13,14,15,16,17" || cur.PostID != "17" || cur.Page != 2 {
		t.Errorf("ids %v cursor %+v", ids, cur)
	}
	if len(b.requests) != 3 { // last → redirect to the page of pid 17, then page 1
		t.Errorf("requests %v", b.requests)
	}
}

func TestGenericBadLogin(t *testing.T) {
	_, _, f := setup(t)
	f.cfg.Password = "wrong"
	if err := f.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("err = %v", err)
	}
}
