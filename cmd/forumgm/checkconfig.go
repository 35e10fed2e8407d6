package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"forumgm/config"

	"forumgm/daemon"
	"forumgm/forum"
)

func cmdCheckConfig(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("check-config", stderr)
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	// The referee must accept the game's settings and roster.
	f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username, Location: cfg.ForumLocation()})
	if err != nil {
		return fmt.Errorf("forum.dialect: %w", err)
	}
	caps := f.Capabilities()
	if _, err := daemon.RefereeFactory(cfg, caps, daemon.GameRecord{Start: cfg.StartTime()}); err != nil {
		return fmt.Errorf("game: %w", err)
	}
	if err := refuseFixed(cfg, caps); err != nil {
		return err
	}
	// The daemon cannot start without the bot's password, nor the moderator web UI without its
	// accounts': say so now, not at run.
	secrets := cfg.CheckSecrets(true)
	verdict := "OK"
	if secrets != nil {
		verdict = "valid, but a password is not set"
	}
	ref, _ := config.EnvRef(cfg.Bot.PasswordEnv) // a value that may be a password is not printed
	fmt.Fprintf(stdout, "%s: %s — game %s (%s, %d players) in thread %s on %s (%s), bot %s (password from %s)\n",
		*path, verdict, cfg.Game.ID, cfg.Game.Kind, len(cfg.Players()), cfg.Forum.Thread, cfg.Forum.URL, cfg.Forum.Dialect,
		cfg.Bot.Username, ref)
	for _, g := range cfg.GameConfigs() {
		if setup, err := g.GameSetup(!caps.PrivateMessages, g.StartTime()); err == nil {
			for _, w := range setup.Warnings {
				fmt.Fprintf(stdout, "warning: game %s: %s\n", g.Game.ID, w)
			}
		}
	}
	if !caps.PrivateMessages {
		fmt.Fprintln(stdout, "note: this forum has no private messages: deployments and answers go to the thread; moderators are not notified (use forumgm review list)")
	}
	if secrets != nil {
		return fmt.Errorf("%w (export them before forumgm run)", secrets)
	}
	return checkNamesOnline(ctx, cfg, stdout)
}

// refuseFixed refuses a live game whose settings fix chance or the starting position (football's
// dice, start_cells, points, goals, dice_salt): the players could not check the game was fair.
// Transcripts and tests set them through their own path.
func refuseFixed(cfg *config.Config, caps forum.Capabilities) error {
	var errs []error
	for _, g := range cfg.GameConfigs() {
		setup, err := g.GameSetup(!caps.PrivateMessages, g.StartTime())
		if err != nil {
			return fmt.Errorf("game %s: %w", g.Game.ID, err)
		}
		if len(setup.Fixed) == 0 {
			continue
		}
		names := make([]string, len(setup.Fixed))
		for i, f := range setup.Fixed {
			names[i] = "settings." + f
		}
		errs = append(errs, fmt.Errorf("game %s: %s: fixes chance or the starting position (a test setting): a live game must not set it, the players could not check it (docs/fairness.md)",
			g.Game.ID, strings.Join(names, ", ")))
	}
	return errors.Join(errs...)
}

// refuseFixedLive is refuseFixed for a config about to run, with its forum's capabilities.
func refuseFixedLive(cfg *config.Config) error {
	f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username, Location: cfg.ForumLocation()})
	if err != nil {
		return fmt.Errorf("forum.dialect: %w", err)
	}
	return refuseFixed(cfg, f.Capabilities())
}

// checkNamesOnline looks the players and moderators up on the forum when the bot can log in
// (its password is set and the forum answers); otherwise it says the names were not checked.
func checkNamesOnline(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	password, err := cfg.Password()
	if err != nil {
		fmt.Fprintln(stdout, "names: not checked on the forum (the bot's password is not set here; forumgm forum-check does it)")
		return nil
	}
	f, err := openForum(cfg.Forum.Dialect, forum.Config{BaseURL: cfg.Forum.URL, Username: cfg.Bot.Username,
		Password: password, Location: cfg.ForumLocation(), UserAgent: cfg.Forum.UserAgent, Extra: cfg.Forum.Extra})
	if err != nil {
		return err
	}
	if _, ok := f.(forum.UserFinder); !ok {
		fmt.Fprintln(stdout, "names: this dialect cannot look users up; check the players' and moderators' names by hand")
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := f.Login(lctx); err != nil {
		fmt.Fprintf(stdout, "names: not checked on the forum (cannot log in as %s: %v)\n", cfg.Bot.Username, err)
		return nil
	}
	missing, err := checkNames(lctx, f, cfg.Players(), cfg.Moderators, stdout)
	if err != nil {
		fmt.Fprintf(stdout, "names: not checked on the forum (%v)\n", err)
		return nil
	}
	if len(missing) > 0 {
		return fmt.Errorf("no such user on the forum: %s (the game's private messages to them would be undeliverable: check the spelling)", strings.Join(missing, ", "))
	}
	return nil
}
