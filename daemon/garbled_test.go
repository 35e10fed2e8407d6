package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/ops"
	"forumgm/store"
)

// checkJudged fails unless each of the posts was judged (accepted) with the text it was written
// with, and nothing was ignored or flagged.
func checkJudged(t *testing.T, r *rig, m *ops.Metrics, want map[int]string) {
	t.Helper()
	for pid, text := range want {
		rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid))
		if err != nil || !ok || rec.Verdict != store.VerdictAccepted || rec.Post.Text != text || rec.EditedHash != "" {
			t.Errorf("post %d: %v %v %q %q (edited %q), want accepted %q", pid, ok, err, rec.Verdict, rec.Post.Text, rec.EditedHash, text)
		}
	}
	if v := counterValue(t, m.MovesJudged.WithLabelValues("g1", "ignored")); v != 0 {
		t.Errorf("%v posts judged ignored", v)
	}
	if flags, _ := r.st.OpenFlags(r.ctx, "g1"); len(flags) != 0 {
		t.Errorf("flags: %+v", flags)
	}
}

// judgedNow fails unless post pid is judged already.
func judgedNow(t *testing.T, r *rig, pid int) {
	t.Helper()
	if rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid)); !ok || err != nil || !rec.Judged() {
		t.Errorf("post %d not judged while the page lies (%v): %+v", pid, err, rec)
	}
}

// A board whose pages declare one charset and are sent in another (UTF-8 declared as windows-1251,
// then windows-1251 declared as UTF-8) loses no move: each is judged as written, none is ignored,
// none is flagged as edited once the pages tell the truth again.
func TestCharsetMismatchLosesNoMove(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	m := ops.NewMetrics()
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics = m })
	r.cycle(t)
	want := map[int]string{}

	r.board.DeclareCharset("windows-1251") // UTF-8 pages say windows-1251
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	want[pid] = "1-й ход крестоносца к1 на K16"
	r.clock.Advance(time.Minute)
	r.cycle(t)
	judgedNow(t, r, pid) // the page is read by what it is

	r.board.SetCharset("windows-1251") // windows-1251 pages say UTF-8
	r.board.DeclareCharset("UTF-8")
	pid = r.post(t, "snovaya", "1-й ход сарацина с1 на B3")
	want[pid] = "1-й ход сарацина с1 на B3"
	r.clock.Advance(time.Minute)
	r.cycle(t)
	judgedNow(t, r, pid)

	r.board.SetCharset("UTF-8") // the truth again; two rescans
	r.board.DeclareCharset("")
	for range 2 {
		r.clock.Advance(2 * time.Minute)
		r.cycle(t)
	}
	checkJudged(t, r, m, want)
	if n := len(assertExactlyOnce(t, r)); n != 3 {
		t.Errorf("%d replies, want the opening and one for each move", n)
	}
}

// garbling is the sandbox's forum read through a decoding that garbles every page while on: each
// post's author and text come out as UTF-8 read as windows-1251 (what no detection can undo).
type garbling struct {
	forum.Forum
	on atomic.Bool
}

func (g *garbling) Unwrap() forum.Forum { return g.Forum }

func (g *garbling) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	ps, next, err := g.Forum.Posts(ctx, t, after)
	if g.on.Load() {
		for i := range ps {
			ps[i].Author, ps[i].Text = as1251(ps[i].Author), as1251(ps[i].Text)
		}
	}
	return ps, next, err
}

// as1251 is s's UTF-8 bytes read as windows-1251: «Джелу» is «Р”Р¶РµР»Сѓ».
func as1251(s string) string {
	b, _ := charmap.Windows1251.NewDecoder().Bytes([]byte(s))
	return string(b)
}

func healthOf(h *ops.Health) (int, string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	return w.Code, w.Body.String()
}

// A post read garbled is held: not judged, the cursor stays before it (a later post waits too),
// logged at error, counted, shown on /healthz; a judged move read garbled is no edit; the next
// clean read judges both posts as written, and /healthz is well again.
func TestGarbledPostIsHeldUntilItReadsRight(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	m := ops.NewMetrics()
	h := ops.NewHealth(r.clock.Now, time.Hour)
	g := &garbling{Forum: r.fo}
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics, o.Health, o.Forum = m, h, g })
	r.cycle(t)
	want := map[int]string{}
	first := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	want[first] = "1-й ход крестоносца к1 на K16"
	r.clock.Advance(time.Minute)
	r.cycle(t)

	g.on.Store(true)
	a := r.post(t, "snovaya", "1-й ход сарацина с1 на B3")
	b := r.post(t, "Джелу", "2-й ход крестоносца к2 на L15")
	want[a], want[b] = "1-й ход сарацина с1 на B3", "2-й ход крестоносца к2 на L15"
	for range 3 { // past the rescan interval: the judged move read garbled is no edit
		r.clock.Advance(time.Minute)
		r.cycle(t)
	}
	for _, pid := range []int{a, b} {
		if rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid)); ok {
			t.Fatalf("post %d judged while garbled: %+v", pid, rec)
		}
	}
	if cur, _, _ := r.st.Cursor(r.ctx, "g1", store.SourceThread); cur.PostID != strconv.Itoa(first) {
		t.Errorf("the cursor passed the held post: %+v", cur)
	}
	if v := counterValue(t, m.PostsHeld.WithLabelValues("g1", "thread")); v < 3 {
		t.Errorf("posts_held_total %v after 3 reads", v)
	}
	if v := counterValue(t, m.Errors.WithLabelValues("g1", "encoding")); v < 3 {
		t.Errorf("errors_total{kind=encoding} %v after 3 reads", v)
	}
	r.logMu.Lock()
	logged := strings.Contains(r.log.String(), `"level":"error"`) && strings.Contains(r.log.String(), "post "+strconv.Itoa(a)+" held")
	r.logMu.Unlock()
	if !logged {
		t.Errorf("no error line for the held post:\n%s", r.log.String())
	}
	if code, body := healthOf(h); code != http.StatusServiceUnavailable || !strings.Contains(body, "held_posts") || !strings.Contains(body, "post "+strconv.Itoa(a)) {
		t.Errorf("/healthz while a post is held: %d %s", code, body)
	}

	g.on.Store(false)
	r.clock.Advance(time.Minute)
	r.cycle(t)
	r.clock.Advance(2 * time.Minute)
	r.cycle(t) // a rescan: no edit
	checkJudged(t, r, m, want)
	if code, body := healthOf(h); code != http.StatusOK || strings.Contains(body, "held_posts") {
		t.Errorf("/healthz after the clean read: %d %s", code, body)
	}
}

// A post that reads garbled however it is read (a player wrote mojibake himself) holds the game
// only for holdGarbled: then it goes to the moderators as unreadable and the posts after it are
// judged.
func TestGarbledPostGoesToModeratorsAfterHold(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	m := ops.NewMetrics()
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics = m })
	r.cycle(t)
	bad := r.post(t, "snovaya", as1251("1-й ход сарацина с1 на B3"))
	next := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if _, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(next)); ok {
		t.Fatal("the post after the held one was judged")
	}
	r.clock.Advance(holdGarbled)
	r.cycle(t)
	rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(bad))
	if !ok || rec.Verdict != store.VerdictFlagged {
		t.Fatalf("the garbled post after the hold: %v %+v", ok, rec)
	}
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	if len(flags) != 1 || flags[0].PostID != strconv.Itoa(bad) || !strings.Contains(flags[0].Detail, "mojibake") {
		t.Errorf("flags: %+v", flags)
	}
	if rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(next)); !ok || rec.Verdict != store.VerdictAccepted {
		t.Errorf("the post after it: %v %+v", ok, rec)
	}
}
