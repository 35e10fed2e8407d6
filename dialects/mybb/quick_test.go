package mybb_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/sandbox"
)

// paths is a transport that notes each request's method and path before passing it on.
type paths struct {
	mu  sync.Mutex
	got []string
}

func (p *paths) RoundTrip(req *http.Request) (*http.Response, error) {
	p.mu.Lock()
	p.got = append(p.got, req.Method+" "+strings.TrimPrefix(req.URL.Path, "/"))
	p.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (p *paths) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.got
	p.got = nil
	return out
}

// A reply goes out with the quick reply form of the thread page just read (no newreply.php read
// between the page and the post) while that form is fresh, also a second reply after the same
// read; otherwise the full form is read first. The replies land either way.
func TestReplyTakesTheQuickReplyForm(t *testing.T) {
	for _, tc := range []struct {
		name     string
		read     bool          // the thread's page is read before the reply
		wait     time.Duration // between the read and the reply
		twice    bool          // a second reply after the first, without a read between
		relogin  bool          // the session logs in again between the read and the reply
		wantForm bool          // newreply.php is read (GET) before the (last) post
	}{
		{name: "page just read", read: true},
		{name: "no page read", wantForm: true},
		{name: "page read 3 minutes before", read: true, wait: 3 * time.Minute, wantForm: true},
		{name: "two replies after one read", read: true, twice: true},
		{name: "logged in again since", read: true, relogin: true, wantForm: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)
			clock := func() time.Time { return now }
			board, err := sandbox.New(ctx, sandbox.Options{DBPath: t.TempDir() + "/board.db", Now: clock, FloodSeconds: -1, MergeMinutes: -1,
				Users:   []sandbox.User{{Name: "gm-bot", Password: "botpw"}, {Name: "Джелу", Password: "p1"}},
				Threads: []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{{Author: "Джелу", Message: "Начинаем"}}}}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { board.Close() })
			url, err := board.Start(ctx, "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			rec := &paths{}
			f, err := mybb.New(forum.Config{BaseURL: url + "/", Username: "gm-bot", Password: "botpw", Now: clock},
				mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100, Transport: rec})))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Login(ctx); err != nil {
				t.Fatal(err)
			}
			th := forum.Thread{ID: "1"}
			if tc.read {
				if _, _, err := f.Posts(ctx, th, forum.Cursor{}); err != nil {
					t.Fatal(err)
				}
			}
			now = now.Add(tc.wait)
			if tc.relogin {
				if err := f.Login(ctx); err != nil {
					t.Fatal(err)
				}
			}
			bodies := []string{"Ход принят."}
			if tc.twice {
				bodies = append(bodies, "Второй ответ.")
			}
			var got []string
			for _, body := range bodies {
				rec.take()
				if _, _, err := f.Reply(ctx, th, body); err != nil {
					t.Fatal(err)
				}
				got = rec.take()
			}
			form := false
			for _, r := range got {
				form = form || r == "GET newreply.php"
			}
			if form != tc.wantForm || got[len(got)-1] != "POST newreply.php" {
				t.Fatalf("the reply's requests %v: the full form read %v, want %v", got, form, tc.wantForm)
			}
			posts, err := board.Posts(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if last := posts[len(posts)-1]; last.Author != "gm-bot" || last.Message != bodies[len(bodies)-1] || len(posts) != 1+len(bodies) {
				t.Fatalf("the thread ends with %s: %q (%d posts)", last.Author, last.Message, len(posts))
			}
		})
	}
}
