package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/testkit"
)

// Two daemons on one database: a lease is held by one at a time, renewed by its holder, taken by
// the other only once it expired (with the next token), and the daemon that lost it can write
// nothing more for the game: not a commit, not an outbox mark, not a cursor.
func TestLeasesFenceWrites(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	open := func(owner string) *Store {
		s, err := Open(ctx, loc, Shared(), WithOwner(owner, clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open("daemon-a"), open("daemon-b")
	ensureGame(t, a, "g")
	const ttl = 10 * time.Second

	if err := a.Commit(ctx, moveCommit("g", "0")); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("commit without a lease: %v, want ErrLeaseLost", err)
	}
	la, ok, err := a.Acquire(ctx, "g", ttl)
	if err != nil || !ok || la.Token != 1 {
		t.Fatalf("a acquires: %+v %v %v, want token 1", la, ok, err)
	}
	if lb, ok, err := b.Acquire(ctx, "g", ttl); err != nil || ok || lb.Owner != "daemon-a" {
		t.Fatalf("b acquires a held lease: %+v %v %v, want refused, held by daemon-a", lb, ok, err)
	}
	if err := a.Commit(ctx, moveCommit("g", "1")); err != nil {
		t.Fatalf("holder commits: %v", err)
	}
	clock.Advance(ttl / 2)
	if lost, err := a.RenewAll(ctx, ttl); err != nil || len(lost) != 0 {
		t.Fatalf("renew: lost %v, %v", lost, err)
	}
	clock.Advance(ttl / 2) // renewed: still a's
	if _, ok, _ := b.Acquire(ctx, "g", ttl); ok {
		t.Fatal("b took a renewed lease")
	}
	clock.Advance(ttl) // a is paused past its lease
	lb, ok, err := b.Acquire(ctx, "g", ttl)
	if err != nil || !ok || lb.Token != 2 {
		t.Fatalf("b takes the expired lease: %+v %v %v, want token 2", lb, ok, err)
	}
	before := dump(t, a)
	for name, write := range map[string]func() error{
		"commit":      func() error { return a.Commit(ctx, moveCommit("g", "2")) },
		"mark posted": func() error { return a.MarkPosted(ctx, 1, "p1", clock.Now()) },
		"cursor":      func() error { return a.SetCursor(ctx, "g", SourceThread, cursorAt("9")) },
	} {
		if err := write(); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("%s after losing the lease: %v, want ErrLeaseLost", name, err)
		}
	}
	if _, err := a.RenewAll(ctx, ttl); err != nil { // renews nothing of b's
		t.Fatal(err)
	}
	if after := dump(t, a); after != before {
		t.Fatalf("the daemon that lost its lease changed the database:\n%s\nwas\n%s", after, before)
	}
	if err := b.Commit(ctx, moveCommit("g", "2")); err != nil {
		t.Fatalf("the new holder commits: %v", err)
	}
	if err := b.Release(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if la, ok, err := a.Acquire(ctx, "g", ttl); err != nil || !ok || la.Token != 3 {
		t.Fatalf("a takes the released lease: %+v %v %v, want token 3", la, ok, err)
	}
	ls, err := a.Leases(ctx)
	if err != nil || len(ls) != 1 || ls[0].Owner != "daemon-a" || ls[0].Token != 3 {
		t.Fatalf("leases %+v %v", ls, err)
	}
	if err := a.Heartbeat(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if err := b.Heartbeat(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	ds, err := a.Daemons(ctx, ttl)
	if err != nil || len(ds) != 1 || ds[0].Owner != "daemon-b" {
		t.Fatalf("live daemons %+v %v, want daemon-b alone", ds, err)
	}
}

func cursorAt(id string) forum.Cursor { return forum.Cursor{PostID: id} }

// RenewAll reports the games that changed hands since the last renewal, and renews the others.
func TestRenewAllReportsLost(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	a, err := Open(ctx, loc, Shared(), WithOwner("a", clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, loc, Shared(), WithOwner("b", clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, g := range []string{"g1", "g2"} {
		ensureGame(t, a, g)
		if _, ok, err := a.Acquire(ctx, g, time.Second); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	clock.Advance(2 * time.Second)
	if _, ok, err := b.Acquire(ctx, "g2", time.Second); err != nil || !ok {
		t.Fatal(ok, err)
	}
	lost, err := a.RenewAll(ctx, time.Second)
	if err != nil || len(lost) != 1 || lost[0] != "g2" {
		t.Fatalf("lost %v, %v; want [g2]", lost, err)
	}
	// Renewed for a second: with half a second kept back, half a second to send in.
	if within, err := a.Holds(ctx, "g1", 500*time.Millisecond); err != nil || within != 500*time.Millisecond {
		t.Fatalf("g1 renewed: %v to send, %v; want 500ms", within, err)
	}
	clock.Advance(600 * time.Millisecond)
	if _, err := a.Holds(ctx, "g1", 500*time.Millisecond); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("g1 with 400ms left: %v, want ErrLeaseLost (less than the margin)", err)
	}
	if _, err := a.Holds(ctx, "g2", 0); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("g2: %v, want ErrLeaseLost", err)
	}
}

// A released lease is not renewed by its old holder's next renewal: it stays free for others.
func TestReleasedLeaseStaysFree(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	a, err := Open(ctx, loc, Shared(), WithOwner("a", clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, loc, Shared(), WithOwner("b", clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, g := range []string{"g1", "g2"} {
		ensureGame(t, a, g)
		if _, ok, err := a.Acquire(ctx, g, time.Minute); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	if err := a.Release(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if lost, err := a.RenewAll(ctx, time.Minute); err != nil || len(lost) != 0 {
		t.Fatalf("renew: lost %v, %v", lost, err)
	}
	if l, ok, err := b.Acquire(ctx, "g1", time.Minute); err != nil || !ok || l.Token != 2 {
		t.Fatalf("b takes the released g1: %+v %v %v", l, ok, err)
	}
	if _, ok, err := b.Acquire(ctx, "g2", time.Minute); err != nil || ok {
		t.Fatalf("b took g2, which a renewed: %v %v", ok, err)
	}
}

// Two stores on one database share a host's request slots: together they never get two slots
// closer than the interval, and another host has its own.
func TestReserveSlotShared(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	var stores []*Store
	for _, o := range []string{"a", "b"} {
		s, err := Open(ctx, loc, Shared(), WithOwner(o, clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	var slots []time.Time
	for i := range 6 {
		at, err := stores[i%2].ReserveSlot(ctx, "forum.example.org", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		slots = append(slots, at)
	}
	for i := 1; i < len(slots); i++ {
		if d := slots[i].Sub(slots[i-1]); d != time.Second {
			t.Errorf("slot %d comes %v after the one before, want 1s", i, d)
		}
	}
	if at, err := stores[1].ReserveSlot(ctx, "other.example.org", time.Second); err != nil || !at.Equal(clock.Now()) {
		t.Errorf("another host's first slot %v %v, want now", at, err)
	}
	clock.Advance(time.Minute) // an idle host's next slot is now, not in the past
	if at, err := stores[0].ReserveSlot(ctx, "forum.example.org", time.Second); err != nil || !at.Equal(clock.Now()) {
		t.Errorf("after a quiet minute: slot %v %v, want now", at, err)
	}
}

// A dead daemon's 150 games are taken by one AcquireFree, with the next token each, together
// with the games nobody ever held; the games a live daemon holds are left, a second taker finds
// nothing left, and the dead daemon can write nothing more for the games it lost.
func TestAcquireFreeTakesOrphansAtOnce(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	open := func(owner string) *Store {
		s, err := Open(ctx, loc, Shared(), WithOwner(owner, clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	dead, live, a, b := open("dead"), open("live"), open("a"), open("b")
	const ttl = 3 * time.Second
	const orphans, held, fresh = 150, 20, 10
	var all []string
	for i := range orphans + held + fresh {
		id := fmt.Sprintf("g%03d", i)
		ensureGame(t, dead, id)
		all = append(all, id)
	}
	for i, id := range all[:orphans+held] {
		owner := dead
		if i >= orphans {
			owner = live
		}
		if _, ok, err := owner.Acquire(ctx, id, ttl); err != nil || !ok {
			t.Fatalf("%s: %v %v", id, ok, err)
		}
	}
	if ls, err := a.AcquireFree(ctx, all, ttl); err != nil || len(ls) != fresh {
		t.Fatalf("before the leases expire: took %d (%v), want only the %d never held", len(ls), err, fresh)
	}
	clock.Advance(ttl)
	for _, s := range []*Store{live, a} {
		if _, err := s.RenewAll(ctx, ttl); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := b.AcquireFree(ctx, all, ttl)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != orphans {
		t.Fatalf("took %d games, want the dead daemon's %d", len(ls), orphans)
	}
	for i, l := range ls {
		if l.Game != all[i] || l.Owner != "b" || l.Token != 2 || !l.Expires.Equal(clock.Now().Add(ttl)) {
			t.Fatalf("lease %d: %+v, want %s, b's, token 2, until now+ttl", i, l, all[i])
		}
		if _, err := b.Holds(ctx, l.Game, ttl); err != nil {
			t.Fatalf("b does not hold %s: %v", l.Game, err)
		}
	}
	if ls, err := a.AcquireFree(ctx, all, ttl); err != nil || len(ls) != 0 {
		t.Fatalf("a second taker got %+v (%v), want nothing", ls, err)
	}
	if err := dead.Commit(ctx, moveCommit(all[0], "1")); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the dead daemon commits after the takeover: %v, want ErrLeaseLost", err)
	}
	if err := b.Commit(ctx, moveCommit(all[0], "1")); err != nil {
		t.Fatalf("the new holder commits: %v", err)
	}
	if ls, err := a.AcquireFree(ctx, []string{"nosuchgame"}, ttl); err != nil || len(ls) != 0 {
		t.Fatalf("an unregistered game: %+v %v, want nothing taken", ls, err)
	}
}

// Two daemons taking the same 200 orphans at the same moment: each game goes to exactly one.
func TestAcquireFreeRace(t *testing.T) {
	ctx := context.Background()
	_, loc := openTest(t)
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	var stores []*Store
	for _, owner := range []string{"dead", "a", "b"} {
		s, err := Open(ctx, loc, Shared(), WithOwner(owner, clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	var all []string
	for i := range 200 {
		id := fmt.Sprintf("g%03d", i)
		ensureGame(t, stores[0], id)
		all = append(all, id)
	}
	if ls, err := stores[0].AcquireFree(ctx, all, time.Second); err != nil || len(ls) != len(all) {
		t.Fatalf("%d %v", len(ls), err)
	}
	clock.Advance(2 * time.Second)
	got := make([][]Lease, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			// Each asks for the games in its own order, as rendezvous hashing gives them.
			mine := slices.Clone(all)
			if i == 1 {
				slices.Reverse(mine)
			}
			for len(got[i]) < len(all) && errs[i] == nil {
				var ls []Lease
				ls, errs[i] = stores[1+i].AcquireFree(ctx, mine, time.Minute)
				got[i] = append(got[i], ls...)
				if len(ls) == 0 {
					break
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, ls := range got {
		for _, l := range ls {
			seen[l.Game]++
		}
	}
	for _, id := range all {
		if seen[id] != 1 {
			t.Fatalf("%s taken %d times (a %d games, b %d)", id, seen[id], len(got[0]), len(got[1]))
		}
	}
	t.Logf("a took %d, b took %d", len(got[0]), len(got[1]))
}
