package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Issue 19 items 5 and 6 on the real binary: the operator restores an older backup as
// docs/operations.md says (forumgm backup, then the copy put back while the daemon is stopped), or
// loses the store. Nothing is posted twice, deadlines count from the real posts, and a lost store
// never opens a second game in the thread.

// storeFiles are the world's database and its -wal and -shm files.
func (w *crashWorld) storeFiles() []string {
	db := filepath.Join(w.dir, "forumgm.db")
	return []string{db, db + "-wal", db + "-shm"}
}

// deleteStore removes the world's database files.
func (w *crashWorld) deleteStore(t *testing.T) {
	t.Helper()
	for _, f := range w.storeFiles() {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

func TestCrashOlderBackupRestored(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	base := newCrashWorld(t, ctx, &crusadeCrash)
	if out, err := base.child(t, bin, "", 0, base.finishedFn(t)); err != nil && !base.finished(t) {
		t.Fatalf("baseline run: %v\n%s", err, out)
	}
	want := base.result(t)

	w := newCrashWorld(t, ctx, &crusadeCrash)
	// The daemon runs a while (the opening and a reply posted), the nightly backup is taken beside
	// it, and it runs on to the end of the evening.
	if out, err := w.child(t, bin, "posted:2", 0, nil); err == nil || !strings.Contains(out, "test hook: exiting") {
		t.Fatalf("the first run did not stop at its second post: %v\n%s", err, out)
	}
	backup := filepath.Join(w.dir, "backup.db")
	if out, err := exec.Command(bin, "backup", "--config", w.cfgPath, backup).CombinedOutput(); err != nil {
		t.Fatalf("forumgm backup: %v\n%s", err, out)
	}
	if out, err := w.child(t, bin, "", 0, w.finishedFn(t)); err != nil && !w.finished(t) {
		t.Fatalf("the run after the backup: %v\n%s", err, out)
	}
	// The daemon is stopped, the backup put back, and the daemon started again ten minutes
	// later: a reply posted again would state (and count) its deadline from then.
	w.deleteStore(t)
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.storeFiles()[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	w.set(t, crusadeCrash.until.Add(10*time.Minute))
	out, err := w.child(t, bin, "", 0, w.finishedFn(t))
	if !w.finished(t) {
		t.Fatalf("the restored store did not catch up (%v):\n%s", err, out)
	}
	if !strings.Contains(out, "an older backup restored?") {
		t.Errorf("the catch-up is not logged:\n%s", out)
	}
	// The result counts every marker: a reply or private message twice is an error. The
	// deadlines the replies started count from when they were really posted (the final state).
	sameAsUninterrupted(t, want, w.result(t))
}

func TestCrashStoreDeleted(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	w := newCrashWorld(t, ctx, &crusadeCrash)
	// The store is deleted under the running daemon once it has posted a few replies.
	deleted := false
	out, err := w.child(t, bin, "", 0, func() bool {
		if !deleted && len(w.botPosts(t)) >= 3 {
			w.deleteStore(t)
			deleted = true
		}
		return false
	})
	if !deleted {
		t.Fatalf("the daemon ended before the store was deleted: %v\n%s", err, out)
	}
	if err == nil || !strings.Contains(out, `"level":"error"`) || !strings.Contains(out, "was deleted") || !strings.Contains(out, "the game stops") {
		t.Fatalf("the daemon did not stop loudly (%v):\n%s", err, out)
	}
	posts := w.botPosts(t)
	opening := ""
	for _, p := range posts {
		if strings.Contains(p.text, "Крестовый поход начинается!") {
			opening = strconv.Itoa(p.pid)
		}
	}
	if opening == "" {
		t.Fatalf("no opening post in the thread")
	}

	// Started again on a new (empty) store: it refuses to open a second game in the thread.
	out, err = w.child(t, bin, "", 0, nil)
	if err == nil {
		t.Fatalf("the daemon started a second game:\n%s", out)
	}
	if !strings.Contains(out, "post "+opening) || !strings.Contains(out, "opening post") || !strings.Contains(out, "from another store") {
		t.Errorf("the error does not name the opening post %s:\n%s", opening, out)
	}
	if n := len(w.botPosts(t)); n != len(posts) {
		t.Errorf("the bot posted %d more posts in the thread", n-len(posts))
	}
}

// crashPostOf is a post of the bot in the world's thread.
type crashPostOf struct {
	pid  int
	text string
}

// botPosts lists the bot's posts in the thread (after the seed post), in order.
func (w *crashWorld) botPosts(t *testing.T) []crashPostOf {
	t.Helper()
	posts, err := w.board.Posts(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []crashPostOf
	for _, p := range posts {
		if p.Author == "gm-bot" && p.PID != 1 {
			out = append(out, crashPostOf{p.PID, p.Message})
		}
	}
	return out
}

// A daemon of two games whose store is new while one game's thread already holds that game's
// opening post from another store: that game refuses to start, says so on /healthz, and the other
// game plays its evening to the end.
func TestFleetSecondGameRefusedOthersRunOn(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	w := newFleetWorld(t, ctx, []*crashGame{&crusadeCrash, &dragonballCrash})
	crusade, dragonball := w.games[0], w.games[1]
	// The bot's opening post of the dragonball game from a store that is gone.
	pid, _, err := w.board.Reply(ctx, "gm-bot", dragonball.tid,
		"[b]Драконбол начинается[/b]\n[size=1][color=#b0b0b0]fgm-dragonball-1-0123456789ab[/color][/size]")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ops := ln.Addr().String()
	ln.Close()
	cfg, err := os.ReadFile(w.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = []byte(strings.Replace(string(cfg), "ops: {", "ops: {listen: "+ops+", ", 1))
	if err := os.WriteFile(w.cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	healthz := ""
	out, err := w.child(t, bin, "", 0, func() bool {
		resp, err := http.Get("http://" + ops + "/healthz")
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		healthz = fmt.Sprintf("%d %s", resp.StatusCode, b)
		return resp.StatusCode == http.StatusServiceUnavailable && strings.Contains(healthz, "stopped_games") &&
			w.gamesFinished(t, crusade)
	})
	if err != nil && !strings.Contains(err.Error(), "signal") && !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("the daemon: %v\n%s", err, out)
	}
	if !w.gamesFinished(t, crusade) {
		t.Fatalf("the other game did not play on:\n%s", out)
	}
	if !strings.Contains(healthz, "dragonball") || !strings.Contains(healthz, "post "+strconv.Itoa(pid)) {
		t.Errorf("/healthz does not report the refused game and its post %d: %s", pid, healthz)
	}
	posts, err := w.board.Posts(ctx, dragonball.tid)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		if p.Author == "gm-bot" && p.PID != pid && p.PID != posts[0].PID {
			t.Errorf("the refused game posted in its thread: %s", p.Message)
		}
	}
}
