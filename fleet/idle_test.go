package fleet

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"forumgm/daemon"
	"forumgm/forum"
)

// newIdleWorld is a fleet of games Dragonball games in one section of the sandbox, in the evening
// window (its games' loops are not started: run steps them).
func newIdleWorld(t *testing.T, games int) *world {
	t.Helper()
	return newWorld(t, worldOptions{games: games, entry: func(i int) string {
		return fmt.Sprintf(`  - id: db%d
    kind: dragonball
    forum: main
    thread: "%d"
    section: "10"
    timezone: Europe/Moscow
    start: "2026-12-02T10:00:00+03:00"
    teams:
      - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
      - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
    settings: {deadline: "23:00", rounds: 2}
`, i+1, i+1)
	}})
}

// TestThreeIdleGamesCost: three Dragonball games in one section of the sandbox, in the evening
// window while their orders may come by private message, nobody playing: at the board (bytes
// both ways, headers included) the fleet costs at most 0.2 requests/s and 300 bytes/s — a
// probe of each game's thread in turn (MyBB's lastpost redirect), a look at the board index's
// header counter of private messages every minute, the inbox read in full only when the counter
// shows mail (and every 10 minutes as a net). A private order sent meanwhile is still read.
func TestThreeIdleGamesCost(t *testing.T) {
	if os.Getenv("FORUMGM_TEST_FAST_HTTP") != "" {
		t.Log("FORUMGM_TEST_FAST_HTTP is set; it does not change this test")
	}
	w := newIdleWorld(t, 3)
	w.run(t, 2*time.Minute) // the openings posted, the cursors settled
	w.count.reset()
	const window = 20 * time.Minute
	w.run(t, window)
	reqs, bytes := w.count.requests.Load(), w.count.in.Load()+w.count.out.Load()
	perSec := float64(reqs) / window.Seconds()
	bps := float64(bytes) / window.Seconds()
	var paths []string
	for i, p := range append(countedPaths, "other") {
		if n := w.count.paths[i].Load(); n > 0 {
			paths = append(paths, fmt.Sprintf("%s=%d", p, n))
		}
	}
	t.Logf("3 idle Dragonball games, %s: %d requests (%.3f/s), %d bytes (%.0f B/s), by path %s", window, reqs, perSec, bytes, bps, strings.Join(paths, " "))
	if perSec > 0.2 {
		t.Errorf("%.3f requests/s at the board, want at most 0.2", perSec)
	}
	if bps > 300 {
		t.Errorf("%.0f bytes/s at the board, want at most 300", bps)
	}
	if n := w.count.paths[5].Load(); n == 0 || n > int64(window/daemon.PMLookEvery)+1 {
		t.Errorf("%d reads of the board index in %s, want about one a minute (the PM counter)", n, window)
	}
	if n := w.count.paths[2].Load(); n > int64(3*window/daemon.PMNetEvery)+3 {
		t.Errorf("%d inbox reads in %s with no message, want only the net's (every %s)", n, window, daemon.PMNetEvery)
	}

	// An order by private message: the header counter shows it within a minute and the inbox is
	// read then.
	before := w.count.paths[2].Load()
	if err := w.board.SendPM(w.ctx, "Гарри", "gm-bot", "приказ", "Такт 1: 17 в2"); err != nil {
		t.Fatal(err)
	}
	w.run(t, daemon.PMLookEvery+2*pollFloor)
	if w.count.paths[2].Load() == before {
		t.Fatalf("an order sent %s ago: the inbox was not read", daemon.PMLookEvery+2*pollFloor)
	}
}

// costForum is a listForum that tells what its looks cost (forum.LookCoster).
type costForum struct {
	*listForum
	probe, board int
}

func (f costForum) LookCosts() (int, int) { return f.probe, f.board }

// The cheapest look for the number of games: a few games probe their threads in turn, one
// request per poll interval together; past maxProbeGames, or when their probes together cost as
// much as the board index, the index and the lists stand for them.
func TestProbesOrIndex(t *testing.T) {
	cases := []struct {
		name         string
		games        int
		probe, board int
		probing      bool
	}{
		{"one game", 1, 562, 8400, true},
		{"three games, probes cheaper", 3, 562, 8400, true},
		{"four games", 4, 562, 8400, true},
		{"five games: the index", 5, 562, 8400, false},
		{"three games, a small index", 3, 562, 1500, false},
		{"no probe", 2, 0, 8400, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var threads []string
			for i := range c.games {
				threads = append(threads, fmt.Sprint(100+i))
			}
			s := &session{Forum: costForum{newListForum(threads...), c.probe, c.board}, key: "k", sections: map[string]*section{}}
			for _, th := range threads {
				(&gameForum{session: s, thread: th, every: 5 * time.Second, now: time.Now}).Join(forum.Cursor{})
			}
			if got := s.probing(); got != c.probing {
				t.Errorf("probing with %d games (probe %d B, index %d B): %v, want %v", c.games, c.probe, c.board, got, c.probing)
			}
		})
	}
}

// The probing games take turns: over a stretch of polls every poll interval, n games probe about
// once per poll interval together, each about every n intervals, none starved.
func TestProbeTurns(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		s := &session{}
		now := time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
		got := map[string]int{}
		const polls = 120
		for range polls {
			for i := range n {
				if th := fmt.Sprint(i); s.probeDue(th, 5*time.Second, now.Add(time.Duration(i)*time.Second)) {
					got[th]++
				}
			}
			now = now.Add(5 * time.Second)
		}
		total := 0
		for i := range n {
			c := got[fmt.Sprint(i)]
			total += c
			if want := polls / n; c < want-2 || c > want+2 {
				t.Errorf("%d games: game %d probed %d times in %d polls, want about %d", n, i, c, polls, want)
			}
		}
		if total > polls+n {
			t.Errorf("%d games: %d probes in %d poll intervals, want at most one per interval", n, total, polls)
		}
	}
}

// TestProbeOnAStandingClock: a clock that stands still (a test's clock file, a stuck host) earns
// no probe credit, yet every poll still probes: a post made after the last look is seen.
func TestProbeOnAStandingClock(t *testing.T) {
	s := &session{}
	now := time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
	for poll := range 5 {
		for _, th := range []string{"1", "2", "3"} {
			if !s.probeDue(th, 5*time.Second, now) {
				t.Fatalf("poll %d: thread %s not probed while the clock stands at %s", poll, th, now)
			}
		}
	}
}
