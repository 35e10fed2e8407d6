package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"time"
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// migration is one numbered schema change, migrations/NNNN_name.sql (SQLite) or
// migrations/postgres/NNNN_name.sql (PostgreSQL): both engines have the same versions and names,
// each written in its own SQL (TestMigrationsMatch).
type migration struct {
	version  int
	name     string
	sql      string
	checksum string
}

var migrationName = regexp.MustCompile(`^(\d{4})_([a-z0-9_]+)\.sql$`)

func embeddedMigrations(pg bool) ([]migration, error) {
	dir := "migrations"
	if pg {
		dir = "migrations/postgres"
	}
	sub, err := fs.Sub(migrationFS, dir)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return loadMigrations(sub)
}

// loadMigrations reads *.sql of fsys; versions must run 1..n without gaps or duplicates.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	var ms []migration
	for _, n := range names {
		m := migrationName.FindStringSubmatch(path.Base(n))
		if m == nil {
			return nil, fmt.Errorf("store: migrations: bad file name %q (want NNNN_name.sql)", n)
		}
		v, _ := strconv.Atoi(m[1])
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("store: migrations: %w", err)
		}
		sum := sha256.Sum256(b)
		ms = append(ms, migration{version: v, name: m[2], sql: string(b), checksum: hex.EncodeToString(sum[:])})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("store: migrations: version %d found where %d was expected", m.version, i+1)
		}
	}
	return ms, nil
}

// migrate applies the migrations not yet recorded in schema_migrations, in order, each in its own
// transaction together with its schema_migrations row. A migration already applied is checked
// against its recorded checksum (an edited migration is an error, not silently skipped).
//
// On PostgreSQL several daemons may start at once: the whole migration runs under a session-level
// advisory lock, so one migrates while the others wait.
func migrate(ctx context.Context, db *sql.DB, ms []migration, now func() time.Time, pg bool) error {
	ddl := `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		checksum   TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`
	if pg {
		conn, err := db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		defer conn.Close()
		// Wait as long as another daemon migrates (the sessions' lock_timeout is for rows).
		if _, err := conn.ExecContext(ctx, `SET lock_timeout = 0`); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(7305942611)`); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(7305942611); RESET lock_timeout`)
	} else {
		ddl += " STRICT"
	}
	if _, err := db.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var have int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if have > len(ms) {
		return fmt.Errorf("migrate: database schema version %d is newer than this binary knows (%d)", have, len(ms))
	}
	for _, m := range ms {
		if err := applyMigration(ctx, db, m, now); err != nil {
			return fmt.Errorf("migrate: %04d_%s: %w", m.version, m.name, err)
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, m migration, now func() time.Time) (err error) {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: another process migrating waits here
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var sum string
	switch err := tx.QueryRowContext(ctx, `SELECT checksum FROM schema_migrations WHERE version = ?`, m.version).Scan(&sum); {
	case err == nil:
		if sum != m.checksum {
			return fmt.Errorf("applied with checksum %s, the file now has %s (never edit an applied migration; add a new one)", sum, m.checksum)
		}
		return tx.Rollback()
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
		m.version, m.name, m.checksum, fmtTime(now())); err != nil {
		return err
	}
	return tx.Commit()
}
