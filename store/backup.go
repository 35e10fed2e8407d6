package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/mattn/go-sqlite3"
)

// Backup writes a consistent copy of the database to path with SQLite's online backup API, safe
// while the daemon (this Store or another process) writes: the copy is taken in one step inside a
// read transaction, so it is the database as of one commit. It is written beside path under a
// temporary name, checked (PRAGMA quick_check), synced, given mode 0600 (it holds the games' marker
// keys) and renamed onto path, replacing an older backup only once the new one is whole.
//
// A PostgreSQL store is backed up the same way into a SQLite file (CopyTo in one snapshot), which
// `forumgm migrate-store` can load back into an empty PostgreSQL database; pg_dump works too.
//
// Copying the file (cp, rsync) while the daemon runs is not a backup: the -wal file holds the
// latest commits and a copy taken mid-write can be corrupt.
func (s *Store) Backup(ctx context.Context, path string) error {
	if IsURL(path) {
		return fmt.Errorf("store: backup to %s: %w: a backup is a file (load it into a database with forumgm migrate-store)", Redact(path), ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	if abs == s.path {
		return fmt.Errorf("store: backup to %s: %w: that is the database itself", path, ErrInvalid)
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), filepath.Base(abs)+".tmp-*")
	if err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	name := tmp.Name()
	tmp.Close()
	done := false
	defer func() {
		if !done {
			os.Remove(name)
			os.Remove(name + "-journal")
		}
	}()
	if err := s.backupTo(ctx, name); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	if err := syncFile(name); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	if err := os.Rename(name, abs); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, err)
	}
	done = true
	if err := syncFile(filepath.Dir(abs)); err != nil {
		return fmt.Errorf("store: backup to %s: the copy is written but its folder not synced: %w", path, err)
	}
	return nil
}

// backupTo copies the database into the (empty) file name and checks the copy.
func (s *Store) backupTo(ctx context.Context, name string) error {
	if s.pg {
		return s.copyToFile(ctx, name)
	}
	dst, err := sql.Open("sqlite3", dsn(name, url.Values{"_journal_mode": {"DELETE"}}))
	if err != nil {
		return err
	}
	defer dst.Close()
	dconn, err := dst.Conn(ctx)
	if err != nil {
		return err
	}
	defer dconn.Close()
	sconn, err := s.r.Conn(ctx)
	if err != nil {
		return err
	}
	defer sconn.Close()
	err = dconn.Raw(func(d any) error {
		dc, ok := d.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", d)
		}
		return sconn.Raw(func(s any) error {
			sc, ok := s.(*sqlite3.SQLiteConn)
			if !ok {
				return fmt.Errorf("unexpected driver connection %T", s)
			}
			b, err := dc.Backup("main", sc, "main")
			if err != nil {
				return err
			}
			// All pages in one step: one read transaction on the source, so the copy is one
			// commit's state, and writers (WAL) are not held up.
			finished, err := b.Step(-1)
			if ferr := b.Finish(); err == nil {
				err = ferr
			}
			if err == nil && !finished {
				err = errors.New("backup step did not finish")
			}
			return err
		})
	})
	if err != nil {
		return err
	}
	var res string
	if err := dconn.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("check the copy: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("check the copy: quick_check: %s", res)
	}
	return nil
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// copyToFile copies the store into a new SQLite store in the (empty) file name.
func (s *Store) copyToFile(ctx context.Context, name string) error {
	dst, err := Open(ctx, name)
	if err != nil {
		return err
	}
	defer os.Remove(lockPath(dst.path))
	if err := s.CopyTo(ctx, dst); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
