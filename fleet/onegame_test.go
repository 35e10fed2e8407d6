package fleet

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
	"forumgm/store"
)

// One game alone probes its thread (MyBB's lastpost redirect) and, when the redirect names a
// player's new post, reads the page that holds it and answers: one page read a move, the bot's
// own reply not read back; two when the move starts a new page (the cursor's page, for the posts
// between the cursor and the new page, and the new one).
func TestOneGameReadsOnlyThePagesOfTheMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	const perPage = 4
	clock := testkit.NewClock(time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC))
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: clock.Now, Location: time.UTC,
		Forums:  []sandbox.Forum{{FID: 10, Name: "Игры"}},
		Threads: []sandbox.Thread{{FID: 10, Subject: "Партия", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Играем.", Time: clock.Now().Add(-time.Hour)}}}},
		Users: []sandbox.User{{Name: "gm-bot", Password: "pw-bot"}, {Name: "Moderator", Password: "m"},
			{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}},
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1, PostsPerPage: perPage})
	if err != nil {
		t.Fatal(err)
	}
	defer board.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &counting{Listener: ln, trace: true}
	srv := &http.Server{Handler: cl.wrap(board.Handler()), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(cl) }()
	defer srv.Close()
	t.Setenv("FLEET_ONE_PW", "pw-bot")
	c, err := config.Parse([]byte(fmt.Sprintf(`forums:
  main: {url: %q, dialect: mybb, timezone: UTC, bot: {username: gm-bot, password_env: FLEET_ONE_PW}, extra: {rate: "1000"}}
moderators: [Moderator]
poll: {floor: 5s, ceiling: 5s}
store: {path: %s}
games:
  - {id: g1, kind: crusade, forum: main, thread: "1", timezone: UTC, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}], settings: {daily_question: false, board_required: false}}
`, "http://"+ln.Addr().String()+"/", filepath.Join(dir, "forumgm.db"))))
	if err == nil {
		err = c.Validate(known)
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"), store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fl, err := New(Options{Store: st, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := fl.Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	g := fl.Games()[0]
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
	moves := []string{"1-й ход крестоносца к1 на K16", "1-й ход сарацина н2 на G5"}
	for i := range 12 {
		who := []string{"Джелу", "snovaya"}[i%2]
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
}
