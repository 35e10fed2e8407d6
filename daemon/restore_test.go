package daemon

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/ops"
	"forumgm/store"
)

// Issue 19 items 5 and 6: a store restored from an older backup, or deleted, never makes the
// daemon post twice or open a second game in the thread, and a store deleted under the daemon
// stops it loudly.

// replaceStore closes the rig's store, puts src (a backup; "" for none: the store is deleted) in
// its place and opens it again, as an operator restoring a backup (or losing the file) and
// starting the daemon again does.
func (r *rig) replaceStore(t *testing.T, src string) {
	t.Helper()
	if err := r.st.Close(); err != nil {
		t.Fatal(err)
	}
	path := r.dir + "/forumgm.db"
	removeStore(t, path)
	if src != "" {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(r.ctx, path, store.WithClock(r.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	r.st = st
	r.fo = newForum(t, r.url, r.clock) // a new process: nothing read before is remembered
}

// removeStore deletes a database and its -wal and -shm files.
func removeStore(t *testing.T, path string) {
	t.Helper()
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

func TestOlderBackupRestoredCatchesUpFromTheThread(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t) // the opening post
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.cycle(t)
	backup := r.dir + "/backup.db"
	if err := r.st.Backup(r.ctx, backup); err != nil {
		t.Fatal(err)
	}
	// After the backup: a move, a private message, a refusal, each answered.
	r.clock.Advance(time.Minute)
	r.post(t, "snovaya", "1-й ход сарацина в1 на E6")
	if err := r.board.SendPM(r.ctx, "snovaya", "gm-bot", "ЛС", "распределение: с1 в резерве"); err != nil {
		t.Fatal(err)
	}
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "плохой ход")
	r.cycle(t)
	want := r.botTexts(t)
	wantPMs := botPMsTo(t, r, "snovaya")
	if len(want) != 4 || len(wantPMs) != 1 { // the seed post with the opening merged in, three replies
		t.Fatalf("before the restore: %d bot posts, %d private messages", len(want), len(wantPMs))
	}
	posted := map[string]time.Time{} // by marker: when the reply went out
	for _, it := range outboxItems(t, r) {
		posted[it.Marker] = it.PostedAt
	}

	// The operator restores the backup and starts the daemon again, an hour later.
	r.replaceStore(t, backup)
	r.clock.Advance(time.Hour)
	restart := r.clock.Now()
	r.d = r.newDaemon(t, fakeFactory, func(o *Options) { o.Start = start })
	r.cycle(t)
	r.clock.Advance(time.Minute)
	r.cycle(t)

	assertExactlyOnce(t, r)
	if got := r.botTexts(t); strings.Join(got, "\n===\n") != strings.Join(want, "\n===\n") {
		t.Errorf("the thread changed after the restore:\n--- want\n%s\n--- got\n%s", strings.Join(want, "\n===\n"), strings.Join(got, "\n===\n"))
	}
	if got := botPMsTo(t, r, "snovaya"); len(got) != 1 {
		t.Errorf("the private message arrived %d times: %q", len(got), got)
	}
	// What was found posted is marked posted at the forum's time (to the minute), not the restart.
	items := outboxItems(t, r)
	for _, it := range items {
		if it.State != store.OutboxPosted {
			t.Errorf("outbox %d (%s) is %s", it.ID, it.Marker, it.State)
		}
		was, ok := posted[it.Marker]
		if !ok {
			t.Errorf("outbox %d has a marker the first run never made: %s", it.ID, it.Marker)
			continue
		}
		if d := it.PostedAt.Sub(was); d < -time.Minute || d > time.Minute || !it.PostedAt.Before(restart) {
			t.Errorf("outbox %d (%s) posted at %v, want the forum's time %v", it.ID, it.Marker, it.PostedAt, was)
		}
	}
	if len(items) != len(posted) {
		t.Errorf("%d outbox items after the restore, %d before", len(items), len(posted))
	}
	if !strings.Contains(r.log.String(), "an older backup restored?") {
		t.Errorf("the catch-up is not logged:\n%s", r.log.String())
	}
}

// outboxItems lists the rig's outbox items, in the order they were queued.
func outboxItems(t *testing.T, r *rig) []store.OutboxRow {
	t.Helper()
	var out []store.OutboxRow
	for id := int64(1); ; id++ {
		it, err := r.st.Outbox(r.ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
}

// botPMsTo lists the private messages the bot sent to user.
func botPMsTo(t *testing.T, r *rig, user string) []string {
	t.Helper()
	pms, err := r.board.PMs(r.ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, pm := range pms {
		if pm.From == "gm-bot" && pm.Folder == 1 {
			out = append(out, pm.Message)
		}
	}
	return out
}

func TestStoreDeletedUnderTheDaemonStopsIt(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	health := ops.NewHealth(r.clock.Now, time.Hour)
	cycles := 0
	d := r.newDaemon(t, fakeFactory, func(o *Options) {
		o.Health = health
		o.Hook = func(step string) {
			if step != "cycle" {
				return
			}
			if cycles++; cycles == 2 {
				removeStore(t, r.dir+"/forumgm.db")
			}
		}
	})
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	err := d.Run(ctx)
	if !errors.Is(err, store.ErrFileGone) || !strings.Contains(err.Error(), "was deleted") {
		t.Fatalf("Run: %v, want the store's file gone", err)
	}
	if cycles > 3 {
		t.Errorf("the daemon ran %d cycles: it did not stop at once", cycles)
	}
	if !strings.Contains(r.log.String(), `"level":"error"`) || !strings.Contains(r.log.String(), "the game stops") {
		t.Errorf("no error-level line says the game stops:\n%s", r.log.String())
	}
	rec := httptest.NewRecorder()
	health.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 503 || !strings.Contains(string(body), "stopped_games") || !strings.Contains(string(body), "was deleted") {
		t.Errorf("/healthz: %d %s", rec.Code, body)
	}
}

func TestStoreReplacedUnderTheDaemonStopsIt(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	backup := r.dir + "/backup.db"
	if err := r.st.Backup(r.ctx, backup); err != nil {
		t.Fatal(err)
	}
	// A backup moved into place under the running daemon (another inode at the path).
	if err := os.Rename(backup, r.dir+"/forumgm.db"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Minute)
	_, err := r.d.Cycle(r.ctx)
	if !errors.Is(err, store.ErrFileGone) || !strings.Contains(err.Error(), "replaced") {
		t.Fatalf("cycle: %v, want the store's file replaced", err)
	}
	if !stopsGame(err) {
		t.Errorf("%v does not stop the game", err)
	}
}

func TestDeletedStoreDoesNotOpenASecondGame(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	// Markers that are not this game's own do not stop its first start: a player's copy of one,
	// and the bot's post of another game in the same thread.
	r.post(t, "Джелу", "fgm-g1-1-0123456789ab")
	if _, _, err := r.board.Reply(r.ctx, "gm-bot", 1, "Прошлая игра окончена.\nfgm-g0-7-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	r.cycle(t) // the opening post
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.cycle(t)
	posts, err := r.board.Posts(r.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	opening := ""
	for _, p := range posts {
		if p.Author == "gm-bot" && strings.Contains(p.Message, "Игра началась") {
			opening = strconv.Itoa(p.PID)
		}
	}
	if opening == "" {
		t.Fatal("no opening post")
	}

	// The store is deleted; the daemon starts on a new one.
	r.replaceStore(t, "")
	r.clock.Advance(time.Minute)
	health := ops.NewHealth(r.clock.Now, time.Hour)
	d := r.newDaemon(t, fakeFactory, func(o *Options) { o.Health = health })
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	err = d.Run(ctx)
	var second *SecondGameError
	if !errors.As(err, &second) || !errors.Is(err, ErrSecondGame) {
		t.Fatalf("Run: %v, want a second game refused", err)
	}
	if second.Post.ID != opening || !strings.Contains(err.Error(), "post "+opening) || !strings.Contains(err.Error(), "opening post") {
		t.Errorf("the error does not name the opening post %s: %v", opening, err)
	}
	n := 0
	for _, text := range r.botTexts(t) {
		n += strings.Count(text, "Игра началась")
	}
	if n != 1 {
		t.Errorf("%d opening posts in the thread", n)
	}
	if _, ok, err := r.st.Clock(r.ctx, "g1"); err != nil || ok {
		t.Errorf("the new store started the game (%v)", err)
	}
	rec := httptest.NewRecorder()
	health.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if body, _ := io.ReadAll(rec.Body); rec.Code != 503 || !strings.Contains(string(body), "post "+opening) {
		t.Errorf("/healthz: %d %s", rec.Code, body)
	}
}
