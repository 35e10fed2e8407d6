package daemon

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
)

// counter is a byte-counting TCP proxy on loopback in front of a forum, and a transport that
// lists the requests made through it: what an idle poll costs, counted (never timed).
type counter struct {
	url      string
	in, out  atomic.Int64 // bytes from the client to the forum, and back
	mu       sync.Mutex
	requests []string // "GET /path?query", in order
}

func newCounter(t *testing.T, upstream string) *counter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	up := strings.TrimPrefix(upstream, "http://")
	c := &counter{url: "http://" + ln.Addr().String()}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				back, err := net.Dial("tcp", up)
				if err != nil {
					return
				}
				defer back.Close()
				done := make(chan struct{})
				go func() {
					_, _ = io.Copy(back, countReader{conn, &c.in})
					back.(*net.TCPConn).CloseWrite()
					close(done)
				}()
				_, _ = io.Copy(countWriter{conn, &c.out}, back)
				conn.(*net.TCPConn).CloseWrite()
				<-done
			}()
		}
	}()
	return c
}

// countWriter counts the bytes as they pass (a kept-alive connection never ends a copy).
type countWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (w countWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.n.Add(int64(n))
	return n, err
}

// countReader counts what the client sends.
type countReader struct {
	r io.Reader
	n *atomic.Int64
}

func (r countReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n.Add(int64(n))
	return n, err
}

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.requests = append(c.requests, req.Method+" "+req.URL.RequestURI())
	c.mu.Unlock()
	return transport.RoundTrip(req)
}

// transport is a plain transport (gzip accepted and decoded by Go, keep-alive).
var transport = &http.Transport{MaxIdleConnsPerHost: 2}

func (c *counter) reset() {
	c.mu.Lock()
	c.requests = nil
	c.mu.Unlock()
	c.in.Store(0)
	c.out.Store(0)
}

func (c *counter) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.requests...)
}

// idleRig is a rig whose daemon reads the board through the counter.
func idleRig(t *testing.T) (*rig, *counter, *atomic.Bool) {
	t.Helper()
	r := newRig(t, time.Date(2026, 12, 1, 12, 0, 0, 0, msk), fakeFactory)
	c := newCounter(t, r.url)
	f, err := mybb.New(forum.Config{BaseURL: c.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: c})))
	if err != nil {
		t.Fatal(err)
	}
	expects := &atomic.Bool{}
	r.fo = f
	r.d = r.newDaemon(t, fakeWith(func(f *fakeRules) { f.expects = expects }))
	return r, c, expects
}

// TestIdlePollMyBB: once the thread is read, an idle poll of MyBB through the sandbox is one
// request (the lastpost redirect, not followed) of less than a kilobyte both ways, and reads no
// inbox when the game expects no private message.
func TestIdlePollMyBB(t *testing.T) {
	r, c, _ := idleRig(t)
	r.cycle(t) // the first poll reads the thread and the inbox
	r.cycle(t)
	c.reset()
	r.cycle(t)
	got := c.seen()
	if len(got) != 1 || !strings.Contains(got[0], "action=lastpost") {
		t.Fatalf("idle poll requests: %q, want the lastpost redirect only", got)
	}
	if in, out := c.in.Load(), c.out.Load(); in+out >= 1024 || in == 0 || out == 0 {
		t.Fatalf("idle poll: %d bytes sent, %d received; want under 1 KB both ways", in, out)
	}
	t.Logf("idle poll: %q, %d bytes sent, %d received", got, c.in.Load(), c.out.Load())

	// A new post: the redirect names it, the page is read (and its post judged).
	r.post(t, "snovaya", "привет всем")
	c.reset()
	r.cycle(t)
	if got := c.seen(); len(got) != 2 || !strings.Contains(got[1], "showthread.php?tid=1") {
		t.Fatalf("poll after a post: %q, want the redirect and the thread page", got)
	}
}

// TestInboxOnlyWhenExpected: the inbox is read when the game expects a private message, or when a
// page read showed an unread one, not on an idle poll otherwise.
func TestInboxOnlyWhenExpected(t *testing.T) {
	r, c, expects := idleRig(t)
	r.cycle(t)
	inbox := func() int {
		n := 0
		for _, q := range c.seen() {
			if strings.Contains(q, "private.php") {
				n++
			}
		}
		return n
	}
	c.reset()
	r.cycle(t)
	if n := inbox(); n != 0 {
		t.Fatalf("idle poll, no private message expected: %d inbox requests (%q)", n, c.seen())
	}
	// A private message expected: the inbox is not read while the header's counter (the last
	// page read, at most PMLookEvery old) shows none; a look at the board index refreshes it.
	expects.Store(true)
	c.reset()
	r.cycle(t)
	if n := inbox(); n != 0 {
		t.Fatalf("a private message expected, the counter fresh and showing none: %d inbox requests (%q)", n, c.seen())
	}
	r.clock.Advance(PMLookEvery)
	c.reset()
	r.cycle(t)
	if got := c.seen(); inbox() != 0 || len(got) != 2 || !strings.Contains(got[1], "index.php") {
		t.Fatalf("a private message expected, the counter %s old: %q, want the probe and the board index", PMLookEvery, got)
	}
	if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "приказ", "мой приказ"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(PMLookEvery)
	c.reset()
	r.cycle(t)
	if n := inbox(); n == 0 {
		t.Fatalf("the board index showed an unread message: the inbox was not read (%q)", c.seen())
	}
	r.clock.Advance(PMNetEvery)
	c.reset()
	r.cycle(t)
	if n := inbox(); n == 0 {
		t.Fatalf("a private message expected, no full read for %s: the inbox was not read (%q)", PMNetEvery, c.seen())
	}
	expects.Store(false)
	// A message arrives; the next page read (a new post) shows the notice: the inbox is read.
	if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "вопрос", "можно спросить?"); err != nil {
		t.Fatal(err)
	}
	r.post(t, "Джелу", "жду ход")
	c.reset()
	r.cycle(t)
	if n := inbox(); n == 0 {
		t.Fatalf("the page showed an unread message: the inbox was not read (%q)", c.seen())
	}
	c.reset()
	r.cycle(t)
	if n := inbox(); n != 0 {
		t.Fatalf("the message read, no private message expected: %d inbox requests (%q)", n, c.seen())
	}
}

// A timed rule about to fire (the fake game's 00:00 close) has the inbox read in full before it,
// while the game expects private messages, even though the board's unread counter was looked at
// less than PMLookEvery before: a message written just before the rule is judged in time.
func TestInboxReadBeforeATimer(t *testing.T) {
	r, c, expects := idleRig(t)
	expects.Store(true)
	r.clock.Set(time.Date(2026, 12, 1, 23, 58, 0, 0, msk))
	r.cycle(t)
	r.clock.Set(time.Date(2026, 12, 1, 23, 59, 30, 0, msk))
	r.cycle(t) // the counter (the board index) looked at: none unread
	if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "приказ", "мой приказ до полуночи"); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(time.Date(2026, 12, 2, 0, 0, 0, 0, msk))
	c.reset()
	r.cycle(t)
	inbox := 0
	for _, q := range c.seen() {
		if strings.Contains(q, "private.php") {
			inbox++
		}
	}
	if inbox == 0 {
		t.Fatalf("the 00:00 close fired without the inbox read first: %q", c.seen())
	}
}
