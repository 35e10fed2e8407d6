package e2e

import (
	"errors"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
)

// MyBB refuses a reply equal to one the same user posted in the thread within ten minutes (a
// retry of a post whose answer was lost): the dialect says it is on the board already
// (ErrAlreadyPosted, an ErrAmbiguous: look for its marker), and nothing new is posted. After ten
// minutes the same text is a new post.
func TestDuplicateReplyIsOnTheBoard(t *testing.T) {
	b := newBoard(t, noFloodNoMerge)
	tid, _ := b.thread("Игра", post{botName, "Партия началась."}, post{p1Name, "1-й ход крестоносца в1 на C5"})
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	id, _, err := bot.Reply(b.ctx, th, "Ход принят. Ход сарацин.")
	if err != nil {
		t.Fatal(err)
	}
	b.clock.Advance(time.Minute)
	_, _, err = bot.Reply(b.ctx, th, "Ход принят. Ход сарацин.")
	if !errors.Is(err, mybb.ErrAlreadyPosted) || !errors.Is(err, forum.ErrAmbiguous) {
		t.Fatalf("the same reply again: %v", err)
	}
	if ps := b.stored(tid); len(ps) != 3 {
		t.Fatalf("%d posts after the refused duplicate", len(ps))
	}
	b.clock.Advance(10 * time.Minute)
	again, _, err := bot.Reply(b.ctx, th, "Ход принят. Ход сарацин.")
	if err != nil || again == id {
		t.Fatalf("ten minutes later: %q %v (first %q)", again, err, id)
	}
}
