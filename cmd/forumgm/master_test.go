package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
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
