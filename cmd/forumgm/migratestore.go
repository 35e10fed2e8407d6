package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"forumgm/store"
)

// cmdMigrateStore copies every game of the config's store into another, empty store: a SQLite
// file into PostgreSQL (the way a community moves to several daemons), a PostgreSQL store into a
// file, or a backup file into either (store.CopyTo: one snapshot of the source, one transaction
// in the destination). The daemon must be stopped: what it commits after the snapshot would be
// left behind.
func cmdMigrateStore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("migrate-store", stderr)
	from := fs.String("from", "", "copy from this store (a SQLite `FILE` such as a backup, or a postgres:// URL) instead of the config's")
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("migrate-store: name the destination: a postgres:// URL (an empty database) or a new SQLite file")
	}
	src := cfg.StoreLocation()
	if *from != "" {
		src = *from
	}
	dst := fs.Arg(0)
	if store.IsURL(src) == store.IsURL(dst) && src == dst {
		return errors.New("migrate-store: the destination is the source")
	}
	if !store.IsURL(src) {
		if holder, held, err := store.Holder(src); err != nil {
			return err
		} else if held {
			return fmt.Errorf("migrate-store: a daemon holds %s (%s): stop it first, or copy a backup with --from", src, holder)
		}
	}
	s, err := store.Open(ctx, src, store.Shared())
	if err != nil {
		return err
	}
	defer s.Close()
	d, err := store.Open(ctx, dst)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := s.CopyTo(ctx, d); err != nil {
		return err
	}
	games, err := d.Games(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %d games into %s; point store.url (or store.path) at it and start the daemons\n", len(games), store.Redact(dst))
	return nil
}
