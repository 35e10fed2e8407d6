package e2e

import (
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/sandbox"
)

// sectionBoard seeds the game forum with a sticky thread and four games, their last posts an hour
// apart (the oldest game first), three threads to a page of the forum's list.
func sectionBoard(t *testing.T, mod func(*sandbox.Options)) *board {
	seed := func(subject string, ago time.Duration, sticky bool) sandbox.Thread {
		at := start.Add(-ago)
		return sandbox.Thread{Subject: subject, Sticky: sticky, Posts: []sandbox.SeedPost{
			{Author: botName, Message: subject + ": партия началась.", Time: at.Add(-10 * time.Minute)},
			{Author: p1Name, Message: "1-й ход крестоносца в1 на C5", Time: at.Add(-5 * time.Minute)},
			{Author: p2Name, Message: "1-й ход сарацина н2 на G5", Time: at},
		}}
	}
	return newBoard(t, func(o *sandbox.Options) {
		o.ThreadsPerPage = 3
		o.Threads = []sandbox.Thread{
			seed("Правила раздела", 30*time.Hour, true), // tid 1
			seed("Партия 1", 4*time.Hour, false),        // tid 2
			seed("Партия 2", 3*time.Hour, false),        // tid 3
			seed("Партия 3", 2*time.Hour, false),        // tid 4
			seed("Партия 4", time.Hour, false),          // tid 5
		}
		if mod != nil {
			mod(o)
		}
	})
}

func headOf(t *testing.T, heads []forum.ThreadHead, id string) (forum.ThreadHead, int) {
	t.Helper()
	for i, h := range heads {
		if h.ID == id {
			return h, i
		}
	}
	return forum.ThreadHead{}, -1
}

// One GET of the forum's list stands for its threads: the sticky thread first, then the games by
// last post; a new post moves its game to the top with one more reply; an auto-merged post of
// the bot changes nothing in the list (as on a real MyBB: dialects/mybb/README.md). The thread's
// forum is learnt from the breadcrumb of the thread page read, with no request of its own.
func TestSectionOverLoopback(t *testing.T) {
	b := sectionBoard(t, nil)
	bot := b.dial(botName, botPass)
	var _ forum.SectionReader = bot.Forum

	game := forum.Thread{ID: "2"}
	if _, _, err := bot.Posts(b.ctx, game, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	n := bot.rec.mark()
	if got := bot.rec.since(0); len(got) != 1 || got[0] != "GET /showthread.php?tid=2" {
		// The forum's list has two pages, so the breadcrumb carries a popup of them: it is not
		// the thread's pagination.
		t.Fatalf("reading a one-page thread: %v", got)
	}
	fid := bot.SectionOf(game)
	if fid != itoa(sandbox.DefaultFID) || bot.rec.mark() != n {
		t.Fatalf("section %q after %v", fid, bot.rec.since(n))
	}
	heads, err := bot.Section(b.ctx, fid)
	if err != nil {
		t.Fatal(err)
	}
	if got := bot.rec.since(n); len(got) != 1 || got[0] != "GET /forumdisplay.php?fid=3" {
		t.Fatalf("requests %v", got)
	}
	ids := func(hs []forum.ThreadHead) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.ID)
		}
		return out
	}
	if got := ids(heads); len(got) != 3 || got[0] != "1" || got[1] != "5" || got[2] != "4" {
		t.Fatalf("first page %v, want [1 5 4] (sticky, then by last post, 3 a page)", got)
	}
	if h := heads[0]; !h.Sticky || heads[1].Sticky || h.Title != "Правила раздела" {
		t.Fatalf("sticky head %+v / %+v", h, heads[1])
	}
	if h := heads[1]; h.Replies != 2 || h.LastPoster != p2Name || !h.LastAt.Equal(start.Add(-time.Hour)) {
		t.Fatalf("head of game 4: %+v", h)
	}
	if h := heads[0]; !h.LastAt.Equal(start.Add(-30 * time.Hour)) {
		t.Fatalf("a day-old last post (\"Yesterday, …\"): %+v", h)
	}

	// A player posts in the oldest game, off the first page: it comes to the top.
	b.clock.Advance(2 * time.Minute)
	if _, merged, err := b.sb.Reply(b.ctx, p1Name, 2, "2-й ход крестоносца в2 на H4"); err != nil || merged {
		t.Fatalf("reply: merged %v %v", merged, err)
	}
	heads, err = bot.Section(b.ctx, fid)
	if err != nil {
		t.Fatal(err)
	}
	h, i := headOf(t, heads, "2")
	if i != 1 || h.Replies != 3 || h.LastPoster != p1Name || !h.LastAt.Equal(b.clock.Now().Truncate(time.Minute)) {
		t.Fatalf("after a new post: %+v at %d of %v", h, i, ids(heads))
	}

	// The bot answers, then answers again within postmergemins: the second is merged into the
	// first, and the list shows the thread as it was after the first.
	b.clock.Advance(2 * time.Minute)
	if _, merged, err := bot.Reply(b.ctx, game, "Ход принят. Ход сарацин."); err != nil || merged {
		t.Fatalf("bot reply: merged %v %v", merged, err)
	}
	heads, _ = bot.Section(b.ctx, fid)
	before, _ := headOf(t, heads, "2")
	b.clock.Advance(3 * time.Minute)
	if _, merged, err := bot.Reply(b.ctx, game, "Дополнение: доска после хода."); err != nil || !merged {
		t.Fatalf("second bot reply: merged %v %v", merged, err)
	}
	heads, _ = bot.Section(b.ctx, fid)
	after, _ := headOf(t, heads, "2")
	if !before.Same(after) || before.Replies != 4 || before.LastPoster != botName {
		t.Fatalf("a merge changed the list: %+v → %+v", before, after)
	}
}

// A moderator of the game's forum is not held by flood control, and its reply form shows the
// moderator options that tell forum-check so (as on a real MyBB).
func TestModeratorSkipsFlood(t *testing.T) {
	for _, moderator := range []bool{false, true} {
		b := sectionBoard(t, func(o *sandbox.Options) {
			if moderator {
				o.Moderators = []sandbox.Moderator{{Name: botName}}
			}
		})
		bot := b.dial(botName, botPass)
		exempt, why, err := bot.FloodExempt(b.ctx, forum.Thread{ID: "2"})
		if err != nil || exempt != moderator {
			t.Fatalf("moderator %v: exempt %v (%s) %v", moderator, exempt, why, err)
		}
		for _, tid := range []string{"2", "3"} {
			if _, _, err := bot.Reply(b.ctx, forum.Thread{ID: tid}, "Ход принят в партии "+tid+"."); err != nil {
				t.Fatal(err)
			}
		}
		if w := bot.slept(); moderator && len(w) != 0 || !moderator && len(w) != 1 {
			t.Fatalf("moderator %v: flood waits %v", moderator, w)
		}
	}
}

// One GET of the board index tells which sections got a post: the game forum's post count grows
// with a new post there, the other forum's stays.
func TestBoardIndexOverLoopback(t *testing.T) {
	b := sectionBoard(t, nil)
	bot := b.dial(botName, botPass)
	var _ forum.BoardReader = bot.Forum
	n := bot.rec.mark()
	before, err := bot.Board(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := bot.rec.since(n); len(got) != 1 || got[0] != "GET /index.php" {
		t.Fatalf("requests %v", got)
	}
	game := itoa(sandbox.DefaultFID)
	find := func(hs []forum.SectionHead, id string) forum.SectionHead {
		for _, h := range hs {
			if h.ID == id {
				return h
			}
		}
		t.Fatalf("no forum %s in %+v", id, hs)
		return forum.SectionHead{}
	}
	g0 := find(before, game)
	if g0.Threads != 5 || g0.Posts != 15 || g0.LastThread != "5" || g0.LastPoster != p2Name {
		t.Fatalf("the game forum on the index: %+v", g0)
	}
	b.clock.Advance(2 * time.Minute)
	if _, _, err := b.sb.Reply(b.ctx, p1Name, 2, "2-й ход крестоносца в2 на H4"); err != nil {
		t.Fatal(err)
	}
	after, err := bot.Board(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	g1 := find(after, game)
	if g0.Same(g1) || g1.Posts != 16 || g1.LastThread != "2" || g1.LastPoster != p1Name {
		t.Fatalf("after a post: %+v → %+v", g0, g1)
	}
	for _, h := range before {
		if h.ID != game && !h.Same(find(after, h.ID)) && h.Posts >= 0 {
			t.Errorf("forum %s changed without a post: %+v → %+v", h.ID, h, find(after, h.ID))
		}
	}
}
