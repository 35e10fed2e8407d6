package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// The daemon stores a move post whole (own text and quotes, as the forum shows them); the edit
// rescan compares the hash of what the referee reads, so fixing the quoted board after the verdict
// is flagged like an edit of the move, while a spoiler added later is not.
func TestQuotedBoardStoredAndItsEditFlagged(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	quote := "[quote=\"gm-bot\"]\n|__|к1|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|__|-K\n[/quote]\n"
	pid := r.post(t, "Джелу", quote+"1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid))
	if err != nil || !ok || !rec.Whole || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("stored: %+v %v %v", rec, ok, err)
	}
	if len(rec.Post.Quotes) != 1 || !strings.Contains(rec.Post.Quotes[0].Text, "|к1|") || strings.Contains(rec.Text, "|к1|") {
		t.Fatalf("the quote is not stored apart from the own text: %+v", rec.Post)
	}
	if rec.TextHash != store.ContentHash(rec.Post) {
		t.Fatalf("stored hash %s is not the content hash", rec.TextHash)
	}

	// A spoiler added: not what the referee reads, no flag.
	if err := r.board.EditPost(r.ctx, "Джелу", pid, quote+"1-й ход крестоносца к1 на K16\n[spoiler]план[/spoiler]", "спойлер"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(2 * time.Minute)
	r.cycle(t)
	if flags, _ := r.st.OpenFlags(r.ctx, "g1"); len(flags) != 0 {
		t.Fatalf("a spoiler edit was flagged: %+v", flags)
	}
	// The quoted board fixed: flagged once, the first-seen post stands.
	fixed := strings.Replace(quote, "|__|к1|", "|к1|__|", 1)
	if err := r.board.EditPost(r.ctx, "Джелу", pid, fixed+"1-й ход крестоносца к1 на K16", "поле"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(2 * time.Minute)
	r.cycle(t)
	r.clock.Advance(2 * time.Minute)
	r.cycle(t)
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	if len(flags) != 1 || flags[0].Kind != store.FlagEdited || flags[0].PostID != strconv.Itoa(pid) {
		t.Fatalf("flags after the quote edit: %+v", flags)
	}
	after, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid))
	if after.Post.Quotes[0].Text != rec.Post.Quotes[0].Text || after.EditedHash == "" {
		t.Fatalf("the first-seen quote must stand: %+v", after.Post.Quotes)
	}
}
