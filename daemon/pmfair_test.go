package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// botPMs lists the private messages the bot sent to user (inbox copies), oldest first, with
// their board-wide ids.
func botPMs(t *testing.T, r *rig, user string) (ids []int, texts []string) {
	t.Helper()
	got, err := r.board.PMs(r.ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	for _, pm := range got {
		if pm.Folder == 1 && pm.From == "gm-bot" {
			ids, texts = append(ids, pm.PMID), append(texts, pm.Message)
		}
	}
	return ids, texts
}

// One player's burst of private messages does not hold up another player's answer: the burst is
// answered in one message naming each message understood, the other player's answer goes out
// within one round; and a crash after the burst's message went out sends nothing twice (every
// item is found by its own marker in the sent folder).
func TestPMBurstIsFairAndCoalesced(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	crashAt := "sent"
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Hook = func(step string) {
			if step == crashAt {
				crashAt = ""
				panic(crash{step})
			}
		}
	})
	crashAt = "" // not during the start
	r.cycle(t)
	r.clock.Advance(time.Minute)
	const burst = 30
	for i := 1; i <= burst; i++ {
		if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "ЛС", fmt.Sprintf("распределение номер %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.board.SendPM(r.ctx, "Джелу", "gm-bot", "ЛС", "мой вопрос"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Minute)
	crashAt = "sent" // the process dies right after the burst's message went out
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(crash); !ok {
					panic(v)
				}
			}
		}()
		r.cycle(t)
		t.Fatal("no crash at the first send")
	}()
	r.fo = newForum(t, r.url, r.clock)
	r.d = r.newDaemon(t, fakeFactory)
	r.clock.Advance(time.Minute)
	r.cycle(t)

	sIDs, sTexts := botPMs(t, r, "snovaya")
	jIDs, jTexts := botPMs(t, r, "Джелу")
	if len(sTexts) != 1 {
		t.Fatalf("snovaya got %d messages for her burst of %d, want 1:\n%s", len(sTexts), burst, strings.Join(sTexts, "\n===\n"))
	}
	for i := 1; i <= burst; i++ {
		if !strings.Contains(sTexts[0], fmt.Sprintf("Распределение принято: распределение номер %d\n", i)) {
			t.Errorf("the burst's answer does not name message %d:\n%s", i, sTexts[0])
		}
	}
	if n := strings.Count(sTexts[0], "fgm-g1-"); n != burst {
		t.Errorf("the burst's answer holds %d markers, want %d (one per answer)", n, burst)
	}
	if len(jTexts) != 1 || !strings.Contains(jTexts[0], "мой вопрос") {
		t.Fatalf("Джелу's answer: %q", jTexts)
	}
	before := 0 // the bot's messages sent before Джелу's answer
	for _, id := range sIDs {
		if id < jIDs[0] {
			before++
		}
	}
	if before > 1 {
		t.Errorf("Джелу's answer went out after %d other messages, want at most one round", before)
	}
	pending, err := r.st.PendingOutbox(r.ctx, "g1")
	if err != nil || len(pending) != 0 {
		t.Fatalf("pending after the drain: %d %v", len(pending), err)
	}
	pms := outboxByKind(t, r, store.OutboxPM)
	for _, it := range pms {
		if it.State != store.OutboxPosted {
			t.Errorf("outbox %d to %s: %s", it.ID, it.Recipient, it.State)
		}
	}
}

// Without a burst, each answer goes alone, as before; the answers to several players go
// round-robin; a burst goes as one.
func TestPMRoundRobin(t *testing.T) {
	r := newRig(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fakeFactory)
	rows := func(to ...string) []store.OutboxRow {
		var out []store.OutboxRow
		for i, u := range to {
			kind := store.OutboxPM
			if u == "" {
				kind = store.OutboxReply
			}
			out = append(out, store.OutboxRow{ID: int64(i + 1), Kind: kind, Recipient: u, Body: "x"})
		}
		return out
	}
	schedule := func(to ...string) string { // the batches' item ids: "1+2 3"
		var s []string
		for _, b := range r.d.schedule(rows(to...)) {
			var ids []string
			for _, it := range b {
				ids = append(ids, fmt.Sprint(it.ID))
			}
			s = append(s, strings.Join(ids, "+"))
		}
		return strings.Join(s, " ")
	}
	if got := schedule("a", "a", "", "b", "c", "", "b"); got != "1 4 3 5 2 6 7" {
		t.Errorf("schedule: %s, want 1 4 3 5 2 6 7 (replies in place, a b c a b)", got)
	}
	to := []string{"a", "b"}
	var want []string
	for i := 0; i < burstPMs; i++ {
		to = append(to, "a")
		want = append(want, fmt.Sprint(i+3))
	}
	if got, w := schedule(to...), "1+"+strings.Join(want, "+")+" 2"; got != w {
		t.Errorf("schedule: %s, want %s (a's burst as one, then b)", got, w)
	}
}
