package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/fleet"
	"forumgm/forum"
	"forumgm/game"
	"forumgm/referee"
	"forumgm/review"
	"forumgm/store"
)

// reviewUsage is the review command's help (English, like every CLI message for moderators).
const reviewUsage = `actions (after --config FILE, and --game ID when the config lists several games):
  list                      open flags, oldest first
  show ID                   one flag and its post as first seen
  log [N]                   the last N events (default 30)
  accept ID [--text MOVE]   settle a flag in the post's favour; --text is the move as the player
                            meant it (for an unreadable move or a stranger's move)
  reject ID --reason R      refuse the flagged post (the reason is posted)
  close ID --reason R       close a flag as settled elsewhere (a dispute's author is told the reason)
  uphold ID --reason R      settle a dispute: the decision stands, the player is told why
  overturn ID --reason R [--text MOVE]
                            settle a dispute for the player: the last penalty still owed is taken
                            back; --text is the move as the player meant it, judged as theirs
  settle ID --reason R [--message TEXT]
                            settle a dispute with a message to the player (default: the reason)
  undo --reason R           undo the last applied move (the board is posted again)
  pause, resume             stop or restart judging and the clock
  end --reason R [--winner W]
                            end the game: W is a side or team, or "draw"; none: the game decides
  add-player NAME --role SIDE --reason R
                            add a forum user to the roster (a side or a team, in the game's terms)
  replace PLAYER NEW --reason R
                            NEW takes PLAYER's place (team, warriors or figure); Dragonball refuses a
                            swallowed player
  remove PLAYER --reason R  PLAYER leaves: a sign-up game asks his team for a replacement (then the
                            game's rule: Crusade takes his warriors off the field), else the rule at once
  adjust TARGET N --reason R
                            change a side's or team's count by N (wounds owed, points: the game says; N < 0
                            takes wounds back)
  extend DURATION --reason R [--deadline "2026-12-03 23:00"]
                            move the next deadline (or the one named) DURATION later (2h, 30m);
                            announced in the thread; posts until the new time count as in time
  holiday DAY --reason R    a day off (2026-12-03, the game's zone): the game's clock stands still
                            that day, moves are refused, every later deadline comes a day later
  clarify --text T          post T in the thread as the game master's rules clarification
  length N --reason R       make the game N rounds or turns long (games with a set length)
  serve [--listen 127.0.0.1:0]
                            the web UI: every game of the config, each under /g/ID/, unless --game names one
--by NAME must be one of the game's moderators (moderators; in a one-game config review.accounts too).`

func cmdReview(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("review", stderr)
	fs.Usage = func() { helpUsage(fs, reviewUsage) }
	by := fs.String("by", "", "the moderator's `NAME` (goes into the event log)")
	reason := fs.String("reason", "", "why, in a `TEXT` (required for reject, close, uphold, overturn, settle, undo, end, add-player, adjust, extend, holiday and length)")
	text := fs.String("text", "", "accept, overturn: the `MOVE` as the player meant it, judged as if the player had written it; clarify: the clarification")
	message := fs.String("message", "", "settle: the `MESSAGE` posted to the player (default: the reason)")
	deadline := fs.String("deadline", "", "extend: the `DEADLINE` to move, \"2026-12-03 23:00\" in the game's zone (default: the next one)")
	winner := fs.String("winner", "", "end: the `WINNER` (a side or team name, or \"draw\"); empty: the game decides")
	role := fs.String("role", "", "add-player: the `SIDE` or team the player joins")
	listen := fs.String("listen", "", "serve: the web UI's loopback `ADDRESS` (default: review.listen from the config, else 127.0.0.1:0)")
	gameID := gameFlag(fs)
	pos, err := actionArgs(fs, args)
	if err != nil {
		return err
	}
	switch pos[0] {
	case "list", "log", "serve", "show", "accept", "reject", "close", "uphold", "overturn", "settle", "undo", "pause", "resume", "end", "add-player", "adjust", "replace", "remove",
		"extend", "holiday", "clarify", "length":
	default:
		fs.Usage()
		return fmt.Errorf("unknown action %q", pos[0])
	}
	all, err := config.Load(*path, knownGames())
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, all.StoreLocation(), store.Shared()) // beside the running daemon
	if err != nil {
		return err
	}
	defer st.Close()
	if pos[0] == "serve" && *gameID == "" {
		reviews, err := reviewsOf(ctx, all, st)
		if err != nil {
			return err
		}
		return serveReview(ctx, all, reviews, *listen, stdout)
	}
	cfg, err := all.Select(*gameID)
	if err != nil {
		return err
	}
	rv, err := reviewOf(ctx, cfg, st)
	if err != nil {
		return err
	}
	switch pos[0] {
	case "accept", "reject", "close", "uphold", "overturn", "settle", "undo", "pause", "resume", "end", "add-player", "adjust", "replace", "remove",
		"extend", "holiday", "clarify", "length":
		if len(rv.Allowed) == 0 {
			return fmt.Errorf("%s: no moderators configured: list them under moderators (or review.accounts) in %s", pos[0], cfg.Path())
		}
	}
	id := func() (int64, error) {
		if len(pos) < 2 {
			return 0, fmt.Errorf("%s: which flag? (%s list shows the numbers)", pos[0], fleet.SettleOf(cfg).Command())
		}
		n, err := strconv.ParseInt(pos[1], 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s: %q is not a flag number (%s list shows them)", pos[0], pos[1], fleet.SettleOf(cfg).Command())
		}
		return n, nil
	}
	report := func(what string, out game.Outcome, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s logged, %s queued", what, count(len(out.Events), "event"), count(len(out.Messages), "message"))
		if len(out.Messages) > 0 {
			fmt.Fprint(stdout, " (the running daemon posts them)")
		}
		fmt.Fprintln(stdout)
		return nil
	}
	// Times are the game's, as the web UI and the thread show them (with their UTC offset).
	gameZone := cfg.GameLocation()
	switch pos[0] {
	case "list":
		cases, err := rv.Queue(ctx)
		if err != nil {
			return err
		}
		if len(cases) == 0 {
			fmt.Fprintln(stdout, "no open flags")
		}
		for _, c := range cases {
			f, author := c.Flag, "-"
			if c.HasPost {
				author = c.Post.Author
			}
			fmt.Fprintf(stdout, "%d\t%s\t%s\tpost %s/%s by %s\t%s\n", f.ID, f.CreatedAt.In(gameZone).Format(time.RFC3339), f.Kind, f.Source, f.PostID, author, fcLine(f.Detail, 100))
		}
		if g, err := rv.State(ctx); err == nil && g.Paused {
			fmt.Fprintf(stdout, "the game is PAUSED (by %s: %s)\n", g.PausedBy, g.PauseReason)
		}
		return nil
	case "log":
		n := 30
		if len(pos) > 1 {
			if n, err = strconv.Atoi(pos[1]); err != nil || n < 0 {
				return fmt.Errorf("log: %q is not a number of events", pos[1])
			}
		}
		evs, err := rv.Log(ctx, n)
		if err != nil {
			return err
		}
		for _, e := range evs {
			fmt.Fprintf(stdout, "%d\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.At.In(gameZone).Format(time.RFC3339), e.Kind, e.Cause, e.Actor, fcLine(e.Reason, 100))
		}
		return nil
	case "serve":
		return serveReview(ctx, all, map[string]*review.Review{cfg.Game.ID: rv}, *listen, stdout)
	case "show":
		n, err := id()
		if err != nil {
			return err
		}
		c, err := rv.Show(ctx, n)
		if err != nil {
			return err
		}
		f := c.Flag
		fmt.Fprintf(stdout, "flag %d: %s, %s, raised %s\ndetail: %s\n", f.ID, f.Kind, f.State, f.CreatedAt.In(gameZone).Format(time.RFC3339), f.Detail)
		if f.State != store.FlagOpen {
			fmt.Fprintf(stdout, "resolved by %s at %s: %s\n", f.ResolvedBy, f.ResolvedAt.In(gameZone).Format(time.RFC3339), f.Note)
		}
		if c.HasPost {
			p := c.Post
			fmt.Fprintf(stdout, "post %s/%s by %s at %s, verdict %s\n", p.Source, p.ID, p.Author, p.PostedAt.In(gameZone).Format(time.RFC3339), p.Verdict)
			if p.EditedHash != "" {
				fmt.Fprintf(stdout, "edited (noticed %s); the first-seen text below stands\n", p.EditedAt.In(gameZone).Format(time.RFC3339))
			}
			if !p.VanishedAt.IsZero() {
				fmt.Fprintf(stdout, "vanished from the forum (noticed %s)\n", p.VanishedAt.In(gameZone).Format(time.RFC3339))
			}
			fmt.Fprintf(stdout, "--- text as first seen ---\n%s\n---\n", strings.TrimSpace(p.Text))
			for i, q := range p.Post.Quotes {
				fmt.Fprintf(stdout, "--- quote %d (of %s) as first seen ---\n%s\n---\n", i+1, q.Author, strings.TrimSpace(q.Text))
			}
			if !p.Whole {
				fmt.Fprintln(stdout, "(recorded before forumgm kept whole posts: its quotes are not known)")
			}
		}
		return nil
	case "accept", "reject", "close", "uphold", "overturn", "settle":
		n, err := id()
		if err != nil {
			return err
		}
		switch pos[0] {
		case "accept":
			out, err := rv.AcceptAs(ctx, n, *by, *reason, *text)
			what := fmt.Sprintf("flag %d accepted", n)
			if err == nil && out.Verdict == game.Refused {
				what = fmt.Sprintf("flag %d closed, but the move breaks the rules: a refusal is posted", n)
			}
			return report(what, out, err)
		case "reject":
			out, err := rv.Reject(ctx, n, *by, *reason)
			return report(fmt.Sprintf("flag %d rejected", n), out, err)
		case "uphold":
			out, err := rv.Uphold(ctx, n, *by, *reason)
			return report(fmt.Sprintf("dispute %d settled: the decision stands", n), out, err)
		case "overturn":
			out, err := rv.Overturn(ctx, n, *by, *reason, *text)
			return report(fmt.Sprintf("dispute %d settled for the player", n), out, err)
		case "settle":
			out, err := rv.Settle(ctx, n, *by, *reason, *message)
			return report(fmt.Sprintf("dispute %d settled with a message", n), out, err)
		}
		out, err := rv.Close(ctx, n, *by, *reason)
		what := fmt.Sprintf("flag %d closed without a post", n)
		if len(out.Messages) > 0 {
			what = fmt.Sprintf("flag %d closed, the player told", n)
		}
		return report(what, out, err)
	case "undo":
		label, ok, err := rv.LastMove(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return errors.New("undo: no applied move to undo")
		}
		out, err := rv.Undo(ctx, *by, *reason)
		return report(fmt.Sprintf("undone: %s", label), out, err)
	case "pause":
		out, err := rv.Pause(ctx, *by, *reason)
		return report("game paused", out, err)
	case "resume":
		out, err := rv.Resume(ctx, *by, *reason)
		return report("game resumed", out, err)
	case "add-player":
		if len(pos) < 2 || *role == "" {
			return errors.New("add-player: give the forum user and --role (a side or a team)")
		}
		out, err := rv.AddPlayer(ctx, *by, *reason, pos[1], *role)
		return report(fmt.Sprintf("%s added (%s)", pos[1], *role), out, err)
	case "replace":
		if len(pos) < 3 {
			return errors.New("replace: give the player who leaves and the forum user who takes his place, e.g. replace Петя Оля")
		}
		out, err := rv.Replace(ctx, *by, *reason, pos[1], pos[2])
		return report(fmt.Sprintf("%s replaced by %s", pos[1], pos[2]), out, err)
	case "remove":
		if len(pos) < 2 {
			return errors.New("remove: give the player who leaves")
		}
		out, err := rv.Remove(ctx, *by, *reason, pos[1])
		return report(fmt.Sprintf("%s removed", pos[1]), out, err)
	case "extend":
		if len(pos) < 2 {
			return errors.New("extend: give how much later, e.g. extend 2h --reason R")
		}
		d, err := time.ParseDuration(pos[1])
		if err != nil {
			return fmt.Errorf("extend: %q is not a duration (2h, 30m, 1h30m)", pos[1])
		}
		var at time.Time
		if *deadline != "" {
			if at, err = rv.When(*deadline); err != nil {
				return fmt.Errorf("extend: --deadline %q: want \"2026-12-03 23:00\" (the game's zone)", *deadline)
			}
		}
		out, err := rv.Extend(ctx, *by, *reason, d, at)
		return report(fmt.Sprintf("deadline extended by %s", d), out, err)
	case "holiday":
		if len(pos) < 2 {
			return errors.New("holiday: give the day, e.g. holiday 2026-12-03 --reason R")
		}
		day, err := rv.Day(pos[1])
		if err != nil {
			return fmt.Errorf("holiday: %q is not a day (2026-12-03)", pos[1])
		}
		out, err := rv.Holiday(ctx, *by, *reason, day)
		return report(fmt.Sprintf("%s declared a holiday", pos[1]), out, err)
	case "clarify":
		if strings.TrimSpace(*text) == "" {
			return errors.New("clarify: give the clarification with --text")
		}
		out, err := rv.Clarify(ctx, *by, *reason, *text)
		return report("clarification posted", out, err)
	case "length":
		if len(pos) < 2 {
			return errors.New("length: give the new length, e.g. length 12 --reason R")
		}
		n, err := strconv.Atoi(pos[1])
		if err != nil {
			return fmt.Errorf("length: %q is not a whole number", pos[1])
		}
		out, err := rv.Length(ctx, *by, *reason, n)
		return report(fmt.Sprintf("game length set to %d", n), out, err)
	case "adjust":
		if len(pos) < 3 {
			return errors.New("adjust: give the side or team and the change, e.g. adjust saracens 2")
		}
		n, err := strconv.Atoi(pos[2])
		if err != nil || n == 0 {
			return fmt.Errorf("adjust: %q is not a change (a whole number, not 0)", pos[2])
		}
		out, err := rv.Adjust(ctx, *by, *reason, pos[1], n)
		return report(fmt.Sprintf("%s adjusted by %+d", pos[1], n), out, err)
	}
	// end
	out, err := rv.End(ctx, *by, *reason, *winner)
	what := "game ended"
	if *winner != "" {
		what = fmt.Sprintf("game ended (winner: %s)", *winner)
	}
	return report(what, out, err)
}

// negativeNumber reports whether s is a negative whole number ("-2").
func negativeNumber(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n < 0
}

// count is "1 event", "2 events".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// newReview is the moderator tools over a game's store: the CLI, the web UI and the daemon's
// process all build them the same way.
// cfg is the game's single-game view: who may act on the game is cfg.Moderating().
func newReview(cfg *config.Config, st *store.Store, newRef func() (*referee.Referee, error), caps forum.Capabilities) *review.Review {
	return &review.Review{Store: st, Game: cfg.Game.ID, NewReferee: func() (review.Referee, error) { return newRef() }, Now: time.Now, Moderators: cfg.Moderators, Caps: caps,
		Allowed: cfg.Moderating(), HowToSettle: fleet.SettleOf(cfg), Location: cfg.GameLocation()}
}

// reviewOf builds the moderator tools of one game's view over st (registering the game in the
// store if the daemon has not yet).
func reviewOf(ctx context.Context, cfg *config.Config, st *store.Store) (*review.Review, error) {
	caps := forum.Capabilities{}
	if f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username, Location: cfg.ForumLocation()}); err == nil {
		caps = f.Capabilities()
	}
	rec, err := daemon.Register(ctx, st, cfg, time.Now())
	if err != nil {
		return nil, err
	}
	newRef, err := daemon.RefereeFactory(cfg, caps, rec)
	if err != nil {
		return nil, err
	}
	return newReview(cfg, st, newRef, caps), nil
}

// reviewsOf builds the moderator tools of every game of cfg, by game id.
func reviewsOf(ctx context.Context, cfg *config.Config, st *store.Store) (map[string]*review.Review, error) {
	out := map[string]*review.Review{}
	for _, v := range cfg.GameConfigs() {
		rv, err := reviewOf(ctx, v, st)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", v.Game.ID, err)
		}
		out[v.Game.ID] = rv
	}
	return out, nil
}

// reviewWeb builds the moderator web UI over the games' reviews (every game under its own path,
// in the order of their ids) for the accounts the config lists; their passwords come from the
// environment variables it names and are never printed.
func reviewWeb(cfg *config.Config, reviews map[string]*review.Review) (*review.Web, []string, error) {
	if len(cfg.Review.Accounts) == 0 {
		return nil, nil, fmt.Errorf("review serve: no moderator accounts: add review.accounts (name, password_env) to %s", cfg.Path())
	}
	var accounts []review.Account
	var names []string
	for _, a := range cfg.Review.Accounts {
		pw, err := a.Password()
		if err != nil {
			return nil, nil, fmt.Errorf("review serve: %w (export it before starting the web UI)", err)
		}
		accounts = append(accounts, review.Account{Name: a.Name, Password: pw})
		names = append(names, a.Name)
	}
	if len(reviews) == 0 {
		return nil, nil, errors.New("review serve: no game to serve")
	}
	games := byID(reviews)
	// Each game shows its times in its own zone; the list of games in the first game's.
	loc := games[0].Location
	web, err := review.NewWeb(review.WebOptions{Accounts: accounts, Location: loc, PublicURL: cfg.Review.PublicURL,
		TrustedProxyHeader: cfg.Review.TrustedProxyHeader, Games: knownGames()}, games...)
	return web, names, err
}

// byID is the reviews in the order of their game ids.
func byID(reviews map[string]*review.Review) []*review.Review {
	ids := make([]string, 0, len(reviews))
	for id := range reviews {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	games := make([]*review.Review, 0, len(ids))
	for _, id := range ids {
		games = append(games, reviews[id])
	}
	return games
}

// serveReview serves the moderator web UI over the same Review the CLI's actions use, until ctx
// is done (SIGINT/SIGTERM).
func serveReview(ctx context.Context, cfg *config.Config, reviews map[string]*review.Review, listen string, stdout io.Writer) error {
	web, names, err := reviewWeb(cfg, reviews)
	if err != nil {
		return err
	}
	return serveWeb(ctx, cfg, web, names, gameNames(reviews), listen, stdout)
}

// serveWeb serves a built web UI (for games, named in the banner) until ctx is done.
func serveWeb(ctx context.Context, cfg *config.Config, web *review.Web, names []string, games, listen string, stdout io.Writer) error {
	if listen == "" {
		listen = cfg.Review.Listen
	}
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	return review.Serve(ctx, listen, web, func(url string) {
		fmt.Fprintf(stdout, "moderator web UI for %s: %s\n", games, url)
		fmt.Fprintf(stdout, "log in as: %s (passwords from the environment). Ctrl-C stops it.\n", strings.Join(names, ", "))
	})
}

// gameNames names the games of reviews for a banner: "game crusade-1" or "games a, b".
func gameNames(reviews map[string]*review.Review) string {
	ids := make([]string, 0, len(reviews))
	for id := range reviews {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) == 1 {
		return "game " + ids[0]
	}
	return "games " + strings.Join(ids, ", ")
}

// actionArgs parses args with fs and returns the positional arguments (the action first, "list"
// when there is none). Flags may come before, between and after them; a negative number
// ("adjust saracens -2") is an argument, not a flag.
func actionArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	rest := args
	for {
		if len(rest) > 0 && negativeNumber(rest[0]) {
			pos = append(pos, rest[0])
			rest = rest[1:]
			continue
		}
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) == 0 {
		pos = []string{"list"}
	}
	return pos, nil
}
