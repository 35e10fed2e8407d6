package main

import (
	"context"
	"encoding/json"
	"io"

	"forumgm/stats"
	"forumgm/store"
)

// cmdStats prints the table over every game the store holds (package stats).
func cmdStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("stats", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object (games, players)")
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.StoreLocation(), store.Shared())
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := stats.Collect(ctx, st)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	return t.Write(stdout)
}
