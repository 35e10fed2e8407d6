package daemon

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

var dbUsers = []string{"gm-bot", "Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл", "Moderator"}

// dbGame is a two-round Dragonball game: orders by private message until 23:00 Moscow time, the
// round resolved then.
const dbGame = `  kind: dragonball
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  teams:
    - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
    - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
  settings: {deadline: "23:00", rounds: 2}
`

// dbOrders are the private orders of the two rounds (day, time, author, text).
var dbOrders = []struct {
	day          int
	at, who, txt string
}{
	{1, "11:00", "Гарри", "Такт 1: 17 в2\nТакт 2: 33 в2\nДракон такт 1: вперёд\nДракон такт 2: стоит, пасть открыта"},
	{1, "12:00", "Драко", "Такт 1: 27 в2\nТакт 2: 43 в3\nДракон такт 1: вперёд, пасть закрыта"},
	{1, "13:00", "Рон", "Такт 1: 18 в2\nТакт 2: 34 в2\nОписание: Рон летит за мячом."},
	{1, "14:00", "Крэбб", "Такт 1: 28 в2"},
	{2, "11:00", "Гарри", "Такт 1: 49 в2\nДракон такт 1: налево"},
	{2, "12:00", "Драко", "Такт 1: 59 в3\nДракон такт 1: вперёд, пламя"},
	{2, "13:00", "Джинни", "Такт 1: 19 в2\nТакт 2: 35 в2"},
}

// playDragonball plays the two rounds over the sandbox. crashAt, if set, crashes the daemon at
// that pipeline step of the first round's deadline (a commit made, the report not yet posted, or
// posted and not yet recorded); a new daemon on the same store takes over.
func playDragonball(t *testing.T, crashAt string) *table {
	b := newBoard(t, time.Date(2026, 12, 1, 10, 0, 0, 0, msk), dbUsers, "Драконбол")
	g := b.game(t, "db", "gm-bot", 1, dbGame)
	g.settle(t)
	if len(g.botPosts(t)) != 1 || !strings.Contains(g.botPosts(t)[0], "Драконбол начинается") {
		t.Fatalf("no opening post: %q", g.botPosts(t))
	}
	round := func(day int) {
		for _, o := range dbOrders {
			if o.day != day {
				continue
			}
			b.set(day, o.at)
			before := len(g.received(t, o.who))
			g.pm(t, o.who, o.txt)
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			// Answered privately at once: the orders as understood, nothing refused.
			got := g.received(t, o.who)
			if len(got) != before+1 {
				t.Fatalf("day %d: %s got %d answers to the orders, want 1", day, o.who, len(got)-before)
			}
			if a := got[len(got)-1]; !strings.Contains(a, "Приказы приняты") || strings.Contains(a, "Не принято") {
				t.Errorf("day %d: %s's orders not accepted as sent:\n%s", day, o.who, a)
			}
		}
		// Orders in the thread are refused there with the reason (send them privately).
		if day == 1 {
			b.set(1, "15:00")
			pid := g.post(t, "Джинни", "Такт 1: 19 в2")
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			if v := g.verdict(t, store.SourceThread, strconv.Itoa(pid)); v != store.VerdictRefused {
				t.Errorf("orders in the thread: %s, want refused", v)
			}
		}
		// No report before the deadline.
		n := len(g.botPosts(t))
		b.set(day, "22:59")
		g.settle(t)
		if len(g.botPosts(t)) != n {
			t.Fatalf("day %d: a post before the deadline", day)
		}
		// The deadline: the round resolves on the game's clock.
		b.set(day, "23:00")
		b.clock.Advance(30 * time.Second)
		if day == 1 && crashAt != "" {
			g.crashAndRecover(t, crashAt, func() {
				// The round is committed; its report is in the thread only if the forum took it.
				if k := g.kinds(t); k["dragonball.round_resolved"] != 1 {
					t.Fatalf("crashed at %s: the round is not committed: %v", crashAt, k)
				}
				if posted := withText(g.botPosts(t), "[b]Раунд 1[/b]") != ""; posted != (crashAt == "sent") {
					t.Fatalf("crashed at %s: report in the thread: %v", crashAt, posted)
				}
			})
		}
		g.settle(t)
	}
	round(1)
	posts := g.botPosts(t)
	rep := withText(posts, "[b]Раунд 1[/b]")
	if rep == "" {
		t.Fatalf("no report of round 1 after the deadline:\n%s", strings.Join(posts, "\n---\n"))
	}
	for _, want := range []string{"Такт 1", "[b]Счёт:[/b] Грифоны", "Рон летит за мячом", "[code]", "Гарри:", "дракон: голова"} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report of round 1 lacks %q:\n%s", want, rep)
		}
	}
	round(2)
	posts = g.botPosts(t)
	if withText(posts, "[b]Раунд 2[/b]") == "" {
		t.Fatalf("no report of round 2")
	}
	// The end reveals the seed; the summary in numbers follows it, the last post.
	end, sum := posts[len(posts)-2], posts[len(posts)-1]
	if !strings.Contains(end, "Зерно") && !strings.Contains(end, "зерно") {
		t.Errorf("the end does not reveal the seed:\n%s", end)
	}
	if !strings.Contains(sum, "[b]Итоги игры «Драконбол» в цифрах[/b]") {
		t.Errorf("the last post is not the summary:\n%s", sum)
	}
	if !g.newRefOver(t) {
		t.Errorf("the game is not over after its last round")
	}
	k := g.kinds(t)
	if k["dragonball.round_resolved"] != 2 || k["dragonball.game_started"] != 1 || k["dragonball.orders_accepted"] != len(dbOrders) {
		t.Errorf("events: %v", k)
	}
	// Nothing more happens after the end.
	b.set(3, "23:30")
	g.settle(t)
	if got := g.botPosts(t); len(got) != len(posts) {
		t.Errorf("%d posts after the end", len(got)-len(posts))
	}
	g.exactlyOnce(t)
	return g
}

// TestDragonballEndToEnd plays a whole Dragonball game over loopback HTTP against the sandbox with
// the real referee and a simulated clock: orders by private message from both teams, answered
// privately at once; orders in the thread refused; the deadline; the report in the thread; a
// second round; the end with the seed revealed.
func TestDragonballEndToEnd(t *testing.T) {
	g := playDragonball(t, "")
	t.Logf("%d posts in the thread", len(g.botPosts(t)))
	if testing.Verbose() {
		t.Log(strings.Join(g.botPosts(t), "\n---\n"))
	}
}

var keyRe = regexp.MustCompile(`(fgm-[a-z0-9]+-\d+-)[0-9a-f]{12}`)

// maskedThread is the bot's posts with the markers' keyed part (each store's own) masked.
func maskedThread(t *testing.T, g *table) string {
	return keyRe.ReplaceAllString(strings.Join(g.botPosts(t), "\n===\n"), "${1}KEY")
}

// A crash between resolving a round and posting its report neither loses nor doubles the report:
// the daemon dies right after the commit (fired), before the forum call (attempt), and after the
// forum took the post but before it was recorded (sent); a new daemon on the same store finishes,
// and the thread is byte for byte the uninterrupted run's.
func TestDragonballCrashAtTheDeadline(t *testing.T) {
	want := maskedThread(t, playDragonball(t, ""))
	for _, step := range []string{"fired", "attempt", "sent"} {
		t.Run(step, func(t *testing.T) {
			got := maskedThread(t, playDragonball(t, step))
			if got != want {
				t.Errorf("the thread differs from the uninterrupted run's:\n--- want\n%s\n--- got\n%s", want, got)
			}
		})
	}
}

// checkDragonball checks what a whole game of dbOrders (and Джинни's orders in the thread) must
// have led to.
func checkDragonball(t *testing.T, g *table) {
	t.Helper()
	posts := g.botPosts(t)
	for _, want := range [][]string{
		{"Драконбол начинается"},
		{"Приказы не приняты", "Джинни", "личным сообщением"},
		{"[b]Раунд 1[/b]", "Рон летит за мячом", "[b]Счёт:[/b] Грифоны"},
		{"[b]Раунд 2[/b]", "[b]Игра окончена[/b]"},
		{"Зерно партии"},
	} {
		if withText(posts, want...) == "" {
			t.Errorf("dragonball: no post with %q", want)
		}
	}
	for _, o := range dbOrders {
		got := g.received(t, o.who)
		if withText(got, "Приказы приняты") == "" || withText(got, "Не принято") != "" {
			t.Errorf("dragonball: %s's orders are not answered as accepted: %q", o.who, got)
		}
	}
	if !g.newRefOver(t) {
		t.Errorf("dragonball: the game is not over after its last round")
	}
	k := g.kinds(t)
	if k["dragonball.round_resolved"] != 2 || k["dragonball.orders_accepted"] != len(dbOrders) {
		t.Errorf("dragonball: events %v", k)
	}
	g.exactlyOnce(t)
}
