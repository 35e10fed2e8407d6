package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"forumgm/store"
)

// check-config warns of a football game with a group of one team: nobody to attack (issue 21,
// item 4); with one group of two teams it says nothing.
func TestCheckConfigFootballNoOpponent(t *testing.T) {
	dir := t.TempDir()
	cfg := dir + "/config.yaml"
	t.Setenv("FORUMGM_TEST_CC_BOT", "x")
	base := `forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: FORUMGM_TEST_CC_BOT}
game:
  kind: football
  teams:
    - {name: Команда 1, captain: Вася}
    - {name: Команда 2, captain: Гоша}
  board: default
  settings:
    first_turn: "2026-12-01T20:00:00+03:00"
`
	for _, c := range []struct {
		extra string
		warn  bool
	}{{"", true}, {"    groups: 1\n", false}} {
		if err := os.WriteFile(cfg, []byte(base+c.extra), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run([]string{"check-config", "--config", cfg}, &out, &errb); code != 0 {
			t.Fatalf("%q: exit %d, stderr %q", c.extra, code, errb.String())
		}
		got := strings.Contains(out.String(), "warning: game") && strings.Contains(out.String(), "settings.groups: 2 teams in 2 groups leaves a group with no opponent")
		if got != c.warn {
			t.Errorf("%q: warned %v, want %v:\n%s", c.extra, got, c.warn, out.String())
		}
	}
}

// games list before the first run creates no game in the store and fixes no start (issue 21,
// item 4): it says the game has not started.
func TestGamesListBeforeRun(t *testing.T) {
	dir := t.TempDir()
	cfg := dir + "/config.yaml"
	t.Setenv("FORUMGM_TEST_CC_BOT", "x")
	src := `forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: FORUMGM_TEST_CC_BOT}
store: {path: forumgm.db}
game:
  kind: crusade
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
`
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"games", "--config", cfg, "list"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "not started yet") {
		t.Errorf("games list:\n%s", out.String())
	}
	st, err := store.Open(context.Background(), dir+"/forumgm.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if gs, err := st.Games(context.Background()); err != nil || len(gs) != 0 {
		t.Errorf("games list registered %d games (%v): the first run must fix the start", len(gs), err)
	}
}
