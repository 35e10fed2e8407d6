package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/store"
)

// wrongRedirect is a forum whose reply redirect names another post than the one made (a
// plugin's or a proxy's rewrite): the player's post before it.
type wrongRedirect struct {
	forum.Forum
	named string
}

func (w *wrongRedirect) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	_, merged, err := w.Forum.Reply(ctx, t, body)
	return w.named, merged, err
}

// A reply whose redirect names another post is recorded with the id of the post that holds its
// marker (the bot's), not the id the forum named, once the next read of the thread shows it; the
// case is counted and logged.
func TestWrongRedirectIDIsNotRecorded(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRigWith(t, start, fakeFactory, rigOptions{noMerge: true})
	r.cycle(t)
	r.clock.Advance(time.Minute)
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	w := &wrongRedirect{Forum: r.fo, named: strconv.Itoa(pid)}
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Forum = w })
	r.clock.Advance(time.Minute)
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.cycle(t) // the next read of the thread checks the id (no read of its own)
	var reply store.OutboxRow
	for _, it := range outboxByKind(t, r, store.OutboxReply) {
		if it.State == store.OutboxPosted {
			reply = it
		}
	}
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	real := ""
	for _, p := range posts {
		if p.Author == "gm-bot" && strings.Contains(p.Message, reply.Marker) {
			real = strconv.Itoa(p.PID)
		}
	}
	if real == "" || reply.ForumPostID != real {
		t.Fatalf("the reply (marker %s) is recorded as post %q; the bot's post holding it is %q (the redirect named %d)", reply.Marker, reply.ForumPostID, real, pid)
	}
	if v := counterValue(t, r.d.m.Errors.WithLabelValues("g1", "wrong_post_id")); v != 1 {
		t.Errorf("errors_total{kind=wrong_post_id} = %v, want 1", v)
	}
	if !strings.Contains(r.logText(), "the forum named another post for the reply") {
		t.Errorf("no log line:\n%s", r.logText())
	}
}
