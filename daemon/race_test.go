package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/store"
)

// moderate does what `forumgm review` does from another process: rebuild the referee from the
// log, carry out the command, commit it (expecting the log it read).
func moderate(ctx context.Context, t *testing.T, st *store.Store, cmd game.ModCommand, resolve *store.Resolution, post *store.Judgement) {
	t.Helper()
	recs, err := st.Records(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := fakeFactory()
	if err := ref.Restore(recs); err != nil {
		t.Fatal(err)
	}
	var out game.Outcome
	if cmd.Action == game.ModAccept {
		// The fake game's accept forces the flagged move, whatever it says: one event, a move.
		out = game.Outcome{Verdict: game.Accepted, Events: []game.Event{fakeEvent{What: "accept", Text: cmd.By}}}
	} else if out, err = ref.Moderate(cmd); err != nil {
		t.Fatal(err)
	}
	c := store.Commit{Game: "g1", At: cmd.At, Cause: store.ModeratorCause(cmd.By), Actor: cmd.By, Reason: cmd.Reason,
		Resolve: resolve, Post: post, ExpectSeq: store.Expect(int64(len(recs)))}
	if err := c.Fill(out, nil, store.Notify{}); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(ctx, c); err != nil {
		t.Fatalf("moderator's commit: %v", err)
	}
}

// TestModeratorCommitDuringJudgement provokes the review race deterministically: the daemon has
// judged a post on its referee (step "decided") and, before it commits, a moderator's command is
// committed from outside. The store refuses the stale verdict (the log moved), the daemon rebuilds
// its referee from the log and judges the post again, so what is committed and posted reflects the
// moderator's event.
func TestModeratorCommitDuringJudgement(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t) // the opening post (log: start)
	r.clock.Advance(time.Minute)
	flagged := strconv.Itoa(r.post(t, "snovaya", "?? ход не разобрать"))
	r.clock.Advance(time.Minute)
	r.cycle(t)
	flags, err := r.st.OpenFlags(r.ctx, "g1")
	if err != nil || len(flags) != 1 {
		t.Fatalf("flags: %+v %v", flags, err)
	}

	// A player's move; while the daemon judges it the moderator accepts the flagged move (the
	// fake referee counts it as a move, so the player's move becomes the second, not the first).
	r.clock.Advance(time.Minute)
	pid := strconv.Itoa(r.post(t, "Джелу", "1-й ход крестоносца к1 на K16"))
	r.clock.Advance(time.Minute)
	decided := 0
	r.d.o.Hook = func(step string) {
		if step != "decided" {
			return
		}
		decided++
		if decided == 1 {
			now := r.clock.Now()
			rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, flagged)
			moderate(r.ctx, t, r.st, game.ModCommand{Action: game.ModAccept, By: "Moderator", Reason: "ход читается", At: now},
				&store.Resolution{FlagID: flags[0].ID, State: store.FlagAccepted, By: "Moderator", Note: "ход читается", At: now},
				&store.Judgement{Source: store.SourceThread, Post: rec.Post, Verdict: store.VerdictAccepted})
		}
	}
	r.cycle(t)
	r.d.o.Hook = nil

	if decided != 2 {
		t.Fatalf("the post was decided %d times, want 2 (once stale, once on the rebuilt referee)", decided)
	}
	texts := strings.Join(r.botTexts(t), "\n")
	if strings.Contains(texts, "Ход 1 принят") || !strings.Contains(texts, "Ход 2 принят (пост "+pid+")") {
		t.Fatalf("the stale verdict reached the thread, or the new one did not:\n%s", texts)
	}
	evs, err := r.st.Events(r.ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	var causes []string
	for _, e := range evs {
		causes = append(causes, e.Kind+"@"+e.Cause)
	}
	if got, want := strings.Join(causes, " "), "fake@start fake@moderator:Moderator fake@post:"+pid; got != want {
		t.Fatalf("log %s, want %s", got, want)
	}
	if snap := r.d.Referee().Snapshot().(map[string]int); snap["moves"] != 2 {
		t.Fatalf("referee after the race: %v", snap)
	}
	if rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, pid); rec.Verdict != store.VerdictAccepted {
		t.Fatalf("post %s: %s", pid, rec.Verdict)
	}
	if !strings.Contains(r.log.String(), "the event log moved while deciding") {
		t.Fatalf("no log line about the re-decision:\n%s", r.log.String())
	}
	assertExactlyOnce(t, r)
}

// TestPauseDuringJudgement: the moderator pauses the game while a move is being judged; the move
// is not committed (it waits, the cursor stays) and is judged once the game is resumed.
func TestPauseDuringJudgement(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	pid := strconv.Itoa(r.post(t, "Джелу", "1-й ход крестоносца к1 на K16"))
	r.clock.Advance(time.Minute)
	cur, _, _ := r.st.Cursor(r.ctx, "g1", store.SourceThread)
	paused := false
	r.d.o.Hook = func(step string) {
		if step == "decided" && !paused {
			paused = true
			moderate(r.ctx, t, r.st, game.ModCommand{Action: game.ModPause, By: "Moderator", Reason: "разбираемся", At: r.clock.Now()}, nil, nil)
		}
	}
	r.cycle(t)
	if _, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, pid); ok {
		t.Fatal("a move was committed after the moderator paused the game")
	}
	if now, _, _ := r.st.Cursor(r.ctx, "g1", store.SourceThread); now != cur {
		t.Fatalf("cursor moved while paused: %+v -> %+v", cur, now)
	}
	r.clock.Advance(time.Minute)
	moderate(r.ctx, t, r.st, game.ModCommand{Action: game.ModResume, By: "Moderator", At: r.clock.Now()}, nil, nil)
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if rec, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, pid); !ok || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("after resume: %+v %v", rec, ok)
	}
	if texts := strings.Join(r.botTexts(t), "\n"); !strings.Contains(texts, "Ход 1 принят (пост "+pid+")") {
		t.Fatalf("no reply after resume:\n%s", texts)
	}
}
