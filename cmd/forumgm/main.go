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

// command is one subcommand: its name, its usage line (after "forumgm"), the one sentence
// saying what it does (the usage's list and the command's -h), and its run function, which gets
// the arguments after the name and the standard streams.
type command struct {
	name    string
	usage   string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commandTable names every subcommand; the usage lists them in this order. (A function, not a
// variable: the commands' flag sets read their usage from it.)
func commandTable() []command {
	return []command{
		{"backup", "backup [--config FILE] COPY.db", "Write a consistent copy of the store while the daemon runs (SQLite's backup API).", cmdBackup},
		{"check-config", "check-config [--config FILE] [--game ID]", "Check a configuration file: every field, each game's settings and roster, the passwords it names and, when the bot can log in, the names on the forum.", cmdCheckConfig},
		{"detect", "detect (--file PAGE | URL) [flags]", "Recognise the forum engine of a thread page, name its dialect and print a forum: block for the config.", runDetect},
		{"forum-check", "forum-check [--config FILE] [--game ID] [--last N]", "Log in to each game's forum, read its thread and the inbox, and report what forumgm would see (posts nothing).", cmdForumCheck},
		{"games", "games [--config FILE] [--game ID] ACTION [ID] [flags]", "List, add, pause, resume, end and archive the games of a config.", cmdGames},
		{"migrate-store", "migrate-store [--config FILE] [--from STORE] DESTINATION", "Copy every game of the store into another, empty store: a SQLite file into PostgreSQL (postgres://…), or back (the daemons stopped).", cmdMigrateStore},
		{"posts", "posts (--file PAGE | --url URL) [--dialect NAME | --config FILE [--game ID]] [flags]", "Print the posts a dialect reads from a saved page or a URL.", runPosts},
		{"replay", "replay [--json | --thread] TRANSCRIPT.yaml", "Replay a game from a transcript file and print each reply.", runReplay},
		{"review", "review [--config FILE] [--game ID] ACTION [ID] [flags]", "Settle the moderator queue of a game from the console, or serve the moderator web UI.", cmdReview},
		{"run", "run [--config FILE]", "Run the game master daemon for every game of the config.", cmdRun},
		{"sandbox", "sandbox [--game NAME] [--addr HOST:PORT] [--dir DIR] [flags]", "Play a game on a local sandbox forum in the browser.", cmdSandbox},
		{"stats", "stats [--config FILE] [--json]", "Print every game in the store with its result, and per player the games, wins, moves and penalties.", cmdStats},
		{"verify", "verify ([--seed SEED --salt SALT] THREAD.yaml | THREAD-URL | --file PAGE... | --config FILE [--game ID])", "Check that a game followed from the seed it revealed: from its thread as a guest, saved pages, a transcript or the store.", runVerify},
	}
}

// lookup finds the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commandTable() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: forumgm COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commandTable() {
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
