package daemon

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"

	"forumgm/ops"
)

// cutTransport sends requests to the board while up, and to a closed loopback port while down:
// the forum is then really unreachable (the kernel refuses the connection), at once.
type cutTransport struct {
	down atomic.Bool
	dead string // host:port nobody listens on
}

func (c *cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.down.Load() {
		r := req.Clone(req.Context())
		u := *req.URL
		u.Host = c.dead
		r.URL, r.Host = &u, c.dead
		return http.DefaultTransport.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(req)
}

func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// get fetches path from the ops server over loopback.
func get(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

var sampleRe = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$`)
var labelRe = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)

// sample is the value of the series name{labels...} in a Prometheus text exposition (labels not
// named are ignored); ok is false when there is no such series.
func sample(body, name string, labels map[string]string) (float64, bool) {
	for _, line := range strings.Split(body, "\n") {
		m := sampleRe.FindStringSubmatch(line)
		if m == nil || m[1] != name {
			continue
		}
		have := map[string]string{}
		for _, l := range labelRe.FindAllStringSubmatch(m[2], -1) {
			have[l[1]] = l[2]
		}
		match := true
		for k, v := range labels {
			if have[k] != v {
				match = false
			}
		}
		if match {
			v, err := strconv.ParseFloat(m[3], 64)
			return v, err == nil
		}
	}
	return 0, false
}

type healthBody struct {
	OK        bool   `json:"ok"`
	Failed    int    `json:"failed_polls_in_row"`
	LastError string `json:"last_error"`
	Reason    string `json:"reason"`
}

func health(t *testing.T, base string) (int, healthBody) {
	t.Helper()
	code, body := get(t, base, "/healthz")
	var h healthBody
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		t.Fatalf("/healthz body %q: %v", body, err)
	}
	return code, h
}

// TestOpsServer starts the daemon's ops server on 127.0.0.1:0 and reads /healthz and /metrics
// over loopback: healthy while polls work, the documented series with values that move when posts
// are judged and replies posted, and unhealthy (503) once the forum has been unreachable for
// DefaultMaxFailures polls in a row, healthy again after one good poll.
func TestOpsServer(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	tr := &cutTransport{dead: deadAddr(t)}
	fo, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: tr, Sleep: r.clock.Sleep})))
	if err != nil {
		t.Fatal(err)
	}
	r.fo = fo
	m := ops.NewMetrics()
	h := ops.NewHealth(r.clock.Now, time.Hour) // quiet time far beyond this test: only failures count
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics, o.Health = m, h })
	addr, stop, err := ops.ListenOps("127.0.0.1:0", m, h)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if host, _, _ := net.SplitHostPort(addr); host != "127.0.0.1" {
		t.Fatalf("ops server on %s, want loopback", addr)
	}
	base := "http://" + addr

	if code, hb := health(t, base); code != http.StatusOK || !hb.OK {
		t.Fatalf("/healthz before the first poll: %d %+v", code, hb)
	}
	code, body := get(t, base, "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := sample(body, name, nil); !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if _, ok := sample(body, "forumgm_moves_judged_total", nil); ok {
		t.Errorf("moves judged before any post:\n%s", body)
	}

	with := func(kv ...string) map[string]string {
		out := map[string]string{"game": "g1"}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	r.cycle(t) // the opening post
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.post(t, "snovaya", "плохой ход сарацина")
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "?? непонятно")
	r.clock.Advance(time.Minute)
	r.cycle(t)

	_, body = get(t, base, "/metrics")
	want := []struct {
		name   string
		labels map[string]string
		min    float64
		exact  bool
	}{
		{"forumgm_posts_read_total", with("source", "thread"), 3, true},
		{"forumgm_moves_judged_total", with("verdict", "accepted"), 1, true},
		{"forumgm_moves_judged_total", with("verdict", "refused"), 1, true},
		{"forumgm_moves_judged_total", with("verdict", "flagged"), 1, true},
		{"forumgm_replies_posted_total", with("kind", "reply", "how", "posted"), 4, true}, // start, move, refusal, "not understood"
		{"forumgm_replies_posted_total", with("kind", "pm", "how", "posted"), 1, true},    // the moderator told
		{"forumgm_poll_latency_seconds_count", with("source", "thread"), 2, false},
		{"forumgm_poll_latency_seconds_bucket", with("source", "thread", "le", "+Inf"), 2, false},
		{"forumgm_poll_latency_seconds_count", with("source", "pm"), 1, false}, // the first poll; later ones trust the page's unread counter
		{"forumgm_flags_raised_total", with(), 1, true},
		{"forumgm_outbox_pending", with(), 0, true},
	}
	for _, w := range want {
		v, ok := sample(body, w.name, w.labels)
		if !ok || v < w.min || (w.exact && v != w.min) {
			t.Errorf("%s%v = %v (present %v), want %v (exact %v)", w.name, w.labels, v, ok, w.min, w.exact)
		}
	}
	if _, ok := sample(body, "forumgm_errors_total", nil); ok {
		t.Errorf("errors counted while all went well:\n%s", grep(body, "forumgm_errors_total"))
	}
	if code, hb := health(t, base); code != http.StatusOK || !hb.OK || hb.Failed != 0 {
		t.Fatalf("/healthz after good polls: %d %+v", code, hb)
	}

	// The forum becomes unreachable: each poll fails; /healthz stays up for the first
	// DefaultMaxFailures-1 failures, then reports 503 with the error.
	tr.down.Store(true)
	for i := 1; i <= ops.DefaultMaxFailures; i++ {
		r.clock.Advance(time.Minute)
		if _, err := r.d.Cycle(r.ctx); err == nil {
			t.Fatalf("poll %d succeeded with the forum down", i)
		}
		code, hb := health(t, base)
		if i < ops.DefaultMaxFailures && (code != http.StatusOK || !hb.OK || hb.Failed != i) {
			t.Fatalf("after %d failed polls: %d %+v, want still healthy", i, code, hb)
		}
		if i == ops.DefaultMaxFailures && (code != http.StatusServiceUnavailable || hb.OK || hb.Failed != i || hb.LastError == "" || hb.Reason == "") {
			t.Fatalf("after %d failed polls: %d %+v, want 503 with the error", i, code, hb)
		}
	}
	_, body = get(t, base, "/metrics")
	if v, _ := sample(body, "forumgm_errors_total", with("kind", "forum")); v < ops.DefaultMaxFailures {
		t.Errorf("forum errors = %v, want >= %d:\n%s", v, ops.DefaultMaxFailures, grep(body, "forumgm_errors_total"))
	}
	if strings.Contains(body, "botpw") {
		t.Error("the bot's password is in /metrics")
	}

	// Back up: one good poll and it is healthy again; a new post moves the counters on.
	tr.down.Store(false)
	r.post(t, "Джелу", "2-й ход крестоносца к1 на K15")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if code, hb := health(t, base); code != http.StatusOK || !hb.OK || hb.Failed != 0 {
		t.Fatalf("/healthz after the forum came back: %d %+v", code, hb)
	}
	_, body = get(t, base, "/metrics")
	if v, _ := sample(body, "forumgm_moves_judged_total", with("verdict", "accepted")); v != 2 {
		t.Errorf("accepted moves = %v after the second move, want 2", v)
	}
	if v, _ := sample(body, "forumgm_posts_read_total", with("source", "thread")); v != 4 {
		t.Errorf("posts read = %v, want 4", v)
	}
}

func grep(body, prefix string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// /metrics and /healthz answer only requests for a loopback Host (DNS rebinding), like the web UI.
func TestOpsRefusesForeignHost(t *testing.T) {
	m := ops.NewMetrics()
	h := ops.NewHealth(time.Now, time.Hour)
	addr, stop, err := ops.ListenOps("127.0.0.1:0", m, h)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, path := range []string{"/metrics", "/healthz"} {
		for host, want := range map[string]int{addr: http.StatusOK, "localhost": http.StatusOK, "rebound.example:80": http.StatusMisdirectedRequest} {
			req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("%s with Host %s: %d, want %d", path, host, resp.StatusCode, want)
			}
			if want != http.StatusOK && strings.Contains(string(b), "forumgm_") {
				t.Errorf("%s with Host %s leaked the metrics", path, host)
			}
		}
	}
}
