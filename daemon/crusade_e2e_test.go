package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/forum"
	"forumgm/referee"
	"forumgm/store"
)

func crusadeFactory(t testing.TB, start time.Time) func() (*referee.Referee, error) {
	t.Helper()
	f, err := RefereeFactory(crusadeConfig(t, ""), forum.Capabilities{PrivateMessages: true, MaxPostLength: 65535}, GameRecord{Start: start, Seed: "e2e", Salt: "salt"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// crusadeConfig is the end-to-end tests' Crusade config, with extra top-level sections.
func crusadeConfig(t testing.TB, extra string) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(`
forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: PW}
moderators: [Moderator]
game:
  id: g1
  kind: crusade
  timezone: Europe/Moscow
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
` + extra))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(known); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCrusadeDayEndToEnd plays a Crusade evening over loopback HTTP against the sandbox with the
// real referee and a simulated clock: moves, a refusal, a sloppy post (no quoted board), a wound
// allocation by private message, the 21:10 question, the 00:00 close.
func TestCrusadeDayEndToEnd(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk) // a Tuesday
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t)
	step := func(at string, user, text string) int {
		hm, _ := time.ParseInLocation("15:04", at, msk)
		r.clock.Set(time.Date(2026, 12, 1, hm.Hour(), hm.Minute(), 0, 0, msk))
		pid := r.post(t, user, text)
		r.clock.Advance(30 * time.Second)
		r.cycle(t)
		return pid
	}
	replies := func() int { _, c := markersIn(r.botTexts(t)); return len(c) }
	n0 := replies()
	if n0 == 0 {
		t.Fatal("no opening post")
	}
	pMove := step("19:05", "Джелу", "1-й ход крестоносца к1 на K16") // sloppy: no quoted board
	pSar := step("19:20", "snovaya", "1-й ход сарацина в1 на E6")
	pBad := step("19:40", "Джелу", "2-й ход крестоносца к2 на L13") // too far: refused
	for _, pid := range []int{pMove, pSar, pBad} {
		rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid))
		if err != nil || !ok || !rec.Judged() {
			t.Fatalf("post %d not judged: %+v %v", pid, rec, err)
		}
		t.Logf("post %d (%s): %s", pid, rec.Text, rec.Verdict)
	}
	if rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pBad)); rec.Verdict != store.VerdictRefused {
		t.Errorf("a pikeman moving 4 cells must be refused, got %s", rec.Verdict)
	}
	if rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pMove)); rec.Verdict != store.VerdictAccepted {
		t.Errorf("the sloppy move is still judged and accepted, got %s", rec.Verdict)
	}
	if replies() < n0+3 {
		t.Errorf("want a reply to each of the 3 posts, have %d after %d", replies(), n0)
	}
	// A wound allocation by private message, confirmed privately.
	r.clock.Set(time.Date(2026, 12, 1, 20, 30, 0, 0, msk))
	if err := r.board.SendPM(r.ctx, "Джелу", "gm-bot", "ранения", "ранения: к1 защита"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(30 * time.Second)
	r.cycle(t)
	pms, _ := r.board.PMs(r.ctx, "Джелу")
	gotPM := false
	for _, pm := range pms {
		if pm.From == "gm-bot" && pm.Folder == 1 {
			gotPM = true
		}
	}
	if !gotPM {
		t.Errorf("no private answer to the wound allocation")
	}
	// 21:10: the daily question.
	r.clock.Set(time.Date(2026, 12, 1, 21, 11, 0, 0, msk))
	r.cycle(t)
	texts := strings.Join(r.botTexts(t), "\n")
	if !strings.Contains(texts, "Вопрос дня №1") {
		t.Errorf("no daily question in the thread after 21:10")
	}
	// 00:00: the daily close.
	r.clock.Set(time.Date(2026, 12, 2, 0, 5, 0, 0, msk))
	r.cycle(t)
	evs, _ := r.st.Events(r.ctx, "g1")
	kinds := map[string]int{}
	for _, e := range evs {
		kinds[e.Kind]++
	}
	for _, k := range []string{"crusade.turn_played", "crusade.question_asked", "crusade.day_closed"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event; events: %v", k, kinds)
		}
	}
	if kinds["crusade.day_closed"] != 1 {
		t.Errorf("the day closed %d times", kinds["crusade.day_closed"])
	}
	after := r.botTexts(t)
	if len(strings.Join(after, "\n")) <= len(texts) {
		t.Errorf("nothing posted at the close")
	}
	order := assertExactlyOnce(t, r)
	// The replies are in the thread in the order they were queued.
	for i := 1; i < len(order); i++ {
		if markerN(order[i]) <= markerN(order[i-1]) {
			t.Errorf("reply %s before %s", order[i-1], order[i])
		}
	}
	t.Logf("%d replies in the thread; events %v", len(order), kinds)
}

func markerN(m string) int {
	parts := strings.Split(m, "-")
	n := 0
	for _, c := range parts[len(parts)-2] {
		n = n*10 + int(c-'0')
	}
	return n
}
