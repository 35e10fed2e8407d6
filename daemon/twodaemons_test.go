package daemon

import (
	"strconv"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/store"
)

// Two daemons on one store (the store's lock keeps a second daemon process out; this is what
// happened before it, and what a daemon meets when a commit of its own is refused): while daemon
// B decides a post, another writer judges it first. B's commit is refused as already judged,
// which drops B's referee; B goes on with the next post on a rebuilt referee, never a nil one
// (that was a panic), and nothing is judged or posted twice.
func TestSecondDaemonLosingTheRaceKeepsItsReferee(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t) // A starts the game
	r.clock.Advance(time.Minute)
	p1 := r.post(t, "Джелу", "просто болтовня")
	r.post(t, "snovaya", "ещё болтовня")
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	raced := false
	b := r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Hook = func(step string) {
			if step == "decided" && !raced {
				raced = true
				posts, _, err := r.fo.Posts(r.ctx, forum.Thread{ID: "1"}, forum.Cursor{})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range posts {
					if p.ID == strconv.Itoa(p1) {
						c := store.Commit{Game: "g1", At: p.Time, Post: &store.Judgement{Source: store.SourceThread, Post: p, Verdict: store.VerdictIgnored},
							Cursor: &store.CursorUpdate{Source: store.SourceThread, Cursor: forum.Cursor{PostID: p.ID}}}
						if err := r.st.Commit(r.ctx, c); err != nil {
							t.Errorf("the other writer: %v", err)
						}
					}
				}
			}
		}
	})
	if _, err := b.Cycle(r.ctx); err != nil {
		t.Logf("daemon B's cycle: %v", err)
	}
	if !raced {
		t.Fatal("daemon B decided nothing")
	}
	r.d = b
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if b.Referee() == nil {
		t.Error("daemon B is left without a referee")
	}
	order := assertExactlyOnce(t, r)
	if len(order) != 2 { // the start and the move (the chatter gets no reply)
		t.Errorf("markers in the thread: %v", order)
	}
}

// Two daemons start the same game: B decides the opening, A commits its opening first, B's
// commit is refused (the timer fired), which drops B's referee; B's cycle goes on to read the
// thread with a rebuilt referee instead of panicking on a nil one.
func TestSecondDaemonStartingLateKeepsItsReferee(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	quiet := fakeWith(func(f *fakeRules) { f.quiet = true })
	a := r.newDaemon(t, quiet)
	raced := false
	b := r.newDaemon(t, fakeWith(func(f *fakeRules) {
		f.quiet = true
		f.onStart = func() {
			if !raced {
				raced = true
				if _, err := a.Cycle(r.ctx); err != nil {
					t.Errorf("daemon A: %v", err)
				}
				r.clock.Advance(time.Minute)
				r.post(t, "Джелу", "1-й ход крестоносца к1 на K16") // for B to read
			}
		}
	}))
	if _, err := b.Cycle(r.ctx); err != nil {
		t.Errorf("daemon B's cycle: %v", err)
	}
	if !raced || b.Referee() == nil {
		t.Errorf("raced %v, B's referee %v", raced, b.Referee())
	}
	r.d = b
	order := assertExactlyOnce(t, r)
	if len(order) != 2 { // A's opening and the move's reply
		t.Errorf("markers in the thread: %v", order)
	}
}
