package phpbb

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/meter"
	"forumgm/internal/testkit"
)

func page(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pages", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var creationRe = regexp.MustCompile(`name="creation_time" value="\d+"`)

// board is a loopback phpBB 3.3 stand-in: it serves the test pages and checks forms the way
// phpBB does (check_form_key: creation_time must be at least a second old on the shared clock).
type board struct {
	t        *testing.T
	clock    *testkit.Clock
	mu       sync.Mutex
	requests []string
	posted   []url.Values // reply POST bodies
	logins   int
	floods   int // reply POSTs to answer with FLOOD_ERROR
	tooLong  int // max message length accepted (0 = no limit)
	expire   bool
	nextID   int
	pmSent   []url.Values
	edit     func(name, page string) string // changes a page before it is served (nil: as is)
	attach   *attachBoard                   // the attachment panel (nil: attachments off)
	meter    *meter.Server                  // counts what the board exchanges
}

// sentFolders: where the bot's copies of its messages are (phpBB reads a message only with its own
// folder in f=, or with no f=).
var sentFolders = map[string]string{"23": "-1", "24": "-2", "25": "-1"}

func (b *board) serve(w http.ResponseWriter, name string) {
	s := page(b.t, name)
	if b.edit != nil {
		s = b.edit(name, s)
	}
	if b.attach != nil && name == "posting-reply-form.html" {
		s = b.attach.panel(s, "", "")
	}
	s = creationRe.ReplaceAllString(s, `name="creation_time" value="`+strconv.FormatInt(b.clock.Now().Unix(), 10)+`"`)
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	_, _ = w.Write([]byte(s))
}

// postBlock is one post of a topic page with the divider after it.
var postBlock = regexp.MustCompile(`(?s)\t\t<div id="p(\d+)" class="post has-profile.*?<hr class="divider" />\n`)

// serveWindow answers viewtopic.php?t=2&start=K for 10 < K < 14 as phpBB does (validate_start
// keeps a start within the topic): page 2's posts from the K-th of the topic on (posts 12 to 15
// are the 10th to the 13th, counting from 0).
func (b *board) serveWindow(w http.ResponseWriter, start int) {
	s := page(b.t, "viewtopic-t2-page2.html")
	drop := start - 10
	s = postBlock.ReplaceAllStringFunc(s, func(m string) string {
		if drop > 0 {
			drop--
			return ""
		}
		return m
	})
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	_, _ = w.Write([]byte(s))
}

func (b *board) loggedIn(r *http.Request) bool {
	c, err := r.Cookie("phpbb3_test_u")
	return err == nil && c.Value == "3"
}

// formAgeOK is phpBB's check_form_key timing: time() - creation_time must not be 0.
func (b *board) formAgeOK(r *http.Request) bool {
	ct, err := strconv.ParseInt(r.PostForm.Get("creation_time"), 10, 64)
	return err == nil && b.clock.Now().Unix()-ct >= 1 && r.PostForm.Get("form_token") != ""
}

func (b *board) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := r.ParseForm(); err != nil {
		b.t.Error(err)
	}
	b.requests = append(b.requests, r.Method+" "+r.URL.RequestURI())
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/ucp.php" && q.Get("mode") == "login" && r.Method == "GET":
		b.serve(w, "login-form.html")
	case r.URL.Path == "/ucp.php" && q.Get("mode") == "login":
		b.logins++
		if !b.formAgeOK(r) {
			b.t.Error("login form sent within a second of loading")
		}
		if r.PostForm.Get("username") != "gm-bot" || r.PostForm.Get("password") != "GmBotPass1" || r.PostForm.Get("sid") == "" {
			b.serve(w, "login-error.html")
			return
		}
		b.expire = false
		http.SetCookie(w, &http.Cookie{Name: "phpbb3_test_u", Value: "3", Path: "/"})
		b.serve(w, "message-login-success.html")
	case r.URL.Path == "/viewtopic.php":
		start, _ := strconv.Atoi(q.Get("start"))
		if start > 10 && start < 14 {
			b.serveWindow(w, start)
			return
		}
		if q.Get("p") != "" || start >= 10 {
			b.serve(w, "viewtopic-t2-page2.html")
			return
		}
		b.serve(w, "viewtopic-t2-page1.html")
	case r.URL.Path == "/viewforum.php" && q.Get("f") == "2":
		b.serve(w, "viewforum-f2.html")
	case r.URL.Path == "/posting.php" && r.Method == "GET":
		if !b.loggedIn(r) || b.expire {
			b.serve(w, "posting-login-required.html")
			return
		}
		b.serve(w, "posting-reply-form.html")
	case r.URL.Path == "/posting.php" && b.attach != nil && b.attach.upload(b, w, r):
	case r.URL.Path == "/posting.php":
		b.posted = append(b.posted, r.PostForm)
		switch {
		case !b.formAgeOK(r):
			b.serve(w, "posting-error-form-invalid.html")
		case b.floods > 0:
			b.floods--
			b.serve(w, "posting-error-flood.html")
		case b.tooLong > 0 && len([]rune(r.PostForm.Get("message"))) > b.tooLong:
			b.serve(w, "posting-error-too-long.html")
		default:
			b.nextID++
			http.Redirect(w, r, "/viewtopic.php?p="+strconv.Itoa(b.nextID)+"#p"+strconv.Itoa(b.nextID), http.StatusFound)
		}
	case r.URL.Path == "/ucp.php" && q.Get("i") == "pm" && q.Get("mode") == "compose" && r.Method == "GET":
		b.serve(w, "ucp-pm-compose.html")
	case r.URL.Path == "/ucp.php" && q.Get("i") == "pm" && q.Get("mode") == "compose":
		if !b.formAgeOK(r) {
			b.serve(w, "posting-error-form-invalid.html")
			return
		}
		if r.PostForm.Get("add_to") != "" {
			if r.PostForm.Get("username_list") == "snovaya" {
				b.serve(w, "ucp-pm-compose-recipient.html")
			} else {
				b.serve(w, "ucp-pm-compose.html")
			}
			return
		}
		b.pmSent = append(b.pmSent, r.PostForm)
		b.serve(w, "message-pm-sent.html")
	case r.URL.Path == "/ucp.php" && q.Get("i") == "pm" && (q.Get("folder") == "sentbox" || q.Get("folder") == "outbox" || sentFolders[q.Get("p")] != ""):
		switch {
		case !b.loggedIn(r) || b.expire:
			b.serve(w, "login-form.html") // the UCP's login_box for a guest
		case q.Get("folder") != "":
			b.serve(w, "ucp-pm-"+q.Get("folder")+".html")
		case q.Get("f") != "" && q.Get("f") != sentFolders[q.Get("p")]:
			http.NotFound(w, r) // NO_MESSAGE: not in that folder
		default:
			b.serve(w, "ucp-pm-view-"+q.Get("p")+".html")
		}
	case r.URL.Path == "/ucp.php" && q.Get("i") == "pm" && q.Get("mode") == "view":
		b.serve(w, "ucp-pm-view-"+q.Get("p")+".html")
	case r.URL.Path == "/ucp.php" && q.Get("i") == "pm":
		b.serve(w, "ucp-pm-inbox.html")
	default:
		http.NotFound(w, r)
	}
}

func setup(t *testing.T) (*board, *Forum) {
	t.Helper()
	clock := testkit.NewClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	b := &board{t: t, clock: clock, nextID: 15}
	srv := meter.NewServer(b)
	b.meter = srv
	t.Cleanup(srv.Close)
	cfg := forum.Config{BaseURL: srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC, Now: clock.Now}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, Sleep: clock.Sleep})
	f, err := New(cfg, options{Client: c, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	return b, f
}

func TestLoginWaitsAndSendsAllFields(t *testing.T) {
	b, f := setup(t)
	if err := f.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	sleeps := b.clock.Sleeps()
	if len(sleeps) != 1 || sleeps[0] < time.Second {
		t.Errorf("sleeps = %v, want one wait of at least a second before sending the form", sleeps)
	}
	f.cfg.Password = "wrong"
	if err := f.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("wrong password: err = %v, want ErrBadLogin", err)
	}
}

func TestReplyFieldsAndWait(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.clock.ResetSleeps()
	id, merged, err := f.Reply(ctx, forum.Thread{ID: "2"}, "Ход принят.\n[code]  A B\n1 . .[/code]")
	if err != nil {
		t.Fatal(err)
	}
	if id != "16" || merged {
		t.Errorf("id %q merged %v, want 16 false", id, merged)
	}
	if len(b.posted) != 1 {
		t.Fatalf("%d reply POSTs", len(b.posted))
	}
	got := b.posted[0]
	want := url.Values{
		"subject":           {"Re: Крестовый поход — партия 1"},
		"message":           {"Ход принят.\n[code]  A B\n1 . .[/code]"},
		"topic_cur_post_id": {"15"},
		"lastclick":         {"1796015100"},
		"creation_time":     {strconv.FormatInt(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).Add(2*time.Second).Unix(), 10)},
		"form_token":        {"9a3c4b1f2e0d5a6b7c8d9e0f1a2b3c4d5e6f7a8b"},
		"attach_sig":        {"on"},
		"post":              {"Submit"},
	}
	// creation_time is what the form said when it was loaded (after the login's 2 s wait).
	if got.Encode() != want.Encode() {
		t.Errorf("fields sent:\n %s\nwant\n %s", got.Encode(), want.Encode())
	}
	sleeps := b.clock.Sleeps()
	if len(sleeps) != 1 || sleeps[0] != 2*time.Second {
		t.Errorf("sleeps = %v, want [2s]", sleeps)
	}
}

// Without the wait the board rejects the form (FORM_INVALID): the test's stand-in really checks.
func TestNoWaitIsRejected(t *testing.T) {
	_, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	f.opt.MinFormAge = time.Nanosecond
	_, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст")
	if !errors.Is(err, forum.ErrBadToken) {
		t.Errorf("err = %v, want ErrBadToken", err)
	}
}

// Flood control comes back typed, with phpBB's interval (its message names none): the daemon
// waits and sends again.
func TestReplyFlood(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.floods = 1
	b.clock.ResetSleeps()
	_, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст")
	var fe *forum.FloodError
	if !errors.As(err, &fe) || fe.Wait != 15*time.Second {
		t.Errorf("err = %v, want FloodError{15s}", err)
	}
	id, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст")
	if err != nil || id != "16" {
		t.Fatalf("id %q err %v", id, err)
	}
	if len(b.posted) != 2 {
		t.Errorf("%d POSTs, want 2 (flood, then success)", len(b.posted))
	}
	for _, d := range b.clock.Sleeps() {
		if d == 15*time.Second {
			t.Errorf("sleeps %v: the dialect never waits out flood control", b.clock.Sleeps())
		}
	}
}

func TestReplyRelogin(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	// Never logged in: the reply form shows the login box; the dialect logs in and posts.
	id, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, "текст")
	if err != nil || id != "16" {
		t.Fatalf("id %q err %v", id, err)
	}
	if b.logins != 1 {
		t.Errorf("%d logins, want 1", b.logins)
	}
}

// A body the board finds too long comes back as forum.ErrTooLong: the daemon splits it.
func TestReplyTooLong(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.tooLong = 30 // the board's limit is lower than the dialect thinks
	body := "первый абзац текста\n\nвторой абзац текста\n\nтретий абзац"
	if _, _, err := f.Reply(ctx, forum.Thread{ID: "2"}, body); !errors.Is(err, forum.ErrTooLong) {
		t.Fatalf("err = %v, want ErrTooLong", err)
	}
}

func TestPostsFromCursor(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	posts, cur, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "13"})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 2 || posts[0].ID != "14" || posts[1].ID != "15" || cur.PostID != "15" || cur.Page != 2 {
		t.Errorf("posts %v cursor %+v", ids(posts), cur)
	}
	if len(b.requests) != 1 || b.requests[0] != "GET /viewtopic.php?t=2&start=999999" {
		t.Errorf("requests %v, want one GET of the last page", b.requests)
	}
	// Idle poll: one request, nothing new.
	b.requests = nil
	posts, cur2, err := f.Posts(ctx, forum.Thread{ID: "2"}, cur)
	if err != nil || len(posts) != 0 || cur2.PostID != "15" || len(b.requests) != 1 {
		t.Errorf("idle poll: %v %+v %v %v", ids(posts), cur2, err, b.requests)
	}
	// A cursor on page 1 walks back one page.
	b.requests = nil
	posts, _, err = f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "9"})
	if err != nil || strings.Join(ids(posts), ",") != "10,11,12,13,14,15" || len(b.requests) != 2 {
		t.Errorf("walk back: %v %v %v", ids(posts), err, b.requests)
	}
	// No cursor: the whole thread.
	posts, _, err = f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{})
	if err != nil || len(posts) != 14 || posts[0].ID != "2" {
		t.Errorf("whole thread: %v %v", ids(posts), err)
	}
}

func TestPrivateMessages(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.SendPM(ctx, "snovaya", "Ваш ход", "Ходите, пожалуйста."); err != nil {
		t.Fatal(err)
	}
	if len(b.pmSent) != 1 {
		t.Fatalf("%d PMs sent", len(b.pmSent))
	}
	v := b.pmSent[0]
	if v.Get("address_list[u][5]") != "to" || v.Get("subject") != "Ваш ход" || v.Get("message") != "Ходите, пожалуйста." || v.Get("post") != "Submit" || v.Has("username_list") {
		t.Errorf("PM fields %v", v)
	}
	if err := f.SendPM(ctx, "nobody", "x", "y"); err == nil {
		t.Error("unknown recipient accepted")
	}
	msgs, cur, err := f.Inbox(ctx, forum.Cursor{PostID: "20"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids(msgs), ",") != "21,22" || cur.PostID != "22" || msgs[0].Author != "snovaya" || msgs[0].Subject != "Тайный ход" {
		t.Errorf("inbox %+v %+v", msgs, cur)
	}
	if want := time.Date(2026, 11, 29, 23, 40, 0, 0, time.UTC); !msgs[0].Time.Equal(want) {
		t.Errorf("PM time %v, want %v (\"Yesterday, 23:40\")", msgs[0].Time, want)
	}
}

func TestNoPermission(t *testing.T) {
	_, f := setup(t)
	if err := f.classify("You cannot reply in this forum."); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("err = %v", err)
	}
	if err := f.classify("Your message contains 70000 characters. The maximum number of allowed characters is 60000."); !errors.Is(err, forum.ErrTooLong) {
		t.Errorf("err = %v", err)
	}
	if err := f.classify("Your message contains too few characters."); !errors.Is(err, forum.ErrTooShort) {
		t.Errorf("err = %v", err)
	}
}

func ids(ps []forum.Post) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}
