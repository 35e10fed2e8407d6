package daemon

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// proxyFault is what testProxy does to a request it matches.
type proxyFault int

const (
	faultAfter  proxyFault = iota // pass it on, then answer 502 (the board took it)
	faultBefore                   // answer 503 without passing it on
)

// testProxy is a loopback reverse proxy in front of the board that passes every request on,
// except the first n that match (n < 0: all), which get the fault. It counts the matching
// requests that reached the board.
func testProxy(t *testing.T, upstream string, match func(*http.Request) bool, fault proxyFault, n int32) (string, *atomic.Int32) {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	var left atomic.Int32
	left.Store(n)
	var taken atomic.Int32
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		if !match(resp.Request) {
			return nil
		}
		taken.Add(1)
		if fault == faultAfter && (n < 0 || left.Add(-1) >= 0) {
			resp.Body.Close()
			resp.StatusCode = http.StatusBadGateway
			resp.Status = "502 Bad Gateway"
			resp.Header = http.Header{"Content-Type": {"text/html"}}
			resp.Body = http.NoBody
			resp.ContentLength = 0
		}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fault == faultBefore && match(r) && (n < 0 || left.Add(-1) >= 0) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &taken
}

func replyPOST(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.Contains(r.URL.Path, "newreply")
}

func pmPOST(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.Contains(r.URL.Path, "private")
}

// A reply the forum stored but answered 502 is found by its marker and never posted again.
func TestAmbiguousReplyPostedOnce(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	purl, taken := testProxy(t, r.url, replyPOST, faultAfter, 2)
	r.fo = newForum(t, purl, r.clock)
	r.d = r.newDaemon(t, fakeFactory)
	r.cycle(t) // the opening post: stored, answered 502, found by marker
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t) // the move's reply: stored, answered 502, found by marker
	r.clock.Advance(time.Minute)
	r.post(t, "snovaya", "плохой ход сарацина")
	r.clock.Advance(time.Minute)
	r.cycle(t) // no fault any more

	order := assertExactlyOnce(t, r)
	if len(order) != 3 {
		t.Errorf("markers in the thread: %v, want 3 replies", order)
	}
	if got := taken.Load(); got != 3 {
		t.Errorf("%d reply POSTs reached the board, want 3 (never re-sent)", got)
	}
	if got := counterValue(t, r.d.m.Errors.WithLabelValues("g1", "ambiguous")); got != 2 {
		t.Errorf("ambiguous errors counted: %v, want 2", got)
	}
	if got := counterValue(t, r.d.m.RepliesPosted.WithLabelValues("g1", "reply", "found")); got != 2 {
		t.Errorf("replies found by marker: %v, want 2", got)
	}
	r.logMu.Lock()
	logs := r.log.String()
	r.logMu.Unlock()
	if !strings.Contains(logs, `"kind":"ambiguous"`) {
		t.Errorf("the ambiguous answer is not logged:\n%s", logs)
	}
}

// counterValue reads a counter.
func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
