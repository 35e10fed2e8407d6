package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/forum"
)

// upstream is a tiny forum: GET /page is a whole HTML page, GET /login the login page, GET /go a
// redirect to its own absolute URL, POST /post stores a post (counted).
type upstream struct {
	srv   *httptest.Server
	posts atomic.Int32
	gets  atomic.Int32
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/post":
			u.posts.Add(1)
			fmt.Fprint(w, "<html><body>Спасибо, сообщение добавлено.</body></html>")
		case r.URL.Path == "/login":
			fmt.Fprint(w, `<html><body><form action="member.php" method="post"><input name="username"></form></body></html>`)
		case r.URL.Path == "/go":
			http.Redirect(w, r, u.srv.URL+"/page", http.StatusFound)
		default:
			u.gets.Add(1)
			fmt.Fprintf(w, "<html><head><title>Тема</title></head><body>%s</body></html>", strings.Repeat("<div class=post>ход к1 на K16</div>\n", 50))
		}
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func isPost(r *http.Request) bool { return r.Method == http.MethodPost }

// Each fault does what it says to the client and to the forum behind.
func TestEachFault(t *testing.T) {
	for _, c := range []struct {
		kind      Kind
		method    string
		wantErr   bool   // the client gets no HTTP answer
		wantCode  int    // else the status
		wantBody  string // a substring of the body
		forwarded bool
	}{
		{Status5xx, "POST", false, 0, "nginx", false},
		{Status5xxOut, "POST", false, 0, "nginx", true},
		{Reset, "POST", true, 0, "", false},
		{ResetOut, "POST", true, 0, "", true},
		{Hang, "POST", true, 0, "", false},
		{HangOut, "POST", true, 0, "", true},
		{Truncate, "GET", false, 200, "Fatal error", true},
		{LoginPage, "GET", false, 200, `name="username"`, false},
		{Flood, "POST", false, 200, "Please wait 5 more seconds", false},
		{Declared1251, "GET", false, 200, "ход к1 на K16", true},
		{Sent1251, "GET", false, 200, "K16", true},
	} {
		t.Run(string(c.kind), func(t *testing.T) {
			up := newUpstream(t)
			p, err := Start(context.Background(), up.srv.URL, Options{Seed: 1, Hang: 300 * time.Millisecond, LoginPath: "/login",
				FloodPage: []byte("<html><body>Please wait 5 more seconds.</body></html>"),
				Rules:     []Rule{{Name: "first", Kinds: []Kind{c.kind}, Nth: []int{1}}}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			client := &http.Client{Timeout: 150 * time.Millisecond}
			var resp *http.Response
			if c.method == "POST" {
				resp, err = client.PostForm(p.URL()+"/post", url.Values{"message": {"ход"}})
			} else {
				resp, err = client.Get(p.URL() + "/page")
			}
			if c.wantErr {
				if err == nil {
					resp.Body.Close()
					t.Fatalf("an answer (%d), want none", resp.StatusCode)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if c.wantCode != 0 && resp.StatusCode != c.wantCode || c.wantCode == 0 && resp.StatusCode < 500 || !strings.Contains(string(b), c.wantBody) {
					t.Fatalf("answer %d %q", resp.StatusCode, b)
				}
				if c.kind == Truncate {
					page := &forum.Page{Status: resp.StatusCode, Header: resp.Header, Body: b}
					if err := forum.CheckWhole(page); !errors.Is(err, forum.ErrTruncated) {
						t.Errorf("the cut page passes as whole: %v", err)
					}
				}
			}
			if c.kind == HangOut || c.kind == Hang {
				time.Sleep(400 * time.Millisecond) // the held request finishes (passed on or not) behind the client's back
			}
			seen := up.posts.Load()+up.gets.Load() > 0
			if seen != c.forwarded || c.kind.Forwards() != c.forwarded {
				t.Errorf("the forum saw it: %v, want %v", seen, c.forwarded)
			}
			ev := p.Events()
			if len(ev) != 1 || ev[0].Fault != c.kind || ev[0].Forwarded != c.forwarded {
				t.Errorf("events: %+v", ev)
			}
			// The next request passes (Nth: only the first).
			r2, err := http.Get(p.URL() + "/page")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(r2.Body)
			r2.Body.Close()
			if r2.StatusCode != 200 || forum.CheckWhole(&forum.Page{Status: 200, Header: r2.Header, Body: b}) != nil {
				t.Errorf("the request after the fault: %d", r2.StatusCode)
			}
		})
	}
}

// A seed replays the same faults on the same requests; rates, Max and MaxInRow hold.
func TestSeededAndBounded(t *testing.T) {
	up := newUpstream(t)
	run := func(seed uint64) []Event {
		p, err := Start(context.Background(), up.srv.URL, Options{Seed: seed, Hang: time.Millisecond, MaxInRow: 2,
			Rules: []Rule{
				{Name: "posts", Match: isPost, Kinds: []Kind{Status5xx, Status5xxOut}, Rate: 0.5, Max: 10},
				{Name: "pages", Kinds: []Kind{Truncate, Status5xx}, Rate: 0.25},
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		for i := range 120 {
			var resp *http.Response
			var err error
			if i%3 == 0 {
				resp, err = http.PostForm(p.URL()+"/post", url.Values{"n": {fmt.Sprint(i)}})
			} else {
				resp, err = http.Get(p.URL() + "/page")
			}
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return p.Events()
	}
	a, b, c := run(7), run(7), run(8)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave other faults")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("another seed gave the same faults")
	}
	posts, pages, inRow := 0, 0, 0
	for _, e := range a {
		switch e.Rule {
		case "posts":
			posts++
		case "pages":
			pages++
		}
		if e.Fault != None {
			inRow++
			if inRow > 2 {
				t.Fatalf("more than MaxInRow faults in a row at request %d", e.N)
			}
		} else {
			inRow = 0
		}
	}
	if posts != 10 || pages < 10 || pages > 40 {
		t.Errorf("faults: %d on posts (want Max 10), %d on pages (want about 20)", posts, pages)
	}
}

// A redirect to the upstream's own address comes back through the proxy.
func TestLocationRewritten(t *testing.T) {
	up := newUpstream(t)
	p, err := Start(context.Background(), up.srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(p.URL() + "/go")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != p.URL()+"/page" {
		t.Errorf("Location %q, want %s/page", loc, p.URL())
	}
	if _, err := Start(context.Background(), "http://192.0.2.1:80", Options{}); err == nil {
		t.Error("a non-loopback upstream was accepted")
	}
}

// The charset faults make a page lie about its charset (read by the declaration, the text is
// mojibake), and forum.Decode reads it by what it is.
func TestCharsetFaults(t *testing.T) {
	for _, c := range []struct {
		kind             Kind
		declared, actual string
	}{
		{Declared1251, "windows-1251", "utf-8"},
		{Sent1251, "UTF-8", "windows-1251"},
	} {
		t.Run(string(c.kind), func(t *testing.T) {
			up := newUpstream(t)
			p, err := Start(context.Background(), up.srv.URL, Options{Seed: 1, Rules: []Rule{{Name: "all", Kinds: []Kind{c.kind}, Rate: 1}}, MaxInRow: 100})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			resp, err := http.Get(p.URL() + "/page")
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			ct := resp.Header.Get("Content-Type")
			if !strings.HasSuffix(ct, "charset="+c.declared) {
				t.Errorf("Content-Type %q, want it to declare %s", ct, c.declared)
			}
			body, cs, err := forum.Decode(raw, ct)
			if err != nil || cs != c.actual || !strings.Contains(string(body), "ход к1 на K16") || forum.Garbled(string(body)) != "" {
				t.Errorf("decoded as %q (%v): %.200s", cs, err, body)
			}
		})
	}
}

// OtherThread passes the request on as Options.OtherThread makes it: another thread's page for
// the one asked.
func TestOtherThread(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<html><body>thread %s</body></html>", r.URL.Query().Get("tid"))
	}))
	defer up.Close()
	p, err := Start(context.Background(), up.URL, Options{Rules: []Rule{{Kinds: []Kind{OtherThread}, Nth: []int{1}}},
		OtherThread: func(u *url.URL) { u.RawQuery = strings.Replace(u.RawQuery, "tid=1", "tid=2", 1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, want := range []string{"thread 2", "thread 1"} {
		resp, err := http.Get(p.URL() + "/showthread.php?tid=1")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("got %q, want %q", b, want)
		}
	}
	if e := p.Events(); e[0].Fault != OtherThread || !e[0].Forwarded || e[1].Fault != None {
		t.Errorf("events %+v", e)
	}
}
