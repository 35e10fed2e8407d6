package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"forumgm/sandbox"
)

// indent moves a game section written for a single-game config's game: (two spaces) into a games:
// list item (four).
func indent(section string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(section, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString("  ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// daemonRun is a test's `forumgm run` child process: its output (written while the test reads)
// and its end.
type daemonRun struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan error
}

// startDaemon runs the binary on the config in the test environment (the bot's password in
// FORUMGM_TEST_BOT_PW, the clock read from clockPath, fast polls, no rate limit); it is stopped
// (SIGTERM, then killed) when the test ends.
func startDaemon(t *testing.T, bin, cfgPath, clockPath string) *daemonRun {
	t.Helper()
	cmd := exec.Command(bin, "run", "--config", cfgPath)
	cmd.Env = append(os.Environ(), "FORUMGM_TEST_BOT_PW=bot-secret-pw-1", "FORUMGM_TEST_CLOCK_FILE="+clockPath,
		"FORUMGM_TEST_POLL=20ms", "FORUMGM_TEST_FAST_HTTP=1", "FORUMGM_TEST_RESCAN=1h",
		"FORUMGM_TEST_FIXED_CHANCE=1") // scripted games fix their dice
	d := &daemonRun{cmd: cmd, out: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = d.out, d.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	return d
}

// waitFor waits up to 30 s for ok, failing the test when the daemon exits first.
func (d *daemonRun) waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		select {
		case err := <-d.exited:
			t.Fatalf("daemon exited (%v) while waiting for %s:\n%s", err, what, d.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; daemon output:\n%s", what, d.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestGamesInOneDaemon runs a several-game config in one daemon process (a Crusade and a
// Dragonball game on one board, one bot account), then adds a third game with `forumgm games
// add` (the daemon reloads on SIGHUP and opens it), ends and archives it, and checks that the
// other games were left alone throughout.
func TestGamesInOneDaemon(t *testing.T) {
	bin := buildBinary(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, mskZone)
	clockPath := filepath.Join(dir, "clock")
	if err := os.WriteFile(clockPath, []byte(start.Format(time.RFC3339)), 0o644); err != nil {
		t.Fatal(err)
	}
	users := []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"}}
	for i, p := range append([]string{"Джелу", "snovaya", "Вася", "Петя"}, dragonballCrash.players...) {
		users = append(users, sandbox.User{Name: p, Password: fmt.Sprintf("p-%d", i)})
	}
	board, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: func() time.Time { return start },
		Location: mskZone, Users: users, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Threads: []sandbox.Thread{
			{Subject: "Крестовый поход", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры 1."}}},
			{Subject: "Драконбол", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры 2."}}},
			{Subject: "Крестовый поход 2", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры 3."}}},
		}})
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := fmt.Sprintf(`# two games on one board
forums:
  main: {url: %q, dialect: mybb, timezone: Europe/Moscow, bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}}
moderators: [Moderator]
games:
  - id: crusade-a
    kind: crusade
    forum: main
    thread: "1"
    start: %q
    timezone: Europe/Moscow
    roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
  - id: dragon-b
    kind: dragonball
    forum: main
    thread: "2"
    start: %q
%sstore: {path: forumgm.db}
ops: {log_format: json, log_level: debug}
`, url+"/", start.Format(time.RFC3339), start.Format(time.RFC3339), indent(dragonballCrash.section))
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, bin, cfgPath, clockPath)
	botPosts := func(tid int) []string {
		ps, err := board.Posts(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, p := range ps {
			if p.Author == "gm-bot" {
				texts = append(texts, p.Message)
			}
		}
		return texts
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		d.waitFor(t, what, ok)
	}
	waitFor("both opening posts", func() bool { return len(botPosts(1)) == 1 && len(botPosts(2)) >= 1 })
	before2 := botPosts(2)
	if len(botPosts(3)) != 0 {
		t.Fatal("the third thread has a bot post before its game exists")
	}
	games := func(args ...string) string {
		t.Helper()
		var o, e strings.Builder
		if code := run(append([]string{"games", "--config", cfgPath}, args...), &o, &e); code != 0 {
			t.Fatalf("games %v: exit %d: %s%s", args, code, o.String(), e.String())
		}
		return o.String()
	}
	list := games("list")
	for _, want := range []string{"daemon: running (pid ", "crusade-a", "dragon-b", "running"} {
		if !strings.Contains(list, want) {
			t.Errorf("games list lacks %q:\n%s", want, list)
		}
	}

	// A third game, added while the others run.
	gameFile := filepath.Join(dir, "third.yaml")
	if err := os.WriteFile(gameFile, []byte(fmt.Sprintf(`id: crusade-c
kind: crusade
forum: main
thread: "3"
start: %q
roster: [{name: Вася, side: crusaders}, {name: Петя, side: saracens}]
`, start.Format(time.RFC3339))), 0o644); err != nil {
		t.Fatal(err)
	}
	added := games("add", gameFile)
	if !strings.Contains(added, "added game crusade-c") || !strings.Contains(added, "reloads its config") {
		t.Fatalf("games add: %s", added)
	}
	if b, _ := os.ReadFile(cfgPath); !strings.Contains(string(b), "# two games on one board") || !strings.Contains(string(b), "crusade-c") {
		t.Fatalf("config after add (comments kept, game added):\n%s", b)
	}
	waitFor("the added game's opening post", func() bool { return len(botPosts(3)) == 1 })
	if p := botPosts(3)[0]; !strings.Contains(p, "fgm-crusade-c-1-") || !strings.Contains(p, "Ходят крестоносцы") {
		t.Errorf("the third thread's post is not crusade-c's opening post:\n%s", p)
	}

	// An invalid addition changes nothing.
	if err := os.WriteFile(gameFile, []byte("id: crusade-c\nkind: crusade\nforum: main\nthread: \"9\"\nroster: [{name: X, side: crusaders}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e strings.Builder
	if code := run([]string{"games", "--config", cfgPath, "add", gameFile}, &o, &e); code == 0 || !strings.Contains(e.String(), "is also games[2]'s id") {
		t.Fatalf("a second crusade-c was added: %d %s %s", code, o.String(), e.String())
	}

	// End the third game, then archive it; the daemon stops its loop.
	if res := games("end", "crusade-c", "--by", "Moderator", "--reason", "тестовая партия"); !strings.Contains(res, "end done") {
		t.Fatalf("games end: %s", res)
	}
	waitFor("the end of the third game posted", func() bool { return len(botPosts(3)) >= 2 })
	if res := games("archive", "crusade-c"); !strings.Contains(res, "archived game crusade-c") {
		t.Fatalf("games archive: %s", res)
	}
	waitFor("the loop of the archived game stopped", func() bool {
		for _, l := range strings.Split(d.out.String(), "\n") {
			if strings.Contains(l, `"game":"crusade-c"`) && strings.Contains(l, "game loop stopped") {
				return true
			}
		}
		return false
	})
	list = games("list")
	if !strings.Contains(list, "crusade-c") || !strings.Contains(list, "archived") {
		t.Errorf("games list after archive:\n%s", list)
	}
	// The other games were left alone.
	if got := botPosts(1); len(got) != 1 {
		t.Errorf("crusade-a got %d bot posts", len(got))
	}
	if got := botPosts(2); len(got) != len(before2) {
		t.Errorf("dragon-b got %d bot posts, had %d", len(got), len(before2))
	}
}
