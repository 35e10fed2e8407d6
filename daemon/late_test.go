package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// A post hidden from the reads and shown after a later post was judged (issue 19, item 3: MyBB's
// moderation queue approves it later, keeping its pid and time) is judged when the rescan first
// sees it: the saracens' move, out of Crusade's order by now, is flagged for a moderator and its
// author told in the thread; a stranger's chatter is recorded as ignored. Once, across rescans.
func TestLatePostIsJudgedOrFlagged(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t) // the opening post
	r.clock.Set(start.Add(65 * time.Minute))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.cycle(t)
	r.clock.Set(start.Add(70 * time.Minute))
	move := r.post(t, "snovaya", "1-й ход сарацина н1 на N1")
	chat := r.post(t, "Вася", "Всем привет, болею за сарацин!")
	for _, pid := range []int{move, chat} {
		if err := r.board.Hold(r.ctx, pid); err != nil { // the moderation queue
			t.Fatal(err)
		}
	}
	r.clock.Set(start.Add(72 * time.Minute))
	r.post(t, "Джелу", "Ждём ход сарацин.")
	r.cycle(t) // the cursor moves past the held posts
	before := len(r.botTexts(t))
	for _, pid := range []int{move, chat} {
		if err := r.board.Approve(r.ctx, pid); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 { // each cycle rescans (Rescan: a minute)
		r.clock.Set(start.Add(time.Duration(75+2*i) * time.Minute))
		r.cycle(t)
	}
	ctx := context.Background()
	rec, ok, err := r.st.SeenPost(ctx, "g1", store.SourceThread, strconv.Itoa(move))
	if err != nil || !ok || rec.Verdict != store.VerdictFlagged {
		t.Fatalf("the late move must get a verdict (flagged): %+v %v %v", rec.Verdict, ok, err)
	}
	rec, ok, err = r.st.SeenPost(ctx, "g1", store.SourceThread, strconv.Itoa(chat))
	if err != nil || !ok || rec.Verdict != store.VerdictIgnored {
		t.Fatalf("the late chatter must be recorded: %+v %v %v", rec.Verdict, ok, err)
	}
	flags, _ := r.st.OpenFlags(ctx, "g1")
	if len(flags) != 1 || flags[0].PostID != strconv.Itoa(move) || flags[0].Kind != store.FlagLate || !strings.Contains(flags[0].Detail, "опозданием") {
		t.Fatalf("one flag for the late move: %+v", flags)
	}
	texts := r.botTexts(t)[before:]
	if len(texts) != 1 || !strings.Contains(texts[0], "snovaya") || !strings.Contains(texts[0], "с опозданием") {
		t.Fatalf("the player is told once in the thread: %q", texts)
	}
	if !strings.Contains(r.logText(), "appeared late") {
		t.Error("a late post is logged")
	}
}
