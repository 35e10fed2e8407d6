package main

import (
	"flag"
	"io"

	"forumgm/config"
)

// configFlags is the flag set of the command name with --config, the configuration file
// (config.yaml by default); usage and errors go to stderr.
func configFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs, fs.String("config", "config.yaml", "the configuration file")
}

// loadConfig parses args with fs and loads the configuration file path names.
func loadConfig(fs *flag.FlagSet, path *string, args []string) (*config.Config, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return config.Load(*path, knownGames())
}
