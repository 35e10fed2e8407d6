package forum

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

func fastClient() *Client {
	return NewClient(ClientConfig{Rate: 1000, Burst: 100, BaseDelay: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
}

func TestClientDecodesWindows1251(t *testing.T) {
	body, _ := charmap.Windows1251.NewEncoder().String("<html><body><p>Ход принят</p></body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=windows-1251")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	p, err := fastClient().Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if p.Charset != "windows-1251" || !strings.Contains(string(p.Body), "Ход принят") {
		t.Fatalf("charset %q body %q", p.Charset, p.Body)
	}
}

func TestClientDecodesMetaCharset(t *testing.T) {
	body, _ := charmap.Windows1251.NewEncoder().String(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><body>Сарацины</body></html>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	p, err := fastClient().Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p.Body), "Сарацины") {
		t.Fatalf("body %q", p.Body)
	}
}

func TestEncodeFormWindows1251Escapes(t *testing.T) {
	got, err := EncodeForm(url.Values{"message": {"ход ♞ ok"}}, "windows-1251")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := url.ParseQuery(got)
	dec, _ := charmap.Windows1251.NewDecoder().String(v.Get("message"))
	if dec != "ход &#9822; ok" {
		t.Fatalf("got %q", dec)
	}
}

func TestClientConditionalGet(t *testing.T) {
	var full, notMod atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			notMod.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte("<p>page</p>"))
	}))
	defer srv.Close()
	c := fastClient()
	for i := 0; i < 3; i++ {
		p, err := c.Get(context.Background(), srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		if string(p.Body) != "<p>page</p>" || p.NotModified != (i > 0) {
			t.Fatalf("round %d: %q notModified=%v", i, p.Body, p.NotModified)
		}
	}
	if full.Load() != 1 || notMod.Load() != 2 {
		t.Fatalf("full=%d notmod=%d", full.Load(), notMod.Load())
	}
}

func TestClientRetriesServerErrorsThenGivesUp(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	p, err := fastClient().Get(context.Background(), srv.URL)
	if err != nil || string(p.Body) != "ok" || n.Load() != 3 {
		t.Fatalf("err %v n %d", err, n.Load())
	}
	n.Store(-100)
	_, err = fastClient().Get(context.Background(), srv.URL)
	var se *StatusError
	if err == nil || !errors.As(err, &se) || se.Status != 503 {
		t.Fatalf("want 503 StatusError, got %v", err)
	}
	if got := n.Load(); got != -96 { // 1 try + 3 retries
		t.Fatalf("attempts: %d", got+100)
	}
}

func TestClientPostNotRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "forumgm/") {
			t.Errorf("user agent %q", ua)
		}
		w.Write([]byte("done"))
	}))
	defer srv.Close()
	if _, err := fastClient().PostForm(context.Background(), srv.URL, url.Values{"a": {"б"}}, "utf-8"); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 1 {
		t.Fatalf("posts: %d", n.Load())
	}
}

func TestClientHonoursCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := NewClient(ClientConfig{BaseDelay: time.Hour})
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if _, err := c.Get(ctx, srv.URL); err == nil {
		t.Fatal("want an error after cancel")
	}
}

func TestDecodeEmptyBody(t *testing.T) {
	for _, ct := range []string{"", "text/html", "text/html; charset=windows-1251"} {
		b, cs, err := Decode(nil, ct)
		if err != nil || len(b) != 0 || cs == "" {
			t.Errorf("%q: %q %q %v", ct, b, cs, err)
		}
	}
}

func TestConfigRate(t *testing.T) {
	for v, want := range map[string]float64{"": 1, "5": 5, "0.5": 0.5, "-2": 1, "fast": 1, "0": 1} {
		if got := (Config{Extra: map[string]string{"rate": v}}).Rate(); float64(got) != want {
			t.Errorf("rate %q: %v, want %v", v, got, want)
		}
	}
	for v, want := range map[string]int{"": 0, "2": 2, "1.5": 0, "-1": 0, "many": 0} {
		if got := (Config{Extra: map[string]string{"burst": v}}).Burst(); got != want {
			t.Errorf("burst %q: %v, want %v", v, got, want)
		}
	}
	if got := NewClient((Config{Extra: map[string]string{"burst": "2"}}).ClientConfig()).cfg.Burst; got != 2 {
		t.Errorf("a client of burst 2 has burst %d", got)
	}
}

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	if err := Sleep(ctx, 0); err != nil {
		t.Errorf("0: %v", err)
	}
	if err := Sleep(ctx, time.Millisecond); err != nil {
		t.Errorf("1ms: %v", err)
	}
	cancel()
	for _, d := range []time.Duration{0, time.Hour} {
		if err := Sleep(ctx, d); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled, %v: %v", d, err)
		}
	}
}

// A POST answered 5xx or 429 (a CDN's 502/504 after the forum stored the post) or cut off by a
// reset is sent once and reported as ambiguous, never repeated; a GET still is.
func TestClientPostAmbiguousNeverRepeated(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int // 0: reset the connection
	}{{"502", http.StatusBadGateway}, {"504", http.StatusGatewayTimeout}, {"500", 500}, {"429", http.StatusTooManyRequests}, {"reset", 0}} {
		t.Run(c.name, func(t *testing.T) {
			var posts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					posts.Add(1)
				}
				if c.status == 0 {
					hj, _ := w.(http.Hijacker)
					conn, _, err := hj.Hijack()
					if err == nil {
						conn.Close()
					}
					return
				}
				w.WriteHeader(c.status)
			}))
			defer srv.Close()
			_, err := fastClient().PostForm(context.Background(), srv.URL, url.Values{"message": {"ход"}}, "utf-8")
			var ae *ambiguousError
			if !errors.Is(err, ErrAmbiguous) || !errors.As(err, &ae) || ae.Method != http.MethodPost {
				t.Fatalf("want an ambiguous error, got %v", err)
			}
			var se *StatusError
			if c.status != 0 && (!errors.As(err, &se) || se.Status != c.status) {
				t.Fatalf("the status is not kept: %v", err)
			}
			if n := posts.Load(); n != 1 {
				t.Fatalf("the POST was sent %d times", n)
			}
		})
	}
}

// A POST answered 4xx other than 429 is a definite refusal, not an ambiguous one.
func TestClientPostRefusalNotAmbiguous(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := fastClient().PostForm(context.Background(), srv.URL, url.Values{"a": {"b"}}, "utf-8")
	var se *StatusError
	if err == nil || errors.Is(err, ErrAmbiguous) || !errors.As(err, &se) || se.Status != 403 {
		t.Fatalf("want a plain 403, got %v", err)
	}
}

// Send carries headers of its own over the client's (Accept among them), a GET is retried like
// Get, and a POST that meets a 429 is never repeated.
func TestClientSendHeaders(t *testing.T) {
	var gets, posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Api-Key") != "k" || r.Header.Get("Accept") != "application/json" || r.Header.Get("User-Agent") == "" {
			http.Error(w, "headers "+fmt.Sprint(r.Header), http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodPost {
			posts.Add(1)
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		if gets.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	h := http.Header{"Api-Key": {"k"}, "Accept": {"application/json"}}
	c := fastClient()
	p, err := c.Send(context.Background(), http.MethodGet, srv.URL, nil, "", h)
	if err != nil || string(p.Body) != `{"ok":true}` || gets.Load() != 2 {
		t.Fatalf("GET: %v %q after %d tries", err, p.Body, gets.Load())
	}
	p, err = c.Send(context.Background(), http.MethodPost, srv.URL, []byte(`{}`), "application/json", h)
	if !errors.Is(err, ErrAmbiguous) || p == nil || p.Status != http.StatusTooManyRequests || posts.Load() != 1 {
		t.Fatalf("POST: %v, page %v, %d tries", err, p, posts.Load())
	}
}

// A saved page with its <meta charset> not within the first 1024 bytes (SMF 2.0's Curve theme) is read
// as the UTF-8 it declares and is, not as the windows-1252 the sniff falls back to; a page with no
// such declaration, or not valid UTF-8, is sniffed as before.
func TestDecodeLateMeta(t *testing.T) {
	head := "<html><head><script>" + strings.Repeat("var x = 1;\n", 120) + "</script>"
	for _, c := range []struct {
		page, want, charset string
	}{
		{head + `<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /></head><body>Джелу</body></html>`, "Джелу", "utf-8"},
		{head + `</head><body>caf` + "\xe9" + `</body></html>`, "café", "windows-1252"},
		{head + `<meta charset="utf-8"></head><body>caf` + "\xe9" + `</body></html>`, "café", "windows-1252"},                                     // not valid UTF-8
		{strings.Repeat(" ", 1000) + `<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><body>Джелу</body>`, "Джелу", "utf-8"}, // cut at byte 1024
	} {
		b, cs, err := Decode([]byte(c.page), "")
		if err != nil || cs != c.charset || !strings.Contains(string(b), c.want) {
			t.Errorf("%q…: %q %v, want %q in %s", c.page[len(head):], cs, err, c.want, c.charset)
		}
	}
}
