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
	"sort"
	"strings"
	"syscall"
	_ "time/tzdata" // time zones work on minimal machines
)

// command is one subcommand: it gets the arguments after its name and the standard streams.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is filled by each subcommand's file from init.
var commands = map[string]command{}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: forumgm COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, commands[n].summary)
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
	cmd, ok := commands[args[0]]
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
