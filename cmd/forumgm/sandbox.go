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
	"forumgm/review"
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

// sandboxModEnv names the sandbox moderator's web UI password (the sandbox account's own).
const sandboxModEnv = "FORUMGM_SANDBOX_MOD_PASSWORD"

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
# The board is on loopback: no need for the polite 1 request/s a real forum gets.
forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow, extra: {rate: "20"}}
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
  # A try-out: the quoted board is optional here. In a real game (the default) a move post
  # without the quoted, edited board is sloppy and costs the side a wound.
  settings: {first_side: crusaders, board_required: false}
poll: {floor: %s, ceiling: %s}
store: {path: forumgm.db}
review:
  listen: 127.0.0.1:0
  accounts: [{name: Moderator, password_env: `+sandboxModEnv+`}]
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
	}
	sb, err := startSandbox(ctx, sandboxOptions{Addr: *addr, Dir: *dir, Quiet: *quiet, Log: stderr})
	if err != nil {
		return err
	}
	defer sb.Close()
	fmt.Fprint(stdout, sb.Banner())
	return sb.Run(ctx)
}

// sandboxOptions configure startSandbox.
type sandboxOptions struct {
	Addr  string    // the board's loopback address ("127.0.0.1:0": any free port)
	Dir   string    // the folder for the board, the game's store and config.yaml (created if needed)
	Quiet bool      // log warnings only
	Log   io.Writer // the daemon's log
}

// sandboxRun is a started sandbox: the board serving on loopback, the ops server listening, the
// game's daemon built and ready to Run. `forumgm sandbox` and the browser test both use it.
type sandboxRun struct {
	URL     string // the board's base URL, http://127.0.0.1:PORT
	OpsAddr string // /healthz and /metrics
	Dir     string
	Config  string // DIR/config.yaml

	Review string // the moderator web UI's URL

	board      *sandbox.Server
	game       *game
	stopOps    func()
	stopReview context.CancelFunc
}

// startSandbox starts the board, writes the config, opens the game and the ops server.
func startSandbox(ctx context.Context, o sandboxOptions) (sb *sandboxRun, err error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		return nil, err
	}
	sb = &sandboxRun{Dir: o.Dir, stopOps: func() {}, stopReview: func() {}}
	defer func() {
		if err != nil {
			sb.Close()
		}
	}()
	sb.board, err = sandboxBoard(ctx, o.Dir, loc, time.Now)
	if err != nil {
		return nil, fmt.Errorf("sandbox board: %w", err)
	}
	sb.URL, err = sb.board.Start(ctx, o.Addr)
	if err != nil {
		return nil, fmt.Errorf("sandbox listen %s: %w", o.Addr, err)
	}
	sb.Config = filepath.Join(o.Dir, "config.yaml")
	if err := os.WriteFile(sb.Config, []byte(sandboxConfig(sb.URL+"/", time.Second, 2*time.Second, "127.0.0.1:0")), 0o644); err != nil {
		return nil, err
	}
	cfg, err := config.Load(sb.Config)
	if err != nil {
		return nil, err
	}
	os.Setenv(sandboxPasswordEnv, sandboxUsers[3].Password)
	os.Setenv(sandboxModEnv, sandboxUsers[2].Password)
	level := cfg.Ops.LogLevel
	if o.Quiet {
		level = "warn"
	}
	logw := o.Log
	if logw == nil {
		logw = io.Discard
	}
	log, err := daemon.NewLogger(logw, cfg.Ops.LogFormat, level)
	if err != nil {
		return nil, err
	}
	sb.game, err = openGame(ctx, cfg, daemon.RealClock{}, log, testHooks{})
	if err != nil {
		return nil, err
	}
	sb.OpsAddr, sb.stopOps, err = daemon.ListenOps(cfg.Ops.Listen, sb.game.Metrics, sb.game.Health)
	if err != nil {
		sb.stopOps = func() {}
		return nil, err
	}
	if sb.Review, err = sb.serveReview(ctx, cfg); err != nil {
		return nil, err
	}
	return sb, nil
}

// serveReview starts the moderator web UI on the config's loopback address and waits until it
// listens.
func (sb *sandboxRun) serveReview(ctx context.Context, cfg *config.Config) (string, error) {
	web, _, err := reviewWeb(cfg, sb.game.Review)
	if err != nil {
		return "", err
	}
	rctx, cancel := context.WithCancel(ctx)
	sb.stopReview = cancel
	urls, errs := make(chan string, 1), make(chan error, 1)
	go func() { errs <- review.Serve(rctx, cfg.Review.Listen, web, func(u string) { urls <- u }) }()
	select {
	case u := <-urls:
		return u, nil
	case err := <-errs:
		return "", fmt.Errorf("sandbox: moderator web UI: %w", err)
	}
}

// Run runs the game's daemon until ctx ends.
func (sb *sandboxRun) Run(ctx context.Context) error { return sb.game.Daemon.Run(ctx) }

// Close stops the ops server, closes the store and the board.
func (sb *sandboxRun) Close() {
	sb.stopReview()
	sb.stopOps()
	if sb.game != nil {
		sb.game.Close()
	}
	if sb.board != nil {
		sb.board.Close()
	}
}

// Banner is what `forumgm sandbox` prints: the addresses, the logins, what to try.
func (sb *sandboxRun) Banner() string {
	url, opsAddr := sb.URL, sb.OpsAddr
	var b strings.Builder
	fmt.Fprintf(&b, "\nforumgm sandbox: a Crusade game on a local MyBB-style forum\n\n")
	fmt.Fprintf(&b, "  open        %s/showthread.php?tid=1\n", url)
	fmt.Fprintf(&b, "  log in at   %s/member.php?action=login\n\n", url)
	for _, u := range sandboxUsers {
		fmt.Fprintf(&b, "  %-10s password %-15s %s\n", u.Name, u.Password, u.Role)
	}
	fmt.Fprintf(&b, "\n  Log in as Джелу and reply:  1-й ход крестоносца к1 на K16\n")
	fmt.Fprintf(&b, "  The game master answers within a few seconds. (Here quoting the board is optional;\n")
	fmt.Fprintf(&b, "  in a real game a move without the quoted, edited board costs a wound.)\n\n")
	fmt.Fprintf(&b, "  moderator queue:  forumgm review --config %s list --by Moderator\n", sb.Config)
	fmt.Fprintf(&b, "  moderator web UI: %s   (log in as Moderator, password moderator)\n", sb.Review)
	fmt.Fprintf(&b, "  metrics:          http://%s/metrics   health: http://%s/healthz\n", opsAddr, opsAddr)
	fmt.Fprintf(&b, "  state folder:     %s\n\n  Ctrl-C stops the sandbox.\n\n", sb.Dir)
	return b.String()
}
