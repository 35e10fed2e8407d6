package e2e

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/internal/testkit"
	"forumgm/sandbox"

	"golang.org/x/time/rate"
)

// start is the board's clock at the beginning of every test.
var start = time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)

// The board's accounts (uids 1, 2, 3 in this order).
const (
	botName, botPass = "gm-bot", "GmBotPass1"
	p1Name, p1Pass   = "Джелу", "DzheluPass1"
	p2Name, p2Pass   = "snovaya", "SnovayaPass1"
	botUID, p1UID    = "1", "2"
)

var users = []sandbox.User{{Name: botName, Password: botPass}, {Name: p1Name, Password: p1Pass}, {Name: p2Name, Password: p2Pass}}

// board is a sandbox forum on a loopback port, backed by a SQLite file in the test's temp dir.
type board struct {
	tb    testing.TB
	ctx   context.Context
	clock *testkit.Clock
	sb    *sandbox.Server
	base  string
}

// newBoard starts a board; mod adjusts its options (flood, merge, charset, page size).
func newBoard(tb testing.TB, mod func(*sandbox.Options)) *board {
	tb.Helper()
	dir := tb.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	clock := testkit.NewClock(start)
	opts := sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: clock.Now, Users: users}
	if mod != nil {
		mod(&opts)
	}
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	base, err := sb.Start(ctx, "127.0.0.1:0")
	if err != nil {
		_ = sb.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := sb.Close(); err != nil {
			tb.Errorf("sandbox close: %v", err)
		}
	})
	return &board{tb: tb, ctx: ctx, clock: clock, sb: sb, base: base}
}

// noFloodNoMerge turns the board's flood control and auto-merge off.
func noFloodNoMerge(o *sandbox.Options) {
	o.FloodSeconds, o.PMFloodSeconds, o.MergeMinutes = -1, -1, -1
}

// thread starts a thread with posts[0] and adds the other posts as replies through the board's
// rules (as if typed in a browser), one minute apart. It returns the thread id and every post id
// in order. The board needs flood control and merging off (noFloodNoMerge), or authors that
// alternate and replies more than the flood interval apart.
func (b *board) thread(subject string, posts ...post) (tid int, pids []int) {
	b.tb.Helper()
	tid, pid, err := b.sb.NewThread(b.ctx, posts[0].author, sandbox.DefaultFID, subject, posts[0].text)
	if err != nil {
		b.tb.Fatal(err)
	}
	pids = append(pids, pid)
	for _, p := range posts[1:] {
		b.clock.Advance(time.Minute)
		pid, merged, err := b.sb.Reply(b.ctx, p.author, tid, p.text)
		if err != nil || merged {
			b.tb.Fatalf("reply by %s: merged=%v %v", p.author, merged, err)
		}
		pids = append(pids, pid)
	}
	return tid, pids
}

type post struct{ author, text string }

// stored is the board's own record of a thread.
func (b *board) stored(tid int) []sandbox.StoredPost {
	b.tb.Helper()
	ps, err := b.sb.Posts(b.ctx, tid)
	if err != nil {
		b.tb.Fatal(err)
	}
	return ps
}

// recorder is the client's transport: it counts the requests (method and request URI) and can run
// a hook before a request goes out.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []string
	hook func(*http.Request)
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req.Method+" "+req.URL.RequestURI())
	hook := r.hook
	r.mu.Unlock()
	if hook != nil {
		hook(req)
	}
	return r.next.RoundTrip(req)
}

// mark is the number of requests so far.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// since lists the requests after mark n.
func (r *recorder) since(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reqs[n:]...)
}

func (r *recorder) setHook(h func(*http.Request)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hook = h
}

// count counts the requests after mark n that start with prefix ("POST /member.php").
func (r *recorder) count(n int, prefix string) int {
	c := 0
	for _, s := range r.since(n) {
		if strings.HasPrefix(s, prefix) {
			c++
		}
	}
	return c
}

// account is the MyBB dialect logged in (lazily) as one user of the board, with a fast client
// (no rate limit, no backoff sleeps) and a counting transport. Its writes meet flood control the
// way the daemon's outbox does: the wait advances the board's clock (afterFlood).
type account struct {
	*mybb.Forum
	rec   *recorder
	clock *testkit.Clock
	mu    sync.Mutex
	waits []time.Duration
}

// afterFlood sends the way the daemon's outbox does under flood control: when the board refuses
// with a *forum.FloodError, the message waits the board's time and a second (daemon.Drain; here
// the board's clock is advanced by it and the wait recorded) and is sent again.
func (a *account) afterFlood(send func() error) error {
	var err error
	for range 5 {
		var fe *forum.FloodError
		if err = send(); !errors.As(err, &fe) {
			return err
		}
		d := max(fe.Wait, time.Second) + time.Second
		a.mu.Lock()
		a.waits = append(a.waits, d)
		a.mu.Unlock()
		a.clock.Advance(d)
	}
	return err
}

// Reply is the dialect's Reply, sent again after flood control (afterFlood).
func (a *account) Reply(ctx context.Context, t forum.Thread, body string) (id string, merged bool, err error) {
	err = a.afterFlood(func() (err error) { id, merged, err = a.Forum.Reply(ctx, t, body); return err })
	return id, merged, err
}

// ReplyWithAttachments is the dialect's, sent again after flood control (afterFlood).
func (a *account) ReplyWithAttachments(ctx context.Context, t forum.Thread, body string, files []forum.Attachment) (id string, merged bool, err error) {
	err = a.afterFlood(func() (err error) { id, merged, err = a.Forum.ReplyWithAttachments(ctx, t, body, files); return err })
	return id, merged, err
}

// SendPM is the dialect's, sent again after flood control (afterFlood).
func (a *account) SendPM(ctx context.Context, to, subject, body string) error {
	return a.afterFlood(func() error { return a.Forum.SendPM(ctx, to, subject, body) })
}

func (a *account) slept() []time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]time.Duration(nil), a.waits...)
}

func (b *board) config(user, pass string) forum.Config {
	return forum.Config{BaseURL: b.base + "/", Username: user, Password: pass, Location: time.UTC, Now: b.clock.Now,
		UserAgent: "forumgm-e2e"}
}

// dial opens the dialect as user.
func (b *board) dial(user, pass string, opts ...mybb.Option) *account {
	b.tb.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	b.tb.Cleanup(tr.CloseIdleConnections)
	a := &account{rec: &recorder{next: tr}, clock: b.clock}
	client := forum.NewClient(forum.ClientConfig{
		Rate: rate.Inf, Burst: 1, MaxRetries: 1, BaseDelay: time.Millisecond, Timeout: time.Minute,
		Sleep:     func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		Transport: a.rec,
	})
	f, err := mybb.New(b.config(user, pass), append([]mybb.Option{mybb.WithClient(client)}, opts...)...)
	if err != nil {
		b.tb.Fatal(err)
	}
	a.Forum = f
	return a
}

// itoa formats a board id the way the dialect reports it.
func itoa(n int) string { return strconv.Itoa(n) }
