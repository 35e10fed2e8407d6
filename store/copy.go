package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// copyTables is every table of the schema (schema_migrations aside) in the order a copy fills
// them: each after the tables it refers to. TestCopyTablesComplete holds it to the migrations.
var copyTables = []string{
	"games", "posts", "events", "outbox", "flags", "cursors", "clocks", "marker_keys", "blobs",
	"outbox_attachments", "chain", "secrets", "leases", "daemons", "rates", "progress",
}

// copyOrder is the order rows are copied in where it matters: a game's events in seq order (the
// log's gapless trigger checks each insert).
var copyOrder = map[string]string{"events": "game_id, seq", "posts": "rowid", "chain": "game_id, k"}

// identityColumns are the PostgreSQL identity columns (table.column): after rows are copied in
// with their values, each column's sequence must continue after the largest. posts.rowid stands
// for SQLite's implicit rowid (the order posts were recorded in).
var identityColumns = [][2]string{{"outbox", "id"}, {"flags", "id"}, {"posts", "rowid"}}

// CopyTo copies every row of s into dst, an empty store of either engine at the same schema
// version: the source is read in one snapshot (a read-only transaction; repeatable read on
// PostgreSQL), so the copy is the database as of one commit however much the daemon writes
// meanwhile, and written in one transaction. It is how a PostgreSQL store is backed up (into a
// SQLite file) and how a community moves from SQLite to PostgreSQL (forumgm migrate-store).
func (s *Store) CopyTo(ctx context.Context, dst *Store) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if s.pg {
		opts.Isolation = sql.LevelRepeatableRead
	}
	src, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("store: copy: begin: %w", err)
	}
	defer src.Rollback()
	var have, want int
	if err := src.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("store: copy: %w", err)
	}
	if err := dst.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&want); err != nil {
		return fmt.Errorf("store: copy: %w", err)
	}
	if have != want {
		return fmt.Errorf("store: copy: %w: the source is at schema version %d, the destination at %d", ErrInvalid, have, want)
	}
	return dst.write(ctx, "copy", func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: the destination already holds %d games (copy into an empty store)", ErrInvalid, n)
		}
		for _, t := range copyTables {
			if err := copyTable(ctx, src, tx, t); err != nil {
				return fmt.Errorf("table %s: %w", t, err)
			}
		}
		if dst.pg {
			for _, tc := range identityColumns {
				t, c := tc[0], tc[1]
				if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', '`+c+`'), COALESCE(MAX(`+c+`), 0) + 1, false) FROM `+t); err != nil {
					return fmt.Errorf("table %s: identity %s: %w", t, c, err)
				}
			}
		}
		return nil
	})
}

// copyTable copies one table's rows, column by column name.
func copyTable(ctx context.Context, src, dst *sql.Tx, table string) error {
	order := copyOrder[table]
	if order == "" {
		order = "1"
	}
	rows, err := src.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY `+order)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	ins := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) + `)`
	stmt, err := dst.PrepareContext(ctx, ins)
	if err != nil {
		return err
	}
	defer stmt.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, vals...); err != nil {
			return err
		}
	}
	return errors.Join(rows.Err(), rows.Close())
}
