// Command forumgm is the game master of play-by-post games on web forums: it runs games in forum
// threads (run, sandbox), replays transcripts (replay), and helps check forums and configs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	_ "time/tzdata" // time zones work on minimal machines
)

// command is one subcommand: its name, its one-line summary for the usage, and its run function,
// which gets the arguments after the name and the standard streams.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands names every subcommand and its run function; the usage lists them in this order.
var commands = []command{
	{"backup", "backup --config F FILE: a consistent copy of the database while the daemon runs (SQLite's backup API)", cmdBackup},
	{"check-config", "validate a configuration file: forumgm check-config --config config.yaml", cmdCheckConfig},
	{"detect", "recognise the forum engine of a thread page (URL or --file), name its dialect, print a forum: block", runDetect},
	{"forum-check", "log in, read the game thread and the inbox, report (posts nothing)", cmdForumCheck},
	{"games", "the games of a config: forumgm games --config config.yaml list|add FILE|pause|resume|end|archive ID", cmdGames},
	{"posts", "print the posts a dialect extracts from a saved page or a URL (--json)", runPosts},
	{"replay", "replay a game from a transcript file and print each reply (--json: one JSON object)", runReplay},
	{"review", "moderator queue: review --config F [list|show ID|log [N]|accept ID [--text MOVE]|reject ID|close ID|undo|pause|resume|end [--winner W]|extend DUR|holiday DAY|clarify --text T|length N] --by NAME [--reason TEXT]; review --config F serve [--listen ADDR] [--game ID] (web UI, every game)", cmdReview},
	{"run", "run the game master daemon: forumgm run --config config.yaml", cmdRun},
	{"sandbox", "play a game on a local sandbox forum: forumgm sandbox [--game NAME] [--addr 127.0.0.1:0] [--dir DIR]", cmdSandbox},
	{"stats", "every game in the store and its result; per player games, wins, moves, penalties: forumgm stats --config config.yaml [--json]", cmdStats},
	{"verify", "check a game's fairness: forumgm verify --seed S --salt T THREAD.yaml, or --config config.yaml (the game in the store)", runVerify},
}

// lookup finds the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: forumgm COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'forumgm COMMAND -h' for a command's flags.")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	cmd, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "forumgm: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // the command printed its flags, as asked
		}
		msg := strings.TrimPrefix(err.Error(), args[0]+": ") // no "forumgm review: review: ..."
		fmt.Fprintf(stderr, "forumgm %s: %s\n", args[0], msg)
		return 1
	}
	return 0
}
