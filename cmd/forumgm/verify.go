package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"forumgm/audit"
	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/store"
	"forumgm/transcript"
)

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stderr, "THREAD.yaml is a transcript of the whole thread, the bot's posts included (forumgm replay --thread writes one);\n"+
		"--config checks a game in the store instead (--game names it when the config lists several).")
	seed := fs.String("seed", "", "the `SEED` the game revealed at its end (default: as the bot's last post reveals it)")
	salt := fs.String("salt", "", "the `SALT` the game revealed with it")
	cfgPath := fs.String("config", "", "check the game of this configuration `FILE` in its store instead of a thread file")
	gameID := gameFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rep *audit.Report
	switch {
	case *cfgPath != "":
		all, err := config.Load(*cfgPath, knownGames())
		if err != nil {
			return err
		}
		cfg, err := all.Select(*gameID)
		if err != nil {
			return err
		}
		st, err := store.Open(ctx, cfg.Resolve(cfg.Store.Path), store.Shared()) // beside the running daemon
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
	case fs.NArg() == 1:
		tr, err := transcript.Load(fs.Arg(0), knownGames())
		if err != nil {
			return err
		}
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
	if !rep.OK() {
		return errors.New("the game does not follow from the revealed seed (see the FAIL lines)")
	}
	return nil
}
