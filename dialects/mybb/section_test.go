package mybb

import (
	"errors"
	"testing"
	"time"

	"forumgm/forum"
)

var _ forum.SectionReader = (*Forum)(nil)
var _ forum.FloodExempter = (*Forum)(nil)

// One GET of forumdisplay.php lists the section's threads; the thread's section is learnt from
// the breadcrumb of the thread page Posts read, with no request of its own.
func TestSection(t *testing.T) {
	fk := newFake(t)
	fm := fk.forum(t, nil)
	th := forum.Thread{ID: "1"}
	if got := fm.SectionOf(th); got != "" {
		t.Fatalf("section before any read: %q", got)
	}
	if _, _, err := fm.Posts(ctx, th, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	n := fk.count()
	fid := fm.SectionOf(th)
	if fid != "3" || fk.count() != n {
		t.Fatalf("section %q, %d requests", fid, fk.count()-n)
	}
	heads, err := fm.Section(ctx, fid)
	if err != nil {
		t.Fatal(err)
	}
	if fk.count() != n+1 || fk.requests[n] != "GET /forumdisplay.php?fid=3" {
		t.Fatalf("requests %v", fk.requests[n:])
	}
	want := []forum.ThreadHead{
		{ID: "2", Title: "Крестовый поход — партия 2: набор игроков", Replies: 0, LastAt: time.Date(2026, 11, 30, 3, 22, 0, 0, time.UTC), LastPoster: "snovaya"},
		{ID: "1", Title: "Крестовый поход — партия 1", Replies: 15, LastAt: time.Date(2026, 11, 30, 3, 21, 0, 0, time.UTC), LastPoster: "gm-bot"},
	}
	if len(heads) != len(want) {
		t.Fatalf("heads %+v", heads)
	}
	for i := range want {
		if heads[i] != want[i] {
			t.Errorf("head %d: %+v, want %+v", i, heads[i], want[i])
		}
	}
	if _, err := fm.Section(ctx, ""); err == nil {
		t.Error("an empty forum id was read")
	}
	if hs, err := fm.Section(ctx, "4"); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("another forum's list taken for forum 4: %v %+v", err, hs)
	}
}

// The bot's thread page tells whether MyBB's flood check applies to it: the moderation tools
// show only to a moderator of the forum, whom the check skips.
func TestFloodExempt(t *testing.T) {
	for _, moderator := range []bool{false, true} {
		fk := newFake(t)
		fk.moderator = moderator
		fm := fk.forum(t, nil)
		exempt, why, err := fm.FloodExempt(ctx, forum.Thread{ID: "1"})
		if err != nil {
			t.Fatal(err)
		}
		if exempt != moderator || why == "" {
			t.Errorf("moderator %v: exempt %v (%s)", moderator, exempt, why)
		}
		if len(fk.posts) != 0 {
			t.Errorf("the check posted %v", fk.posts)
		}
	}
}
