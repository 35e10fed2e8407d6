package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/ops"
	"forumgm/referee"
	"forumgm/store"
)

// seen is one request the rig's forum made: its script and its class at the scheduler.
type seen struct {
	path  string
	class forum.Class
}

// recorder is a transport that notes every request before passing it on.
type recorder struct {
	mu  sync.Mutex
	got []seen
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.got = append(r.got, seen{strings.TrimPrefix(req.URL.Path, "/"), forum.ClassOf(req.Context())})
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *recorder) take() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

// recordedRig is a rig whose forum notes its requests.
func recordedRig(t *testing.T, start time.Time, newRef func() (*referee.Referee, error)) (*rig, *recorder) {
	r := newRig(t, start, newRef)
	rec := &recorder{}
	f, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: rec})))
	if err != nil {
		t.Fatal(err)
	}
	r.fo = f
	r.d = r.newDaemon(t, newRef)
	return r, rec
}

// Nothing is read between a move and its reply that the reply does not need: an inbox read due
// in the same cycle comes before the thread's page, never between the page that holds the move
// and the post; the reply path (the page holding the move, the reply form, the post) goes out in
// the reply class.
func TestNothingReadBetweenMoveAndReply(t *testing.T) {
	for _, expects := range []bool{false, true} {
		fake := fakeWith(func(f *fakeRules) { f.expects = new(atomic.Bool); f.expects.Store(expects) })
		r, rec := recordedRig(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fake)
		r.cycle(t)
		r.clock.Advance(inboxEvery + time.Minute) // the inbox's safety net is due
		rec.take()
		r.post(t, "Джелу", "ход первый")
		r.cycle(t)
		got := rec.take()
		movePage, lastReply, pm := -1, -1, -1
		for i, s := range got {
			switch s.path {
			case "private.php":
				if movePage >= 0 && lastReply < 0 {
					t.Errorf("expects %v: requests %v: the inbox was read between the move and its reply", expects, got)
				}
				pm = i
			case "newreply.php":
				lastReply = i
				if s.class != forum.ClassReply {
					t.Errorf("%s went out in class %s, want reply", s.path, s.class)
				}
			case "showthread.php":
				if s.class == forum.ClassReply && movePage < 0 {
					movePage = i
				}
			}
		}
		if movePage < 0 || lastReply < movePage || pm < 0 {
			t.Fatalf("expects %v: requests %v: want the move's page read in the reply class, the reply posted and the inbox read", expects, got)
		}
		if texts := r.botTexts(t); len(texts) < 2 {
			t.Fatalf("no reply: %v", texts)
		}
	}
}

// A restarted daemon whose cursor is at the thread's last post does not read its thread again
// for the rescan at once (issue 23, item 4: every game of a restarted fleet did): the rescan
// comes at the game's own moment of the interval, in the background class.
func TestRestartDoesNotRescanAtOnce(t *testing.T) {
	r, rec := recordedRig(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fakeFactory)
	r.cycle(t)
	r.post(t, "Джелу", "ход первый")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	const every = 6 * time.Hour
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Rescan = every }) // the restart
	rec.take()
	background := func() int {
		n := 0
		for _, s := range rec.take() {
			if s.class == forum.ClassBackground {
				n++
			}
		}
		return n
	}
	r.cycle(t)
	if n := background(); n != 0 {
		t.Fatalf("the restarted daemon's first cycle made %d background reads: the rescan came at once", n)
	}
	due := every - Spread("g1", every) // when the game's first rescan is due
	r.clock.Advance(due - time.Second)
	r.cycle(t)
	if n := background(); n != 0 {
		t.Fatalf("%d background reads before the game's moment", n)
	}
	r.clock.Advance(2 * time.Second)
	r.cycle(t)
	if n := background(); n == 0 {
		t.Fatal("no rescan at the game's moment of the interval")
	}
}

// The cold catch-up of a long thread shows its progress: pages done, pages to go and an estimate
// in the log and on /healthz while it lasts.
func TestCatchUpShowsProgress(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRigWith(t, start, fakeFactory, rigOptions{noMerge: true})
	for i := range 47 { // 48 posts with the seed: six pages of eight
		r.post(t, []string{"snovaya", "Джелу"}[i%2], "болтовня "+strconv.Itoa(i))
	}
	h := ops.NewHealth(r.clock.Now, time.Hour)
	var during []string
	var stored []store.Progress // what `forumgm games list` and the web UI read
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Health = h
		o.Hook = func(string) {}
	})
	fo := r.d.o.Forum
	r.d.o.Forum = progressSpy{Forum: fo, look: func() {
		during = append(during, healthz(t, h))
		ps, err := r.st.Progresses(r.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := ps[r.d.o.Game]; ok {
			stored = append(stored, p)
		}
	}}
	r.cycle(t)
	log := r.log.String()
	if !strings.Contains(log, `"pages_to_go":`) || !strings.Contains(log, "catch-up done") {
		t.Fatalf("no progress in the log:\n%s", log)
	}
	seen := false
	for _, body := range during {
		if strings.Contains(body, `"pages_to_go"`) && strings.Contains(body, `"eta_seconds"`) {
			seen = true
		}
	}
	if !seen {
		t.Errorf("/healthz never showed the catch-up's progress: %v", during)
	}
	if body := healthz(t, h); strings.Contains(body, `"progress"`) {
		t.Errorf("/healthz still shows progress after the catch-up: %s", body)
	}
	if len(stored) == 0 || stored[0].ToGo <= 0 || stored[0].Done+stored[0].ToGo < 6 {
		t.Errorf("the store never kept the catch-up's progress (6 pages): %+v", stored)
	}
	if ps, err := r.st.Progresses(r.ctx); err != nil || len(ps) != 0 {
		t.Errorf("the store still keeps progress after the catch-up: %v %v", ps, err)
	}
}

// progressSpy looks at /healthz after each page a read reports.
type progressSpy struct {
	forum.Forum
	look func()
}

func (p progressSpy) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	return p.Forum.Posts(forum.WithProgress(ctx, func(done, total int) {
		forum.ReportProgress(ctx, done, total) // the daemon's own
		p.look()
	}), t, after)
}

func healthz(t *testing.T, h *ops.Health) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	return rec.Body.String()
}

// recordedForum is a MyBB session on the rig's board whose requests rec notes: a fresh one
// stands for a restarted daemon's.
func recordedForum(t *testing.T, r *rig, rec *recorder) forum.Forum {
	t.Helper()
	f, err := mybb.New(forum.Config{BaseURL: r.url + "/", Username: "gm-bot", Password: "botpw", Location: msk, Now: r.clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: rec})))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// An answered move costs few requests, each one the reply needs (issue 23): the look that shows
// the move (MyBB's lastpost redirect), the page that holds it, the post; the reply form is the
// quick reply form of that page (no newreply.php read), and the first reply after a restart
// looks for its marker in the page the move was read from (no read of its own). The check of
// the reply's id goes out after the post.
func TestAnsweredMoveCost(t *testing.T) {
	for _, tc := range []struct {
		name     string
		restart  bool
		max      int // requests from the move to the reply on the board
		maxAfter int // and after it, in the same cycle
	}{
		{name: "running", max: 3, maxAfter: 1},
		{name: "first move after a restart", restart: true, max: 3, maxAfter: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			quiet := fakeWith(func(f *fakeRules) { f.expects = new(atomic.Bool) }) // no private message expected
			r, rec := recordedRig(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), quiet)
			r.cycle(t)
			r.post(t, "Джелу", "ход первый")
			r.clock.Advance(time.Minute)
			r.cycle(t)
			r.clock.Advance(time.Minute)
			r.cycle(t) // idle: the cursor's page known
			if tc.restart {
				r.fo = recordedForum(t, r, rec)
				r.d = r.newDaemon(t, quiet)
				r.clock.Advance(2 * time.Second)
				r.cycle(t) // the restarted daemon's first look: nothing new
			}
			before := len(r.botTexts(t))
			rec.take()
			r.post(t, "Джелу", "ход второй")
			r.clock.Advance(2 * time.Second)
			r.cycle(t)
			got := rec.take()
			if n := len(r.botTexts(t)); n != before+1 {
				t.Fatalf("requests %v: the bot posted %d replies, want 1", got, n-before)
			}
			posted := -1
			for i, s := range got {
				if s.path == "newreply.php" && posted < 0 {
					posted = i
				}
			}
			if posted < 0 || posted+1 > tc.max || len(got)-posted-1 > tc.maxAfter {
				t.Fatalf("requests %v: want at most %d up to the reply's post (the look, the page, the post) and %d after it", got, tc.max, tc.maxAfter)
			}
		})
	}
}

// cursorSpy is a forum that notes the cursors the thread is read after.
type cursorSpy struct {
	forum.Forum
	mu    sync.Mutex
	after []forum.Cursor
}

func (c *cursorSpy) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	c.mu.Lock()
	c.after = append(c.after, after)
	c.mu.Unlock()
	return c.Forum.Posts(ctx, t, after)
}

// A player's post the bot replied to can no longer grow by a merge (only a thread's last post
// does): the read after it does not ask for it again (forum.Cursor.Include, which makes a section
// watch read the thread at every poll), in the daemon that posted the reply and after a restart
// (issue 23, item 4: a restarted fleet read every such thread again).
func TestAnsweredPostNotReadAgain(t *testing.T) {
	for _, restart := range []bool{false, true} {
		r := newRig(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fakeFactory)
		spy := &cursorSpy{Forum: r.fo}
		r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Forum = spy })
		r.cycle(t)
		r.clock.Advance(time.Minute)
		r.post(t, "Джелу", "ход первый")
		r.cycle(t) // read with Include? no: the cursor was the bot's; the reply goes out
		if restart {
			r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Forum = spy })
		}
		spy.mu.Lock()
		spy.after = nil
		spy.mu.Unlock()
		r.clock.Advance(time.Minute)
		r.cycle(t)
		spy.mu.Lock()
		got := spy.after
		spy.mu.Unlock()
		if len(got) == 0 {
			t.Fatalf("restart %v: the thread was not read", restart)
		}
		if got[0].Include {
			t.Errorf("restart %v: the read after the answered post %s asked for it again", restart, got[0].PostID)
		}
	}
}
