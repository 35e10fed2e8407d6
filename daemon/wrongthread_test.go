package daemon

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/internal/faultproxy"
	"forumgm/ops"
	"forumgm/sandbox"
	"forumgm/store"
)

// The forum serves thread 2's pages for the game's thread 1 (a moderator moved or merged threads,
// a caching front, a wrong redirect: the fault harness's OtherThread): the move posted in thread 2
// is never judged for the game of thread 1, the reads are refused loudly (logged at error with
// both threads, counted, on /healthz) and the cursor stays; once the pages are the thread's again,
// the move posted in thread 1 meanwhile is judged and /healthz is well.
func TestOtherThreadsPageIsNeverJudged(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	var on atomic.Bool
	px, err := faultproxy.Start(r.ctx, r.url, faultproxy.Options{MaxInRow: 1000,
		Rules: []faultproxy.Rule{{Name: "other-thread", Rate: 1, Kinds: []faultproxy.Kind{faultproxy.OtherThread},
			Match: func(req *http.Request) bool { return on.Load() && strings.Contains(req.URL.Path, "showthread.php") }}},
		OtherThread: func(u *url.URL) {
			if q := u.Query(); q.Get("tid") == "1" {
				q.Set("tid", "2")
				u.RawQuery = q.Encode()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { px.Close() })
	r.fo = newForum(t, px.URL(), r.clock)
	m := ops.NewMetrics()
	h := ops.NewHealth(r.clock.Now, time.Hour)
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics, o.Health = m, h })
	r.cycle(t)
	first := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)

	r.clock.Advance(time.Minute)
	tid2, pid2, err := r.board.NewThread(r.ctx, "snovaya", sandbox.DefaultFID, "Другая тема", "1-й ход сарацина с1 на B3")
	if err != nil || tid2 != 2 {
		t.Fatalf("thread 2: %d %v", tid2, err)
	}
	on.Store(true)
	later := r.post(t, "snovaya", "1-й ход сарацина с1 на B3") // in the game's thread, read once the pages are right
	for range 3 {
		r.clock.Advance(time.Minute)
		if _, err := r.d.Cycle(r.ctx); err == nil {
			t.Fatal("a cycle read thread 2's pages for thread 1 without an error")
		}
	}
	for _, pid := range []int{pid2, later} {
		if rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid)); ok {
			t.Fatalf("post %d judged from thread 2's pages: %+v", pid, rec)
		}
	}
	if cur, _, _ := r.st.Cursor(r.ctx, "g1", store.SourceThread); cur.PostID != strconv.Itoa(first) {
		t.Errorf("the cursor moved on thread 2's pages: %+v", cur)
	}
	if v := counterValue(t, m.WrongThread.WithLabelValues("g1")); v < 3 {
		t.Errorf("wrong_thread_reads_total %v after 3 reads", v)
	}
	r.logMu.Lock()
	logged := strings.Contains(r.log.String(), `"level":"error"`) && strings.Contains(r.log.String(), `"thread_asked":"1","thread_found":"2"`) &&
		strings.Contains(r.log.String(), `"kind":"wrong_thread"`)
	r.logMu.Unlock()
	if !logged {
		t.Errorf("no error line naming both threads:\n%s", r.log.String())
	}
	if code, body := healthOf(h); code != http.StatusServiceUnavailable || !strings.Contains(body, "wrong_thread") || !strings.Contains(body, "thread 2's page") {
		t.Errorf("/healthz while thread 2's pages are served: %d %s", code, body)
	}

	on.Store(false)
	r.clock.Advance(time.Minute)
	r.cycle(t)
	checkJudged(t, r, m, map[int]string{first: "1-й ход крестоносца к1 на K16", later: "1-й ход сарацина с1 на B3"})
	if rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid2)); ok {
		t.Errorf("thread 2's post %d judged: %+v", pid2, rec)
	}
	if code, body := healthOf(h); code != http.StatusOK || strings.Contains(body, "wrong_thread") {
		t.Errorf("/healthz after the thread's own pages: %d %s", code, body)
	}
}
