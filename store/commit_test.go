package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
)

// TestCommitAtomic provokes failures at every stage of a Commit, after earlier stages have written,
// and checks the database is exactly as before.
func TestCommitAtomic(t *testing.T) {
	ctx := context.Background()
	timer := t0.Add(time.Hour)
	tests := []struct {
		name    string
		prepare func(t *testing.T, s *Store) // state before the failing commit
		undo    string                       // SQL that removes what prepare provoked
		undoPG  string                       // the same on PostgreSQL, where it differs
		commit  func(s *Store) Commit
		wantIs  error  // errors.Is target, or nil
		wantMsg string // substring of the error, or ""
		wantPG  string // the same on PostgreSQL, where it differs
	}{
		{
			name: "outbox marker conflict after post and events",
			prepare: func(t *testing.T, s *Store) {
				// Another game's row already holds the marker g's next item will get.
				ensureGame(t, s, "other")
				if _, err := s.w.ExecContext(ctx, `INSERT INTO outbox (game_id, n, kind, body, marker, event_seq, created_at)
					VALUES ('other', 1, 'reply', 'x', ?, 0, '2025-01-01T00:00:00.000000000Z')`, Marker(gameKey(t, s, "g"), "g", 2)); err != nil {
					t.Fatal(err)
				}
			},
			undo: `DELETE FROM outbox WHERE game_id = 'other'`,
			commit: func(s *Store) Commit {
				c := moveCommit("g", "2")
				c.Outbox = append(c.Outbox, OutboxItem{Kind: OutboxPM, Recipient: "Вася", Body: "секрет"})
				return c
			},
			wantMsg: "UNIQUE constraint failed: outbox.marker",
			wantPG:  `unique constraint "outbox_marker_key"`,
		},
		{
			name: "flag about an unrecorded post (foreign key) after outbox",
			commit: func(s *Store) Commit {
				c := moveCommit("g", "2")
				c.Flags = []NewFlag{{Source: SourceThread, PostID: "no-such-post", Kind: FlagDispute}}
				return c
			},
			wantMsg: "FOREIGN KEY constraint failed",
			wantPG:  `foreign key constraint "flags_game_id_source_post_id_fkey"`,
		},
		{
			name: "second event fails (trigger)",
			prepare: func(t *testing.T, s *Store) {
				// A trigger that fails the second event of the next commit.
				q := `CREATE TEMP TRIGGER boom BEFORE INSERT ON main.events
					WHEN NEW.seq = 4 BEGIN SELECT RAISE(ABORT, 'boom'); END`
				if s.pg {
					q = `CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$
						BEGIN IF NEW.seq = 4 THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$;
						CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION boom()`
				}
				if _, err := s.w.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			},
			undo:    `DROP TRIGGER temp.boom`,
			undoPG:  `DROP TRIGGER boom ON events`,
			commit:  func(s *Store) Commit { return moveCommit("g", "2") },
			wantMsg: "boom",
		},
		{
			name:    "already judged",
			commit:  func(s *Store) Commit { return moveCommit("g", "1") },
			wantIs:  ErrAlreadyJudged,
			wantMsg: "post g/thread/1 is accepted",
		},
		{
			name: "timer already fired",
			prepare: func(t *testing.T, s *Store) {
				if err := s.Commit(ctx, Commit{Game: "g", At: timer, TimerAt: &timer,
					Events: []game.Record{rec("day_closed", `{}`)}}); err != nil {
					t.Fatal(err)
				}
			},
			commit: func(s *Store) Commit {
				c := moveCommit("g", "2")
				c.TimerAt = &timer
				return c
			},
			wantIs: ErrTimerFired,
		},
		{
			name: "resolving a flag that is not open",
			prepare: func(t *testing.T, s *Store) {
				id, err := s.AddFlag(ctx, NewFlag{Game: "g", Kind: FlagOther})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.ResolveFlag(ctx, Resolution{FlagID: id, State: FlagDismissed, By: "mod"}); err != nil {
					t.Fatal(err)
				}
			},
			commit: func(s *Store) Commit {
				c := moveCommit("g", "2")
				c.Resolve = &Resolution{FlagID: 1, State: FlagAccepted, By: "mod"}
				return c
			},
			wantIs: ErrFlagNotOpen,
		},
		{
			name:   "unknown game",
			commit: func(s *Store) Commit { return moveCommit("nogame", "2") },
			wantIs: ErrNotFound,
		},
		{
			name: "invalid event JSON",
			commit: func(s *Store) Commit {
				c := moveCommit("g", "2")
				c.Events[1].Data = []byte(`{"half":`)
				return c
			},
			wantIs: ErrInvalid,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTest(t)
			ensureGame(t, s, "g")
			if err := s.Commit(ctx, moveCommit("g", "1")); err != nil {
				t.Fatal(err)
			}
			if tc.prepare != nil {
				tc.prepare(t, s)
			}
			before := dump(t, s)
			err := s.Commit(ctx, tc.commit(s))
			if err == nil {
				t.Fatal("commit succeeded, want an error")
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("error %v, want errors.Is %v", err, tc.wantIs)
			}
			want := tc.wantMsg
			if s.pg && tc.wantPG != "" {
				want = tc.wantPG
			}
			if want != "" && !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want it to contain %q", err, want)
			}
			if !strings.HasPrefix(err.Error(), "store: ") {
				t.Errorf("error %q not prefixed with store:", err)
			}
			if after := dump(t, s); after != before {
				t.Errorf("failed commit left changes:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			// The store still works, and the log stays gapless.
			undo := tc.undo
			if s.pg && tc.undoPG != "" {
				undo = tc.undoPG
			}
			if undo != "" {
				if _, err := s.w.ExecContext(ctx, undo); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Commit(ctx, moveCommit("g", "3")); err != nil && !errors.Is(err, ErrTimerFired) {
				t.Fatal(err)
			}
			checkGapless(t, s, "g")
		})
	}
}

func checkGapless(t *testing.T, s *Store, game string) []EventRow {
	t.Helper()
	evs, err := s.Events(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	return evs
}

func TestCommitSeqsGaplessPerGame(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "a")
	ensureGame(t, s, "b")
	// Commits with 0..3 events, interleaved between two games.
	want := map[string]int{}
	for i := range 12 {
		id := []string{"a", "b"}[i%2]
		var evs []game.Record
		for j := range i % 4 {
			evs = append(evs, rec("e", `{"i":`+string(rune('0'+i%10))+`,"j":`+string(rune('0'+j))+`}`))
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		if err := s.Commit(ctx, Commit{Game: id, At: at, Cause: ModeratorCause("mod"), Events: evs}); err != nil {
			t.Fatal(err)
		}
		want[id] += len(evs)
	}
	for game, n := range want {
		evs := checkGapless(t, s, game)
		if len(evs) != n {
			t.Errorf("game %s: %d events, want %d", game, len(evs), n)
		}
		if last, _ := s.LastSeq(ctx, game); last != int64(n) {
			t.Errorf("game %s: last seq %d, want %d", game, last, n)
		}
	}
	// The database itself refuses gaps and rewrites, whoever writes.
	for _, q := range []string{
		`INSERT INTO events (game_id, seq, at, kind, data, cause) VALUES ('a', 100, 'x', 'k', '{}', 'timer')`,
		`INSERT INTO events (game_id, seq, at, kind, data, cause) VALUES ('a', 1, 'x', 'k', '{}', 'timer')`,
		`UPDATE events SET kind = 'forged' WHERE game_id = 'a' AND seq = 1`,
		`DELETE FROM events WHERE game_id = 'a' AND seq = 1`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err == nil {
			t.Errorf("%s: succeeded, want refused", q)
		}
	}
	evs := checkGapless(t, s, "a")
	if len(evs) != want["a"] || evs[0].Kind != "e" {
		t.Errorf("log of a changed: %d events, first %q", len(evs), evs[0].Kind)
	}
}

func TestCommitEventsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	c := moveCommit("g", "7")
	c.Events[0].Data = []byte(`{"z": 1,  "a": "ю\u00e9"}`) // stored byte for byte, not re-encoded
	c.Actor = "Игрок 7"
	c.Reason = "a reason"
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := s.Records(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || len(recs) != 2 {
		t.Fatalf("%d events, %d records", len(evs), len(recs))
	}
	for i, e := range evs {
		if e.Kind != c.Events[i].Kind || !bytes.Equal(e.Data, c.Events[i].Data) {
			t.Errorf("event %d = %s %s, want %s %s", i, e.Kind, e.Data, c.Events[i].Kind, c.Events[i].Data)
		}
		if !bytes.Equal(recs[i].Data, c.Events[i].Data) || recs[i].Kind != c.Events[i].Kind {
			t.Errorf("record %d = %+v", i, recs[i])
		}
		if !e.At.Equal(t0) || e.At.Location() != time.UTC {
			t.Errorf("event %d at %v, want %v in UTC", i, e.At, t0)
		}
		if e.Cause != "post:7" || e.Actor != "Игрок 7" || e.Reason != "a reason" || e.Game != "g" {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	p, ok, err := s.SeenPost(ctx, "g", SourceThread, "7")
	if err != nil || !ok {
		t.Fatalf("post: %v %v", ok, err)
	}
	if p.Verdict != VerdictAccepted || p.JudgedAt.IsZero() || p.TextHash != TextHash("ход 7") || !p.PostedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("post = %+v", p)
	}
	cur, ok, err := s.Cursor(ctx, "g", SourceThread)
	if err != nil || !ok || cur != (forum.Cursor{PostID: "7"}) {
		t.Errorf("cursor = %+v %v %v", cur, ok, err)
	}
	out, err := s.PendingOutbox(ctx, "g")
	if err != nil || len(out) != 1 || out[0].EventSeq != 2 {
		t.Errorf("outbox = %+v %v", out, err)
	}
}

func TestExactlyOnceJudging(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		first  func(s *Store) error // before the commit under test
		commit func(s *Store) Commit
		wantIs error // nil: the commit succeeds
	}{
		{name: "new post", commit: func(s *Store) Commit { return moveCommit("g", "1") }},
		{name: "recorded, pending", first: func(s *Store) error {
			_, _, err := s.RecordPost(ctx, "g", SourceThread, mkPost("1"))
			return err
		}, commit: func(s *Store) Commit { return moveCommit("g", "1") }},
		{name: "judged twice", first: func(s *Store) error { return s.Commit(ctx, moveCommit("g", "1")) },
			commit: func(s *Store) Commit { return moveCommit("g", "1") }, wantIs: ErrAlreadyJudged},
		{name: "ignored, then judged again as a move", first: func(s *Store) error {
			return s.Commit(ctx, Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost("1"), Verdict: VerdictIgnored}})
		}, commit: func(s *Store) Commit { return moveCommit("g", "1") }, wantIs: ErrAlreadyJudged},
		{name: "same id from the PM inbox is another post", first: func(s *Store) error {
			c := moveCommit("g", "1")
			c.Post.Source = SourcePM
			return s.Commit(ctx, c)
		}, commit: func(s *Store) Commit { return moveCommit("g", "1") }},
		{name: "flagged, rejudged without resolving the flag", first: func(s *Store) error {
			return s.Commit(ctx, Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost("1"), Verdict: VerdictFlagged},
				Flags: []NewFlag{{Source: SourceThread, PostID: "1", Kind: FlagUnreadable}}})
		}, commit: func(s *Store) Commit { return moveCommit("g", "1") }, wantIs: ErrAlreadyJudged},
		{name: "flagged, rejudged resolving its flag", first: func(s *Store) error {
			return s.Commit(ctx, Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost("1"), Verdict: VerdictFlagged},
				Flags: []NewFlag{{Source: SourceThread, PostID: "1", Kind: FlagUnreadable}}})
		}, commit: func(s *Store) Commit {
			c := moveCommit("g", "1")
			c.Cause, c.Actor = ModeratorCause("mod"), "mod"
			c.Resolve = &Resolution{FlagID: 1, State: FlagAccepted, By: "mod", Note: "reads as a1-a2"}
			return c
		}},
		{name: "flagged, resolving another post's flag", first: func(s *Store) error {
			if err := s.Commit(ctx, Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost("0"), Verdict: VerdictFlagged},
				Flags: []NewFlag{{Source: SourceThread, PostID: "0", Kind: FlagUnreadable}}}); err != nil {
				return err
			}
			return s.Commit(ctx, Commit{Game: "g", Post: &Judgement{Source: SourceThread, Post: mkPost("1"), Verdict: VerdictFlagged}})
		}, commit: func(s *Store) Commit {
			c := moveCommit("g", "1")
			c.Resolve = &Resolution{FlagID: 1, State: FlagAccepted, By: "mod"}
			return c
		}, wantIs: ErrAlreadyJudged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTest(t)
			ensureGame(t, s, "g")
			if tc.first != nil {
				if err := tc.first(s); err != nil {
					t.Fatal(err)
				}
			}
			before := dump(t, s)
			c := tc.commit(s)
			err := s.Commit(ctx, c)
			if tc.wantIs == nil {
				if err != nil {
					t.Fatal(err)
				}
				p, _, _ := s.SeenPost(ctx, "g", SourceThread, "1")
				if p.Verdict != c.Post.Verdict {
					t.Errorf("verdict %s, want %s", p.Verdict, c.Post.Verdict)
				}
				if c.Resolve != nil {
					f, _ := s.Flag(ctx, c.Resolve.FlagID)
					if f.State != FlagAccepted || f.ResolvedBy != "mod" || f.ResolvedAt.IsZero() {
						t.Errorf("flag = %+v", f)
					}
				}
				return
			}
			if !errors.Is(err, tc.wantIs) {
				t.Fatalf("error %v, want %v", err, tc.wantIs)
			}
			if after := dump(t, s); after != before {
				t.Errorf("refused commit changed the database")
			}
		})
	}
}

func TestTimerFiresOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	if _, ok, _ := s.Clock(ctx, "g"); ok {
		t.Fatal("clock set on a new game")
	}
	day1 := time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)
	day2 := day1.Add(24 * time.Hour)
	steps := []struct {
		at     time.Time
		wantIs error
	}{
		{day1, nil},
		{day1, ErrTimerFired},
		{day1.Add(-time.Nanosecond), ErrTimerFired},
		{day2, nil},
		{day1.Add(time.Hour), ErrTimerFired},
	}
	for i, st := range steps {
		at := st.at
		err := s.Commit(ctx, Commit{Game: "g", At: at, TimerAt: &at, Events: []game.Record{rec("day_closed", `{}`)}})
		if !errors.Is(err, st.wantIs) || (st.wantIs == nil) != (err == nil) {
			t.Fatalf("step %d (%v): error %v, want %v", i, at, err, st.wantIs)
		}
	}
	last, ok, err := s.Clock(ctx, "g")
	if err != nil || !ok || !last.Equal(day2) {
		t.Errorf("clock %v %v %v, want %v", last, ok, err, day2)
	}
	evs := checkGapless(t, s, "g")
	if len(evs) != 2 || evs[0].Cause != TimerCause {
		t.Errorf("events %+v", evs)
	}
}

// A commit decided on an older state of the log (ExpectSeq behind the log's last seq) is refused
// with a typed error and writes nothing; one decided on the current state goes through.
func TestCommitExpectSeq(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	c := moveCommit("g", "1")
	c.ExpectSeq = Expect(0)
	if err := s.Commit(ctx, c); err != nil {
		t.Fatalf("commit on the empty log: %v", err)
	}
	// A moderator's command from another process moved the log to 3 meanwhile.
	mod := Commit{Game: "g", At: t0, Cause: ModeratorCause("Moderator"), Actor: "Moderator",
		Events: []game.Record{rec("paused", `{"by":"Moderator"}`)}, ExpectSeq: Expect(2)}
	if err := s.Commit(ctx, mod); err != nil {
		t.Fatal(err)
	}
	before := dump(t, s)
	stale := moveCommit("g", "2")
	stale.ExpectSeq = Expect(2) // decided before the moderator's event was seen
	err := s.Commit(ctx, stale)
	var lm *LogMovedError
	if !errors.Is(err, ErrLogMoved) || !errors.As(err, &lm) || lm.Expected != 2 || lm.Actual != 3 || lm.Game != "g" {
		t.Fatalf("stale commit: %v (%+v), want a LogMovedError 2 -> 3", err, lm)
	}
	if after := dump(t, s); after != before {
		t.Fatalf("a refused commit wrote:\nbefore\n%s\nafter\n%s", before, after)
	}
	stale.ExpectSeq = Expect(3) // decided again on the current log
	if err := s.Commit(ctx, stale); err != nil {
		t.Fatalf("commit after re-deciding: %v", err)
	}
	if seq, _ := s.LastSeq(ctx, "g"); seq != 5 {
		t.Fatalf("last seq %d, want 5", seq)
	}
	// Without ExpectSeq nothing is checked (timers of a game nobody else writes, tests).
	if err := s.Commit(ctx, Commit{Game: "g", At: t0, Cause: TimerCause, Events: []game.Record{rec("tick", `{}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, Commit{Game: "g", ExpectSeq: Expect(-1)}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative ExpectSeq: %v", err)
	}
}

// A moderator's pause is recorded in the same transaction as its events: a refused commit leaves
// the game unpaused, an accepted one pauses it, a resume clears it.
func TestCommitPause(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	pause := Commit{Game: "g", At: t0, Cause: ModeratorCause("Moderator"), Actor: "Moderator",
		Events: []game.Record{rec("judge.paused", `{"by":"Moderator"}`)}, ExpectSeq: Expect(7),
		Pause: &PauseUpdate{Paused: true, Reason: "разбираемся", By: "Moderator"}}
	if err := s.Commit(ctx, pause); !errors.Is(err, ErrLogMoved) {
		t.Fatalf("stale pause: %v", err)
	}
	if g, _ := s.Game(ctx, "g"); g.Paused {
		t.Fatal("a refused commit paused the game")
	}
	pause.ExpectSeq = Expect(0)
	if err := s.Commit(ctx, pause); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, "g")
	if err != nil || !g.Paused || g.PausedBy != "Moderator" || g.PauseReason != "разбираемся" {
		t.Fatalf("after the pause: %+v %v", g, err)
	}
	resume := Commit{Game: "g", At: t0, Cause: ModeratorCause("Moderator"), Actor: "Moderator",
		Events: []game.Record{rec("judge.resumed", `{"by":"Moderator"}`)}, Pause: &PauseUpdate{By: "Moderator"}}
	if err := s.Commit(ctx, resume); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Game(ctx, "g"); g.Paused {
		t.Fatal("the resume left the game paused")
	}
}
