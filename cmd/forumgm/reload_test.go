package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"forumgm/sandbox"
)

// A reload (SIGHUP) of a config whose bot password variable this daemon does not have is
// refused, logged at error naming the field, and the games run on as they were: accepted, the
// next start would fail. A reload that is whole is still taken (issue 19).
func TestReloadRefusesUnsetPassword(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, mskZone)
	clockPath := filepath.Join(dir, "clock")
	if err := os.WriteFile(clockPath, []byte(start.Format(time.RFC3339)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Now: func() time.Time { return start },
		Location: mskZone, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Users: []sandbox.User{{Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "bot-secret-pw-1"},
			{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}},
		Threads: []sandbox.Thread{{Subject: "Крестовый поход", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры."}}}}})
	cfgPath := filepath.Join(dir, "config.yaml")
	write := func(passwordEnv string, floor string) {
		t.Helper()
		cfg := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: %s}
moderators: [Moderator]
game: {id: g1, kind: crusade, timezone: Europe/Moscow, start: %q, roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
poll: {floor: %s}
store: {path: forumgm.db}
ops: {log_format: json, log_level: debug}
`, url+"/", passwordEnv, start.Format(time.RFC3339), floor)
		if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("FORUMGM_TEST_BOT_PW", "5s")
	d := startDaemon(t, bin, cfgPath, clockPath)
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		d.waitFor(t, what, func() bool { return ok(d.out.String()) })
	}
	has := func(subs ...string) func(string) bool {
		return func(s string) bool {
			for _, l := range strings.Split(s, "\n") {
				all := true
				for _, sub := range subs {
					all = all && strings.Contains(l, sub)
				}
				if all {
					return true
				}
			}
			return false
		}
	}
	waitFor("the game started", has(`"game":"g1"`))

	os.Unsetenv("FORUMGM_TEST_UNSET_BOT_PW")
	write("FORUMGM_TEST_UNSET_BOT_PW", "6s")
	if err := d.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("the reload refused", func(s string) bool {
		return has(`"level":"error"`, "config reload refused", "bot.password_env", "FORUMGM_TEST_UNSET_BOT_PW is not set")(s) ||
			has("config reloaded")(s)
	})
	if has("config reloaded")(d.out.String()) {
		t.Fatalf("a config without the bot's password was taken:\n%s", d.out.String())
	}

	write("FORUMGM_TEST_BOT_PW", "6s")
	if err := d.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("the whole config reloaded", has("config reloaded"))
}
