package daemon

import (
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// outboxByKind lists the game's outbox items of a kind, in order.
func outboxByKind(t *testing.T, r *rig, kind store.OutboxKind) []store.OutboxRow {
	t.Helper()
	var out []store.OutboxRow
	for id := int64(1); ; id++ {
		it, err := r.st.Outbox(r.ctx, id)
		if err != nil {
			return out
		}
		if it.Kind == kind {
			out = append(out, it)
		}
	}
}

// A private message to a user the forum does not know (a typo in a moderator's name) is given
// up on, loudly, and every later reply and private message still goes out.
func TestDrainSkipsUndeliverablePM(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Moderators = []string{"Modderator", "Moderator"} })
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "?? что-то непонятное") // a flag: a reply and a PM to each moderator
	r.clock.Advance(time.Minute)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.post(t, "snovaya", "1-й ход сарацина")
	r.clock.Advance(time.Minute)
	r.cycle(t)

	order := assertExactlyOnce(t, r)
	if len(order) != 3 { // start, unreadable, move
		t.Errorf("markers in the thread: %v", order)
	}
	pms := outboxByKind(t, r, store.OutboxPM)
	if len(pms) != 2 {
		t.Fatalf("private messages queued: %+v", pms)
	}
	if pms[0].Recipient != "Modderator" || pms[0].State != store.OutboxFailed || !strings.Contains(pms[0].LastError, "not found") {
		t.Errorf("the PM to the unknown user: %+v, want failed (not found)", pms[0])
	}
	if pms[1].Recipient != "Moderator" || pms[1].State != store.OutboxPosted {
		t.Errorf("the PM after it: %+v, want posted", pms[1])
	}
	got, err := r.board.PMs(r.ctx, "Moderator")
	if err != nil || len(got) != 1 {
		t.Errorf("the moderator got %d PMs (%v), want 1", len(got), err)
	}
	if v := counterValue(t, r.d.m.OutboxFailed.WithLabelValues("g1", "pm")); v != 1 {
		t.Errorf("outbox_failed{pm} = %v, want 1", v)
	}
	r.logMu.Lock()
	logs := r.log.String()
	r.logMu.Unlock()
	if !strings.Contains(logs, `"level":"error"`) || !strings.Contains(logs, `"recipient":"Modderator"`) {
		t.Errorf("the given-up PM is not logged at error level:\n%s", logs)
	}
}

// A private message that cannot go out now (the forum refuses every PM POST) holds back the later
// private messages but never a thread reply.
func TestDrainRepliesNeverWaitBehindPMs(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	purl, _ := testProxy(t, r.url, pmPOST, faultBefore, -1)
	r.fo = newForum(t, purl, r.clock)
	r.d = r.newDaemon(t, fakeFactory)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "?? что-то непонятное")
	r.clock.Advance(time.Minute)
	if _, err := r.d.Cycle(r.ctx); err == nil {
		t.Error("a cycle whose PM could not go out reports no error")
	}
	r.clock.Advance(time.Minute)
	r.post(t, "snovaya", "1-й ход сарацина")
	r.clock.Advance(time.Minute)
	r.d.Cycle(r.ctx) //nolint:errcheck // the PM still fails

	order, count := markersIn(r.botTexts(t))
	if len(order) != 3 {
		t.Errorf("markers in the thread: %v, want start, unreadable, move", order)
	}
	for m, n := range count {
		if n != 1 {
			t.Errorf("marker %s posted %d times", m, n)
		}
	}
	for _, it := range outboxByKind(t, r, store.OutboxReply) {
		if it.State != store.OutboxPosted {
			t.Errorf("reply %d is %s, want posted", it.ID, it.State)
		}
	}
	pms := outboxByKind(t, r, store.OutboxPM)
	if len(pms) != 1 || pms[0].State != store.OutboxPending || pms[0].Attempts == 0 {
		t.Errorf("the PM: %+v, want pending after failed attempts", pms)
	}
}
