package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/game"
	"forumgm/ops"
	"forumgm/public"
	"forumgm/review"
	"forumgm/sandbox"
)

// The sandbox's own accounts beside the game's players: throwaway local logins, printed for the
// user.
var (
	sandboxModerator = game.SandboxUser{Name: "Moderator", Password: "moderator", Role: "moderator"}
	sandboxBot       = game.SandboxUser{Name: "gm-bot", Password: "gm-bot-sandbox", Role: "the game master bot (forumgm posts as it)"}
)

const sandboxPasswordEnv = "FORUMGM_SANDBOX_BOT_PASSWORD"

// sandboxModEnv names the sandbox moderator's web UI password (the sandbox account's own).
const sandboxModEnv = "FORUMGM_SANDBOX_MOD_PASSWORD"

// sandboxUsers are every sandbox login: the game's players, the moderator, the bot.
func sandboxUsers(g game.SandboxGame) []game.SandboxUser {
	return append(append([]game.SandboxUser(nil), g.Players...), sandboxModerator, sandboxBot)
}

// sandboxGame is the named game's sandbox description (name "": the first such game).
func sandboxGame(name string) (string, game.SandboxGame, error) {
	names := knownGames().Sandboxed()
	if name == "" && len(names) > 0 {
		name = names[0]
	}
	g, err := knownGames().Lookup(name)
	if err != nil {
		return "", game.SandboxGame{}, err
	}
	sg, ok := g.(game.Sandboxed)
	if !ok {
		return "", game.SandboxGame{}, fmt.Errorf("game %q has no sandbox set-up (games with one: %s)", name, strings.Join(names, ", "))
	}
	return name, sg.Sandbox(), nil
}

// sandboxBoard opens (or creates) the sandbox board in dir with the seeded accounts and the game
// thread (tid 1), served by the caller.
//
// The bot is exempt from MyBB's auto-merge, as docs/operations.md advises a real board to set
// (postmergeuignore), unless mergeBot: then its consecutive posts merge as on a board without the
// exemption (the daemon's merged-reply handling is tried that way).
func sandboxBoard(ctx context.Context, dir string, g game.SandboxGame, loc *time.Location, now func() time.Time, mergeBot bool) (*sandbox.Server, error) {
	return sandboxBoardIn(ctx, dir, g, loc, now, mergeBot, sandbox.Russian)
}

// sandboxBoardIn is sandboxBoard with the pages in lang (the players' forums are Russian).
func sandboxBoardIn(ctx context.Context, dir string, g game.SandboxGame, loc *time.Location, now func() time.Time, mergeBot bool, lang sandbox.Language) (*sandbox.Server, error) {
	var exempt []string
	if !mergeBot {
		exempt = []string{sandboxBot.Name}
	}
	var users []sandbox.User
	for _, u := range sandboxUsers(g) {
		users = append(users, sandbox.User{Name: u.Name, Password: u.Password})
	}
	return sandbox.New(ctx, sandbox.Options{
		DBPath: filepath.Join(dir, "board.db"), Now: now, Location: loc, Users: users,
		Threads:      []sandbox.Thread{{Subject: g.Subject, Posts: []sandbox.SeedPost{{Author: sandboxBot.Name, Message: g.Intro}}}},
		FloodSeconds: -1, PMFloodSeconds: -1, MergeExempt: exempt, Language: lang, BoardName: boardName(lang),
	})
}

// boardName is the sandbox board's title in its language.
func boardName(lang sandbox.Language) string {
	if lang == sandbox.Russian {
		return "Форум игр (песочница forumgm)"
	}
	return "forumgm sandbox"
}

// sandboxConfig is the config.yaml of the sandbox game (written to the sandbox folder, so that
// `forumgm review --config DIR/config.yaml` works on it).
func sandboxConfig(kind string, g game.SandboxGame, url string, floor, ceiling time.Duration, listen, pages string) string {
	return sandboxConfigAt(kind, g, url, floor, ceiling, listen, "127.0.0.1:0", "forumgm.db", pages)
}

// sandboxConfigAt is sandboxConfig with the moderator web UI's address and the store's path;
// pages is the players' game pages' address ("": none).
func sandboxConfigAt(kind string, g game.SandboxGame, url string, floor, ceiling time.Duration, listen, reviewListen, storePath, pages string) string {
	public := ""
	if pages != "" {
		public = fmt.Sprintf("public: {addr: %q, public_url: \"http://%s/\"}\n", pages, pages)
	}
	return fmt.Sprintf(`# forumgm sandbox game (written by forumgm sandbox)
# The board is on loopback: no need for the polite 1 request/s a real forum gets.
forum: {url: %q, dialect: mybb, thread: "1", timezone: Europe/Moscow, extra: {rate: "20"}}
bot: {username: %s, password_env: %s}
moderators: [%s]
game:
  id: sandbox
  kind: %s
  timezone: Europe/Moscow
%spoll: {floor: %s, ceiling: %s}
store: {path: %q}
review:
  listen: %s
  accounts: [{name: %s, password_env: %s}]
ops: {listen: %q, log_format: console, log_level: info}
%s`, url, sandboxBot.Name, sandboxPasswordEnv, sandboxModerator.Name, kind, g.Spec, floor, ceiling, storePath,
		reviewListen, sandboxModerator.Name, sandboxModEnv, listen, public)
}

func cmdSandbox(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sandbox", stderr, "")
	addr := fs.String("addr", "127.0.0.1:0", "the board's loopback address")
	gameName := fs.String("game", "", "the game to play: "+strings.Join(knownGames().Sandboxed(), ", ")+" (default: the first)")
	dir := fs.String("dir", "", "folder for the board and the game state (default: a new temporary folder)")
	quiet := fs.Bool("quiet", false, "log warnings only")
	mergeBot := fs.Bool("merge-bot", false, "merge the bot's consecutive posts, as a MyBB board without the bot exempt from auto-merge does")
	reviewAddr := fs.String("review-addr", "127.0.0.1:0", "the moderator web UI's loopback address")
	opsAddr := fs.String("ops-addr", "127.0.0.1:0", "the metrics and health server's loopback address")
	lang := fs.String("lang", "russian", "the board's language pack: russian (as the players' forums) or english (MyBB's own)")
	signup := fs.Bool("signup", false, "start the game in a sign-up phase: the players sign up in the thread (sign-up for "+sandboxSignupFor.String()+", then "+sandboxOrganiseFor.String()+" to organise)")
	boardOnly := fs.Bool("board-only", false, "serve the board alone and print a config.yaml for forumgm run on it (no daemon: run your own, or put a proxy in between)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sandbox: unexpected argument %q (flags only: forumgm sandbox --help)", fs.Arg(0))
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "forumgm-sandbox-")
		if err != nil {
			return err
		}
		*dir = d
		// A throwaway folder goes with the sandbox; a --dir the user named stays.
		defer func() {
			if os.RemoveAll(d) == nil {
				fmt.Fprintf(stdout, "forumgm sandbox: stopped; removed %s\n", d)
			}
		}()
	}
	o := sandboxOptions{Addr: *addr, Dir: *dir, Game: *gameName, Quiet: *quiet, MergeBot: *mergeBot, Log: stderr,
		ReviewAddr: *reviewAddr, OpsAddr: *opsAddr, Lang: sandbox.Language(*lang), Signup: *signup}
	if *boardOnly {
		return boardOnlySandbox(ctx, o, stdout, stderr)
	}
	sb, err := startSandbox(ctx, o)
	if err != nil {
		return err
	}
	defer sb.Close()
	fmt.Fprint(stdout, sb.Banner())
	return sb.Run(ctx)
}

// sandboxOptions configure startSandbox.
type sandboxOptions struct {
	Addr  string // the board's loopback address ("127.0.0.1:0": any free port)
	Game  string // the game's name ("": the first game with a sandbox set-up)
	Dir   string // the folder for the board, the game's store and config.yaml (created if needed)
	Quiet bool   // log warnings only
	// MergeBot merges the bot's consecutive posts (a board without the exemption the docs advise).
	MergeBot bool
	Log      io.Writer // the daemon's log
	// ReviewAddr and OpsAddr are the moderator web UI's and the ops server's loopback
	// addresses ("": any free port).
	ReviewAddr, OpsAddr string
	Lang                sandbox.Language // the board's language pack ("": Russian)
	// Signup starts the game in a sign-up phase (the game's SandboxGame.SignupSpec).
	Signup bool
	// Now is the clock the sign-up's deadline is set from (nil: time.Now).
	Now func() time.Time
}

// How long the sandbox's sign-up stays open, and how long the teams then have to organise.
const (
	sandboxSignupFor   = 10 * time.Minute
	sandboxOrganiseFor = 10 * time.Minute
)

// game is the named game's sandbox set-up, with the sign-up phase when asked.
func (o sandboxOptions) game() (string, game.SandboxGame, error) {
	kind, sg, err := sandboxGame(o.Game)
	if err != nil || !o.Signup {
		return kind, sg, err
	}
	if sg.SignupSpec == "" {
		return "", sg, fmt.Errorf("sandbox --signup: game %q has no sign-up set-up in the sandbox", kind)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		return "", sg, err
	}
	deadline := now().In(loc).Add(sandboxSignupFor).Truncate(time.Minute)
	organise := strings.TrimSuffix(sandboxOrganiseFor.String(), "0s")
	sg.Spec = fmt.Sprintf("  # A try-out sign-up: open until %s Moscow time, then %s for the teams to organise.\n  signup: {deadline: %q, organise: %s, %s}\n%s",
		deadline.Format("15:04"), organise, deadline.Format(time.RFC3339), organise, sg.Signup, sg.SignupSpec)
	sg.Try = sg.SignupTry
	return kind, sg, nil
}

// lang is the board's language (Russian unless told).
func (o sandboxOptions) lang() sandbox.Language {
	if o.Lang == "" {
		return sandbox.Russian
	}
	return o.Lang
}

// boardOnlySandbox serves the sandbox board alone (no daemon) until ctx ends, with its game
// thread and logins, and prints a config.yaml for `forumgm run` on it to stdout (the logins and
// how to run go to stderr), so a game master can try configs on it and an outside tool can
// stand between the daemon and the board (point forum.url at the tool).
func boardOnlySandbox(ctx context.Context, o sandboxOptions, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		return err
	}
	kind, sg, err := o.game()
	if err != nil {
		return err
	}
	board, err := sandboxBoardIn(ctx, o.Dir, sg, loc, time.Now, o.MergeBot, o.lang())
	if err != nil {
		return fmt.Errorf("sandbox board: %w", err)
	}
	defer board.Close()
	url, err := board.Start(ctx, o.Addr)
	if err != nil {
		return fmt.Errorf("sandbox listen %s: %w", o.Addr, err)
	}
	path := filepath.Join(o.Dir, "config.yaml")
	yaml := sandboxConfigAt(kind, sg, url+"/", time.Second, 2*time.Second, cmp.Or(o.OpsAddr, "127.0.0.1:0"), cmp.Or(o.ReviewAddr, "127.0.0.1:0"),
		"forumgm.db", "")
	yaml = strings.Replace(yaml, "# forumgm sandbox game (written by forumgm sandbox)\n",
		fmt.Sprintf("# forumgm sandbox game (written by forumgm sandbox --board-only)\n# before forumgm run: export %s=%s %s=%s\n",
			sandboxPasswordEnv, sandboxBot.Password, sandboxModEnv, sandboxModerator.Password), 1)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		return err
	}
	fmt.Fprint(stdout, yaml)
	fmt.Fprintf(stderr, "\nforumgm sandbox: the board alone (a %s thread, no game master running) at %s/showthread.php?tid=1\n\n", sg.Title, url)
	for _, u := range sandboxUsers(sg) {
		fmt.Fprintf(stderr, "  %-10s password %-15s %s\n", u.Name, u.Password, u.Role)
	}
	fmt.Fprintf(stderr, "\n  the config above is also in %s; run the game master on it:\n", path)
	fmt.Fprintf(stderr, "    %s=%s %s=%s %s run --config %s\n", sandboxPasswordEnv, sandboxBot.Password, sandboxModEnv, sandboxModerator.Password, selfCommand(), path)
	fmt.Fprintf(stderr, "  (a proxy in between: point forum.url at it)\n\n  Ctrl-C stops the board.\n\n")
	<-ctx.Done()
	return nil
}

// sandboxRun is a started sandbox: the board serving on loopback, the ops server listening, the
// game's daemon built and ready to Run. `forumgm sandbox` and the browser test both use it.
type sandboxRun struct {
	URL     string // the board's base URL, http://127.0.0.1:PORT
	OpsAddr string // /healthz and /metrics
	Dir     string
	Config  string // DIR/config.yaml

	Review string // the moderator web UI's URL
	// Page is the game's public page (package public), served on a loopback port of its own.
	Page string

	kind string           // the game's name
	sg   game.SandboxGame // the game's sandbox set-up

	board      *sandbox.Server
	game       *games
	cfg        *config.Config
	stopOps    func()
	stopReview context.CancelFunc
	stopPages  func()
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
	sb = &sandboxRun{Dir: o.Dir, stopOps: func() {}, stopReview: func() {}, stopPages: func() {}}
	defer func() {
		if err != nil {
			sb.Close()
		}
	}()
	if sb.kind, sb.sg, err = o.game(); err != nil {
		return nil, err
	}
	sb.board, err = sandboxBoardIn(ctx, o.Dir, sb.sg, loc, time.Now, o.MergeBot, o.lang())
	if err != nil {
		return nil, fmt.Errorf("sandbox board: %w", err)
	}
	sb.URL, err = sb.board.Start(ctx, o.Addr)
	if err != nil {
		return nil, fmt.Errorf("sandbox listen %s: %w", o.Addr, err)
	}
	// The public pages' port is taken first: the config names it (the posts link the page).
	pagesLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("sandbox: public pages: %w", err)
	}
	sb.stopPages = func() { pagesLn.Close() }
	sb.Config = filepath.Join(o.Dir, "config.yaml")
	if err := os.WriteFile(sb.Config, []byte(sandboxConfigAt(sb.kind, sb.sg, sb.URL+"/", time.Second, 2*time.Second,
		cmp.Or(o.OpsAddr, "127.0.0.1:0"), cmp.Or(o.ReviewAddr, "127.0.0.1:0"), "forumgm.db", pagesLn.Addr().String())), 0o644); err != nil {
		return nil, err
	}
	cfg, err := config.Load(sb.Config, knownGames())
	if err != nil {
		return nil, err
	}
	os.Setenv(sandboxPasswordEnv, sandboxBot.Password)
	os.Setenv(sandboxModEnv, sandboxModerator.Password)
	level := cfg.Ops.LogLevel
	if o.Quiet {
		level = "warn"
	}
	logw := o.Log
	if logw == nil {
		logw = io.Discard
	}
	log, err := ops.NewLogger(logw, cfg.Ops.LogFormat, level)
	if err != nil {
		return nil, err
	}
	sb.cfg = cfg
	sb.game, err = openGames(ctx, cfg, daemon.RealClock{}, log, testHooks{})
	if err != nil {
		return nil, err
	}
	sb.OpsAddr, sb.stopOps, err = ops.ListenOps(cfg.Ops.Listen, sb.game.Metrics, sb.game.Health)
	if err != nil {
		sb.stopOps = func() {}
		return nil, err
	}
	if sb.Review, err = sb.serveReview(ctx, cfg); err != nil {
		return nil, err
	}
	pages, err := public.New(public.Options{}, publicGames(sb.game.Store, sb.game.Fleet.Games())...)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(ctx)
	sb.stopPages = cancel
	servePublic(pctx, pagesLn, pages)
	sb.Page = cfg.GamePage()
	return sb, nil
}

// serveReview starts the moderator web UI on the config's loopback address and waits until it
// listens.
func (sb *sandboxRun) serveReview(ctx context.Context, cfg *config.Config) (string, error) {
	web, _, err := reviewWeb(cfg, sb.game.Reviews())
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
func (sb *sandboxRun) Run(ctx context.Context) error {
	if err := sb.game.Fleet.Apply(ctx, sb.cfg); err != nil {
		return err
	}
	<-ctx.Done()
	sb.game.Fleet.Wait()
	return nil
}

// Close stops the ops server, closes the store and the board.
func (sb *sandboxRun) Close() {
	sb.stopReview()
	sb.stopPages()
	sb.stopOps()
	if sb.game != nil {
		sb.game.Close()
	}
	if sb.board != nil {
		sb.board.Close()
	}
}

// selfCommand is how the user runs this binary: "go run ./cmd/forumgm" under go run (its binary
// lives in a temporary build folder), else the binary's path as typed.
func selfCommand() string {
	if strings.Contains(os.Args[0], "go-build") {
		return "go run ./cmd/forumgm"
	}
	return os.Args[0]
}

// Banner is what `forumgm sandbox` prints: the addresses, the logins, what to try.
func (sb *sandboxRun) Banner() string {
	url, opsAddr := sb.URL, sb.OpsAddr
	var b strings.Builder
	fmt.Fprintf(&b, "\nforumgm sandbox: a %s game on a local MyBB-style forum\n\n", sb.sg.Title)
	fmt.Fprintf(&b, "  open        %s/showthread.php?tid=1\n", url)
	fmt.Fprintf(&b, "  log in at   %s/member.php?action=login\n\n", url)
	for _, u := range sandboxUsers(sb.sg) {
		fmt.Fprintf(&b, "  %-10s password %-15s %s\n", u.Name, u.Password, u.Role)
	}
	b.WriteString("\n")
	for _, l := range sb.sg.Try {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  moderator queue:  %s review --config %s list --by %s\n", selfCommand(), sb.Config, sandboxModerator.Name)
	fmt.Fprintf(&b, "  moderator web UI: %s   (log in as Moderator, password moderator)\n", sb.Review)
	fmt.Fprintf(&b, "  game page:        %s   (the players' public page: position, deadline, story)\n", sb.Page)
	fmt.Fprintf(&b, "  metrics:          http://%s/metrics   health: http://%s/healthz\n", opsAddr, opsAddr)
	fmt.Fprintf(&b, "  state folder:     %s\n\n  Ctrl-C stops the sandbox.\n\n", sb.Dir)
	return b.String()
}
