package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// A commit's notices are made once its flags have their numbers, and are queued after its own
// outbox items in the same transaction; a notice that fails leaves nothing written.
func TestCommitNoticesGetFlagIDs(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	// An earlier flag, so the new ones are not numbered from 1.
	if _, err := s.AddFlag(ctx, NewFlag{Game: "g", Kind: FlagOther, Detail: "earlier"}); err != nil {
		t.Fatal(err)
	}
	c := moveCommit("g", "5")
	c.Post.Verdict = VerdictFlagged
	c.Flags = []NewFlag{{Source: SourceThread, PostID: "5", Kind: FlagUnreadable, Detail: "a"}, {Kind: FlagOther, Detail: "b"}}
	var got []int64
	c.Notices = func(ids []int64) ([]OutboxItem, error) {
		got = ids
		var out []OutboxItem
		for _, id := range ids {
			out = append(out, OutboxItem{Kind: OutboxPM, Recipient: "Moderator", Subject: "флаг", Body: fmt.Sprintf("флаг №%d", id)})
		}
		return out, nil
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenFlags(ctx, "g")
	if err != nil || len(open) != 3 {
		t.Fatalf("open flags %v (%v)", open, err)
	}
	if len(got) != 2 || got[0] != open[1].ID || got[1] != open[2].ID {
		t.Fatalf("notices got ids %v, flags are %d and %d", got, open[1].ID, open[2].ID)
	}
	items, err := s.PendingOutbox(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, it := range items {
		bodies = append(bodies, it.Body)
	}
	want := []string{"[b]Ход 5 принят[/b]", fmt.Sprintf("флаг №%d", open[1].ID), fmt.Sprintf("флаг №%d", open[2].ID)}
	if fmt.Sprint(bodies) != fmt.Sprint(want) {
		t.Fatalf("outbox %q, want %q", bodies, want)
	}

	// A failing notice: nothing of the commit is written.
	c2 := moveCommit("g", "6")
	c2.Post.Verdict = VerdictFlagged
	c2.Flags = []NewFlag{{Source: SourceThread, PostID: "6", Kind: FlagUnreadable}}
	boom := errors.New("boom")
	c2.Notices = func([]int64) ([]OutboxItem, error) { return nil, boom }
	if err := s.Commit(ctx, c2); !errors.Is(err, boom) {
		t.Fatalf("commit with a failing notice: %v", err)
	}
	if open, _ := s.OpenFlags(ctx, "g"); len(open) != 3 {
		t.Fatalf("the failed commit left flags: %v", open)
	}
	if _, ok, _ := s.SeenPost(ctx, "g", SourceThread, "6"); ok {
		t.Fatal("the failed commit left its post")
	}
}
