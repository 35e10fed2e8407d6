package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
	"forumgm/store"
)

// tickingClock is the test clock moving a millisecond at each reading, as a host's clock does
// between two steps of a cycle (the test clock alone stands still within a cycle, and a game's
// probe turn is always due on a clock that stands still).
type tickingClock struct{ *testkit.Clock }

func (c tickingClock) Now() time.Time { return c.Advance(time.Millisecond) }

// TestRescanOutsideTheProbeTurn: a Crusade game alone in its section of the sandbox, its thread
// probed in turns (MyBB's lastpost redirect at the poll floor, no more often), a move judged and
// then edited on the board. The game's pass over its move posts (hourly here) comes in a cycle
// whose poll just took the probe turn: it still reads the thread, and the edit is flagged. (The
// pass's read asked from the id before the move post, a cursor like a poll's, was answered "not
// your turn" with nothing read, and the pass ended finding nothing.)
func TestRescanOutsideTheProbeTurn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	base := testkit.NewClock(time.Date(2026, 12, 2, 18, 0, 0, 0, msk))
	clock := tickingClock{base}
	users := []string{"gm-bot", "Джелу", "snovaya", "Moderator"}
	var us []sandbox.User
	for _, u := range users {
		us = append(us, sandbox.User{Name: u, Password: "pw-" + u})
	}
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: base.Now, Location: msk,
		Forums: []sandbox.Forum{{FID: 10, Name: "Игры"}}, Users: us,
		Threads:      []sandbox.Thread{{FID: 10, Subject: "Крестовый поход", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Играем.", Time: base.Now().Add(-time.Hour)}}}},
		FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	url, err := board.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const floor = 5 * time.Second
	c, err := config.Parse([]byte(fmt.Sprintf(`forums:
  main: {url: %q, dialect: mybb, timezone: Europe/Moscow, bot: {username: gm-bot, password_env: FLEET_EDITS_PW}, extra: {rate: "1000"}}
moderators: [Moderator]
poll: {floor: %s, ceiling: 10m}
store: {path: %s}
games:
  - id: cr
    kind: crusade
    forum: main
    thread: "1"
    section: "10"
    timezone: Europe/Moscow
    start: "2026-12-02T18:00:00+03:00"
    roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`, url+"/", floor, filepath.Join(dir, "forumgm.db"))))
	if err == nil {
		err = c.Validate(known)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("FLEET_EDITS_PW", "pw-gm-bot")
	st, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"), store.WithClock(base.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const pass = time.Hour
	fl, err := New(Options{Store: st, Clock: clock, Tune: func(o *daemon.Options) { o.Rescan = pass }})
	if err != nil {
		t.Fatal(err)
	}
	if err := fl.Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	games := fl.Games()
	if len(games) != 1 {
		t.Fatalf("%d games", len(games))
	}
	d := games[0].Daemon
	cycle := func() {
		t.Helper()
		if _, err := d.Cycle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// The first cycle fixes the pass's moment: the game's own share of the interval later.
	first := base.Now()
	cycle()
	passAt := first.Add(pass - daemon.Spread("cr", pass))
	base.Set(first.Add(5 * time.Minute))
	pid, _, err := board.Reply(ctx, "Джелу", 1, "1-й ход крестоносца к1 на K16")
	if err != nil {
		t.Fatal(err)
	}
	base.Advance(floor)
	cycle()
	if rec, ok, err := st.SeenPost(ctx, "cr", store.SourceThread, strconv.Itoa(pid)); err != nil || !ok || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("the move %d: %+v %v %v, want accepted", pid, rec, ok, err)
	}
	if err := board.EditPost(ctx, "Джелу", pid, "1-й ход крестоносца к1 на K15", ""); err != nil {
		t.Fatal(err)
	}
	// The polls at the floor from well before the pass's moment until after it.
	if passAt.Before(base.Now().Add(time.Minute)) {
		passAt = passAt.Add(pass)
	}
	for base.Now().Before(passAt.Add(-2 * time.Minute)) {
		base.Advance(time.Minute)
		cycle()
	}
	for base.Now().Before(passAt.Add(time.Minute)) {
		base.Advance(floor)
		cycle()
	}
	flags, err := st.OpenFlags(ctx, "cr")
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
