package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A password pasted into password_env (instead of a variable's name) is never printed by any
// command that reads the config: at most its first two characters are shown.
func TestPastedPasswordNeverPrinted(t *testing.T) {
	const secret = "Hunter2-SuperSecret-Pw!"
	dir := t.TempDir()
	for _, c := range []struct{ name, cfg string }{
		{"bot", `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: "` + secret + `"}
game: {id: g1, kind: crusade, timezone: Europe/Moscow, start: "2026-12-01T19:00:00+03:00", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
store: {path: forumgm.db}
`},
		{"moderator", `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
game: {id: g1, kind: crusade, timezone: Europe/Moscow, start: "2026-12-01T19:00:00+03:00", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
store: {path: forumgm.db}
review: {listen: "127.0.0.1:0", accounts: [{name: Moderator, password_env: "` + secret + `"}]}
`},
	} {
		path := filepath.Join(dir, c.name+".yaml")
		if err := os.WriteFile(path, []byte(c.cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"check-config", "--config", path},
			{"run", "--config", path},
			{"forum-check", "--config", path},
			{"review", "--config", path, "list"},
			{"backup", "--config", path, filepath.Join(dir, "copy.db")},
		} {
			var stdout, stderr strings.Builder
			code := run(args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code == 0 {
				t.Errorf("%s %v: succeeded with a password in password_env:\n%s", c.name, args, out)
			}
			if strings.Contains(out, secret[2:6]) || !strings.Contains(out, "password_env") {
				t.Errorf("%s %v: the output shows the value or does not name the field:\n%s", c.name, args, out)
			}
		}
	}
}
