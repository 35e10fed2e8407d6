package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The command line's exit codes: help is not an error, a missing or unknown command is.
func TestExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{nil, 2, "", "usage: forumgm COMMAND"},
		{[]string{"--help"}, 0, "usage: forumgm COMMAND", ""},
		{[]string{"nosuch"}, 2, "", `unknown command "nosuch"`},
		{[]string{"replay", "--help"}, 0, "", "usage: forumgm replay"},
		{[]string{"verify", "-h"}, 0, "", "usage: forumgm verify"},
		{[]string{"check-config", "--help"}, 0, "", "-config"},
		{[]string{"replay"}, 1, "", "want one transcript file"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("forumgm %v: exit %d (want %d)\nstdout %q\nstderr %q", tc.args, code, tc.code, out.String(), errb.String())
		}
	}
}

// An error from a command is said once, prefixed by the command's name only once.
func TestNoStutter(t *testing.T) {
	var out, errb bytes.Buffer
	run([]string{"verify", "--config", "/nonexistent/config.yaml"}, &out, &errb)
	if strings.Contains(errb.String(), "verify: verify:") || !strings.HasPrefix(errb.String(), "forumgm verify: ") {
		t.Errorf("stderr %q", errb.String())
	}
}

// check-config fails when a moderator's web UI password variable is not set.
func TestCheckConfigModeratorPassword(t *testing.T) {
	dir := t.TempDir()
	cfg := dir + "/config.yaml"
	src := `forum: {url: "http://127.0.0.1:1/", thread: "1"}
bot: {username: gm-bot, password_env: FORUMGM_TEST_CC_BOT}
game:
  kind: crusade
  roster: [{name: a, side: crusaders}, {name: b, side: saracens}]
review:
  accounts: [{name: Moderator, password_env: FORUMGM_TEST_CC_MOD}]
`
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FORUMGM_TEST_CC_BOT", "x")
	var out, errb bytes.Buffer
	if code := run([]string{"check-config", "--config", cfg}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "FORUMGM_TEST_CC_MOD is not set") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	t.Setenv("FORUMGM_TEST_CC_MOD", "y")
	out.Reset()
	errb.Reset()
	if code := run([]string{"check-config", "--config", cfg}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// check-config refuses a live football game whose settings fix chance or the start (issue 20):
// fixed die faces, start cells, balances, goals, a given salt; it names every field.
func TestCheckConfigFixedChance(t *testing.T) {
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
	check := func(extra string) (int, string) {
		if err := os.WriteFile(cfg, []byte(base+extra), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		return run([]string{"check-config", "--config", cfg}, &out, &errb), errb.String()
	}
	if code, stderr := check(""); code != 0 {
		t.Fatalf("an honest game: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct{ extra, field string }{
		{"    dice: {37: 6, 12: 6}\n", "settings.dice"},
		{"    start_cells: {Команда 1: 6}\n", "settings.start_cells"},
		{"    points: {Команда 1: 5}\n", "settings.points"},
		{"    goals: {Команда 1: [3, 0]}\n", "settings.goals"},
		{"    dice_salt: abc\n", "settings.dice_salt"},
	} {
		if code, stderr := check(c.extra); code != 1 || !strings.Contains(stderr, c.field) || !strings.Contains(stderr, "live game") {
			t.Errorf("%s: exit %d, stderr %q", c.field, code, stderr)
		}
		// forumgm run refuses it too, before it opens the store or the forum.
		var out, errb bytes.Buffer
		if code := run([]string{"run", "--config", cfg}, &out, &errb); code != 1 || !strings.Contains(errb.String(), c.field) || !strings.Contains(errb.String(), "live game") {
			t.Errorf("run with %s: exit %d, stderr %q", c.field, code, errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "forumgm.db")); err == nil {
			t.Errorf("run with %s opened a store", c.field)
		}
	}
}

// The command table is in alphabetical order (the usage lists it as written) and names each command once.
func TestCommandTableSorted(t *testing.T) {
	commands := commandTable()
	for i := 1; i < len(commands); i++ {
		if commands[i-1].name >= commands[i].name {
			t.Errorf("command %q after %q: keep the table sorted, each name once", commands[i].name, commands[i-1].name)
		}
	}
}

// Every command's -h has one shape (issue 21, item 5): exit 0; one usage line, "usage: forumgm
// NAME ..."; the command's one-sentence description, the one the command list gives; then, after
// any notes, "flags:" and each flag on its line as "  --name VALUE" padded to one column and what
// it is, in name order.
func TestHelpShape(t *testing.T) {
	var list bytes.Buffer
	usage(&list)
	flagLine := regexp.MustCompile(`^  (--[a-z][a-z-]*(?: [A-Z][A-Z_]*)?) +(\S.*)$`)
	for _, c := range commandTable() {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{c.name, "-h"}, &out, &errb); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
			}
			help := errb.String()
			lines := strings.Split(strings.TrimRight(help, "\n"), "\n")
			if len(lines) < 2 || !strings.HasPrefix(lines[0]+" ", "usage: forumgm "+c.name+" ") {
				t.Fatalf("no usage line first:\n%s", help)
			}
			if n := strings.Count(help, "usage:"); n != 1 || strings.Contains(help, "   or:") {
				t.Errorf("%d usage lines:\n%s", n, help)
			}
			what := lines[1]
			if what != c.summary || !strings.HasSuffix(what, ".") || strings.Contains(strings.TrimSuffix(what, "."), ". ") ||
				strings.ToUpper(what[:1]) != what[:1] {
				t.Errorf("second line %q: want the one-sentence description %q", what, c.summary)
			}
			if !strings.Contains(list.String(), "  "+c.name+" ") || !strings.Contains(list.String(), c.summary) {
				t.Errorf("the command list does not give %s's description", c.name)
			}
			at := -1
			for i, l := range lines {
				if l == "flags:" {
					if at >= 0 {
						t.Fatalf("two flags: sections:\n%s", help)
					}
					at = i
				}
			}
			if at < 0 || at == len(lines)-1 {
				t.Fatalf("no flags listed:\n%s", help)
			}
			prev, column := "", -1
			for _, l := range lines[at+1:] {
				m := flagLine.FindStringSubmatch(l)
				if m == nil {
					t.Errorf("flag line %q is not \"  --name VALUE  what\"", l)
					continue
				}
				if col := strings.Index(l, m[2]); column < 0 {
					column = col
				} else if col != column && len(m[1]) < column-3 {
					t.Errorf("flag line %q: its description starts at column %d, the others' at %d", l, col, column)
				}
				if m[1] < prev {
					t.Errorf("flag %s after %s: not in name order", m[1], prev)
				}
				prev = m[1]
			}
		})
	}
}

// check-config on the shipped config.yaml gives one verdict, last: without the passwords in the
// environment no OK at all and an error naming each password field; with them, what it found
// and then OK as the last line (issue 21, item 5: it printed OK, then an error).
func TestCheckConfigShippedOneVerdict(t *testing.T) {
	const shipped = "../../config.yaml"
	t.Setenv("FORUMGM_BOT_PASSWORD", "")
	t.Setenv("FORUMGM_MOD_PASSWORD", "")
	var out, errb bytes.Buffer
	if code := run([]string{"check-config", "--config", shipped}, &out, &errb); code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if strings.Contains(out.String(), "OK") || strings.Contains(out.String(), "valid") {
		t.Errorf("a verdict before the error:\n%s", out.String())
	}
	for _, want := range []string{"bot.password_env: the environment variable $FORUMGM_BOT_PASSWORD is not set",
		"review.accounts[0].password_env: the environment variable $FORUMGM_MOD_PASSWORD is not set"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	t.Setenv("FORUMGM_BOT_PASSWORD", "x")
	t.Setenv("FORUMGM_MOD_PASSWORD", "y")
	out.Reset()
	errb.Reset()
	// The shipped forum is not running here: the names are not checked, said as a note.
	if code := run([]string{"check-config", "--config", shipped}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != shipped+": OK (game crusade-1)" || strings.Count(out.String(), "OK") != 1 || errb.Len() != 0 {
		t.Errorf("want one OK, last:\n%s\nstderr %q", out.String(), errb.String())
	}
}
