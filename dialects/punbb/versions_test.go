package punbb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// oldVersion is a capture of an older engine (testdata/forums/<dir>, README there).
type oldVersion struct {
	dir, base string
	referer   bool   // replies need the form's page as Referer (FluxBB 1.4/1.5)
	tokens    bool   // forms carry a csrf_token (PunBB 1.3)
	loginPath string // the login form's action
	postPath  string // the reply form's action
	lastPID   int    // the topic's last post (22-reply-success names it); 0: 17
	page2From int    // the first post of page 2; 0: 10
}

func (v oldVersion) last() int {
	if v.lastPID == 0 {
		return 17
	}
	return v.lastPID
}

func (v oldVersion) onPage2(pid string) bool {
	n, err := strconv.Atoi(pid)
	if v.page2From == 0 {
		return err == nil && n >= 10
	}
	return err == nil && n >= v.page2From
}

var oldVersions = []oldVersion{
	{"punbb13", "http://127.0.0.1:18510", false, true, "/login.php", "/post.php?tid=2", 0, 0},
	{"fluxbb12", "http://127.0.0.1:18520", false, false, "/login.php?action=in", "/post.php?action=post&tid=2", 0, 0},
	{"fluxbb14", "http://127.0.0.1:18540", true, false, "/login.php?action=in", "/post.php?action=post&tid=2", 0, 0},
	{"fluxbb15", "http://127.0.0.1:18550", true, true, "/login.php?action=in", "/post.php?action=post&tid=2", 0, 0},
}

// fakeOld serves one capture the way the engine answered on loopback: statuses, content types
// (windows-1251 for FluxBB 1.2) and Location headers as captured (manifest.tsv, *.headers.txt),
// the captured host replaced by the test server's.
type fakeOld struct {
	t   *testing.T
	v   oldVersion
	srv *httptest.Server
	dir string
	man map[string][2]string // file → status, content type

	mu       sync.Mutex
	log      []string
	posts    []url.Values
	referers []string
	loggedIn bool
	replies  []string // answers to the next reply POSTs: a capture, or "ok" for a success
	logins   []string // the same for login POSTs
	nextPID  int
}

func newFakeOld(t *testing.T, v oldVersion) *fakeOld {
	f := &fakeOld{t: t, v: v, dir: fixture.Dir(t, v.dir), man: map[string][2]string{}, nextPID: v.last() + 1}
	m, err := os.Open(filepath.Join(f.dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sc := bufio.NewScanner(m)
	for sc.Scan() {
		if c := strings.Split(sc.Text(), "\t"); len(c) == 7 {
			f.man[c[0]] = [2]string{c[4], c[5]}
		}
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOld) body(name string) string {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), f.v.base, f.srv.URL)
}

var locRe = regexp.MustCompile(`(?m)^Location: (.*)$`)

func (f *fakeOld) write(w http.ResponseWriter, name, body string) {
	f.writeReplaced(w, name, body, "", "")
}

// writeReplaced serves a capture with old replaced by new in its body and Location (the new post's
// id after a reply: a 200 "Redirecting…" page names it in the body, a 302 in Location).
func (f *fakeOld) writeReplaced(w http.ResponseWriter, name, body, old, new string) {
	m, ok := f.man[name]
	if !ok {
		f.t.Fatalf("%s not in the manifest", name)
	}
	w.Header().Set("Content-Type", m[1])
	if h := locRe.FindStringSubmatch(f.body(name + ".headers.txt")); h != nil {
		loc := strings.TrimSpace(h[1])
		if old != "" {
			loc = strings.ReplaceAll(loc, old, new)
		}
		w.Header().Set("Location", loc)
	}
	status := 200
	fmt.Sscan(m[0], &status)
	w.WriteHeader(status)
	if body == "" {
		body = f.body(name)
	}
	if old != "" {
		body = strings.ReplaceAll(body, old, new)
	}
	w.Write([]byte(body))
}

func (f *fakeOld) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	f.log = append(f.log, r.Method+" "+r.URL.RequestURI())
	if c, err := r.Cookie("forum_cookie"); err == nil && c.Value == "gm-bot" {
		f.loggedIn = true
	}
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			f.t.Error(err)
		}
		f.posts = append(f.posts, r.PostForm)
		f.referers = append(f.referers, r.Referer())
		switch r.URL.RequestURI() {
		case f.v.loginPath:
			if len(f.logins) > 0 {
				next := f.logins[0]
				f.logins = f.logins[1:]
				if next != "ok" {
					f.write(w, next, "")
					return
				}
			}
			if r.PostForm.Get("req_password") != "GmBotPass1" {
				f.write(w, "03-login-error.guest.html", "")
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "forum_cookie", Value: "gm-bot", Path: "/"})
			f.write(w, "02-login-success.gm-bot.html", "")
		case f.v.postPath:
			if f.v.referer && !strings.HasPrefix(r.Referer(), f.srv.URL+"/post.php") && !strings.HasPrefix(r.Referer(), f.srv.URL+"/viewtopic.php") {
				f.write(w, "27-reply-bad-referer.gm-bot.html", "")
				return
			}
			next := "ok"
			if len(f.replies) > 0 {
				next, f.replies = f.replies[0], f.replies[1:]
			}
			if next != "ok" {
				f.write(w, next, "")
				return
			}
			pid := fmt.Sprintf("pid=%d#p%d", f.nextPID, f.nextPID)
			f.nextPID++
			last := fmt.Sprintf("pid=%d#p%d", f.v.last(), f.v.last())
			f.writeReplaced(w, "22-reply-success.gm-bot.html", "", last, pid)
		default:
			f.t.Errorf("unexpected POST %s", r.URL)
			w.WriteHeader(404)
		}
		return
	}
	switch {
	case r.URL.Path == "/login.php" && q.Get("login") == "1": // PunBB 1.3's redirect after a login
		http.Redirect(w, r, f.srv.URL+"/index.php", http.StatusFound)
	case r.URL.Path == "/login.php":
		f.write(w, "01-login-form.guest.html", "")
	case r.URL.Path == "/index.php" && f.loggedIn:
		f.write(w, "17-index.gm-bot.html", "")
	case r.URL.Path == "/index.php":
		f.write(w, "18-index.guest.html", "")
	case r.URL.Path == "/post.php" && q.Get("tid") == "2" && f.loggedIn:
		f.write(w, "20-reply-form.gm-bot.html", "")
	case r.URL.Path == "/post.php" && q.Get("tid") == "2":
		f.write(w, "26-reply-noperm.guest.html", "")
	case r.URL.Path == "/viewforum.php" && q.Get("id") == "2":
		f.write(w, "16-viewforum-fid2.guest.html", "")
	case r.URL.Path == "/viewtopic.php" && q.Get("action") == "last":
		f.write(w, "14-thread-lastpost.guest.html", "")
	case r.URL.Path == "/viewtopic.php" && (f.v.onPage2(q.Get("pid")) || q.Get("p") == "2"):
		f.write(w, "11-thread-p2.guest.html", "")
	case r.URL.Path == "/viewtopic.php" && (q.Get("pid") != "" || q.Get("id") == "2"):
		f.write(w, "10-thread-p1.guest.html", "")
	default:
		f.t.Errorf("unexpected GET %s", r.URL)
		w.WriteHeader(404)
	}
}

func (f *fakeOld) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

func newOldForum(t *testing.T, f *fakeOld) (*Forum, *sleeps) {
	sl := &sleeps{}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	fm, err := New(forum.Config{BaseURL: f.srv.URL, Username: "gm-bot", Password: "GmBotPass1", Location: time.UTC,
		Now: func() time.Time { return time.Date(2026, 12, 1, 9, 48, 0, 0, time.UTC) }}, withClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return fm, sl
}

// A reply from a logged-out bot on each older version: no permission → log in through the
// version's own form (the "Redirecting…" page, then the page it leads to shows the member) →
// the reply form → flood control (5 s on these boards) → the daemon's next try: a fresh form → the "Redirecting…"
// page names the new post. Each form's fields are sent as the browser sends them, with the
// form's page as Referer.
func TestOldVersionsReply(t *testing.T) {
	for _, v := range oldVersions {
		t.Run(v.dir, func(t *testing.T) {
			srv := newFakeOld(t, v)
			srv.replies = []string{"25b-reply-error-flood.gm-bot.html", "ok"}
			fm, sl := newOldForum(t, srv)
			var id string
			err := sl.send(func() (err error) {
				id, _, err = fm.Reply(context.Background(), forum.Thread{ID: "2"}, "Ход принят: в2 H3 → H4.")
				return err
			})
			if err != nil {
				t.Fatalf("%v\nrequests:\n%s", err, strings.Join(srv.requests(), "\n"))
			}
			if id != "18" {
				t.Fatalf("id %q", id)
			}
			if len(sl.d) != 1 || sl.d[0] != 5*time.Second {
				t.Errorf("sleeps %v, want [5s]", sl.d)
			}
			login := srv.posts[0]
			if login.Get("req_username") != "gm-bot" || login.Get("form_sent") != "1" || login.Get("redirect_url") == "" ||
				(login.Get("csrf_token") != "") != (v.tokens) {
				t.Errorf("login fields %v", login)
			}
			for i, p := range srv.posts[1:] {
				msg, want := p.Get("req_message"), "Ход принят: в2 H3 → H4."
				if v.dir == "fluxbb12" { // a windows-1251 board: what cp1251 lacks goes as &#NNNN;
					msg, _ = charmap.Windows1251.NewDecoder().String(msg)
					want = "Ход принят: в2 H3 &#8594; H4."
				}
				if msg != want || p.Get("form_sent") != "1" || p.Get("submit") == "" ||
					p.Has("submit_button") || p.Has("preview") || (p.Get("csrf_token") != "") != (v.dir == "punbb13") ||
					p.Has("form_user") != (v.dir == "punbb13" || v.dir == "fluxbb12") {
					t.Errorf("reply POST %d fields %v", i+1, p)
				}
				if !strings.HasPrefix(srv.referers[i+1], srv.srv.URL+"/post.php?tid=2") {
					t.Errorf("reply POST %d Referer %q", i+1, srv.referers[i+1])
				}
			}
		})
	}
}

func TestOldVersionsLoginErrors(t *testing.T) {
	for _, v := range oldVersions {
		srv := newFakeOld(t, v)
		fm, _ := newOldForum(t, srv)
		fm.cfg.Password = "WrongPass9"
		if err := fm.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) {
			t.Errorf("%s: wrong password: %v", v.dir, err)
		}
	}
}

// Reading from a cursor on each older version: the idle check is the one action=last redirect
// (relative on FluxBB), new posts cost the last page and the pages before it while they may hold
// posts after the cursor (FluxBB 1.2 has no rel=prev: its numbered page links lead back).
func TestOldVersionsPosts(t *testing.T) {
	for _, v := range oldVersions {
		t.Run(v.dir, func(t *testing.T) {
			srv := newFakeOld(t, v)
			fm, _ := newOldForum(t, srv)
			for _, c := range []struct {
				after     string
				ids       string
				nRequests int
			}{
				{"", "2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", 3},
				{"12", "13 14 15 16 17", 2},
				{"17", "", 1},
			} {
				n := len(srv.requests())
				posts, next, err := fm.Posts(context.Background(), forum.Thread{ID: "2"}, forum.Cursor{PostID: c.after})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, p := range posts {
					ids = append(ids, p.ID)
					if p.Author == "" || p.Time.IsZero() || len(p.Problems) > 0 {
						t.Errorf("post %+v", p)
					}
				}
				if got := srv.requests()[n:]; strings.Join(ids, " ") != c.ids || next.PostID != "17" || len(got) != c.nRequests {
					t.Errorf("after %q: %v, cursor %+v, requests %v", c.after, ids, next, got)
				}
			}
			if s := fm.SectionOf(forum.Thread{ID: "2"}); s != "2" {
				t.Errorf("section of topic 2: %q", s)
			}
			heads, err := fm.Section(context.Background(), "2")
			if err != nil {
				t.Fatal(err)
			}
			if len(heads) != 1 || heads[0].ID != "2" || heads[0].Title != "Крестовый поход — партия 1" || heads[0].LastPostID != "17" || heads[0].Replies != 15 {
				t.Errorf("section 2: %+v", heads)
			}
		})
	}
}
