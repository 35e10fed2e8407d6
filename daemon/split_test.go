package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// A player's quick correction merged into his previous post before the daemon's first read
// (issue 19, item 9): the post reads as two parts, each judged in order as an input of its own —
// the first refused, the second accepted — and neither the rescan nor the next read flags it.
func TestMergedBeforeFirstReadIsSplit(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t) // the opening post
	before := len(r.botTexts(t))
	r.clock.Set(start.Add(65 * time.Minute))
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K10")
	r.clock.Set(start.Add(65*time.Minute + 5*time.Second))
	pid2, merged, err := r.board.Reply(r.ctx, "Джелу", 1, "1-й ход крестоносца к1 на K16")
	if err != nil || !merged || pid2 != pid {
		t.Fatalf("the sandbox must merge the correction: pid %d/%d merged %v %v", pid2, pid, merged, err)
	}
	r.clock.Set(start.Add(66 * time.Minute))
	r.cycle(t)
	// The bot's two replies may be one post on the board (it merges the bot's posts too).
	replies := strings.Join(r.botTexts(t)[before:], "\n")
	refused, accepted := strings.Index(replies, "Ход не принят"), strings.Index(replies, "Ход принят")
	if refused < 0 || accepted < refused || !strings.Contains(replies[accepted:], "K16") || strings.Count(replies, "fgm-g1-") != 2 {
		t.Fatalf("each part gets its own judgement, in order (K10 refused, K16 accepted): %q", replies)
	}
	for k, want := range map[string]store.Verdict{strconv.Itoa(pid): store.VerdictRefused, partID(strconv.Itoa(pid), 2): store.VerdictAccepted} {
		rec, ok, err := r.st.SeenPost(context.Background(), "g1", store.SourceThread, k)
		if err != nil || !ok || rec.Verdict != want {
			t.Fatalf("part %s: %+v %v %v, want %s", k, rec.Verdict, ok, err, want)
		}
	}
	r.clock.Set(start.Add(70 * time.Minute))
	r.cycle(t)
	r.clock.Set(start.Add(90 * time.Minute))
	r.cycle(t) // a rescan too
	if got := strings.Count(strings.Join(r.botTexts(t)[before:], "\n"), "fgm-g1-"); got != 2 {
		t.Fatalf("replies after re-reading: %d, want 2", got)
	}
	if flags, _ := r.st.OpenFlags(context.Background(), "g1"); len(flags) != 0 {
		t.Fatalf("a post merged before the first read is no edit: %+v", flags)
	}
}
