package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/sandbox"
)

func init() {
	commands["sandbox"] = command{
		summary: "play Crusade on a local sandbox forum: forumgm sandbox [--addr 127.0.0.1:0] [--dir DIR]",
		run:     cmdSandbox,
	}
}

// The sandbox's seeded accounts: throwaway local logins, printed for the user.
var sandboxUsers = []struct{ Name, Password, Role string }{
	{"Джелу", "crusader", "player, crusaders (крестоносцы)"},
	{"snovaya", "saracen", "player, saracens (сарацины)"},
	{"Moderator", "moderator", "moderator"},
	{"gm-bot", "gm-bot-sandbox", "the game master bot (forumgm posts as it)"},
}

const sandboxPasswordEnv = "FORUMGM_SANDBOX_BOT_PASSWORD"

// sandboxBoard opens (or creates) the sandbox board in dir with the seeded accounts and the game
// thread (tid 1), served by the caller.
func sandboxBoard(ctx context.Context, dir string, loc *time.Location, now func() time.Time) (*sandbox.Server, error) {
	var users []sandbox.User
	for _, u := range sandboxUsers {
		users = append(users, sandbox.User{Name: u.Name, Password: u.Password})
	}
	intro := "[b]Крестовый поход — партия в песочнице[/b]\n" +
		"Ведущий — бот gm-bot. Крестоносцы: Джелу, сарацины: snovaya.\n" +
		"Правила, доска и порядок ходов — ниже. Удачной игры!"
	return sandbox.New(ctx, sandbox.Options{
		DBPath: filepath.Join(dir, "board.db"), Now: now, Location: loc, Users: users,
		Threads:      []sandbox.Thread{{Subject: "Крестовый поход — партия 1", Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: intro}}}},
		FloodSeconds: -1, PMFloodSeconds: -1,
	})
}

// sandboxConfig is the config.yaml of the sandbox game (written to the sandbox folder, so that
// `forumgm review --config DIR/config.yaml` works on it).
func sandboxConfig(url string, floor, ceiling time.Duration, listen string) string {
	return fmt.Sprintf(`# forumgm sandbox game (written by forumgm sandbox)
forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: %s}
moderators: [Moderator]
game:
  id: sandbox
  kind: crusade
  timezone: Europe/Moscow
  roster:
    - {name: Джелу, side: crusaders}
    - {name: snovaya, side: saracens}
  deployment: default
  settings: {first_side: crusaders}
poll: {floor: %s, ceiling: %s}
store: {path: forumgm.db}
ops: {listen: %q, log_format: console, log_level: info}
`, url, sandboxPasswordEnv, floor, ceiling, listen)
}

func cmdSandbox(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "the board's loopback address")
	dir := fs.String("dir", "", "folder for the board and the game state (default: a new temporary folder)")
	quiet := fs.Bool("quiet", false, "log warnings only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "forumgm-sandbox-")
		if err != nil {
			return err
		}
		*dir = d
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		return err
	}
	board, err := sandboxBoard(ctx, *dir, loc, time.Now)
	if err != nil {
		return fmt.Errorf("sandbox board: %w", err)
	}
	defer board.Close()
	url, err := board.Start(ctx, *addr)
	if err != nil {
		return fmt.Errorf("sandbox listen %s: %w", *addr, err)
	}
	cfgPath := filepath.Join(*dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(sandboxConfig(url+"/", time.Second, 2*time.Second, "127.0.0.1:0")), 0o644); err != nil {
		return err
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return err
	}
	os.Setenv(sandboxPasswordEnv, sandboxUsers[3].Password)
	level := cfg.Ops.LogLevel
	if *quiet {
		level = "warn"
	}
	log, err := daemon.NewLogger(stderr, cfg.Ops.LogFormat, level)
	if err != nil {
		return err
	}
	g, err := openGame(ctx, cfg, daemon.RealClock{}, log, testHooks{})
	if err != nil {
		return err
	}
	defer g.Close()
	opsAddr, stop, err := daemon.ListenOps(cfg.Ops.Listen, g.Metrics, g.Health)
	if err != nil {
		return err
	}
	defer stop()
	var b strings.Builder
	fmt.Fprintf(&b, "\nforumgm sandbox: a Crusade game on a local MyBB-style forum\n\n")
	fmt.Fprintf(&b, "  open        %s/showthread.php?tid=1\n", url)
	fmt.Fprintf(&b, "  log in at   %s/member.php?action=login\n\n", url)
	for _, u := range sandboxUsers {
		fmt.Fprintf(&b, "  %-10s password %-15s %s\n", u.Name, u.Password, u.Role)
	}
	fmt.Fprintf(&b, "\n  Log in as Джелу and reply:  1-й ход крестоносца к1 на K16\n")
	fmt.Fprintf(&b, "  The game master answers within a few seconds.\n\n")
	fmt.Fprintf(&b, "  moderator queue:  forumgm review --config %s list --by Moderator\n", cfgPath)
	fmt.Fprintf(&b, "  metrics:          http://%s/metrics   health: http://%s/healthz\n", opsAddr, opsAddr)
	fmt.Fprintf(&b, "  state folder:     %s\n\n  Ctrl-C stops the sandbox.\n\n", *dir)
	fmt.Fprint(stdout, b.String())
	return g.Daemon.Run(ctx)
}
