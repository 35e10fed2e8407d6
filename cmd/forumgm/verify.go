package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"forumgm/audit"
	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/store"
	"forumgm/transcript"
)

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stderr, "THREAD.yaml is a transcript of the whole thread, the bot's posts included (forumgm replay --thread writes one);\n"+
		"a thread's URL or saved pages (--file, repeated for every page) are checked from their public posts alone, read as a guest (docs/fairness.md);\n"+
		"--config checks a game in the store instead (--game names it when the config lists several).")
	seed := fs.String("seed", "", "the `SEED` the game revealed at its end (default: as the bot's last post reveals it)")
	salt := fs.String("salt", "", "the `SALT` the game revealed with it")
	cfgPath := fs.String("config", "", "check the game of this configuration `FILE` in its store instead of a thread file")
	gameID := gameFlag(fs)
	drawsPath := fs.String("draws", "", "also write the game's draws `FILE` (draws.json: its chain and every draw, for the in-browser check)")
	var files filesFlag
	fs.Var(&files, "file", "a saved `PAGE` of the game's thread (repeat for every page): check the game from its public posts")
	pub := publicCheck{}
	fs.StringVar(&pub.dialect, "dialect", "", "the forum's `DIALECT`, for a URL or saved pages (default: recognised from the page)")
	fs.StringVar(&pub.bot, "bot", "", "the bot's forum `NAME` (default: the author of the post revealing the seed)")
	fs.StringVar(&pub.tz, "timezone", "UTC", "the forum's time `ZONE`, for times shown without one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if rest := fs.Args(); len(rest) > 1 { // flags after the thread
		arg := rest[0]
		if err := fs.Parse(rest[1:]); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			fs.Usage()
			return errors.New("want one thread (a file or an address)")
		}
		args = []string{arg}
	} else {
		args = rest
	}
	var rep *audit.Report
	switch {
	case len(files) > 0 || (len(args) == 1 && isURL(args[0])):
		var posts []forum.Post
		var err error
		if len(files) > 0 {
			posts, err = pub.pages(ctx, files)
		} else {
			posts, _, err = pub.thread(ctx, args[0])
		}
		if err != nil {
			return err
		}
		if rep, err = pub.check(posts, stdout); err != nil {
			return err
		}
	case *cfgPath != "":
		all, err := config.Load(*cfgPath, knownGames())
		if err != nil {
			return err
		}
		cfg, err := all.Select(*gameID)
		if err != nil {
			return err
		}
		st, err := store.Open(ctx, cfg.StoreLocation(), store.Shared()) // beside the running daemon
		if err != nil {
			return err
		}
		defer st.Close()
		caps := forum.Capabilities{PrivateMessages: true}
		if f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username, Location: cfg.ForumLocation()}); err == nil {
			caps = f.Capabilities()
		}
		rec, err := daemon.Register(ctx, st, cfg, cfg.StartTime())
		if err != nil {
			return err
		}
		newRef, err := daemon.RefereeFactory(cfg, caps, rec)
		if err != nil {
			return err
		}
		if rep, err = audit.Store(ctx, st, cfg.Game.ID, newRef); err != nil {
			return err
		}
	case len(args) == 1:
		tr, err := transcript.Load(args[0], knownGames())
		if err != nil {
			return err
		}
		tr.Progress = termProgress(stderr, "verifying")
		if *seed == "" {
			var ok bool
			if *seed, *salt, ok = audit.Revealed(tr); !ok {
				fs.Usage()
				return errors.New("the thread has no post revealing the seed (the game's last post does, once it ended): give --seed and --salt")
			}
			fmt.Fprintf(stdout, "seed and salt as the bot's post revealed them: %s, %s\n", *seed, *salt)
		}
		if rep, err = audit.Thread(tr, *seed, *salt); err != nil {
			return err
		}
	default:
		fs.Usage()
		return errors.New("want a thread file or --config")
	}
	fmt.Fprint(stdout, rep.String())
	if *drawsPath != "" {
		if rep.Draws == nil {
			return errors.New("--draws: the game has not revealed its seed yet: its draws file would give the seed away")
		}
		b, err := rep.Draws.JSON()
		if err != nil {
			return err
		}
		if err := os.WriteFile(*drawsPath, b, 0o644); err != nil { // public once the seed is
			return fmt.Errorf("--draws: %w", err)
		}
		fmt.Fprintf(stdout, "draws file written: %s (%d chain posts, %d draws)\n", *drawsPath, len(rep.Draws.Chain), len(rep.Draws.Draws))
	}
	if !rep.OK() {
		return errors.New("the game does not follow from the revealed seed (see the FAIL lines)")
	}
	return nil
}

// isURL reports whether arg is a web address (a thread to read) rather than a file.
func isURL(arg string) bool {
	return strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://")
}
