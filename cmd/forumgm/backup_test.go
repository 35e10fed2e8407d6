package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/store"
)

// forumgm backup copies the store while the daemon (here: a Store holding the lock) has it open.
func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
game:
  id: g1
  kind: crusade
  timezone: Europe/Moscow
  start: "2026-12-01T19:00:00+03:00"
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
store: {path: forumgm.db}
`
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	daemonStore, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer daemonStore.Close()
	if _, err := daemonStore.EnsureGame(ctx, "g1", "crusade", nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "copy.db")
	var stdout, stderr strings.Builder
	if code := run([]string{"backup", "--config", cfgPath, out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "backup written to "+out) {
		t.Errorf("stdout: %q", stdout.String())
	}
	c, err := store.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Game(ctx, "g1"); err != nil {
		t.Errorf("the copy lacks the game: %v", err)
	}
	if code := run([]string{"backup", "--config", cfgPath}, &stdout, &stderr); code == 0 {
		t.Error("backup without a file name succeeded")
	}
}
