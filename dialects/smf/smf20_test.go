package smf

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// capture20WriteNow is when testdata/forums/smf20 was captured ("Сегодня" on its pages).
var capture20WriteNow = time.Date(2026, 12, 1, 9, 55, 0, 0, time.UTC)

// fakeSMF20 serves the pages captured on SMF 2.0.15 (testdata/forums/smf20) as that engine
// answers: fatal errors (flood) with HTTP 200, a reply redirected to the board, a member told by
// the logout link.
type fakeSMF20 struct {
	t   *testing.T
	srv *httptest.Server
	dir string

	mu       sync.Mutex
	log      []string
	posts    []url.Values
	loggedIn bool
	logins   []string // what the next POSTs to login2 get (file names; "ok" = success)
	replies  []string // … to post2
	pms      []string // … to send2
	newPosts []string // texts posted through the server, shown on the last page
}

func newFakeSMF20(t *testing.T) *fakeSMF20 {
	f := &fakeSMF20{t: t, dir: fixture.Dir(t, "smf20")}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeSMF20) file(name string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "http://127.0.0.1:18100", f.srv.URL)
}

func (f *fakeSMF20) write(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	io.WriteString(w, f.file(name)) // SMF 2.0 sends its error pages with 200 too
}

// lastPage is page 2 as gm-bot saw it, with the posts made through the server appended in the
// markup of msg 15.
func (f *fakeSMF20) lastPage() string {
	page := f.file("13-thread-p2.gm-bot.html")
	i := strings.Index(page, `<a id="msg15"></a>`)
	j := strings.Index(page[i:], `<hr class="post_separator" />`) + i
	block := page[i:j]
	var extra strings.Builder
	for n, text := range f.newPosts {
		id := 16 + n
		b := strings.NewReplacer(`id="msg15"`, `id="msg`+strconv.Itoa(id)+`"`, "msg_15", "msg_"+strconv.Itoa(id), "subject_15", "subject_"+strconv.Itoa(id),
			"modified_15", "modified_"+strconv.Itoa(id), "msg15", "msg"+strconv.Itoa(id)).Replace(block)
		k := strings.Index(b, `id="msg_`+strconv.Itoa(id)+`">`) + len(`id="msg_`+strconv.Itoa(id)+`">`)
		l := strings.Index(b[k:], "</code></div>") + k + len("</code></div>")
		b = b[:k] + renderBBC(text) + "</div>" + b[l:]
		extra.WriteString(`<hr class="post_separator" />` + b)
	}
	return page[:j] + extra.String() + page[j:]
}

func (f *fakeSMF20) next(script *[]string) string {
	if len(*script) == 0 {
		return "ok"
	}
	n := (*script)[0]
	*script = (*script)[1:]
	return n
}

func (f *fakeSMF20) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.RawQuery
	f.log = append(f.log, r.Method+" "+q)
	if c, err := r.Cookie("SMFCookie482"); err == nil && c.Value == "gm-bot-session" {
		f.loggedIn = true
	}
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		vals, err := url.ParseQuery(string(b))
		if err != nil {
			f.t.Errorf("POST body: %v", err)
		}
		f.posts = append(f.posts, vals)
		switch {
		case strings.HasSuffix(q, "action=login2"):
			if next := f.next(&f.logins); next != "ok" {
				f.write(w, next)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "SMFCookie482", Value: "gm-bot-session", Path: "/"})
			http.Redirect(w, r, f.srv.URL+"/index.php?action=login2;sa=check;member=2", http.StatusFound)
		case strings.HasPrefix(q, "action=post2"):
			if next := f.next(&f.replies); next != "ok" {
				f.write(w, next)
				return
			}
			f.newPosts = append(f.newPosts, vals.Get("message"))
			http.Redirect(w, r, f.srv.URL+"/index.php?board=2.0", http.StatusFound) // 2.0: to the board
		case q == "action=pm;sa=send2":
			if next := f.next(&f.pms); next != "ok" {
				f.write(w, next)
				return
			}
			http.Redirect(w, r, f.srv.URL+"/index.php?action=pm;f=inbox;l=-1;done=sent", http.StatusFound)
		default:
			f.t.Errorf("unexpected POST %s", q)
			w.WriteHeader(404)
		}
		return
	}
	member := map[string]string{
		"":                                 "18-boardindex.guest.html",
		"action=post;topic=2.0":            "20-reply-form.gm-bot.html",
		"action=pm;sa=send":                "30-pm-compose.gm-bot.html",
		"action=pm;f=inbox;l=-1;done=sent": "31b-pm-send-redirect-target.gm-bot.html",
		"action=pm;f=inbox;start=0":        "33-pm-inbox.dzhelu.html",
		"action=pm;f=sent;sort=date;desc;start=0": "35c-pm-sent-newest-first.gm-bot.html",
		"board=2.0":                            "22b-reply-redirect-target.gm-bot.html",
		"action=.xml;type=rss;board=2;limit=5": "50-rss-board2.xml", // the 5 newest posts: msgs 15 to 11
	}
	switch {
	case q == "action=login":
		f.write(w, "01-login-form.guest.html")
	case q == "action=login2;sa=check;member=2":
		http.Redirect(w, r, f.srv.URL+"/index.php", http.StatusFound)
	case q == "" && f.loggedIn:
		f.write(w, "17-boardindex-pm-notice.dzhelu.html") // a member's board index (Джелу's: any member's will do)
	case (strings.HasPrefix(q, "action=post") || strings.HasPrefix(q, "action=pm")) && !f.loggedIn:
		f.write(w, "26-reply-noperm.guest.html")
	case q == "topic=2.msg999999":
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		io.WriteString(w, f.lastPage())
	case strings.HasSuffix(member[q], ".xml"):
		w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
		io.WriteString(w, f.file(member[q]))
	case member[q] != "":
		f.write(w, member[q])
	default:
		f.t.Errorf("unexpected GET %q", q)
		w.WriteHeader(404)
	}
}

func (f *fakeSMF20) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

func newForum20(t *testing.T, f *fakeSMF20) (*Forum, *sleeps) {
	sl := &sleeps{}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1",
		Location: time.UTC, Now: func() time.Time { return capture20WriteNow }}, withClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return fm, sl
}

// On SMF 2.0 a logged-out bot's reply: the login form instead of the post form → log in with the
// plain password (hash_passwrd left empty, as SMF 2.0 accepts), flood (a 200 fatal-error page) →
// the daemon's next try after the wait, with a fresh form, the redirect to the board → the new post found on the last
// page by its text.
func TestReply20(t *testing.T) {
	srv := newFakeSMF20(t)
	srv.replies = []string{"28-reply-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum20(t, srv)
	body := "Ход 4 принят.\n[code]\n    A  B\n 1|в1|__|\n[/code]"
	var id string
	var merged bool
	err := sl.send(func() (err error) {
		id, merged, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, body)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if id != "16" || merged {
		t.Fatalf("id %q merged %v, want 16", id, merged)
	}
	want := []string{
		"GET action=post;topic=2.0", // the login form shown to a guest
		"GET action=login",
		"POST PHPSESSID=uchfacjaqf5mjva925ol376b51&action=login2", // the form's action as SMF wrote it for a cookie-less client
		"GET action=login2;sa=check;member=2",
		"GET ",
		"GET action=post;topic=2.0",
		"POST action=post2;start=0;board=2", // flood, HTTP 200
		"GET action=post;topic=2.0",
		"POST action=post2;start=0;board=2",
		"GET board=2.0", // SMF 2.0 goes back to the board
		"GET topic=2.msg999999",
	}
	if got := srv.requests(); !equalStrings(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	login := srv.posts[0]
	if login.Get("user") != "gm-bot" || login.Get("passwrd") != "GmBotPass1" || !login.Has("hash_passwrd") || login.Get("hash_passwrd") != "" ||
		login.Get("d4e633bfd83") != "cea6a490352bb886320e9ae96d96a377" || login.Get("cookielength") == "" {
		t.Errorf("login values %v", login)
	}
	if len(sl.d) != 1 || sl.d[0] < 5*time.Second {
		t.Errorf("sleeps %v, want one wait of SMF's 5 s flood", sl.d)
	}
	reply := srv.posts[len(srv.posts)-1]
	if reply.Get("message") != body || reply.Get("topic") != "2" || reply.Get("seqnum") == "" || reply.Get("b48aab0a87") != "df4bc238f15967efb5c96e2dd9f25e34" ||
		reply.Get("subject") != "Re: Крестовый поход — партия 1" || reply.Has("preview") {
		t.Errorf("reply values %v", reply)
	}
}

// A PM on SMF 2.0: flood (200) → the wait comes back, the next try sends it; the form's checked "save a copy" goes too,
// so the bot's sent folder keeps the message.
func TestSendPM20(t *testing.T) {
	srv := newFakeSMF20(t)
	srv.loggedIn = true
	srv.pms = []string{"32-pm-send-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum20(t, srv)
	if err := sl.send(func() error {
		return fm.SendPM(context.Background(), "Джелу", "Крестовый поход: твой ход", "Джелу, твой ход.")
	}); err != nil {
		t.Fatal(err)
	}
	if len(srv.posts) != 2 || len(sl.d) != 1 || sl.d[0] < 5*time.Second {
		t.Fatalf("posts %d sleeps %v", len(srv.posts), sl.d)
	}
	v := srv.posts[1]
	if v.Get("to") != "Джелу" || v.Get("subject") != "Крестовый поход: твой ход" || v.Get("message") != "Джелу, твой ход." ||
		v.Get("outbox") != "1" || v.Get("seqnum") == "" || v.Get("b48aab0a87") != "df4bc238f15967efb5c96e2dd9f25e34" {
		t.Errorf("PM values %v", v)
	}
}

// Login answers of SMF 2.0: a wrong password (p.error in the login form) is ErrBadLogin; the
// login flood (a 200 fatal error) is a flood error with SMF's wait.
func TestLogin20(t *testing.T) {
	srv := newFakeSMF20(t)
	srv.logins = []string{"03-login-error.guest.html"}
	fm, _ := newForum20(t, srv)
	if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("wrong password: %v", err)
	}
	srv.logins = []string{"04-login-error-flood.guest.html", "ok"}
	fm, sl := newForum20(t, srv)
	if err := sl.send(func() error { return fm.Login(context.Background()) }); err != nil {
		t.Fatal(err)
	}
	if len(sl.d) != 1 || sl.d[0] < 2*time.Second {
		t.Errorf("sleeps %v, want SMF's 2 s login flood", sl.d)
	}
}

// Inbox and sent folder of SMF 2.0 (conversation view, rows without classes).
func TestInboxSent20(t *testing.T) {
	srv := newFakeSMF20(t)
	srv.loggedIn = true
	fm, _ := newForum20(t, srv)
	in, cur, err := fm.Inbox(context.Background(), forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || in[0].ID != "1" || in[0].Author != "gm-bot" || in[0].Subject != "Крестовый поход: твой ход" ||
		!strings.HasPrefix(in[0].Text, "Джелу, твой ход в партии 1.") || cur.PostID != "1" {
		t.Errorf("inbox %+v cursor %+v", in, cur)
	}
	sent, cur, err := fm.Sent(context.Background(), forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || sent[0].ID != "2" || sent[0].Text != "snovaya, твой 4-й ход." || cur.PostID != "2" ||
		sent[0].Permalink != srv.srv.URL+"/index.php?action=pm;f=sent;pmsg=2#msg2" {
		t.Errorf("sent %+v cursor %+v", sent, cur)
	}
}

// Polling a topic on SMF 2.0: the last page gives the posts after the cursor and the board (from
// the linktree); the next idle check is the board's feed alone, which SMF 2.0 serves as 2.1 does.
func TestPosts20(t *testing.T) {
	srv := newFakeSMF20(t)
	srv.loggedIn = true
	fm, _ := newForum20(t, srv)
	posts, cur, err := fm.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: "12"})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 3 || posts[0].ID != "13" || posts[2].ID != "15" || posts[1].Author != "snovaya" || cur.PostID != "15" {
		t.Fatalf("posts %+v cursor %+v", posts, cur)
	}
	before := len(srv.requests())
	posts, cur, err = fm.Posts(context.Background(), forum.Thread{ID: "2"}, cur)
	if err != nil || len(posts) != 0 || cur.PostID != "15" {
		t.Fatalf("idle: %v %+v %v", posts, cur, err)
	}
	if got := srv.requests()[before:]; !equalStrings(got, []string{"GET action=.xml;type=rss;board=2;limit=5"}) {
		t.Errorf("idle check requests %q, want the feed only", got)
	}
}
