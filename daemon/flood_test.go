package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// Under the board's flood control (MyBB: 60 s between a user's posts) a reply that must wait
// does not stop the game: the next post is read and judged meanwhile, the wait is logged and
// counted, and the held reply goes out once the board allows, in order, once.
func TestFloodWaitKeepsJudging(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRigWith(t, start, crusadeFactory(t, start), rigOptions{floodSeconds: 60})
	r.cycle(t) // the opening post: the bot's flood clock starts
	r.clock.Set(start.Add(65 * time.Minute))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.cycle(t) // judged and replied (more than 60 s after the opening post)
	r.clock.Advance(10 * time.Second)
	r.post(t, "snovaya", "1-й ход сарацина н2 на N3")
	r.cycle(t) // judged; the reply is held by flood control
	texts := r.botTexts(t)
	if len(texts) != 2 {
		t.Fatalf("the second reply must wait for the flood control: %d bot posts", len(texts))
	}
	if !strings.Contains(r.logText(), "flood control") {
		t.Fatalf("the wait is not logged:\n%s", r.logText())
	}
	if n := counterValue(t, r.d.m.Errors.WithLabelValues("g1", "flood")); n < 1 {
		t.Fatalf("errors{kind=flood} = %v", n)
	}
	// Meanwhile the game goes on: the next post is read and judged before the held reply posts
	// (a spectator's here: the players themselves are under the board's flood control too).
	r.clock.Advance(10 * time.Second)
	r.post(t, "Moderator", "Удачи обеим сторонам!")
	r.cycle(t)
	rec, ok, err := r.st.SeenPost(r.ctx, "g1", "thread", lastPostID(t, r))
	if err != nil || !ok || !rec.Judged() {
		t.Fatalf("the post after the held reply is not judged: %+v %v %v", rec, ok, err)
	}
	if len(r.botTexts(t)) != 2 {
		t.Fatal("a held reply went out before the board allowed it")
	}
	// Once allowed, the held replies go out in order, each once.
	for i := 0; i < 4; i++ {
		r.clock.Advance(61 * time.Second)
		r.cycle(t)
	}
	texts = r.botTexts(t)
	if len(texts) != 3 || !strings.Contains(texts[2], "н2: O2 → N3") {
		t.Fatalf("replies after the wait: %d\n%s", len(texts), strings.Join(texts, "\n---\n"))
	}
	if w := r.d.intervalFrom(false, time.Time{}); w > 61*time.Second {
		t.Fatalf("interval %v", w)
	}
}

func (r *rig) logText() string {
	r.logMu.Lock()
	defer r.logMu.Unlock()
	return r.log.String()
}

// lastPostID is the id of the thread's last post on the board.
func lastPostID(t *testing.T, r *rig) string {
	t.Helper()
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil || len(posts) == 0 {
		t.Fatal(err)
	}
	return strconv.Itoa(posts[len(posts)-1].PID)
}

// A board that allows shorter messages than the daemon thought: the dialect does not split (it
// returns forum.ErrTooLong); the daemon splits, every part carries its own marker,
// and reading the thread again posts nothing twice.
func TestBoardLimitPartsCarryMarkers(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRigWith(t, start, crusadeFactory(t, start), rigOptions{maxMessage: 700, noMerge: true})
	r.cycle(t) // the opening post (the board and the rules: about 3,000 characters)
	texts := r.botTexts(t)
	if len(texts) < 3 {
		t.Fatalf("the opening post was not split: %d bot posts", len(texts))
	}
	for i, b := range texts[1:] { // the thread's own first post is the board's seed post
		if n := strings.Count(b, "fgm-g1-"); n != 1 || len([]rune(b)) > 700 {
			t.Fatalf("part %d: %d markers, %d characters:\n%s", i+1, n, len([]rune(b)), b)
		}
	}
	if !strings.Contains(r.logText(), "too_long") {
		t.Fatalf("the board's refusal is not logged:\n%s", r.logText())
	}
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if got := len(r.botTexts(t)); got != len(texts) {
		t.Fatalf("posts after another cycle: %d, want %d", got, len(texts))
	}
}
