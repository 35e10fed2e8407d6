package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/testkit"
)

// listForum is a forum whose section list shows each thread's reply count and last post, as
// MyBB's forumdisplay does, and which counts its requests. Threads with no posts are off the
// list's first page.
type listForum struct {
	mu        sync.Mutex
	posts     map[string][]forum.Post
	order     []string // threads by last post, newest first
	page      int      // threads on the list's first page
	reads     map[string]int
	lists     int
	logins    int
	listFail  error
	replyFail error

	pms        []forum.Post
	inboxReads int
}

func newListForum(threads ...string) *listForum {
	f := &listForum{posts: map[string][]forum.Post{}, reads: map[string]int{}, page: 20}
	for _, t := range threads {
		f.posts[t] = nil
		f.order = append(f.order, t)
	}
	return f
}

func (f *listForum) add(thread, author string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, ps := range f.posts {
		n += len(ps)
	}
	f.posts[thread] = append(f.posts[thread], forum.Post{ID: strconv.Itoa(n + 1), Author: author, Time: time.Unix(int64(n+1)*60, 0)})
	for i, t := range f.order {
		if t == thread {
			f.order = append(f.order[:i], f.order[i+1:]...)
			break
		}
	}
	f.order = append([]string{thread}, f.order...)
}

func (f *listForum) Login(context.Context) error { f.mu.Lock(); f.logins++; f.mu.Unlock(); return nil }

func (f *listForum) Posts(_ context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads[t.ID]++
	var out []forum.Post
	cur := after
	for _, p := range f.posts[t.ID] {
		a, _ := strconv.Atoi(after.PostID)
		if n, _ := strconv.Atoi(p.ID); n > a || after.Include && p.ID == after.PostID {
			out = append(out, p)
			cur.PostID = p.ID
		}
	}
	return out, cur, nil
}

func (f *listForum) Section(_ context.Context, id string) ([]forum.ThreadHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists++
	if f.listFail != nil {
		return nil, f.listFail
	}
	var out []forum.ThreadHead
	for _, t := range f.order[:min(f.page, len(f.order))] {
		ps := f.posts[t]
		h := forum.ThreadHead{ID: t, Replies: len(ps) - 1}
		if len(ps) > 0 {
			h.LastPoster = ps[len(ps)-1].Author
			h.LastAt = ps[len(ps)-1].Time
		}
		out = append(out, h)
	}
	return out, nil
}

func (f *listForum) SectionOf(forum.Thread) string { return "3" }

// Reply posts as the bot ("gm-bot"); replyFail makes it fail.
func (f *listForum) Reply(_ context.Context, t forum.Thread, _ string) (string, bool, error) {
	f.mu.Lock()
	fail := f.replyFail
	f.mu.Unlock()
	if fail != nil {
		return "", false, fail
	}
	f.add(t.ID, "gm-bot")
	f.mu.Lock()
	defer f.mu.Unlock()
	ps := f.posts[t.ID]
	return ps[len(ps)-1].ID, false, nil
}
func (f *listForum) SendPM(context.Context, string, string, string) error { return forum.ErrNoPM }
func (f *listForum) Inbox(_ context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inboxReads++
	a, _ := strconv.Atoi(after.PostID)
	var out []forum.Post
	cur := after
	for _, p := range f.pms {
		if n, _ := strconv.Atoi(p.ID); n > a {
			out = append(out, p)
			cur.PostID = p.ID
		}
	}
	return out, cur, nil
}

func (f *listForum) pm(id, author string) {
	f.mu.Lock()
	f.pms = append(f.pms, forum.Post{ID: id, Author: author})
	f.mu.Unlock()
}
func (f *listForum) Capabilities() forum.Capabilities { return forum.Capabilities{} }

func TestSectionListStandsForItsThreads(t *testing.T) {
	ctx := context.Background()
	const games = 50
	var threads []string
	for i := range games {
		threads = append(threads, fmt.Sprint(100+i))
	}
	lf := newListForum(threads...)
	lf.page = 100 // every thread on the list's first page
	for _, th := range threads {
		lf.add(th, "opener")
	}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	gfs := make([]*gameForum, games)
	curs := make([]forum.Cursor, games)
	for i := range gfs {
		gfs[i] = &gameForum{session: s, thread: threads[i], every: 15 * time.Second, verify: 10 * time.Minute, now: clock.Now}
		gfs[i].Join(forum.Cursor{}) // as the fleet does when it opens the games
	}
	poll := func() (posts int) {
		for i, g := range gfs {
			ps, cur, err := g.Posts(ctx, forum.Thread{ID: threads[i]}, curs[i])
			if err != nil {
				t.Fatal(err)
			}
			curs[i] = cur
			posts += len(ps)
		}
		return posts
	}
	// The first poll reads every thread itself (nothing known yet) and the list once.
	if n := poll(); n != games {
		t.Fatalf("first poll read %d posts", n)
	}
	if lf.lists != 1 || lf.reads["100"] != 1 {
		t.Fatalf("first poll: %d lists, %d reads of 100", lf.lists, lf.reads["100"])
	}
	// Idle polls: one list request per poll for all 50 games, no thread read.
	for range 5 {
		clock.Advance(time.Minute)
		if n := poll(); n != 0 {
			t.Fatalf("idle poll found %d posts", n)
		}
	}
	if lf.lists != 6 || lf.reads["100"] != 1 || lf.reads["149"] != 1 {
		t.Fatalf("idle polls: %d lists, reads %v", lf.lists, lf.reads)
	}
	// A new post in one thread: only that thread is read.
	lf.add("120", "Джелу")
	clock.Advance(time.Minute)
	if n := poll(); n != 1 {
		t.Fatalf("found %d new posts, want 1", n)
	}
	if lf.reads["120"] != 2 || lf.reads["121"] != 1 {
		t.Fatalf("reads after one new post: %v", lf.reads)
	}
	// Within `every` the list is not asked again.
	clock.Advance(5 * time.Second)
	poll()
	if lf.lists != 7 {
		t.Fatalf("list read again within 15s: %d", lf.lists)
	}
	// A merged post (the cursor's own post asked again) is always read.
	clock.Advance(time.Minute)
	if _, _, err := gfs[20].Posts(ctx, forum.Thread{ID: "120"}, forum.Cursor{PostID: curs[20].PostID, Include: true}); err != nil {
		t.Fatal(err)
	}
	if lf.reads["120"] != 3 {
		t.Fatalf("Include did not read: %v", lf.reads["120"])
	}
	// Every verify interval a game reads its thread itself even when the list says nothing.
	clock.Advance(10 * time.Minute)
	poll()
	if lf.reads["100"] != 2 {
		t.Fatalf("no verifying read after 10 minutes: %d", lf.reads["100"])
	}
	// The list failing: the games read their threads as if there were none.
	lf.listFail = errors.New("markup changed")
	clock.Advance(time.Minute)
	poll()
	if lf.reads["100"] != 3 {
		t.Fatalf("list failed but thread not read: %d", lf.reads["100"])
	}
}

func TestThreadOffTheFirstPage(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	lf.add("1", "a")
	lf.add("2", "a")
	lf.add("3", "a")
	lf.page = 2 // "1" is now off the first page
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	g := &gameForum{session: s, thread: "1", every: time.Second, verify: time.Hour, now: clock.Now}
	other := &gameForum{session: s, thread: "2", every: time.Second, verify: time.Hour, now: clock.Now}
	other.Join(forum.Cursor{}) // a second game in the section: the list is shared
	_, cur, err := g.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
	if err != nil || cur.PostID != "1" {
		t.Fatal(cur, err)
	}
	// The first read found posts: the head kept is the newest post's. The list then shows the
	// thread off its first page (the threads above it got posts): it only moved, and is not
	// read again (issue 23, item 4).
	for range 3 {
		clock.Advance(time.Minute)
		ps, next, _ := g.Posts(ctx, forum.Thread{ID: "1"}, cur)
		if len(ps) != 0 || lf.reads["1"] != 1 {
			t.Fatalf("thread off the first page read again: %d reads", lf.reads["1"])
		}
		cur = next
	}
	// Back onto the first page without a post (the threads above it moved away): not read.
	lf.page = 3
	clock.Advance(time.Minute)
	if ps, _, _ := g.Posts(ctx, forum.Thread{ID: "1"}, cur); len(ps) != 0 || lf.reads["1"] != 1 {
		t.Fatalf("thread back on the first page without a post read again: %d reads", lf.reads["1"])
	}
	lf.page = 2
	// A new post brings it back to the top: read.
	lf.add("1", "b")
	clock.Advance(time.Minute)
	if ps, _, _ := g.Posts(ctx, forum.Thread{ID: "1"}, cur); len(ps) != 1 {
		t.Fatalf("new post in a thread back on the first page not read: %v", ps)
	}
}

// TestThreadPushedOffTheFirstPage: a thread that got a post and was then pushed off the list's
// first page by posts in more threads than the page holds (every thread on the page moved since
// the last look: the page spilled) is read once, not left for the hourly verifying read; a page
// that did not spill leaves the threads off it unread.
func TestThreadPushedOffTheFirstPage(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3", "4")
	for _, th := range []string{"1", "2", "3", "4"} {
		lf.add(th, "a")
	}
	lf.page = 2
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	g := &gameForum{session: s, thread: "1", every: time.Second, verify: time.Hour, now: clock.Now}
	other := &gameForum{session: s, thread: "2", every: time.Second, verify: time.Hour, now: clock.Now}
	other.Join(forum.Cursor{}) // a second game in the section: the list is shared
	_, cur, err := g.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
	if err != nil || cur.PostID != "1" {
		t.Fatal(cur, err)
	}
	// Threads 3 and 4 fill the page; "1" is off it and only moved: not read.
	clock.Advance(time.Minute)
	if ps, next, _ := g.Posts(ctx, forum.Thread{ID: "1"}, cur); len(ps) != 0 || lf.reads["1"] != 1 {
		t.Fatalf("thread off the first page read again: %d reads", lf.reads["1"])
	} else {
		cur = next
	}
	// A post in "1", then posts in two other threads: the page (two threads) shows only those,
	// both moved since the last look. "1" is read and its post found.
	lf.add("1", "b")
	lf.add("2", "c")
	lf.add("3", "c")
	clock.Advance(time.Minute)
	ps, next, err := g.Posts(ctx, forum.Thread{ID: "1"}, cur)
	if err != nil || len(ps) != 1 || ps[0].Author != "b" {
		t.Fatalf("post in a thread pushed off a spilled page: got %v (%v), %d reads", ps, err, lf.reads["1"])
	}
	cur = next
	// Once: the same spilled look does not read it again, nor does a later page that did not
	// spill (thread 3 unchanged on it).
	reads := lf.reads["1"]
	lf.add("2", "d")
	for range 2 {
		clock.Advance(time.Minute)
		if ps, next, _ := g.Posts(ctx, forum.Thread{ID: "1"}, cur); len(ps) != 0 || lf.reads["1"] != reads {
			t.Fatalf("thread off a page that did not spill read again: %d reads, want %d", lf.reads["1"], reads)
		} else {
			cur = next
		}
	}
}

func TestSessionLogsInOnce(t *testing.T) {
	lf := newListForum()
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() { defer wg.Done(); _ = s.Login(context.Background()) }()
	}
	wg.Wait()
	if lf.logins != 1 {
		t.Fatalf("%d logins for 20 games", lf.logins)
	}
	var _ forum.Forum = &gameForum{session: s}
	if _, ok := forum.As[forum.SectionReader](&gameForum{session: s}); !ok {
		t.Fatal("the dialect's section reader is not found through the wrappers")
	}
}

// After a restart the cursors carry the heads: the first polls read no thread whose list entry
// is unchanged.
func TestSectionWatchSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	curs := map[string]forum.Cursor{}
	open := func() []*gameForum {
		s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
		var gs []*gameForum
		for _, th := range []string{"1", "2", "3"} {
			g := &gameForum{session: s, thread: th, every: 15 * time.Second, verify: 10 * time.Minute, now: clock.Now}
			g.Join(curs[th])
			gs = append(gs, g)
		}
		return gs
	}
	for i, g := range open() {
		th := fmt.Sprint(i + 1)
		_, cur, err := g.Posts(ctx, forum.Thread{ID: th}, forum.Cursor{})
		if err != nil || cur.Head == nil {
			t.Fatalf("cursor without head: %+v %v", cur, err)
		}
		curs[th] = cur
	}
	// The daemon stores the cursor as JSON; the restarted process loads it.
	for th, c := range curs {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back forum.Cursor
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		curs[th] = back
	}
	lf.add("2", "b")
	clock.Advance(time.Minute)
	for i, g := range open() {
		th := fmt.Sprint(i + 1)
		ps, _, err := g.Posts(ctx, forum.Thread{ID: th}, curs[th])
		if err != nil {
			t.Fatal(err)
		}
		if th == "2" && len(ps) != 1 {
			t.Errorf("thread 2's new post not read after the restart")
		}
	}
	if lf.reads["1"] != 1 || lf.reads["3"] != 1 || lf.reads["2"] != 2 {
		t.Fatalf("reads after a restart: %v (want only thread 2 read again)", lf.reads)
	}
}

func TestInboxReadOnceForTheSessionsGames(t *testing.T) {
	ctx := context.Background()
	lf := newListForum()
	lf.pm("5", "old")
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	var gs []*gameForum
	curs := []forum.Cursor{{PostID: "5"}, {PostID: "5"}, {PostID: "5"}}
	for range 3 {
		gs = append(gs, &gameForum{session: s, every: 15 * time.Second, verify: time.Hour, now: clock.Now})
	}
	read := func() (n int) {
		for i, g := range gs {
			ps, cur, err := g.Inbox(ctx, curs[i])
			if err != nil {
				t.Fatal(err)
			}
			curs[i] = cur
			n += len(ps)
		}
		return n
	}
	if n := read(); n != 0 || lf.inboxReads != 1 {
		t.Fatalf("first read: %d messages, %d inbox reads (want 0, 1)", n, lf.inboxReads)
	}
	lf.pm("6", "Джелу")
	lf.pm("7", "snovaya")
	clock.Advance(time.Minute)
	if n := read(); n != 6 || lf.inboxReads != 2 {
		t.Fatalf("each game gets both new messages from one read: %d messages, %d reads", n, lf.inboxReads)
	}
	for i, c := range curs {
		if c.PostID != "7" {
			t.Errorf("game %d cursor %q", i, c.PostID)
		}
	}
	// Within `every` nobody reads the forum again; a game behind gets what it missed.
	clock.Advance(5 * time.Second)
	ps, cur, err := gs[0].Inbox(ctx, forum.Cursor{PostID: "6"})
	if err != nil || len(ps) != 1 || ps[0].ID != "7" || cur.PostID != "7" || lf.inboxReads != 2 {
		t.Fatalf("a game behind: %v %v %v, %d reads", ps, cur, err, lf.inboxReads)
	}
	// A game older than the buffer reads for itself.
	if ps, _, err := gs[1].Inbox(ctx, forum.Cursor{PostID: "2"}); err != nil || len(ps) != 3 || lf.inboxReads != 3 {
		t.Fatalf("a game older than the buffer: %d messages, %d reads", len(ps), lf.inboxReads)
	}
}

// A game alone in its section keeps its own idle check (cheaper than a list page); a session
// with many sections looks at each list no more often than its request budget allows.
func TestSectionListOnlyWhenShared(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1")
	lf.add("1", "a")
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}, rate: 1}
	g := &gameForum{session: s, thread: "1", every: time.Second, verify: time.Hour, now: clock.Now}
	g.Join(forum.Cursor{})
	cur := forum.Cursor{}
	for range 3 {
		_, c, err := g.Posts(ctx, forum.Thread{ID: "1"}, cur)
		if err != nil {
			t.Fatal(err)
		}
		cur = c
		clock.Advance(time.Minute)
	}
	if lf.lists != 0 || lf.reads["1"] != 3 {
		t.Fatalf("a lone game: %d lists, %d reads", lf.lists, lf.reads["1"])
	}
	// Ten sections at 1 request/s: each list stands for at least 20 s.
	for i := range 10 {
		s.section(fmt.Sprint(100+i), time.Second, clock.Now)
	}
	if got := s.pace(s.sections["100"]); got != 22*time.Second {
		t.Fatalf("pace with 11 sections at 1 request/s: %s", got)
	}
}

// A look at the list that shows another game's thread changed wakes that game.
func TestSectionLookWakesChangedGames(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: lf, key: "k", sections: map[string]*section{}}
	woken := map[string]int{}
	var gs []*gameForum
	for _, th := range []string{"1", "2", "3"} {
		g := &gameForum{session: s, thread: th, every: time.Second, verify: time.Hour, now: clock.Now}
		g.wake = func() { woken[th]++ }
		g.Join(forum.Cursor{})
		gs = append(gs, g)
	}
	if _, _, err := gs[0].Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	lf.add("3", "Джелу")
	clock.Advance(2 * time.Second)
	if _, _, err := gs[0].Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "1"}); err != nil {
		t.Fatal(err)
	}
	if woken["3"] != 1 || woken["2"] != 0 || woken["1"] != 0 {
		t.Fatalf("woken %v, want only game 3", woken)
	}
}

// boardForum is a listForum whose board index shows section 3's post count, and a section 4
// whose count the test moves.
type boardForum struct {
	*listForum
	other  int
	boards int
	// lastThread, if set, is the thread the index names as the section's last (MyBB orders by
	// the last post's second: two posts in one second can name the older one's thread).
	lastThread string
}

func (f *boardForum) Board(context.Context) ([]forum.SectionHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.boards++
	n := 0
	for _, ps := range f.posts {
		n += len(ps)
	}
	h := forum.SectionHead{ID: "3", Threads: len(f.posts), Posts: n}
	if len(f.order) > 0 { // the last post's thread and poster, as MyBB's index shows them
		ps := f.posts[f.order[0]]
		h.LastThread = f.order[0]
		if len(ps) > 0 {
			h.LastPoster = ps[len(ps)-1].Author
		}
		if f.lastThread != "" {
			h.LastThread = f.lastThread
		}
	}
	return []forum.SectionHead{h, {ID: "4", Threads: 1, Posts: f.other}}, nil
}

// With a board index, a section's list is read again only when the index shows the section got
// posts it does not name (one player's post is in the thread the index names as the section's
// last: no list read); a change in another section wakes that section's games.
func TestBoardIndexStandsForTheLists(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	lf.page = 100
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: bf, key: "k", sections: map[string]*section{}, rate: 1}
	var gs []*gameForum
	curs := map[string]forum.Cursor{}
	for _, th := range []string{"1", "2", "3"} {
		g := &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now}
		g.Join(forum.Cursor{})
		gs = append(gs, g)
	}
	woken := 0
	other := []*gameForum{
		{session: s, thread: "40", sectionID: "4", every: 5 * time.Second, verify: time.Hour, now: clock.Now, wake: func() { woken++ }},
		{session: s, thread: "41", sectionID: "4", every: 5 * time.Second, verify: time.Hour, now: clock.Now, wake: func() { woken++ }},
	}
	for _, g := range other {
		g.Join(forum.Cursor{})
	}
	poll := func() int {
		n := 0
		for i, g := range gs {
			th := fmt.Sprint(i + 1)
			ps, cur, err := g.Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			curs[th] = cur
			n += len(ps)
		}
		return n
	}
	poll()
	lists := lf.lists
	for range 10 {
		clock.Advance(10 * time.Second)
		if n := poll(); n != 0 {
			t.Fatalf("idle poll found %d posts", n)
		}
	}
	if lf.lists != lists || bf.boards < 10 {
		t.Fatalf("idle: %d more list reads, %d index reads (want none, one a look)", lf.lists-lists, bf.boards)
	}
	lf.add("2", "Джелу")
	clock.Advance(10 * time.Second)
	if n := poll(); n != 1 || lf.lists != lists {
		t.Fatalf("after a post the index names: %d posts, %d more list reads (want 1, none)", n, lf.lists-lists)
	}
	lf.add("1", "Джелу")
	lf.add("3", "snovaya")
	clock.Advance(10 * time.Second)
	if n := poll(); n != 2 || lf.lists != lists+1 {
		t.Fatalf("after two posts: %d posts, %d more list reads (want 2, one)", n, lf.lists-lists)
	}
	bf.other++
	clock.Advance(10 * time.Second)
	poll()
	if woken != 2 {
		t.Fatalf("a post in section 4 woke %d of its 2 games", woken)
	}
}

// A clock that does not move (the tests' clock file) must not make a look stand for ever: a
// game that already used a look reads again, and a post made just after the look is found.
func TestStandingClockFindsPostAfterLook(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index bool
	}{{"list only", false}, {"board index", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			lf := newListForum("1", "2")
			lf.page = 100
			lf.add("1", "a")
			lf.add("2", "a")
			var f forum.Forum = lf
			if tc.index {
				f = &boardForum{listForum: lf}
			}
			clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
			s := &session{Forum: f, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
			g1 := &gameForum{session: s, thread: "1", every: 5 * time.Second, verify: time.Hour, now: clock.Now}
			g2 := &gameForum{session: s, thread: "2", every: 5 * time.Second, verify: time.Hour, now: clock.Now}
			g1.Join(forum.Cursor{})
			g2.Join(forum.Cursor{})
			_, cur1, err := g1.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
			if err != nil {
				t.Fatal(err)
			}
			lists := lf.lists
			// The other game uses the same look: no second read at the same instant.
			if _, _, err := g2.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{}); err != nil {
				t.Fatal(err)
			}
			if lf.lists != lists {
				t.Fatalf("the second game read the list again at the same instant (%d reads)", lf.lists-lists)
			}
			lf.add("1", "Джелу")
			ps, _, err := g1.Posts(ctx, forum.Thread{ID: "1"}, cur1)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != 1 || ps[0].Author != "Джелу" {
				t.Fatalf("the post made after the look, clock standing: got %v", ps)
			}
		})
	}
}

// The bot's own reply moves the board index and the section list, but it is the bot's: no list
// read and no thread read for it; a player's post after it is read with it.
func TestOwnReplyCostsNoRead(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	lf.page = 100
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: bf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
	gs := map[string]*gameForum{}
	curs := map[string]forum.Cursor{}
	for _, th := range []string{"1", "2", "3"} {
		gs[th] = &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now}
		gs[th].Join(forum.Cursor{})
	}
	poll := func() map[string][]forum.Post {
		got := map[string][]forum.Post{}
		for _, th := range []string{"1", "2", "3"} {
			ps, cur, err := gs[th].Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			curs[th] = cur
			if len(ps) > 0 {
				got[th] = ps
			}
		}
		return got
	}
	poll()
	clock.Advance(10 * time.Second)
	poll()
	reads := func() (int, int) {
		lf.mu.Lock()
		defer lf.mu.Unlock()
		return lf.lists, lf.reads["1"] + lf.reads["2"] + lf.reads["3"]
	}
	lists0, reads0 := reads()

	// A failed reply counts for nothing; two replies of the bot in thread 1.
	lf.replyFail = errors.New("flood")
	if _, _, err := gs["1"].Reply(ctx, forum.Thread{ID: "1"}, "x"); err == nil {
		t.Fatal("the failing reply went through")
	}
	lf.replyFail = nil
	for range 2 {
		if _, _, err := gs["1"].Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		clock.Advance(10 * time.Second)
		if got := poll(); len(got) != 0 {
			t.Fatalf("after the bot's own replies the polls found %v", got)
		}
	}
	if lists, rd := reads(); lists != lists0 || rd != reads0 {
		t.Fatalf("the bot's own replies cost %d list reads and %d thread reads, want none", lists-lists0, rd-reads0)
	}

	// A player's post in the thread: the list and the thread are read, the bot's posts with it.
	lf.add("1", "Джелу")
	clock.Advance(10 * time.Second)
	got := poll()
	if ps := got["1"]; len(ps) != 3 || ps[2].Author != "Джелу" || len(got) != 1 {
		t.Fatalf("after a player's post: %v", got)
	}

	// A player's post in another thread and a bot reply after it: the count does not match the
	// bot's posts alone, so the list is read and the player's post found.
	if _, _, err := gs["1"].Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); err != nil {
		t.Fatal(err)
	}
	lf.add("2", "snovaya")
	clock.Advance(10 * time.Second)
	got = poll()
	if ps := got["2"]; len(ps) != 1 || ps[0].Author != "snovaya" {
		t.Fatalf("a player's post beside the bot's reply: %v", got)
	}
	// And a player's post in the bot's thread before its reply (the list shows the bot last).
	lf.add("3", "Джелу")
	if _, _, err := gs["3"].Reply(ctx, forum.Thread{ID: "3"}, "Ход принят."); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	got = poll()
	if ps := got["3"]; len(ps) != 2 || ps[0].Author != "Джелу" {
		t.Fatalf("a player's post before the bot's reply in its thread: %v", got)
	}
}

// A cursor's Include asked only for a read made anyway (forum.WithIncludeIfRead: the daemon's
// first reply after a start takes its marker look along) costs no read while the section's list
// shows the thread unchanged; the read a player's post brings returns the cursor's post too. A
// plain Include reads the thread at every poll (a player's post that may grow by a merge).
func TestIncludeIfReadCostsNoRead(t *testing.T) {
	for _, tc := range []struct {
		name      string
		soft      bool
		idleReads int // thread reads over three idle polls
	}{
		{name: "include if read", soft: true, idleReads: 0},
		{name: "include", soft: false, idleReads: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			lf := newListForum("1", "2")
			lf.add("1", "gm-bot")
			lf.add("2", "gm-bot")
			clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
			s := &session{Forum: lf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
			g := &gameForum{session: s, thread: "1", every: 5 * time.Second, verify: time.Hour, now: clock.Now}
			other := &gameForum{session: s, thread: "2", every: 5 * time.Second, verify: time.Hour, now: clock.Now}
			g.Join(forum.Cursor{})
			other.Join(forum.Cursor{})
			_, cur, err := g.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
			if err != nil {
				t.Fatal(err)
			}
			rctx := ctx
			if tc.soft {
				rctx = forum.WithIncludeIfRead(ctx)
			}
			cur.Include = true
			reads := func() int { lf.mu.Lock(); defer lf.mu.Unlock(); return lf.reads["1"] }
			r0 := reads()
			for range 3 {
				clock.Advance(10 * time.Second)
				ps, _, err := g.Posts(rctx, forum.Thread{ID: "1"}, cur)
				if err != nil {
					t.Fatal(err)
				}
				if tc.soft && len(ps) != 0 {
					t.Fatalf("an idle poll returned %v", ps)
				}
			}
			if n := reads() - r0; n != tc.idleReads {
				t.Fatalf("%d thread reads over three idle polls, want %d", n, tc.idleReads)
			}
			lf.add("1", "Джелу")
			clock.Advance(10 * time.Second)
			ps, _, err := g.Posts(rctx, forum.Thread{ID: "1"}, cur)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != 2 || ps[0].ID != cur.PostID || ps[1].Author != "Джелу" {
				t.Fatalf("the read a player's post brought returned %v, want the cursor's post %s and the new one", ps, cur.PostID)
			}
		})
	}
}

// The board index naming the one thread a player posted in stands for the section's list (issue
// 23: nothing read on the reply path that the reply does not need): only that thread is read,
// its game woken; the head its read gives stands for its next polls; the bot's reply after it
// costs no read; a post in a thread that is no game is not taken on the index's word (the list).
func TestIndexNamesThePostsThread(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3", "9")
	lf.page = 100
	for _, th := range []string{"1", "2", "3", "9"} {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: bf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
	gs := map[string]*gameForum{}
	curs := map[string]forum.Cursor{}
	woken := map[string]int{}
	for _, th := range []string{"1", "2", "3"} {
		gs[th] = &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now, wake: func() { woken[th]++ }}
		gs[th].Join(forum.Cursor{})
	}
	poll := func(threads ...string) map[string]int {
		got := map[string]int{}
		for _, th := range threads {
			ps, cur, err := gs[th].Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			curs[th] = cur
			if len(ps) > 0 {
				got[th] = len(ps)
			}
		}
		return got
	}
	poll("1", "2", "3")
	clock.Advance(10 * time.Second)
	poll("1", "2", "3")
	counts := func() (int, int) {
		lf.mu.Lock()
		defer lf.mu.Unlock()
		return lf.lists, lf.reads["1"] + lf.reads["2"] + lf.reads["3"] + lf.reads["9"]
	}
	lists0, reads0 := counts()

	lf.add("2", "Джелу")
	clock.Advance(10 * time.Second)
	if got := poll("1"); len(got) != 0 || woken["2"] != 1 {
		t.Fatalf("game 1 polling first: found %v, game 2 woken %d times (want once)", got, woken["2"])
	}
	if got := poll("2", "3"); got["2"] != 1 || len(got) != 1 {
		t.Fatalf("after a player's post in thread 2: %v", got)
	}
	if lists, reads := counts(); lists != lists0 || reads != reads0+1 {
		t.Fatalf("a post the index names cost %d list reads and %d thread reads, want 0 and 1", lists-lists0, reads-reads0)
	}
	for range 3 {
		clock.Advance(10 * time.Second)
		if got := poll("1", "2", "3"); len(got) != 0 {
			t.Fatalf("idle after the read: %v", got)
		}
	}
	if _, _, err := gs["2"].Reply(ctx, forum.Thread{ID: "2"}, "Ход принят."); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	poll("1", "2", "3")  // the index shows the bot's reply: its own, no read
	lf.add("9", "Джелу") // chatter in a thread that is no game
	for i := range 3 {
		clock.Advance(10 * time.Second)
		// The list read for it shows the bot's reply in thread 2, whose head (from the read
		// the index named) has no reply count: read back once.
		if got := poll("1", "2", "3"); i == 0 && (len(got) != 1 || got["2"] != 1) || i > 0 && len(got) != 0 {
			t.Fatalf("poll %d after the bot's reply and a post in no game's thread: %v", i, got)
		}
	}
	if lists, reads := counts(); lists != lists0+1 || reads != reads0+2 {
		t.Fatalf("the bot's reply and a post in no game's thread cost %d list reads and %d thread reads, want one list (the index names no game) and one read back", lists-lists0, reads-reads0-1)
	}
	clock.Advance(sectionMaxAge)
	poll("1", "2", "3")
	if lists, _ := counts(); lists != lists0+2 {
		t.Fatalf("the list %s old was read %d times, want once more", sectionMaxAge, lists-lists0-1)
	}
}

// A post of the bot's counted but not yet on the board (in flight) must not make two players'
// posts look like the one the index names: the list is read, and both are found.
func TestIndexNamesNoPostWhileOwnInFlight(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	lf.page = 100
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: bf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
	gs := map[string]*gameForum{}
	curs := map[string]forum.Cursor{}
	for _, th := range []string{"1", "2", "3"} {
		gs[th] = &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now}
		gs[th].Join(forum.Cursor{})
	}
	poll := func() map[string]int {
		got := map[string]int{}
		for _, th := range []string{"1", "2", "3"} {
			ps, cur, err := gs[th].Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			curs[th] = cur
			if len(ps) > 0 {
				got[th] = len(ps)
			}
		}
		return got
	}
	poll()
	clock.Advance(10 * time.Second)
	poll()
	gs["1"].sec.posting("1") // the bot's reply in thread 1 counted, not on the board yet
	lf.add("2", "Джелу")
	lf.add("3", "snovaya")
	clock.Advance(10 * time.Second)
	if got := poll(); got["2"] != 1 || got["3"] != 1 {
		t.Fatalf("two players' posts while the bot's reply was in flight: found %v, want one in 2 and one in 3", got)
	}
}

// An index that names another game's thread than the new post's (two posts in one second) costs
// that thread a read that finds nothing; the list is read at the next look, and the post found.
func TestIndexNamingTheWrongThread(t *testing.T) {
	ctx := context.Background()
	lf := newListForum("1", "2", "3")
	lf.page = 100
	for _, th := range []string{"1", "2", "3"} {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	s := &session{Forum: bf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
	gs := map[string]*gameForum{}
	curs := map[string]forum.Cursor{}
	for _, th := range []string{"1", "2", "3"} {
		gs[th] = &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now}
		gs[th].Join(forum.Cursor{})
	}
	poll := func() map[string]int {
		got := map[string]int{}
		for _, th := range []string{"3", "1", "2"} { // the named thread's game first
			ps, cur, err := gs[th].Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			curs[th] = cur
			if len(ps) > 0 {
				got[th] = len(ps)
			}
		}
		return got
	}
	poll()
	clock.Advance(10 * time.Second)
	poll()
	lf.add("2", "Джелу")
	bf.lastThread = "3"
	found := 0
	for range 2 {
		clock.Advance(10 * time.Second)
		found += poll()["2"]
	}
	if found != 1 {
		t.Fatalf("the post in thread 2, the index naming thread 3: found %d times in two polls, want once", found)
	}
}

// The bot's own replies seen only on the board index (the section's list not read since) still
// move their games' cursors to the heads the list would show: a daemon restarted before the list
// is read again finds those threads unchanged and reads none of them (issue 23, item 4: a
// restart re-read every thread the bot had just answered).
func TestOwnRepliesSurviveARestart(t *testing.T) {
	ctx := context.Background()
	threads := []string{"1", "2", "3"}
	lf := newListForum(threads...)
	lf.page = 100
	for _, th := range threads {
		lf.add(th, "a")
	}
	bf := &boardForum{listForum: lf}
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	curs := map[string]forum.Cursor{}
	start := func() map[string]*gameForum {
		s := &session{Forum: bf, key: "k", bot: "gm-bot", sections: map[string]*section{}, rate: 1}
		gs := map[string]*gameForum{}
		for _, th := range threads {
			gs[th] = &gameForum{session: s, thread: th, every: 5 * time.Second, verify: time.Hour, now: clock.Now}
			gs[th].Join(curs[th])
		}
		return gs
	}
	poll := func(gs map[string]*gameForum) (found []forum.Post) {
		for _, th := range threads {
			ps, cur, err := gs[th].Posts(ctx, forum.Thread{ID: th}, curs[th])
			if err != nil {
				t.Fatal(err)
			}
			if curs[th].PostID != "" {
				found = append(found, ps...)
			}
			curs[th] = cur
		}
		return found
	}
	reads := func() int {
		lf.mu.Lock()
		defer lf.mu.Unlock()
		return lf.reads["1"] + lf.reads["2"] + lf.reads["3"]
	}
	gs := start()
	poll(gs)
	clock.Advance(10 * time.Second)
	poll(gs)
	for range 2 {
		if _, _, err := gs["1"].Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); err != nil {
			t.Fatal(err)
		}
	}
	reads0 := reads()
	clock.Advance(10 * time.Second)
	poll(gs) // the index shows the bot's two posts: no read
	if n := reads() - reads0; n != 0 {
		t.Fatalf("the bot's own replies cost %d thread reads", n)
	}
	if h := curs["1"].Head; h == nil || h.Replies != lf.replies("1") {
		t.Fatalf("thread 1's cursor head %+v after the bot's replies, want the thread's %d replies", h, lf.replies("1"))
	}

	// A restart: new sessions, the cursors as stored.
	gs = start()
	clock.Advance(10 * time.Second)
	poll(gs)
	clock.Advance(10 * time.Second)
	poll(gs)
	if n := reads() - reads0; n != 0 {
		t.Errorf("after a restart %d thread reads, want none (nothing but the bot's replies since the cursors)", n)
	}
	// A player's post after the restart is still read.
	lf.add("1", "Джелу")
	clock.Advance(10 * time.Second)
	got := poll(gs)
	if n := reads() - reads0; n != 1 || len(got) == 0 || got[len(got)-1].Author != "Джелу" {
		t.Errorf("a player's post after the restart: %d thread reads found %v, want 1 finding it", n, got)
	}
}

// replies is thread's reply count as the list shows it.
func (f *listForum) replies(thread string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.posts[thread]) - 1
}
