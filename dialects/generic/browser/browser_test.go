package browser_test

import (
	"context"
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

	"forumgm/dialects/generic"
	"forumgm/dialects/generic/browser"
	"forumgm/forum"
)

var creationRe = regexp.MustCompile(`name="creation_time" value="\d+"`)

// phpBBLike serves the phpBB test pages on loopback and checks what the browser submits the way
// phpBB does (the form must be at least a second old).
type phpBBLike struct {
	t      *testing.T
	mu     sync.Mutex
	logins []url.Values
	posts  []url.Values
}

func (s *phpBBLike) serve(w http.ResponseWriter, name string) {
	b, err := os.ReadFile(filepath.Join("..", "..", "phpbb", "testdata", "pages", name))
	if err != nil {
		s.t.Error(err)
		return
	}
	b = creationRe.ReplaceAll(b, []byte(`name="creation_time" value="`+strconv.FormatInt(time.Now().Unix(), 10)+`"`))
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	_, _ = w.Write(b)
}

func (s *phpBBLike) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := r.ParseMultipartForm(1 << 20); err != nil && err != http.ErrNotMultipart {
		s.t.Error(err)
	}
	old := func() bool {
		ct, _ := strconv.ParseInt(r.PostForm.Get("creation_time"), 10, 64)
		return time.Now().Unix()-ct >= 1
	}
	switch {
	case r.URL.Path == "/ucp.php" && r.Method == "GET":
		s.serve(w, "login-form.html")
	case r.URL.Path == "/ucp.php":
		s.logins = append(s.logins, r.PostForm)
		if !old() || r.PostForm.Get("username") != "gm-bot" || r.PostForm.Get("password") != "GmBotPass1" {
			s.serve(w, "login-error.html")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "phpbb3_test_u", Value: "3", Path: "/"})
		s.serve(w, "message-login-success.html")
	case r.URL.Path == "/posting.php" && r.Method == "GET":
		if c, err := r.Cookie("phpbb3_test_u"); err != nil || c.Value != "3" {
			s.serve(w, "posting-login-required.html")
			return
		}
		s.serve(w, "posting-reply-form.html")
	case r.URL.Path == "/posting.php":
		s.posts = append(s.posts, r.PostForm)
		if !old() {
			s.serve(w, "posting-error-form-invalid.html")
			return
		}
		http.Redirect(w, r, "/viewtopic.php?p=16#p16", http.StatusFound)
	case r.URL.Path == "/viewtopic.php":
		s.serve(w, "viewtopic-t2-page2.html")
	default:
		http.NotFound(w, r)
	}
}

// A real headless chromium logs in and replies through the generic dialect (browser=true).
func TestBrowserLoginAndReply(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required for this test (apt-get install -y chromium): %v", err)
	}
	s := &phpBBLike{t: t}
	srv := httptest.NewServer(s)
	defer srv.Close()
	extra := map[string]string{
		"post": "#page-body div.post.has-profile", "post_id": "@id", "post_id_re": `^p(\d+)$`,
		"author": "dl.postprofile dt a", "time": "p.author time@datetime", "body": "div.content",
		"thread_url": "viewtopic.php?t={thread}&start={start}", "per_page": "10",
		"login_url": "ucp.php?mode=login", "login_form": "form#login",
		"login_user_field": "username", "login_pass_field": "password",
		"reply_url": "posting.php?mode=reply&t={thread}", "reply_form": "form#postform", "reply_field": "message",
		"reply_id_param": "p", "error": "p.error", "error_token": "form was invalid",
		"browser": "true", "min_form_age": "1100ms",
	}
	cfg := forum.Config{BaseURL: srv.URL + "/", Username: "gm-bot", Password: "GmBotPass1", Extra: extra}
	w := browser.New(cfg)
	defer w.Close()
	f, err := generic.New(cfg, generic.Options{Browser: w})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("login took %v; logins %v", time.Since(t0), s.logins)
	body := "Ход принят.\n[code]  A B\n1 . К[/code]"
	id, merged, err := f.Reply(ctx, forum.Thread{ID: "2"}, body)
	if err != nil {
		t.Fatal(err)
	}
	if id != "16" || merged {
		t.Errorf("id %q merged %v", id, merged)
	}
	if len(s.logins) != 1 || len(s.posts) != 1 {
		t.Fatalf("logins %d posts %d", len(s.logins), len(s.posts))
	}
	l := s.logins[0]
	if l.Get("login") != "Login" || l.Get("sid") == "" || l.Get("form_token") == "" || l.Get("redirect") == "" {
		t.Errorf("login fields %v", l)
	}
	p := s.posts[0]
	// Browsers send textarea newlines as CRLF.
	if strings.ReplaceAll(p.Get("message"), "\r\n", "\n") != body || p.Get("post") != "Submit" || p.Get("topic_cur_post_id") != "15" || p.Get("attach_sig") != "on" || p.Has("preview") {
		t.Errorf("reply fields %v", p)
	}
}
