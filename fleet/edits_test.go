package fleet

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"forumgm/daemon"
	"forumgm/sandbox"
	"forumgm/store"
)

// markerRe finds the game's markers in a post's text (daemon.Mark, daemon.PartMarker).
var markerRe = regexp.MustCompile(`fgm-cr-[0-9]+-[0-9a-f]+(?:-p[0-9]+)?`)

// newProbeWorld is one Crusade game alone in its section of the sandbox, run by a fleet on a
// ticking clock: its thread is probed in turns (MyBB's lastpost redirect, at most once per poll
// floor). front, if set, stands between the bot and the board (a fault on the way back).
func newProbeWorld(t *testing.T, front func(http.Handler) http.Handler, tune func(*daemon.Options)) *world {
	t.Helper()
	start := time.Date(2026, 12, 2, 18, 0, 0, 0, moscow(t))
	return newWorld(t, worldOptions{
		start: start,
		users: []string{"gm-bot", "Джелу", "snovaya", "Moderator"},
		threads: []sandbox.Thread{{FID: 10, Subject: "Крестовый поход",
			Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Играем.", Time: start.Add(-time.Hour)}}}},
		games: 1,
		entry: func(int) string {
			return `  - id: cr
    kind: crusade
    forum: main
    thread: "1"
    section: "10"
    timezone: Europe/Moscow
    start: "2026-12-02T18:00:00+03:00"
    roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`
		},
		ticking: true, front: front, tune: tune,
	})
}

// TestRescanOutsideTheProbeTurn: a move judged, then edited on the board. The game's pass over
// its move posts (hourly here) comes in a cycle whose poll just took the probe turn: it still
// reads the thread, and the edit is flagged. (The pass's read asked from the id before the move
// post, a cursor like a poll's, was answered "not your turn" with nothing read, and the pass
// ended finding nothing.)
func TestRescanOutsideTheProbeTurn(t *testing.T) {
	const pass = time.Hour
	w := newProbeWorld(t, nil, func(o *daemon.Options) { o.Rescan = pass })
	// The first cycle fixes the pass's moment: the game's own share of the interval later.
	first := w.clock.Now()
	w.cycle(t)
	passAt := first.Add(pass - daemon.Spread("cr", pass))
	w.clock.Set(first.Add(5 * time.Minute))
	pid, _, err := w.board.Reply(w.ctx, "Джелу", 1, "1-й ход крестоносца к1 на K16")
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(pollFloor)
	w.cycle(t)
	if rec, ok, err := w.st.SeenPost(w.ctx, "cr", store.SourceThread, strconv.Itoa(pid)); err != nil || !ok || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("the move %d: %+v %v %v, want accepted", pid, rec, ok, err)
	}
	if err := w.board.EditPost(w.ctx, "Джелу", pid, "1-й ход крестоносца к1 на K15", ""); err != nil {
		t.Fatal(err)
	}
	// The polls at the floor from well before the pass's moment until after it.
	if passAt.Before(w.clock.Now().Add(time.Minute)) {
		passAt = passAt.Add(pass)
	}
	for w.clock.Now().Before(passAt.Add(-2 * time.Minute)) {
		w.clock.Advance(time.Minute)
		w.cycle(t)
	}
	for w.clock.Now().Before(passAt.Add(time.Minute)) {
		w.clock.Advance(pollFloor)
		w.cycle(t)
	}
	flags, err := w.st.OpenFlags(w.ctx, "cr")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flags {
		if f.Kind == store.FlagEdited && f.PostID == strconv.Itoa(pid) {
			return
		}
	}
	t.Errorf("the pass at %s did not find the edit of move %d (flags: %+v)", passAt.Format("15:04:05"), pid, flags)
}

// TestMarkerLookOutsideTheProbeTurn: the bot's reply to a move is stored by the board, but the
// answer is lost on the way back (a proxy's 502). The daemon looks for the reply's marker before
// sending it again, in the cycle whose poll just took the probe turn: the look reads the thread
// all the same and finds it, and the reply is in the thread once. (The look asked from the id
// before the bot's previous reply, a cursor like a poll's, and was answered "not your turn" with
// nothing read: the reply went out again, and only MyBB's duplicate check kept it out, the
// cycle failing.)
func TestMarkerLookOutsideTheProbeTurn(t *testing.T) {
	var armed, lost atomic.Bool
	w := newProbeWorld(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if armed.Load() && r.Method == http.MethodPost && r.URL.Path == "/newreply.php" && !lost.Swap(true) {
				h.ServeHTTP(httptest.NewRecorder(), r) // the board takes the post; its answer is lost
				http.Error(rw, "Bad Gateway", http.StatusBadGateway)
				return
			}
			h.ServeHTTP(rw, r)
		})
	}, nil)
	w.cycle(t) // the opening post
	// Polls at the floor: each takes the probe turn its interval earned.
	for range 12 {
		w.clock.Advance(pollFloor)
		w.cycle(t)
	}
	armed.Store(true)
	if _, _, err := w.board.Reply(w.ctx, "Джелу", 1, "1-й ход крестоносца к1 на K16"); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		w.clock.Advance(pollFloor)
		w.cycle(t)
	}
	if !lost.Load() {
		t.Fatal("no reply was posted")
	}
	posts, err := w.board.Posts(w.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	markers := map[string]int{}
	for _, p := range posts {
		if p.Author != "gm-bot" {
			continue
		}
		for _, m := range markerRe.FindAllString(p.Message, -1) {
			markers[m]++
		}
	}
	if len(markers) < 2 {
		t.Fatalf("the bot's posts carry %d markers (%v), want the opening's and the reply's", len(markers), markers)
	}
	for m, n := range markers {
		if n != 1 {
			t.Errorf("marker %s is in the thread %d times", m, n)
		}
	}
}
