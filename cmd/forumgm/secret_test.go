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

// A password typed into password_env that passes for a variable's name (letters and digits
// only) is not printed either when no such variable is set, and check-config fails on it,
// naming the field (issue 19).
func TestSecretLikePasswordNeverPrinted(t *testing.T) {
	const secret = "Hunter2SuperSecretPw"
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	cfg := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: ` + secret + `}
game: {id: g1, kind: crusade, timezone: Europe/Moscow, start: "2026-12-01T19:00:00+03:00", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
store: {path: forumgm.db}
`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check-config", "--config", path},
		{"run", "--config", path},
		{"forum-check", "--config", path},
	} {
		var stdout, stderr strings.Builder
		code := run(args, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code == 0 {
			t.Errorf("%v: succeeded without the bot's password:\n%s", args, out)
		}
		if strings.Contains(out, secret[2:]) || !strings.Contains(out, "bot.password_env") {
			t.Errorf("%v: the output shows the value or does not name the field:\n%s", args, out)
		}
	}
}

// check-config fails, naming the field, when the bot's password variable is not set: the
// daemon could not start (issue 19).
func TestCheckConfigBotPasswordUnset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	cfg := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_CC_UNSET_BOT}
game: {id: g1, kind: crusade, timezone: Europe/Moscow, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
store: {path: forumgm.db}
`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("FORUMGM_TEST_CC_UNSET_BOT")
	var stdout, stderr strings.Builder
	if code := run([]string{"check-config", "--config", path}, &stdout, &stderr); code == 0 ||
		!strings.Contains(stderr.String(), "bot.password_env: the environment variable $FORUMGM_TEST_CC_UNSET_BOT is not set") {
		t.Errorf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
}
