package fleet

import (
	"strings"
	"testing"
	"time"

	"forumgm/sandbox"
)

// One game alone probes its thread (MyBB's lastpost redirect) and, when the redirect names a
// player's new post, reads the page that holds it and answers: one page read a move, the bot's
// own reply not read back; two when the move starts a new page (the cursor's page, for the posts
// between the cursor and the new page, and the new one).
func TestOneGameReadsOnlyThePagesOfTheMove(t *testing.T) {
	const perPage = 8 // the sandbox's
	w := newWorld(t, worldOptions{games: 1, entry: func(int) string {
		return `  - {id: g1, kind: crusade, forum: main, thread: "1", section: "10", timezone: Europe/Moscow, roster: [{name: Гарри, side: crusaders}, {name: Драко, side: saracens}], settings: {daily_question: false, board_required: false}}
`
	}})
	ctx, clock, board, cl := w.ctx, w.clock, w.board, w.count
	cl.trace = true // (no request went out yet)
	g := w.fleet.Games()[0]
	cycle := func() {
		t.Helper()
		if _, err := g.Daemon.Cycle(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Advance(5 * time.Second)
	}
	posts := func() []sandbox.StoredPost {
		ps, err := board.Posts(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	botPosts := func() int {
		n := 0
		for _, p := range posts() {
			if p.Author == "gm-bot" {
				n++
			}
		}
		return n
	}
	for range 3 { // the opening posted, the cursor settled
		cycle()
	}
	starts := 0 // moves that started a page
	moves := []string{"1-й ход крестоносца к1 на K16", "1-й ход сарацина н2 на G5"}
	for i := range 12 {
		who := []string{"Гарри", "Драко"}[i%2]
		cl.reset()
		bot := botPosts()
		pid, _, err := board.Reply(ctx, who, 1, moves[i%2])
		if err != nil {
			t.Fatal(err)
		}
		at := 0 // the move's place in the thread
		for j, p := range posts() {
			if p.PID == pid {
				at = j + 1
			}
		}
		want := 1
		if (at-1)%perPage == 0 {
			want = 2
			starts++
		}
		for tries := 0; botPosts() == bot; tries++ {
			if tries > 4 {
				t.Fatalf("move %d not answered after %d polls", i+1, tries)
			}
			cycle()
		}
		var pages []string
		cl.traceMu.Lock()
		for _, q := range cl.traced {
			if strings.HasPrefix(q.what, "GET /showthread.php") && !strings.Contains(q.what, "action=lastpost") {
				pages = append(pages, q.what)
			}
		}
		cl.traceMu.Unlock()
		if len(pages) != want {
			t.Errorf("move %d (post %d of the thread, %d a page): %d page reads %v, want %d", i+1, at, perPage, len(pages), pages, want)
		}
		cycle() // the next poll: nothing new but the bot's own reply
	}
	if starts == 0 {
		t.Fatal("no move started a page: the case is not covered")
	}
}
