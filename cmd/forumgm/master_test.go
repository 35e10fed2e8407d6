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

// The game master's powers from the CLI: each logged with who and why and its announcement
// queued; what cannot be done is refused in English with the way out.
func TestReviewCLIMaster(t *testing.T) {
	c := newReviewCLI(t)
	cases := []struct {
		args   []string
		code   int
		out    string // stdout prefix (code 0) or stderr part (code 1)
		kind   string // the last event's kind after it ("" unchanged)
		reason string
	}{
		{[]string{"extend", "2h", "--by", "Moderator"}, 1, "--reason is required", "", ""},
		{[]string{"extend", "two hours", "--by", "Moderator", "--reason", "x"}, 1, "is not a duration", "", ""},
		{[]string{"extend", "5m", "--by", "Moderator", "--reason", "the saracens' connection"}, 0, "deadline extended by 5m0s: 1 event logged, 1 message queued", "judge.extended", "the saracens' connection"},
		{[]string{"holiday", "2030-01-01", "--by", "Moderator", "--reason", "New Year"}, 0, "2030-01-01 declared a holiday: 1 event logged, 1 message queued", "judge.holiday", "New Year"},
		{[]string{"holiday", "2030-01-01", "--by", "Moderator", "--reason", "again"}, 1, "overlaps", "", ""},
		{[]string{"clarify", "--by", "Moderator", "--text", "Лес не мешает стрельбе."}, 0, "clarification posted: 1 event logged, 1 message queued", "judge.moderated", ""},
		{[]string{"length", "12", "--by", "Moderator", "--reason", "longer"}, 1, "no set length", "", ""},
	}
	last := func() (kind, reason string) {
		c.withStore(func(ctx context.Context, st *store.Store) {
			evs, err := st.Events(ctx, "g1")
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) > 0 {
				kind, reason = evs[len(evs)-1].Kind, evs[len(evs)-1].Reason
			}
		})
		return
	}
	for _, k := range cases {
		before, _ := last()
		code, stdout, stderr := c.run(k.args...)
		if code != k.code || (code == 0 && !strings.HasPrefix(stdout, k.out)) || (code != 0 && !strings.Contains(stderr, k.out)) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", k.args, code, stdout, stderr)
			continue
		}
		kind, reason := last()
		if k.kind == "" && kind != before || k.kind != "" && (kind != k.kind || reason != k.reason) {
			t.Errorf("%v: the last event is %s (%q)", k.args, kind, reason)
		}
	}
}
