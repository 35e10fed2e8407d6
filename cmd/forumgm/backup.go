package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"forumgm/store"
)

// cmdBackup copies the store with store.Backup. It opens the store shared, beside the daemon that
// holds it; copying the file itself while the daemon writes can give a corrupt copy.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("backup", stderr)
	cfg, err := loadConfig(fs, path, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("backup: name one file to write the copy to")
	}
	st, err := store.Open(ctx, cfg.StoreLocation(), store.Shared())
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s (checked with quick_check)\n", fs.Arg(0))
	return nil
}
