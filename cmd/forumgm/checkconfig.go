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
	"forumgm/fleet"
	"forumgm/forum"
)

// cmdCheckConfig checks a config and every game in it (or the one --game names): what it finds
// is printed first, the verdict last and once: "PATH: OK (...)" on stdout, or the problems as the
// command's error, each naming its field and its game.
func cmdCheckConfig(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("check-config", stderr)
	gameID := gameFlag(fs)
	all, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	views, err := gamesOf(all, *gameID)
	if err != nil {
		return err
	}
	var problems []error
	for _, v := range views {
		problems = append(problems, checkGame(v, stdout)...)
	}
	// The daemon cannot start without the bot's password, nor the moderator web UI without its
	// accounts': say so now, not at run.
	secrets := all.CheckSecrets(true)
	if *gameID != "" {
		secrets = views[0].CheckSecrets(true)
	}
	if secrets != nil {
		problems = append(problems, fmt.Errorf("%w (export them before forumgm run)", secrets))
	} else {
		for _, v := range views {
			if err := checkNamesOnline(ctx, v, stdout); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", v.Where(), err))
			}
		}
	}
	if len(problems) > 0 {
		return verdict(*path, problems)
	}
	fmt.Fprintf(stdout, "%s: OK (%s)\n", *path, countGames(views))
	return nil
}

// verdict is the error saying a check found problems: one on its line, several listed.
func verdict(path string, problems []error) error {
	if len(problems) == 1 {
		return fmt.Errorf("%s: %w", path, problems[0])
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = "  - " + p.Error()
	}
	return fmt.Errorf("%s: %d problems:\n%s", path, len(problems), strings.Join(lines, "\n"))
}

// checkGame prints what one game's view sets up (the game, its thread, forum and bot) and returns
// its problems, each naming the field and the game.
func checkGame(v *config.Config, stdout io.Writer) []error {
	ref, _ := config.EnvRef(v.Bot.PasswordEnv) // a value that may be a password is not printed
	fmt.Fprintf(stdout, "%s: %s, %d players, thread %s on %s (%s), bot %s (password from %s)\n",
		v.Where(), v.Game.Kind, len(v.Players()), v.Forum.Thread, v.Forum.URL, v.Forum.Dialect, v.Bot.Username, ref)
	f, err := openForum(v.Forum.Dialect, forum.Config{BaseURL: v.Forum.URL, Username: v.Bot.Username, Location: v.ForumLocation()})
	if err != nil {
		return []error{fmt.Errorf("%s: %s: %w", v.Where(), v.Field("forum.dialect"), err)}
	}
	caps := f.Capabilities()
	var problems []error
	// The referee must accept the game's settings and roster.
	if _, err := daemon.RefereeFactory(v, caps, daemon.GameRecord{Start: v.StartTime()}); err != nil {
		problems = append(problems, fmt.Errorf("%s: %s: %w", v.Where(), v.Field("game"), err))
	}
	if err := refuseFixed(v, caps); err != nil {
		problems = append(problems, err)
	}
	if setup, err := v.GameSetup(!caps.PrivateMessages, v.StartTime()); err == nil {
		for _, w := range setup.Warnings {
			fmt.Fprintf(stdout, "warning: %s: %s\n", v.Where(), w)
		}
	}
	if !caps.PrivateMessages {
		fmt.Fprintf(stdout, "note: %s: this forum has no private messages: deployments and answers go to the thread; moderators are not notified (use %s list)\n", v.Where(), fleet.SettleOf(v).Command())
	}
	return problems
}

// refuseFixed refuses a live game whose settings fix chance or the starting position (football's
// dice, start_cells, points, goals, dice_salt): the players could not check the game was fair.
// Transcripts and tests set them through their own path.
func refuseFixed(v *config.Config, caps forum.Capabilities) error {
	setup, err := v.GameSetup(!caps.PrivateMessages, v.StartTime())
	if err != nil {
		return fmt.Errorf("%s: %s: %w", v.Where(), v.Field("game"), err)
	}
	if len(setup.Fixed) == 0 {
		return nil
	}
	names := make([]string, len(setup.Fixed))
	for i, f := range setup.Fixed {
		names[i] = v.Field("game.settings." + f)
	}
	return fmt.Errorf("%s: %s: fixes chance or the starting position (a test setting): a live game must not set it, the players could not check it (docs/fairness.md)",
		v.Where(), strings.Join(names, ", "))
}

// refuseFixedLive is refuseFixed for every game of a config about to run, each with its forum's
// capabilities.
func refuseFixedLive(cfg *config.Config) error {
	var errs []error
	for _, v := range cfg.GameConfigs() {
		f, err := openForum(v.Forum.Dialect, forum.Config{BaseURL: v.Forum.URL, Username: v.Bot.Username, Location: v.ForumLocation()})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", v.Where(), v.Field("forum.dialect"), err))
			continue
		}
		if err := refuseFixed(v, f.Capabilities()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkNamesOnline looks the players and moderators of a game up on the forum when the bot can
// log in (its password is set and the forum answers); otherwise it says the names were not
// checked.
func checkNamesOnline(ctx context.Context, v *config.Config, stdout io.Writer) error {
	password, err := v.Password()
	if err != nil {
		fmt.Fprintf(stdout, "names: %s: not checked on the forum (the bot's password is not set here; forumgm forum-check does it)\n", v.Where())
		return nil
	}
	f, err := openForum(v.Forum.Dialect, forum.Config{BaseURL: v.Forum.URL, Username: v.Bot.Username,
		Password: password, Location: v.ForumLocation(), UserAgent: v.Forum.UserAgent, Extra: v.Forum.Extra})
	if err != nil {
		return fmt.Errorf("%s: %w", v.Field("forum.dialect"), err)
	}
	if _, ok := f.(forum.UserFinder); !ok {
		fmt.Fprintf(stdout, "names: %s: this dialect cannot look users up; check the players' and moderators' names by hand\n", v.Where())
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := f.Login(lctx); err != nil {
		fmt.Fprintf(stdout, "names: %s: not checked on the forum (cannot log in as %s: %v)\n", v.Where(), v.Bot.Username, err)
		return nil
	}
	missing, err := checkNames(lctx, f, v.Players(), v.Moderators, stdout)
	if err != nil {
		fmt.Fprintf(stdout, "names: %s: not checked on the forum (%v)\n", v.Where(), err)
		return nil
	}
	if len(missing) > 0 {
		return fmt.Errorf("no such user on the forum: %s (the game's private messages to them would be undeliverable: check the spelling in %s)",
			strings.Join(missing, ", "), strings.Join([]string{v.Field("game.roster"), v.Field("moderators")}, " and "))
	}
	return nil
}
