package forum

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A request that stalls until the client gives up is reported to the Slow hook with its URL and
// how long it took, even though the retry then works: a stalled forum leaves a log line.
func TestClientReportsSlowRequests(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<html><body>ok</body></html>"))
	}))
	defer srv.Close()
	type slow struct {
		method, url string
		took        time.Duration
		err         error
	}
	var mu sync.Mutex
	var got []slow
	c := NewClient(ClientConfig{Rate: 1000, Burst: 10, Timeout: 200 * time.Millisecond, BaseDelay: time.Millisecond, SlowAfter: 100 * time.Millisecond,
		Slow: func(method, url string, took time.Duration, err error) {
			mu.Lock()
			got = append(got, slow{method, url, took, err})
			mu.Unlock()
		}})
	if _, err := c.Get(context.Background(), srv.URL+"/showthread.php?tid=1"); err != nil {
		t.Fatalf("the retry should work: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("slow requests reported: %+v, want the stalled one", got)
	}
	if s := got[0]; s.method != "GET" || s.url != srv.URL+"/showthread.php?tid=1" || s.took < 200*time.Millisecond || s.err == nil {
		t.Errorf("reported %+v, want the GET of the thread, about 200ms, a timeout", s)
	}
}

// A page over the cap is refused whole as too large (naming the cap), never read cut short.
func TestClientRefusesTooLargePage(t *testing.T) {
	big := make([]byte, maxPage+1024)
	for i := range big {
		big[i] = 'a'
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(big)
	}))
	defer srv.Close()
	c := NewClient(ClientConfig{Rate: 1000, Burst: 10})
	_, err := c.Get(context.Background(), srv.URL+"/")
	if !errors.Is(err, ErrTooLarge) || errors.Is(err, ErrTruncated) {
		t.Fatalf("a %d-byte page: %v, want ErrTooLarge", len(big), err)
	}
	if want := "over the 16 MiB cap: forum: page too large"; !strings.Contains(err.Error(), want) {
		t.Errorf("%v does not say %q", err, want)
	}
	_, err = c.PostForm(context.Background(), srv.URL+"/newreply.php", nil, "utf-8")
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrAmbiguous) {
		t.Errorf("a POST answered with a page too large: %v, want ErrTooLarge and ErrAmbiguous (it may have been taken)", err)
	}
}
