package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// A player who posts the marker of a reply whose attempt failed (as if they had guessed it; with
// keyed markers they cannot) does not make the daemon believe the reply landed: markers count only
// in the bot's own posts, on their own line.
func TestPlayerPostedMarkerDoesNotSuppressReply(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t) // the opening post, through the board directly
	// From now on the first 3 reply POSTs fail before reaching the board: one drain gives up.
	purl, _ := testProxy(t, r.url, replyPOST, faultBefore, maxAmbiguous+1)
	r.fo = newForum(t, purl, r.clock)
	r.d = r.newDaemon(t, fakeFactory)
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	if _, err := r.d.Cycle(r.ctx); err == nil {
		t.Fatal("the failed reply was not reported")
	}
	pending, err := r.st.PendingOutbox(r.ctx, "g1")
	if err != nil || len(pending) != 1 || pending[0].Attempts == 0 {
		t.Fatalf("pending: %+v %v, want the move's reply after a failed attempt", pending, err)
	}
	next := pending[0].Marker
	// The player posts the marker on a line of its own, and in a quote-like echo.
	r.post(t, "snovaya", "болтовня\n"+next)
	r.post(t, "snovaya", "[size=1][color=#b0b0b0]"+next+"[/color][/size]")
	r.clock.Advance(10 * time.Minute)
	r.cycle(t)

	order := assertExactlyOnce(t, r)
	if len(order) != 2 || order[1] != next {
		t.Errorf("markers in the bot's posts: %v, want the start and %s", order, next)
	}
	it, err := r.st.Outbox(r.ctx, pending[0].ID)
	if err != nil || it.State != store.OutboxPosted || it.ForumPostID == "" {
		t.Fatalf("the reply: %+v %v", it, err)
	}
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		if strconv.Itoa(p.PID) == it.ForumPostID && (p.Author != "gm-bot" || !strings.Contains(p.Message, next)) {
			t.Errorf("the reply was recorded as post %s by %s: %q", it.ForumPostID, p.Author, p.Message)
		}
	}
}
