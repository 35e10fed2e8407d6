package smf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
	"forumgm/internal/meter"
)

// rawBody is the text of a message as typed (posts-raw.json body_text).
func rawBody(t *testing.T, id int) string {
	var d struct {
		Posts []struct {
			ID   int    `json:"id_msg"`
			Text string `json:"body_text"`
		} `json:"posts"`
	}
	fixture.Raw(t, "smf", &d)
	for _, p := range d.Posts {
		if p.ID == id {
			return p.Text
		}
	}
	t.Fatalf("msg %d not in posts-raw.json", id)
	return ""
}

// fakeSMF serves the captured SMF pages over loopback in the order the real engine would, with
// the captured host replaced by the test server's. Handlers are chosen by SMF's query string.
type fakeSMF struct {
	t     *testing.T
	srv   *httptest.Server
	meter *meter.Server // counts what srv exchanges
	dir   string

	mu       sync.Mutex
	log      []string     // "GET query" / "POST query" in order
	posts    []url.Values // bodies of POSTs, in order
	loggedIn bool
	dropped  bool // the board forgot the session: its cookie no longer logs in
	// script: what the next POSTs to post2 / send2 / login2 get (file names; "ok" = success).
	replies []string
	pms     []string
	logins  []string
	// newPosts are posts made through the server, shown on the last page.
	newPosts []string
	pages    map[string]string // query → file, for GETs
	bodies   map[string]string // query → page text, for GETs, before pages
	// uploads are the files of multipart post2 POSTs ("attachment[]"), one list per POST.
	uploads [][]smfFile
}

func newFakeSMF(t *testing.T) *fakeSMF {
	f := &fakeSMF{t: t, dir: fixture.Dir(t, "smf"), pages: map[string]string{
		"topic=2.msg999999":                "11-thread-p2.guest.html",
		"topic=2.8":                        "11-thread-p2.guest.html",
		"topic=2.0":                        "10-thread-p1.guest.html",
		"action=pm;sa=send":                "30-pm-compose.gm-bot.html",
		"action=pm;f=inbox;start=0":        "33-pm-inbox.dzhelu.html",
		"action=pm;f=inbox;pmsg=1":         "34-pm-read.dzhelu.html",
		"action=pm;f=inbox;l=-1;done=sent": "35-pm-sent.gm-bot.html",
		"":                                 "12-thread-p1.gm-bot.html",
		"board=2.0":                        "16-messageindex-board2.guest.html",
		// The captured feed is SMF's default 5 newest posts of the board: msgs 17 to 13.
		"action=.xml;type=rss;board=2;limit=5": "50-rss-board2.xml",
	}}
	f.meter = meter.NewServer(http.HandlerFunc(f.serve))
	f.srv = f.meter.Server
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeSMF) file(name string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "http://127.0.0.1:8082", f.srv.URL)
}

func (f *fakeSMF) write(w http.ResponseWriter, status int, name string) {
	if strings.Contains(name, "flood") || strings.Contains(name, "resubmit") {
		status = http.StatusForbidden // SMF's fatal errors
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	if strings.HasSuffix(name, ".xml") {
		w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
	}
	w.WriteHeader(status)
	io.WriteString(w, f.file(name))
}

var msg17Block = regexp.MustCompile(`(?s)\t*<div class="windowbg" id="msg17">.*?</div><!-- \$message\[css_class\] -->`)

// lastPage is 22b (the page a member lands on after replying) with the posts made through the
// server appended in the markup of msg 17.
func (f *fakeSMF) lastPage() string {
	page := f.file("22b-reply-redirect-target.gm-bot.html")
	block := msg17Block.FindString(page)
	if block == "" {
		f.t.Fatal("msg17 block not found")
	}
	var extra strings.Builder
	for i, text := range f.newPosts {
		id := fmt.Sprint(18 + i)
		b := strings.NewReplacer("msg17", "msg"+id, "msg_17", "msg_"+id, `"17"`, `"`+id+`"`, "msg=17", "msg="+id,
			"modified_17", "modified_"+id, "subject_17", "subject_"+id).Replace(block)
		i := strings.Index(b, `id="msg_`+id+`">`) + len(`id="msg_`+id+`">`)
		j := strings.Index(b[i:], "</div>") + i
		b = b[:i] + renderBBC(text) + b[j:]
		extra.WriteString("\n" + b)
	}
	k := strings.Index(page, block) + len(block)
	page = page[:k] + extra.String() + page[k:]
	return strings.Replace(page, `<a id="new"></a>`, "", -1)
}

// renderBBC is a small stand-in for SMF's BBCode parser: enough for the texts the tests send.
func renderBBC(s string) string {
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
	s = regexp.MustCompile(`(?s)\[code\]\n?(.*?)\n?\[/code\]\n?`).ReplaceAllStringFunc(s, func(m string) string {
		inner := regexp.MustCompile(`(?s)\[code\]\n?(.*?)\n?\[/code\]\n?`).FindStringSubmatch(m)[1]
		inner = strings.ReplaceAll(strings.ReplaceAll(inner, "  ", "&nbsp; "), "\n", "<br>")
		return `<div class="codeheader"><span class="code floatleft">Code</span></div><code class="bbc_code">` + inner + `</code>`
	})
	s = regexp.MustCompile(`\[/?[a-z]+\]`).ReplaceAllString(s, "")
	return strings.ReplaceAll(s, "\n", "<br>")
}

func (f *fakeSMF) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.RawQuery
	f.log = append(f.log, r.Method+" "+q)
	if c, err := r.Cookie("SMFCookie956"); err == nil && c.Value == "gm-bot-session" && !f.dropped {
		f.loggedIn = true
	}
	if r.Method == http.MethodPost {
		var vals url.Values
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			vals = f.multipart(r)
		} else {
			b, _ := io.ReadAll(r.Body)
			var err error
			vals, err = url.ParseQuery(string(b))
			if err != nil {
				f.t.Errorf("POST body: %v", err)
			}
			if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
				f.t.Errorf("POST content type %q", ct)
			}
		}
		f.posts = append(f.posts, vals)
		switch {
		case strings.Contains(q, "action=login2"):
			next := "ok"
			if len(f.logins) > 0 {
				next, f.logins = f.logins[0], f.logins[1:]
			}
			if next != "ok" {
				f.write(w, 200, next)
				return
			}
			f.dropped = false
			http.SetCookie(w, &http.Cookie{Name: "SMFCookie956", Value: "gm-bot-session", Path: "/"})
			http.Redirect(w, r, f.srv.URL+"/index.php?action=login2;sa=check;member=2", http.StatusFound)
		case strings.Contains(q, "action=post2"):
			next := "ok"
			if len(f.replies) > 0 {
				next, f.replies = f.replies[0], f.replies[1:]
			}
			if body, ok := f.bodies[next]; ok {
				w.Header().Set("Content-Type", "text/html; charset=UTF-8")
				io.WriteString(w, body)
				return
			}
			if next != "ok" {
				status := 200
				if strings.Contains(next, "flood") || strings.Contains(next, "resubmit") {
					status = 403
				}
				f.write(w, status, next)
				return
			}
			f.newPosts = append(f.newPosts, vals.Get("message"))
			http.Redirect(w, r, f.srv.URL+"/index.php?topic=2.new#new", http.StatusFound)
		case strings.Contains(q, "action=pm;sa=send2"):
			next := "ok"
			if len(f.pms) > 0 {
				next, f.pms = f.pms[0], f.pms[1:]
			}
			if next != "ok" {
				f.write(w, 403, next)
				return
			}
			http.Redirect(w, r, f.srv.URL+"/index.php?action=pm;f=inbox;l=-1;done=sent", http.StatusFound)
		default:
			f.t.Errorf("unexpected POST %s", q)
			w.WriteHeader(404)
		}
		return
	}
	switch {
	case q == "action=login":
		f.write(w, 200, "01-login-form.guest.html")
	case q == "action=login2;sa=check;member=2":
		http.Redirect(w, r, f.srv.URL+"/index.php", http.StatusFound)
	case q == "action=post;topic=2.0":
		if !f.loggedIn {
			f.write(w, 200, "26-reply-noperm.guest.html")
			return
		}
		if body, ok := f.bodies[q]; ok {
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			io.WriteString(w, body)
			return
		}
		f.write(w, 200, "20-reply-form.gm-bot.html")
	case strings.HasPrefix(q, "action=pm") && !f.loggedIn:
		// SMF's is_not_guest(): the login form with "Only registered members are allowed…".
		f.write(w, 200, "26-reply-noperm.guest.html")
	case q == "topic=2.new" || (q == "topic=2.msg999999" && len(f.newPosts) > 0):
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		io.WriteString(w, f.lastPage())
	default:
		if body, ok := f.bodies[q]; ok {
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			io.WriteString(w, body)
			return
		}
		name, ok := f.pages[q]
		if !ok {
			f.t.Errorf("unexpected GET %q", q)
			w.WriteHeader(404)
			return
		}
		f.write(w, 200, name)
	}
}

func (f *fakeSMF) requests() []string {
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

func newForum(t *testing.T, f *fakeSMF, extra map[string]string) (*Forum, *sleeps) {
	sl := &sleeps{}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1",
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

// A reply from a logged-out bot: the form shows the login → log in (every field of the login
// form), get the form again, hit flood control → SMF's 5 s come back, and the daemon's next try
// after the wait gets a fresh form → the redirect carries no id, so the new post is found on the last page by its text.
func TestReplyReloginFloodAndNewID(t *testing.T) {
	srv := newFakeSMF(t)
	srv.replies = []string{"28-reply-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum(t, srv, nil)
	body := rawBody(t, 17) // the bot's board post: text, blank line, [code] board
	var id string
	var merged bool
	err := sl.send(func() (err error) {
		id, merged, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, body)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if id != "18" || merged {
		t.Fatalf("id %q merged %v, want 18", id, merged)
	}
	want := []string{
		"GET action=post;topic=2.0", // login form shown to a guest
		"GET action=login",
		"POST PHPSESSID=d3d4snnvvl1hllurpte2vc3p58&action=login2",
		"GET action=login2;sa=check;member=2",
		"GET ",
		"GET action=post;topic=2.0",
		"POST action=post2;start=0;board=2", // 403 flood
		"GET action=post;topic=2.0",
		"POST action=post2;start=0;board=2",
		"GET topic=2.new",
	}
	if got := srv.requests(); !equalStrings(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(sl.d) != 1 || sl.d[0] != 5*time.Second {
		t.Errorf("sleeps %v, want [5s]", sl.d)
	}
	login := srv.posts[0]
	wantLogin := url.Values{"user": {"gm-bot"}, "passwrd": {"GmBotPass1"}, "cookielength": {"3153600"},
		"ee6f4f07": {"844f6a07cc227b71c7aac1fa14532415"}, "d9d782694bf": {"f2246ee3fc4696708c82b440d59b07d4"}}
	if login.Encode() != wantLogin.Encode() {
		t.Errorf("login fields %v, want %v", login, wantLogin)
	}
	wantReply := url.Values{
		"topic": {"2"}, "subject": {"Re: Крестовый поход — партия 1"}, "icon": {"xx"}, "message": {body},
		"message_mode": {"0"}, "MAX_FILE_SIZE": {"131072", "131072"}, "attach_del[]": {"0"},
		"attached_BBC_width": {""}, "attached_BBC_height": {""}, "notify": {"0"}, "already_locked": {"0"},
		"lock": {"0"}, "goback": {"1"}, "id_draft": {"0"}, "post": {"Post"}, "last_msg": {"17"},
		"additional_options": {"0"}, "e19bacb2": {"ece01887e8a858e0576fac8b4be9e2bb"}, "seqnum": {"7818572"},
	}
	for i, p := range srv.posts[1:] {
		if p.Encode() != wantReply.Encode() {
			t.Errorf("reply POST %d fields:\n%v\nwant\n%v", i+1, p, wantReply)
		}
	}
}

// The new post is the bot's newest post with the text sent; a text already in an older post of
// the bot (at or before last_msg) means SMF merged it.
func TestReplyIDByText(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	fm, _ := newForum(t, srv, nil)
	// The server shows the new post, and also the bot's earlier posts 10, 12, 15, 17.
	id, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, "[b]Ход принят.[/b]\nХод сарацин.")
	if err != nil || id != "18" {
		t.Fatalf("id %q, %v", id, err)
	}
	// The text of the bot's msg 15 (older than last_msg 17) is found in msg 15: a merge.
	id, merged, err := fm.findNewPost(context.Background(), forum.Thread{ID: "2"}, nil, rawBody(t, 15), "17")
	if err != nil || id != "15" || !merged {
		t.Fatalf("text of msg 15: id %q merged %v err %v", id, merged, err)
	}
}

// Session timed out → a fresh form once; empty message → ErrTooShort at once, no retry.
func TestReplyErrors(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	srv.replies = []string{"25-reply-error-badsession.gm-bot.html", "ok"}
	fm, _ := newForum(t, srv, nil)
	if id, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, "Ход принят."); err != nil || id != "18" {
		t.Fatalf("after bad session: %q %v", id, err)
	}
	srv.replies = []string{"24-reply-error-empty.gm-bot.html", "ok"}
	n := len(srv.requests())
	if _, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, " "); !errors.Is(err, forum.ErrTooShort) {
		t.Fatalf("empty: %v", err)
	}
	if got := len(srv.requests()) - n; got != 2 {
		t.Errorf("empty message: %d requests, want 2 (form + post)", got)
	}
	srv.replies = []string{"27-newtopic-error-resubmit.snovaya.html", "27-newtopic-error-resubmit.snovaya.html"}
	if _, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, "x"); !errors.Is(err, forum.ErrBadToken) {
		t.Fatalf("double submit twice: %v", err)
	}
	// Flood control comes back as a FloodError with the wait SMF names.
	srv.replies = []string{"28-reply-error-flood.gm-bot.html", "28-reply-error-flood.gm-bot.html",
		"28-reply-error-flood.gm-bot.html", "28-reply-error-flood.gm-bot.html"}
	var fe *forum.FloodError
	if _, _, err := fm.Reply(context.Background(), forum.Thread{ID: "2"}, "x"); !errors.As(err, &fe) || fe.Wait != 5*time.Second {
		t.Fatalf("flood: %v", err)
	}
}

func TestPostsFromCursor(t *testing.T) {
	srv := newFakeSMF(t)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	feed := "GET action=.xml;type=rss;board=2;limit=5"
	for _, c := range []struct {
		after    string
		ids      string
		requests []string
	}{
		{"", "2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", []string{"GET topic=2.msg999999", "GET topic=2.0"}},
		// The board is known from the first read: the feed comes first.
		{"12", "13 14 15 16 17", []string{feed, "GET topic=2.msg999999"}},
		{"9", "10 11 12 13 14 15 16 17", []string{feed, "GET topic=2.msg999999", "GET topic=2.0"}},
		{"17", "", []string{feed}},
	} {
		n := len(srv.requests())
		posts, next, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: c.after})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range posts {
			ids = append(ids, p.ID)
		}
		wantPage := 2
		if c.ids == "" {
			wantPage = 0 // an idle check gives the cursor back as it came (this one names no page)
		}
		if strings.Join(ids, " ") != c.ids || next.PostID != "17" || next.Page != wantPage {
			t.Errorf("after %q: %v, cursor %+v", c.after, ids, next)
		}
		if got := srv.requests()[n:]; !equalStrings(got, c.requests) {
			t.Errorf("after %q: requests %v, want %v", c.after, got, c.requests)
		}
	}
}

func TestSendPMAfterFlood(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	srv.pms = []string{"32-pm-send-error-flood.gm-bot.html", "ok"}
	fm, sl := newForum(t, srv, nil)
	if err := sl.send(func() error {
		return fm.SendPM(context.Background(), "Джелу", "Партия 1: ваш 3-й ход", "Ваш ход.")
	}); err != nil {
		t.Fatal(err)
	}
	if len(sl.d) != 1 || sl.d[0] != 5*time.Second {
		t.Errorf("sleeps %v", sl.d)
	}
	want := url.Values{"to": {"Джелу"}, "bcc": {""}, "subject": {"Партия 1: ваш 3-й ход"}, "message": {"Ваш ход."},
		"message_mode": {"0"}, "id_pm_draft": {"0"}, "post": {"Send message"}, "e19bacb2": {"ece01887e8a858e0576fac8b4be9e2bb"},
		"seqnum": {"5211285"}, "replied_to": {"0"}, "pm_head": {"0"}, "f": {"inbox"}, "l": {"-1"}}
	for _, p := range srv.posts {
		if p.Encode() != want.Encode() {
			t.Errorf("PM fields %v\nwant %v", p, want)
		}
	}
}

func TestInbox(t *testing.T) {
	srv := newFakeSMF(t)
	srv.loggedIn = true
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	pms, next, err := fm.Inbox(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pms) != 1 || pms[0].ID != "1" || pms[0].Author != "gm-bot" || pms[0].Subject != "Партия 1: ваш 3-й ход" ||
		len(pms[0].Code) != 1 || next.PostID != "1" {
		t.Fatalf("inbox %+v cursor %+v", pms, next)
	}
	pms, next, err = fm.Inbox(ctx, next)
	if err != nil || len(pms) != 0 || next.PostID != "1" {
		t.Fatalf("second poll %v %v %v", pms, next, err)
	}
	// A folder page that lists the message without showing it: the message is read on its own.
	inbox := srv.file("33-pm-inbox.dzhelu.html")
	i := strings.Index(inbox, `<div class="windowbg" id="msg1">`)
	j := strings.Index(inbox, `</div><!-- .windowbg -->`)
	if i < 0 || j < 0 {
		t.Fatal("PM block not found")
	}
	srv.mu.Lock()
	srv.bodies = map[string]string{"action=pm;f=inbox;start=0": inbox[:i] + inbox[j+len(`</div><!-- .windowbg -->`):]}
	srv.mu.Unlock()
	n := len(srv.requests())
	pms, next, err = fm.Inbox(ctx, forum.Cursor{})
	if err != nil || len(pms) != 1 || pms[0].ID != "1" || len(pms[0].Code) != 1 || next.PostID != "1" {
		t.Fatalf("list-only folder: %+v %v %v", pms, next, err)
	}
	if got := srv.requests()[n:]; !equalStrings(got, []string{"GET action=pm;f=inbox;start=0", "GET action=pm;f=inbox;pmsg=1"}) {
		t.Errorf("requests %v", got)
	}
}

func TestLoginErrors(t *testing.T) {
	srv := newFakeSMF(t)
	srv.logins = []string{"03-login-error.guest.html"}
	fm, _ := newForum(t, srv, nil)
	if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("wrong password: %v", err)
	}
	srv.logins = []string{"04-login-error-flood.guest.html", "ok"}
	fm, sl := newForum(t, srv, nil)
	if err := sl.send(func() error { return fm.Login(context.Background()) }); err != nil {
		t.Fatalf("after login flood: %v", err)
	}
	if len(sl.d) != 1 || sl.d[0] != 2*time.Second {
		t.Errorf("sleeps %v", sl.d)
	}
}

func TestRegistered(t *testing.T) {
	fm, err := Dialect().Open(forum.Config{BaseURL: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	if c := fm.Capabilities(); !c.PrivateMessages || c.MaxPostLength != 20000 {
		t.Errorf("capabilities %+v", c)
	}
}
