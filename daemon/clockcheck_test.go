package daemon

import (
	"forumgm/store"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/ops"

	dto "github.com/prometheus/client_model/go"
)

func gaugeValue(t *testing.T, g interface{ Write(*dto.Metric) error }) float64 {
	t.Helper()
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}

// skewRig is a rig whose board's clock is skew off the daemon's (changeable), with its own
// metrics and /healthz.
func skewRig(t *testing.T, ro rigOptions, skew *atomic.Int64) (*rig, *ops.Metrics, *ops.Health) {
	t.Helper()
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	ro.boardSkew = func() time.Duration { return time.Duration(skew.Load()) }
	ro.noMerge = true // the bot's replies are posts of their own, read back with their own stamps
	r := newRigWith(t, start, fakeFactory, ro)
	m := ops.NewMetrics()
	h := ops.NewHealth(r.clock.Now, time.Hour)
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics, o.Health = m, h })
	return r, m, h
}

// A forum clock behind the daemon's (7 minutes: a clock off, not a zone) makes a move posted
// after the start look older than the start: it is not judged, but counted and logged, and the
// bot's own opening post, read back stamped before it was sent, shows the skew: logged at error
// with its likely cause, counted, on /healthz (unhealthy). Once the forum's clock is right again,
// the bot's next reply reads back in time and /healthz is well again.
func TestForumClockBehindIsReported(t *testing.T) {
	skew := &atomic.Int64{}
	skew.Store(int64(-7 * time.Minute))
	r, m, h := skewRig(t, rigOptions{}, skew)
	r.cycle(t) // the opening post, stamped 18:53 by the board
	r.clock.Advance(3 * time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16") // 19:03 here, 18:56 on the board
	r.clock.Advance(time.Minute)
	r.cycle(t)

	if v := counterValue(t, m.BeforeStart.WithLabelValues("g1", "thread")); v != 1 {
		t.Errorf("posts_before_start_total{source=thread} = %v, want 1", v)
	}
	if v := counterValue(t, m.Errors.WithLabelValues("g1", "clock_skew")); v == 0 {
		t.Errorf("errors_total{kind=clock_skew} = 0 with the forum 7 minutes behind")
	}
	if v := gaugeValue(t, m.ClockSkew.WithLabelValues("g1")); v > -6*60 || v < -8*60 {
		t.Errorf("clock_skew_seconds = %v, want about -420", v)
	}
	logs := r.logText()
	for _, want := range []string{`"level":"error"`, `"kind":"clock_skew"`, "this host's clock: 7m0s behind", "a clock is off",
		"posts stamped before the game's start were not judged"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "forum.timezone is likely wrong") {
		t.Errorf("7 minutes blamed on the zone:\n%s", logs)
	}
	if code, body := healthOf(h); code != http.StatusServiceUnavailable || !strings.Contains(body, `"clock_skew"`) || !strings.Contains(body, "a clock is off") {
		t.Errorf("/healthz with the forum's clock behind: %d %s", code, body)
	}

	skew.Store(0) // the forum's clock is set right
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t) // judged and answered
	r.clock.Advance(time.Minute)
	r.cycle(t) // the reply read back in time
	if n := len(r.botTexts(t)); n < 3 {
		t.Fatalf("the move after the fix was not answered: %q", r.botTexts(t))
	}
	if code, body := healthOf(h); code != http.StatusOK || strings.Contains(body, `"clock_skew":`) {
		t.Errorf("/healthz once the forum's clock is right: %d %s", code, body)
	}
}

// A wrong forum.timezone (the board shows Moscow time, the config says UTC) reads every stamp
// three hours ahead: the newest post is in the future and the bot's reply reads back three hours
// late; the cause named is the zone.
func TestWrongForumTimezoneIsReported(t *testing.T) {
	skew := &atomic.Int64{}
	r, m, h := skewRig(t, rigOptions{forumLoc: time.UTC}, skew)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if v := counterValue(t, m.Errors.WithLabelValues("g1", "clock_skew")); v == 0 {
		t.Errorf("errors_total{kind=clock_skew} = 0 with the zone 3 hours off")
	}
	if v := gaugeValue(t, m.ClockSkew.WithLabelValues("g1")); v < 2*3600 || v > 4*3600 {
		t.Errorf("clock_skew_seconds = %v, want about 10800", v)
	}
	logs := r.logText()
	for _, want := range []string{`"kind":"clock_skew"`, "this host's clock: 3h0m0s ahead", "forum.timezone is likely wrong", "3h0m0s off"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
	if code, body := healthOf(h); code != http.StatusServiceUnavailable || !strings.Contains(body, "forum.timezone") {
		t.Errorf("/healthz with the zone wrong: %d %s", code, body)
	}
}

// A forum clock a little off (a minute, the stamps' own precision) is no fault.
func TestSmallSkewIsNoFault(t *testing.T) {
	for _, s := range []time.Duration{-2 * time.Minute, 2 * time.Minute} {
		skew := &atomic.Int64{}
		skew.Store(int64(s))
		r, m, h := skewRig(t, rigOptions{}, skew)
		r.cycle(t)
		r.clock.Advance(3 * time.Minute)
		r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
		r.clock.Advance(time.Minute)
		r.cycle(t)
		r.clock.Advance(time.Minute)
		r.cycle(t)
		if v := counterValue(t, m.Errors.WithLabelValues("g1", "clock_skew")); v != 0 {
			t.Errorf("skew %s: errors_total{kind=clock_skew} = %v:\n%s", s, v, r.logText())
		}
		if code, body := healthOf(h); code != http.StatusOK {
			t.Errorf("skew %s: /healthz %d %s", s, code, body)
		}
	}
}

// A jump of the daemon's own clock between cycles (a day: a suspended host) is logged at error
// with the timed rules it fired at once, and shown on /healthz as a warning (not unhealthy).
func TestClockJumpIsReported(t *testing.T) {
	skew := &atomic.Int64{}
	r, m, h := skewRig(t, rigOptions{}, skew)
	r.cycle(t)
	r.clock.Advance(30 * time.Second)
	r.cycle(t)
	if v := counterValue(t, m.Errors.WithLabelValues("g1", "clock_jump")); v != 0 {
		t.Fatalf("a jump in 30 seconds: %v", v)
	}
	r.clock.Advance(24 * time.Hour)
	r.cycle(t) // the daily close fires at once
	if v := counterValue(t, m.Errors.WithLabelValues("g1", "clock_jump")); v != 1 {
		t.Errorf("errors_total{kind=clock_jump} = %v, want 1", v)
	}
	logs := r.logText()
	for _, want := range []string{"clock jumped forward by 24h0m0s", `"fired":1`, "timed rules fired at once"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
	if code, body := healthOf(h); code != http.StatusOK || !strings.Contains(body, `"clock_jump"`) || !strings.Contains(body, "1 timed rules fired at once") {
		t.Errorf("/healthz after the jump: %d %s", code, body)
	}
}

// A forward jump of this host's clock past a timed rule holds the game (HoldAfterJump, as the
// fleet runs it; issue 19): the daemon cannot tell a host that slept from a clock set a day ahead,
// so the day's timed rules do not fire at once. A clock_jump flag goes to the moderators (a private
// message each), /healthz fails (timers_held), a post made meanwhile waits. A moderator who checked
// the clock closes the flag; then the rules fire in order and the post is judged. A jump within the
// allowed skew, or past no timed rule, holds nothing.
func TestClockJumpHoldsTimedRules(t *testing.T) {
	skew := &atomic.Int64{}
	r, m, h := skewRig(t, rigOptions{}, skew)
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Metrics, o.Health, o.HoldAfterJump = m, h, true })
	r.cycle(t)
	r.clock.Advance(4 * time.Minute) // 19:04: within the poll ceiling and the skew
	r.cycle(t)
	r.clock.Advance(2 * time.Hour) // 21:04: a jump, but no timed rule is due before midnight
	r.cycle(t)
	if flags, _ := r.st.OpenFlags(r.ctx, "g1"); len(flags) != 0 {
		t.Fatalf("a jump past no timed rule holds nothing: %+v", flags)
	}
	r.clock.Advance(24 * time.Hour) // 21:04 the next day: the midnight close is due
	r.cycle(t)
	closes := func() int {
		ref, _, err := r.d.referee(r.ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ref.Snapshot().(map[string]int)["closes"]
	}
	if n := closes(); n != 0 {
		t.Fatalf("the day's timed rule fired at once after the jump (%d closes), want it held", n)
	}
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	if len(flags) != 1 || flags[0].Kind != store.FlagClockJump || !strings.Contains(flags[0].Detail, "Часы сервера ведущего прыгнули вперёд на 24h0m0s") {
		t.Fatalf("one clock_jump flag: %+v", flags)
	}
	if code, body := healthOf(h); code == http.StatusOK || !strings.Contains(body, "timers_held") {
		t.Errorf("/healthz while held: %d %s", code, body)
	}
	post := r.post(t, "Джелу", "ход 1")
	for range 2 {
		r.clock.Advance(time.Minute)
		r.cycle(t)
	}
	if _, seen, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(post)); seen || closes() != 0 {
		t.Fatalf("while held a post was judged (%v) or a rule fired (%d)", seen, closes())
	}
	if pms, _ := r.board.PMs(r.ctx, "Moderator"); len(pms) == 0 || !strings.Contains(pms[len(pms)-1].Message, "часы сервера прыгнули вперёд") {
		t.Errorf("the moderator is not told: %+v", pms)
	}
	now := r.clock.Now()
	if err := r.st.Commit(r.ctx, store.Commit{Game: "g1", At: now, Cause: store.ModeratorCause("Moderator"), Actor: "Moderator", Reason: "сервер спал",
		Resolve: &store.Resolution{FlagID: flags[0].ID, State: store.FlagDismissed, By: "Moderator", Note: "сервер спал", At: now}}); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if rec, seen, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(post)); !seen || !rec.Judged() || closes() != 1 {
		t.Fatalf("after the moderator's confirmation: post judged %v, %d closes, want the rule fired once", seen && rec.Judged(), closes())
	}
	if code, body := healthOf(h); strings.Contains(body, "timers_held") {
		t.Errorf("/healthz after the confirmation: %d %s", code, body)
	}
}
