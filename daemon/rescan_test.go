package daemon

import (
	"database/sql"
	"strconv"
	"testing"
	"time"

	"forumgm/store"
)

// A move post missing from one rescan is not flagged as deleted (a page may have been served stale
// or incomplete); it is flagged, once, when the next rescan misses it too.
func TestVanishedPostFlaggedOnlyWhenASecondReadConfirms(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	board, err := sql.Open("sqlite3", r.dir+"/board.db")
	if err != nil {
		t.Fatal(err)
	}
	defer board.Close()
	// hide moves the post out of the thread (to a thread nobody reads) or back.
	hide := func(gone bool) {
		tid := 1
		if gone {
			tid = 999
		}
		if _, err := board.ExecContext(r.ctx, `UPDATE posts SET tid = ? WHERE pid = ?`, tid, pid); err != nil {
			t.Fatal(err)
		}
	}
	deleted := func() int {
		flags, err := r.st.OpenFlags(r.ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range flags {
			if f.Kind == store.FlagDeleted && f.PostID == strconv.Itoa(pid) {
				n++
			}
		}
		return n
	}
	rescan := func() {
		r.clock.Advance(2 * time.Minute) // past the rescan interval
		r.cycle(t)
	}
	hide(true)
	rescan()
	if n := deleted(); n != 0 {
		t.Fatalf("flagged after one read without the post: %d flags", n)
	}
	hide(false)
	rescan() // back: the count starts again
	hide(true)
	rescan()
	if n := deleted(); n != 0 {
		t.Fatalf("flagged after misses that were not in a row: %d flags", n)
	}
	rescan()
	rescan()
	if n := deleted(); n != 1 {
		t.Fatalf("after two rescans in a row without the post: %d flags, want 1", n)
	}
	if rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid)); rec.VanishedAt.IsZero() {
		t.Error("the post is not marked vanished")
	}
}

// A rescan reads the thread from the oldest recent move post on; move posts older than Recent
// are read again only every RescanAll, so the cost of the regular rescan does not grow with the
// thread.
func TestRescanReadsRecentPostsOftenOlderOnesRarely(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.d.o.Recent, r.d.o.RescanAll = 3*time.Hour, 24*time.Hour
	r.cycle(t)
	old := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	// Many posts later (pages of chatter), a recent move.
	for i := range 30 {
		r.clock.Advance(10 * time.Minute)
		r.post(t, "snovaya", "болтовня "+strconv.Itoa(i))
	}
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "2-й ход крестоносца к2 на L16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	r.d.lastAll = r.clock.Now() // the rare whole rescan just happened
	board, err := sql.Open("sqlite3", r.dir+"/board.db")
	if err != nil {
		t.Fatal(err)
	}
	defer board.Close()
	if _, err := board.ExecContext(r.ctx, `UPDATE posts SET message = ? WHERE pid = ?`, "1-й ход крестоносца к1 на K15", old); err != nil {
		t.Fatal(err)
	}
	edited := func() int {
		flags, err := r.st.OpenFlags(r.ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range flags {
			if f.Kind == store.FlagEdited && f.PostID == strconv.Itoa(old) {
				n++
			}
		}
		return n
	}
	r.clock.Advance(11 * time.Minute)
	r.cycle(t)
	if n := edited(); n != 0 {
		t.Fatalf("a regular rescan read the old move post (%d flags): its cost grows with the thread", n)
	}
	r.clock.Advance(24 * time.Hour)
	r.cycle(t)
	if n := edited(); n != 1 {
		t.Fatalf("the daily rescan of every move post did not find the edit: %d flags", n)
	}
}
