package daemon

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
	"forumgm/store"
)

// pageRead is one GET of the game's thread as the bot's client sent it: the request class, the
// game clock's time (one cycle's reads share it: the test clock stands still within a cycle) and
// what it asked for.
type pageRead struct {
	at       time.Time
	class    forum.Class
	page     int  // the page asked for (0: none)
	pid      int  // the post whose permalink was asked for (0: none)
	probe    bool // showthread.php?action=lastpost: no page
	resolved int  // the page the board answered with (resolve)
}

// threadReads is an HTTP transport over loopback that records the bot's reads of one thread.
type threadReads struct {
	base  http.RoundTripper
	tid   int
	clock *testkit.Clock

	mu    sync.Mutex
	reads []pageRead
}

func (tr *threadReads) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && req.URL.Path == "/showthread.php" {
		q := req.URL.Query()
		if q.Get("tid") == strconv.Itoa(tr.tid) {
			rd := pageRead{at: tr.clock.Now(), class: forum.ClassOf(req.Context()), probe: q.Get("action") == "lastpost"}
			rd.page, _ = strconv.Atoi(q.Get("page"))
			rd.pid, _ = strconv.Atoi(q.Get("pid"))
			tr.mu.Lock()
			tr.reads = append(tr.reads, rd)
			tr.mu.Unlock()
		}
	}
	return tr.base.RoundTrip(req)
}

// since is the reads recorded at or after t, each with the page the board answered it with, as
// the sandbox does (as MyBB 1.8 does): a post's permalink gives the page holding the post, that
// of another thread (in others) the page a post of its time would be on, else the page asked
// for, within the thread's pages. posts is the thread now (posts are only added at its end, so
// a post's page never moved).
func (tr *threadReads) since(t time.Time, posts, others []sandbox.StoredPost, ppp int) []pageRead {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	index, other := map[int]int{}, map[int]time.Time{}
	for i, p := range posts {
		index[p.PID] = i
	}
	for _, p := range others {
		other[p.PID] = p.Time
	}
	var out []pageRead
	for _, rd := range tr.reads {
		if rd.at.Before(t) || rd.probe {
			continue
		}
		page := rd.page
		if i, ok := index[rd.pid]; ok {
			page = i/ppp + 1
		} else if at, ok := other[rd.pid]; ok {
			n := 0
			for _, p := range posts {
				if !p.Time.After(at) {
					n++
				}
			}
			page = (n + ppp - 1) / ppp
		}
		rd.resolved = min(max(page, 1), max(1, (len(posts)+ppp-1)/ppp))
		out = append(out, rd)
	}
	return out
}

// TestDailyBackgroundReadsOfALongGame: a Crusade game whose thread holds about 2,000 posts (250
// pages of 8), its first moves long ago, plays one more day — three dozen posts between 08:00
// and 23:00, every third a move, each after a post in another thread of the board (post ids are
// not consecutive within the thread) — with the production rescan settings (once a day, move
// posts of the last 25 hours, never the older ones) while the clock steps through 26 hours, a
// cycle every 10 minutes. The background reads of the game's thread over the day are at most the
// pages that got posts that day plus 2, each page at most once per pass, none before the page of
// the oldest move of the last 25 hours; the pass finds an edit of the day's move and never reads
// the old move's page (its edit is not flagged: the first-seen version stands).
func TestDailyBackgroundReadsOfALongGame(t *testing.T) {
	const (
		ppp     = 8
		chatter = 1990
	)
	day := time.Date(2026, 12, 6, 0, 0, 0, 0, msk) // the measured day (a Sunday)
	gameStart := time.Date(2026, 11, 20, 18, 0, 0, 0, msk)
	users := []string{"gm-bot", "Джелу", "snovaya", "Вася", "Moderator"}

	// The thread as the board holds it before the day: the game's opening, its first moves,
	// two weeks of chatter, one more move on December 4 (older than 25 hours at the day's pass).
	seed := []sandbox.SeedPost{{Author: "Джелу", Message: "Крестовый поход: тема игры.", Time: gameStart.Add(-time.Hour)}}
	seed = append(seed,
		sandbox.SeedPost{Author: "Джелу", Message: "1-й ход крестоносца к1 на K16", Time: gameStart.Add(65 * time.Minute)},
		sandbox.SeedPost{Author: "snovaya", Message: "1-й ход сарацина в1 на E6", Time: gameStart.Add(80 * time.Minute)})
	from, until := gameStart.Add(3*time.Hour), time.Date(2026, 12, 5, 20, 0, 0, 0, msk)
	step := until.Sub(from) / chatter
	for i := range chatter {
		at := from.Add(time.Duration(i) * step)
		seed = append(seed, sandbox.SeedPost{Author: users[1+i%3], Message: "болтовня о погоде, реплика " + strconv.Itoa(i), Time: at})
		if i == chatter*9/10 {
			seed = append(seed, sandbox.SeedPost{Author: "Джелу", Message: "2-й ход крестоносца к2 на L16", Time: at.Add(time.Second)})
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	clock := testkit.NewClock(until.Add(2 * time.Hour)) // 22:00 on December 5
	b := &board{ctx: ctx, clock: clock, dir: dir, pw: map[string]string{}}
	var us []sandbox.User
	for i, u := range users {
		b.pw[u] = fmt.Sprintf("pw-%d", i)
		us = append(us, sandbox.User{Name: u, Password: b.pw[u]})
	}
	var err error
	b.srv, err = sandbox.New(ctx, sandbox.Options{DBPath: dir + "/board.db", Now: clock.Now, Location: msk, Users: us,
		Threads: []sandbox.Thread{{Subject: "Крестовый поход", Posts: seed},
			{Subject: "Флудилка", Posts: []sandbox.SeedPost{{Author: "Вася", Message: "Обо всём.", Time: gameStart}}}},
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1, PostsPerPage: ppp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.srv.Close() })
	if b.url, err = b.srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}

	g := b.game(t, "cr", "gm-bot", 1, `  kind: crusade
  timezone: Europe/Moscow
  start: "`+gameStart.Format(time.RFC3339)+`"
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`)
	reads := &threadReads{base: http.DefaultTransport, tid: 1, clock: clock}
	g.fo, err = mybb.New(forum.Config{BaseURL: b.url + "/", Username: g.bot, Password: b.password(t, g.bot), Location: msk, Now: clock.Now},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 10000, Burst: 1000, Transport: reads})))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.fo.Login(ctx); err != nil {
		t.Fatal(err)
	}
	// The production settings (New's defaults): a pass a day over the move posts of the last
	// 25 hours, the older ones never again.
	g.d, err = New(Options{Game: g.id, Kind: g.kind, Thread: forum.Thread{ID: "1"}, Forum: g.fo, Store: g.st,
		NewReferee: g.newRef, Bot: g.bot, Moderators: []string{"Moderator"}, Start: g.cfg.StartTime(), Clock: clock,
		Poll: PollPolicy{Floor: time.Second, Ceiling: time.Minute, Loc: msk}, Log: zerolog.New(syncWriter{&g.logMu, &g.log})})
	if err != nil {
		t.Fatal(err)
	}

	// The catch-up: the whole thread read and judged.
	g.settle(t)
	var oldMoves []string
	moves, err := g.st.MovePosts(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		oldMoves = append(oldMoves, m.ID)
	}
	if len(oldMoves) != 3 {
		t.Fatalf("the catch-up judged %d move posts (%v), want the 3 seeded", len(oldMoves), oldMoves)
	}
	boardPosts, err := b.srv.Posts(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(boardPosts); n < 2000 {
		t.Fatalf("the thread holds %d posts, want about 2,000", n)
	}
	// The last pass was at 23:00 yesterday: the day's pass comes at 23:00.
	passAt := day.Add(23 * time.Hour)
	g.d.lastScan = passAt.Add(-24 * time.Hour)

	// The day: from 08:00 every 25 minutes a post in the game's thread, every third a move
	// (alternately the crusaders' and the saracens'), each right after a post in the other thread.
	type planned struct {
		at         time.Time
		user, text string
	}
	var plan []planned
	for i := range 36 {
		at := day.Add(8*time.Hour + time.Duration(i)*25*time.Minute)
		p := planned{at: at, user: users[1+i%3], text: "обсуждаем ход, реплика " + strconv.Itoa(i)}
		if i%3 == 0 {
			n := i/3 + 3
			if i%2 == 0 {
				p.user, p.text = "Джелу", strconv.Itoa(n)+"-й ход крестоносца к1 на K1"+strconv.Itoa(i%4)
			} else {
				p.user, p.text = "snovaya", strconv.Itoa(n)+"-й ход сарацина в1 на E"+strconv.Itoa(6+i%3)
			}
		}
		plan = append(plan, p)
	}
	var dayMoves []int
	var editedDayMove, editedOld bool
	for now := day; !now.After(day.Add(26 * time.Hour)); now = now.Add(10 * time.Minute) {
		clock.Set(now)
		for len(plan) > 0 && !plan[0].at.After(now) {
			p := plan[0]
			plan = plan[1:]
			if _, _, err := b.srv.Reply(ctx, "Вася", 2, "в другой теме о своём"); err != nil {
				t.Fatal(err)
			}
			pid := g.post(t, p.user, p.text)
			if p.user != "Вася" && p.text[0] >= '0' && p.text[0] <= '9' {
				dayMoves = append(dayMoves, pid)
			}
		}
		if !editedDayMove && now.Equal(passAt.Add(-30*time.Minute)) {
			// Before the pass: the day's first move and the oldest move of all are edited.
			editedDayMove, editedOld = true, true
			if err := b.srv.EditPost(ctx, "Джелу", dayMoves[0], "4-й ход крестоносца к1 на K15", ""); err != nil {
				t.Fatal(err)
			}
			old, _ := strconv.Atoi(oldMoves[0])
			if err := b.srv.EditPost(ctx, "Джелу", old, "1-й ход крестоносца к1 на K15", ""); err != nil {
				t.Fatal(err)
			}
		}
		g.cycle(t)
	}
	if !editedDayMove || !editedOld {
		t.Fatal("the edits were not made")
	}

	// The pages that got posts that day, and the page of the oldest move of the 25 hours before
	// the pass.
	boardPosts, err = b.srv.Posts(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	changed := map[int]bool{}
	oldestPage := 0
	for i, p := range boardPosts {
		page := i/ppp + 1
		if !p.Time.Before(day) && p.Time.Before(day.Add(24*time.Hour)) {
			changed[page] = true
		}
		if oldestPage == 0 && p.PID == dayMoves[0] {
			oldestPage = page
		}
	}
	pages := (len(boardPosts) + ppp - 1) / ppp

	passes := map[time.Time][]int{}
	background, other := 0, 0
	others, err := b.srv.Posts(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range reads.since(day, boardPosts, others, ppp) {
		switch {
		case rd.at.After(day.Add(24 * time.Hour)):
		case rd.class == forum.ClassBackground:
			passes[rd.at] = append(passes[rd.at], rd.resolved)
			background++
		default:
			other++
		}
	}
	t.Logf("a %d-post thread (%d pages of %d), %d pages got posts that day (from page %d): %d background page reads in %d pass(es) %v; the polls read %d pages besides",
		len(boardPosts), pages, ppp, len(changed), oldestPage, background, len(passes), passes, other)
	if len(passes) == 0 {
		t.Fatal("no background pass over the thread that day")
	}
	if limit := len(changed) + 2; background > limit {
		t.Errorf("%d background page reads over the day, want at most the %d pages that got posts plus 2 (%d)", background, len(changed), limit)
	}
	for at, ps := range passes {
		seen := map[int]bool{}
		var twice, before []int
		for _, p := range ps {
			if seen[p] {
				twice = append(twice, p)
			}
			seen[p] = true
			if p < oldestPage {
				before = append(before, p)
			}
		}
		if len(twice) > 0 {
			t.Errorf("the pass at %s read pages %v twice", at.Format("15:04"), twice)
		}
		if len(before) > 0 {
			t.Errorf("the pass at %s read %d pages (from page %d) before page %d that holds the oldest move of the last 25 hours",
				at.Format("15:04"), len(before), before[0], oldestPage)
		}
	}

	// What the pass is for: the edit of the day's move is flagged, the old move's is not.
	flags, err := g.st.OpenFlags(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	edited := map[string]bool{}
	for _, f := range flags {
		if f.Kind == store.FlagEdited {
			edited[f.PostID] = true
		}
	}
	if !edited[strconv.Itoa(dayMoves[0])] {
		t.Errorf("the day's pass did not find the edit of the day's first move %d (flags: %v)", dayMoves[0], edited)
	}
	if edited[oldMoves[0]] {
		t.Errorf("the old move %s was read again (its edit flagged): the daily cost grows with the thread", oldMoves[0])
	}
}
