package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/sandbox"
)

// forum-check compares the newest stamp with this host's clock: a forum.timezone three hours off
// the board's (the board shows Moscow time, the config says UTC) puts the stamps in the future;
// the check fails naming the likely cause. With the right zone it passes.
func TestForumCheckClock(t *testing.T) {
	dir := t.TempDir()
	msk := time.FixedZone("MSK", 3*3600)
	_, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Location: msk,
		Users:   []sandbox.User{{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}, {Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "botpw"}},
		Threads: []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: "Тема игры."}}}}})
	t.Setenv("FORUMGM_TEST_FC_PW", "botpw")
	write := func(zone string) string {
		p := filepath.Join(dir, "game.yaml")
		src := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: %s, extra: {rate: "50"}}
bot: {username: gm-bot, password_env: FORUMGM_TEST_FC_PW}
moderators: [Moderator]
game:
  kind: crusade
  roster: [{name: джелу, side: crusaders}, {name: snovaya, side: saracens}]
`, url+"/", zone)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var out, errb bytes.Buffer
	if code := run([]string{"forum-check", "--config", write("Europe/Moscow")}, &out, &errb); code != 0 || !strings.Contains(out.String(), "clock: the newest post") {
		t.Fatalf("the right zone: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"forum-check", "--config", write("UTC")}, &out, &errb); code != 1 ||
		!strings.Contains(out.String(), "clock: error") || !strings.Contains(errb.String(), "forum.timezone is likely wrong") {
		t.Fatalf("a zone 3 hours off: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}
