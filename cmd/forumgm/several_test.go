package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"forumgm/sandbox"
)

// severalGames is a community's config of two Crusade games on one board (the format README and
// docs/operations.md give): crusade-a moderated by Moderator (the top-level list), crusade-b by
// «Судья Дредд» (its own list, a name with a space); both have web accounts and the daemon serves
// the web UI on loopback.
const severalGames = `# one daemon for a community
forums:
  main:
    url: %q
    dialect: mybb
    timezone: Europe/Moscow
    extra: {rate: "50"}
    bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
moderators: [Moderator]
games:
  - id: crusade-a
    kind: crusade
    forum: main
    thread: "1"
    start: %q
    roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
  - id: crusade-b
    kind: crusade
    forum: main
    thread: "2"
    start: %q
    moderators: [Судья Дредд]
    roster: [{name: Вася, side: crusaders}, {name: Петя, side: saracens}]
store: {path: forumgm.db}
ops: {log_format: json, log_level: debug}
review:
  listen: %q
  accounts:
    - {name: Moderator, password_env: FORUMGM_TEST_MOD_PW}
    - {name: Судья Дредд, password_env: FORUMGM_TEST_JUDGE_PW}
`

// community is a running several-game daemon on a sandbox board, for the commands to act on.
type community struct {
	dir, cfgPath, listen, clockPath string
	url                             string // the board's
	board                           *sandbox.Server
	daemon                          *daemonRun
	mu                              sync.Mutex
	now                             time.Time // the board's and the daemon's clock
}

// advance moves the board's and the daemon's clock on by d.
func (c *community) advance(t *testing.T, d time.Duration) {
	t.Helper()
	c.mu.Lock()
	c.now = c.now.Add(d)
	at := c.now
	c.mu.Unlock()
	tmp := c.clockPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(at.Format(time.RFC3339Nano)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, c.clockPath); err != nil {
		t.Fatal(err)
	}
}

func (c *community) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// startCommunity writes severalGames in a folder whose name has a space (the notices must quote
// the path), starts the daemon on it and waits for both games' opening posts.
func startCommunity(t *testing.T) *community {
	t.Helper()
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "игры клуба")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, mskZone)
	clockPath := filepath.Join(dir, "clock")
	if err := os.WriteFile(clockPath, []byte(start.Format(time.RFC3339)), 0o644); err != nil {
		t.Fatal(err)
	}
	var users []sandbox.User
	for i, name := range []string{"Moderator", "Судья Дредд", "Джелу", "snovaya", "Вася", "Петя"} {
		users = append(users, sandbox.User{Name: name, Password: fmt.Sprintf("p-%d", i)})
	}
	users = append(users, sandbox.User{Name: "gm-bot", Password: "bot-secret-pw-1"})
	c := &community{dir: dir, cfgPath: filepath.Join(dir, "config.yaml"), clockPath: clockPath, now: start}
	board, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(t.TempDir(), "board.db"), Now: c.Now,
		Location: mskZone, Users: users, FloodSeconds: -1, PMFloodSeconds: -1, MergeMinutes: -1,
		Threads: []sandbox.Thread{
			{Subject: "Крестовый поход А", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры А."}}},
			{Subject: "Крестовый поход Б", Posts: []sandbox.SeedPost{{Author: "Moderator", Message: "Тема игры Б."}}},
		}})
	listen := freeAddr(t)
	c.listen, c.board, c.url = listen, board, url
	src := fmt.Sprintf(severalGames, url+"/", start.Format(time.RFC3339), start.Format(time.RFC3339), listen)
	if err := os.WriteFile(c.cfgPath, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FORUMGM_TEST_BOT_PW", "bot-secret-pw-1")
	t.Setenv("FORUMGM_TEST_MOD_PW", "пароль-1")
	t.Setenv("FORUMGM_TEST_JUDGE_PW", "пароль-2")
	c.daemon = startDaemon(t, bin, c.cfgPath, clockPath)
	c.daemon.waitFor(t, "both opening posts", func() bool { return len(c.botPosts(t, 1)) >= 1 && len(c.botPosts(t, 2)) >= 1 })
	return c
}

func (c *community) botPosts(t *testing.T, tid int) []string {
	t.Helper()
	ps, err := c.board.Posts(context.Background(), tid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		if p.Author == "gm-bot" {
			out = append(out, p.Message)
		}
	}
	return out
}

// absPath is path made absolute.
func absPath(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// forumgm runs a command through the command table, as the binary does.
func forumgm(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// Every command that reads a config reads a several-game one: those acting on the whole config
// (check-config, forum-check, games list, backup) act on every game or on the one --game names;
// those acting on one game (verify --config, review) take --game and, without it, name the ids
// there are; a wrong --game names them too; a problem names its field as the file spells it and
// its game (issue 21, item 1).
func TestEveryCommandOnSeveralGames(t *testing.T) {
	c := startCommunity(t)
	cfg := c.cfgPath
	badDialect := filepath.Join(c.dir, "bad-dialect.yaml")
	noPassword := filepath.Join(c.dir, "no-password.yaml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for path, edit := range map[string][2]string{
		badDialect: {"dialect: mybb", "dialect: nosuch"},
		noPassword: {"password_env: FORUMGM_TEST_BOT_PW", "password_env: FORUMGM_TEST_NO_SUCH_PW"},
	} {
		if err := os.WriteFile(path, []byte(strings.Replace(string(src), edit[0], edit[1], 1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ids := "(games: crusade-a, crusade-b)"
	nameOne := "name one with --game (crusade-a, crusade-b)"
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  []string // each in stdout, in this order
		err  []string // each in stderr
	}{
		{"check-config, every game", []string{"check-config", "--config", cfg}, 0,
			[]string{"game crusade-a (games[0]): crusade, 2 players, thread 1", "game crusade-b (games[1]): crusade, 2 players, thread 2",
				"moderator Судья Дредд: exists", cfg + ": OK (2 games)\n"}, nil},
		{"check-config, one game", []string{"check-config", "--config", cfg, "--game", "crusade-b"}, 0,
			[]string{"game crusade-b (games[1])", cfg + ": OK (game crusade-b (games[1]))\n"}, nil},
		{"check-config, no such game", []string{"check-config", "--config", cfg, "--game", "nope"}, 1, nil, []string{`no game "nope" ` + ids}},
		{"check-config, a forum's field named with its game", []string{"check-config", "--config", badDialect}, 1, nil,
			[]string{"game crusade-a (games[0]): forums.main.dialect: ", "game crusade-b (games[1]): forums.main.dialect: ", `unknown dialect "nosuch"`}},
		{"check-config, the bot's password", []string{"check-config", "--config", noPassword}, 1, nil,
			[]string{"forums.main.bot.password_env: the environment variable $FORUMGM_TEST_NO_SUCH_PW is not set"}},
		{"forum-check, every game", []string{"forum-check", "--config", cfg}, 0,
			[]string{"login as gm-bot: OK", "game crusade-a (games[0]): thread 1: ", "game crusade-b (games[1]): thread 2: ", "nothing was posted", cfg + ": OK (2 games)\n"}, nil},
		{"forum-check, one game", []string{"forum-check", "--config", cfg, "--game", "crusade-a"}, 0,
			[]string{"game crusade-a (games[0]): thread 1: ", cfg + ": OK (game crusade-a (games[0]))\n"}, nil},
		{"forum-check, no such game", []string{"forum-check", "--config", cfg, "--game", "nope"}, 1, nil, []string{ids}},
		{"forum-check, the bot's password named with its game", []string{"forum-check", "--config", noPassword}, 1, nil,
			[]string{"game crusade-a (games[0]): config: forums.main.bot.password_env: "}},
		{"verify, one game", []string{"verify", "--config", cfg, "--game", "crusade-a"}, 0, []string{"ok "}, nil},
		{"verify, which game", []string{"verify", "--config", cfg}, 1, nil, []string{nameOne}},
		{"verify, no such game", []string{"verify", "--config", cfg, "--game", "nope"}, 1, nil, []string{ids}},
		{"review, one game", []string{"review", "--config", cfg, "--game", "crusade-b", "list"}, 0, []string{"no open flags"}, nil},
		{"review log, one game (flags after the action)", []string{"review", "--config", cfg, "log", "--game", "crusade-b"}, 0, nil, nil},
		{"review log, which game", []string{"review", "--config", cfg, "log"}, 1, nil, []string{nameOne}},
		{"review, which game", []string{"review", "--config", cfg, "list"}, 1, nil, []string{nameOne}},
		{"review, no such game", []string{"review", "--config", cfg, "--game", "nope", "show", "1"}, 1, nil, []string{ids}},
		{"review, a hint that runs as written", []string{"review", "--config", cfg, "--game", "crusade-b", "show"}, 1, nil,
			[]string{"show: which flag? (forumgm review --config '" + absPath(t, cfg) + "' --game crusade-b list shows the numbers)"}},
		{"games list", []string{"games", "--config", cfg, "list"}, 0, []string{"daemon: running", "crusade-a", "crusade-b"}, nil},
		{"games list, one game", []string{"games", "--config", cfg, "--game", "crusade-b", "list"}, 0, []string{"crusade-b"}, nil},
		{"games list, no such game", []string{"games", "--config", cfg, "--game", "nope", "list"}, 1, nil, []string{ids}},
		{"backup", []string{"backup", "--config", cfg, filepath.Join(c.dir, "copy.db")}, 0, []string{"backup written to"}, nil},
		{"posts with the config's forum", []string{"posts", "--config", cfg, "--url", c.url + "/showthread.php?tid=2"}, 0, []string{"Тема игры Б."}, nil},
		{"posts with a game's forum", []string{"posts", "--config", cfg, "--game", "crusade-a", "--url", c.url + "/showthread.php?tid=1"}, 0, []string{"Тема игры А."}, nil},
		{"posts, no such game", []string{"posts", "--config", cfg, "--game", "nope", "--url", c.url + "/showthread.php?tid=1"}, 1, nil, []string{ids}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := forumgm(tc.args...)
			if code != tc.code {
				t.Fatalf("forumgm %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, stdout, stderr)
			}
			rest := stdout
			for _, want := range tc.out {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in this order):\n%s", want, stdout)
				}
				rest = rest[i+len(want):]
			}
			for _, want := range tc.err {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if tc.code != 0 && strings.Contains(stdout, ": OK") {
				t.Errorf("an OK printed before the error:\n%s", stdout)
			}
		})
	}
	if list := func() string { _, o, _ := forumgm("games", "--config", cfg, "--game", "crusade-b", "list"); return o }(); strings.Contains(list, "crusade-a") {
		t.Errorf("games list --game crusade-b lists crusade-a:\n%s", list)
	}
}

// codeBlock is the [code] block of a moderator's notice: the commands it tells to run.
var codeBlock = regexp.MustCompile(`(?s)\[code\](.*?)\[/code\]`)

// shellWords splits a command line as a POSIX shell does for words, single and double quotes
// and backslash escapes (no variables, no globs: a notice has none).
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord := false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				t.Fatalf("unclosed ' in %q", line)
			}
			w.WriteString(string(rs[i+1 : j]))
			i, inWord = j, true
		case r == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' || rs[j] == '$' || rs[j] == '`' {
					t.Fatalf("a double-quoted %q in %q: the notice should not need it", rs[j], line)
				}
				w.WriteRune(rs[j])
			}
			if j == len(rs) {
				t.Fatalf("unclosed \" in %q", line)
			}
			i, inWord = j, true
		case r == '\\' && i+1 < len(rs):
			i++
			w.WriteRune(rs[i])
			inWord = true
		case strings.ContainsRune("$`;&|<>()*?[]#~", r):
			t.Fatalf("shell metacharacter %q unquoted in %q", r, line)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// noticeCommands are the commands of the moderator's newest notice about game: each line of its
// [code] block as shell words, "forumgm" dropped. It waits for the notice.
func (c *community) noticeCommands(t *testing.T, moderator, game string, seen int) (string, [][]string) {
	t.Helper()
	var body string
	c.daemon.waitFor(t, moderator+"'s notice about "+game, func() bool {
		pms, err := c.board.PMs(context.Background(), moderator)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, pm := range pms {
			if pm.Folder == 1 && strings.Contains(pm.Message, "В игре "+game+" нужен модератор") {
				if n++; n > seen {
					body = pm.Message
					return true
				}
			}
		}
		return false
	})
	m := codeBlock.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the notice has no commands in [code]:\n%s", body)
	}
	var cmds [][]string
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		words := shellWords(t, line)
		if len(words) < 2 || words[0] != "forumgm" {
			t.Fatalf("not a forumgm command: %q", line)
		}
		cmds = append(cmds, words[1:])
	}
	return body, cmds
}

// A moderator's notice tells commands that work as written: run exactly as the notice prints
// them (parsed out of the private message the forum delivered, run through the command table
// against the daemon's store), each exits 0 and settles the flag: --config with the file's whole
// path (quoted: it has a space), --game in a several-game config, --by the recipient (quoted:
// «Судья Дредд»), --reason where reject and close need one; and it gives the web UI's address,
// which the daemon serves (issue 21, item 2).
func TestNoticeCommandsRunAsWritten(t *testing.T) {
	c := startCommunity(t)
	ctx := context.Background()
	noticesSeen := map[string]int{} // by game
	const move = "1-й ход крестоносца к1 на K16"
	for i, tc := range []struct {
		game, moderator, player string
		tid                     int
		text                    string // the post: a dispute, or a move by someone outside the game
		kind                    string // the flag's kind, as review show says
		action                  string // one of the notice's alternatives
		state                   string // the flag's state after it, as review show says
	}{
		{"crusade-a", "Moderator", "Джелу", 1, "#спор не согласен с ведущим", "dispute", "uphold", "rejected"},
		{"crusade-a", "Moderator", "Вася", 1, move, "not_in_roster", "reject", "rejected"},
		{"crusade-b", "Судья Дредд", "Петя", 2, "#спор не согласен с ведущим", "dispute", "settle", "dismissed"},
		{"crusade-a", "Moderator", "snovaya", 1, "#спор не согласен с ведущим", "dispute", "overturn", "accepted"},
		{"crusade-b", "Судья Дредд", "Джелу", 2, move, "not_in_roster", "close", "dismissed"},
		{"crusade-a", "Moderator", "Джелу", 1, "1-й ход крестоносца к1 на Z9", "unreadable", "close", "dismissed"},
	} {
		seen := noticesSeen[tc.game]
		noticesSeen[tc.game]++
		c.advance(t, time.Minute)
		if _, _, err := c.board.Reply(ctx, tc.player, tc.tid, fmt.Sprintf("%s (%d)", tc.text, i)); err != nil {
			t.Fatal(err)
		}
		// The daemon looks at the board's thread lists again once its clock moved on (the
		// clock is the test's: it moves only here).
		c.advance(t, 10*time.Second)
		body, cmds := c.noticeCommands(t, tc.moderator, tc.game, seen)
		absCfg, err := filepath.Abs(c.cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		byAction := map[string][]string{}
		for _, args := range cmds {
			want := []string{"review", "--config", absCfg, "--game", tc.game}
			if len(args) < len(want)+2 || strings.Join(args[:len(want)], "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("command %q does not start %q:\n%s", args, want, body)
			}
			byAction[args[len(want)]] = args
		}
		actions, needReason := []string{"accept", "reject", "close"}, []string{"reject", "close"}
		switch tc.kind {
		case "dispute":
			actions, needReason = []string{"uphold", "overturn", "settle"}, []string{"uphold", "overturn", "settle"}
		case "not_in_roster", "unreadable": // accepted only with the author in the roster, or with --text
			actions = []string{"reject", "close"}
		}
		if len(byAction) != 1+len(actions) || byAction["show"] == nil {
			t.Fatalf("the notice of a %s flag gives %d commands, want show and %v:\n%s", tc.kind, len(byAction), actions, body)
		}
		for _, action := range actions {
			args := byAction[action]
			if args == nil {
				t.Fatalf("the notice gives no %s command:\n%s", action, body)
			}
			if i := slices.Index(args, "--by"); i < 0 || i+1 >= len(args) || args[i+1] != tc.moderator {
				t.Errorf("%s does not name the recipient %q: %q", action, tc.moderator, args)
			}
			if slices.Contains(needReason, action) && !slices.Contains(args, "--reason") {
				t.Errorf("%s without --reason: %q", action, args)
			}
		}
		// The web UI: the flag's page at the address the daemon serves it on.
		webURL := fmt.Sprintf("http://%s/g/%s/flag/", c.listen, tc.game)
		if !strings.Contains(body, "— в браузере: "+webURL) || !strings.Contains(body, "SSH-туннель") {
			t.Errorf("the notice lacks the web UI's address %s:\n%s", webURL, body)
		}
		if resp, err := http.Get(webURL[:strings.Index(webURL, "/g/")] + "/"); err != nil {
			t.Errorf("the web UI the notice names is not served: %v", err)
		} else {
			resp.Body.Close()
		}
		code, stdout, stderr := forumgm(byAction["show"]...)
		if code != 0 || !strings.Contains(stdout, ": "+tc.kind+", open") {
			t.Fatalf("%q: exit %d\n%s%s", byAction["show"], code, stdout, stderr)
		}
		if code, stdout, stderr = forumgm(byAction[tc.action]...); code != 0 {
			t.Fatalf("%q: exit %d\n%s%s", byAction[tc.action], code, stdout, stderr)
		}
		if code, stdout, stderr = forumgm(byAction["show"]...); code != 0 || !strings.Contains(stdout, ", "+tc.state+",") ||
			!strings.Contains(stdout, "resolved by "+tc.moderator) {
			t.Errorf("after %s: %q: exit %d\n%s%s", tc.action, byAction["show"], code, stdout, stderr)
		}
	}
}
