package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"forumgm/config"
)

// configFlags is the flag set of the command name (see newFlags) with --config, the
// configuration file (config.yaml by default).
func configFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := newFlags(name, stderr, "")
	return fs, fs.String("config", "config.yaml", "the configuration `FILE`")
}

// newFlags is the flag set of the command name; usage and errors go to stderr. Its -h prints the
// help every command prints the same way (helpUsage), with more (actions, notes) after the
// sentence saying what it does.
func newFlags(name string, stderr io.Writer, more string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { helpUsage(fs, more) }
	return fs
}

// helpUsage prints a command's help: "usage: forumgm USAGE" and the sentence saying what it does
// (both from the command table), more (further lines: actions, notes; may be empty), then
// "flags:" and each flag as "  --name VALUE  what it is (default D)".
func helpUsage(fs *flag.FlagSet, more string) {
	w := fs.Output()
	c, _ := lookup(fs.Name())
	fmt.Fprintf(w, "usage: forumgm %s\n%s\n", c.usage, c.summary)
	if more != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(more, "\n"))
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		switch arg {
		case "string", "value": // no `NAME` in the usage: the flag's own name says what it takes
			arg = strings.ReplaceAll(f.Name, "-", "_")
		case "int", "uint":
			arg = "N"
		}
		name := "--" + f.Name
		if arg != "" {
			name += " " + strings.ToUpper(arg)
		}
		line := fmt.Sprintf("  %-20s %s", name, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			line += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintln(w, line)
	})
}

// gameFlag adds --game, the id of the game a command acts on, to fs.
func gameFlag(fs *flag.FlagSet) *string {
	return fs.String("game", "", "the game's `id` (needed when the config lists several games)")
}

// loadConfig parses args with fs and loads the configuration file path names.
func loadConfig(fs *flag.FlagSet, path *string, args []string) (*config.Config, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return config.Load(*path, knownGames())
}

// gamesOf is the games of cfg a command acts on, each as its single-game view: the one id names,
// or every game when id is "".
func gamesOf(cfg *config.Config, id string) ([]*config.Config, error) {
	if id == "" {
		return cfg.GameConfigs(), nil
	}
	v, err := cfg.Select(id)
	if err != nil {
		return nil, err
	}
	return []*config.Config{v}, nil
}
