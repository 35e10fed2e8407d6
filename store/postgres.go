package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsURL reports whether a store location names a PostgreSQL database (postgres://…) rather than
// a SQLite file.
func IsURL(loc string) bool {
	return strings.HasPrefix(loc, "postgres://") || strings.HasPrefix(loc, "postgresql://")
}

// openPostgres opens the PostgreSQL database at loc (a postgres:// URL) and applies the pending
// migrations (migrations/postgres, the same versions as SQLite's). Several daemons may share one
// database: games are leased, not locked (see leases), so there is no store lock and no file to
// watch; the writers' pool and the readers' pool (read-only transactions) are separate, as on
// SQLite. The same queries run on both engines: the connector rewrites SQLite's ? placeholders to
// PostgreSQL's $1, $2, … (rebind).
func openPostgres(ctx context.Context, loc string, ms []migration, opts ...Option) (*Store, error) {
	where := Redact(loc)
	s := &Store{now: time.Now, path: where, pg: true}
	for _, o := range opts {
		o(s)
	}
	w, err := pgConnect(loc, false)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", where, err)
	}
	s.w = w
	s.w.SetMaxOpenConns(4)
	if err := s.w.PingContext(ctx); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", where, err)
	}
	if err := migrate(ctx, s.w, ms, s.now, true); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", where, err)
	}
	if s.r, err = pgConnect(loc, true); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: readers: %w", where, err)
	}
	s.r.SetMaxOpenConns(4)
	return s, nil
}

// pgConnect opens a pool on loc whose connections take ? placeholders; readOnly pools run every
// transaction read-only (default_transaction_read_only), as SQLite's query_only readers.
func pgConnect(loc string, readOnly bool) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(loc)
	if err != nil {
		return nil, fmt.Errorf("bad database URL: %w", err)
	}
	if readOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	cfg.RuntimeParams["timezone"] = "UTC"
	// A daemon stopped inside a transaction (SIGSTOP, a stall) must not hold rows others need:
	// the server ends a session idle in a transaction after 2 s (every transaction here takes
	// milliseconds), and a statement waits at most 1 s for a lock before it fails and is retried.
	for k, v := range map[string]string{"idle_in_transaction_session_timeout": "2000", "lock_timeout": "1000"} {
		if _, set := cfg.RuntimeParams[k]; !set {
			cfg.RuntimeParams[k] = v
		}
	}
	return sql.OpenDB(rebindConnector{stdlib.GetConnector(*cfg)}), nil
}

// Redact is a store location fit for messages and logs: a database URL without its password, a
// file path as it is.
func Redact(loc string) string {
	if !IsURL(loc) {
		return loc
	}
	u, err := url.Parse(loc)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}

// rebindConnector hands out pgx connections that rewrite ? placeholders.
type rebindConnector struct{ driver.Connector }

func (c rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return rebindConn{conn.(*stdlib.Conn)}, nil
}

// rebindConn is a pgx connection whose query methods rewrite the query first; every other method
// (transactions, ping, session reset, value checks) is pgx's own.
type rebindConn struct{ *stdlib.Conn }

func (c rebindConn) Prepare(q string) (driver.Stmt, error) { return c.Conn.Prepare(rebind(q)) }

func (c rebindConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(q))
}

func (c rebindConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(q), args)
}

func (c rebindConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(q), args)
}

// rebind turns each ? placeholder outside quotes and comments into $1, $2, ….
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		switch ch := q[i]; ch {
		case '\'', '"':
			j := i + 1
			for j < len(q) && q[j] != ch {
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case '-':
			if i+1 < len(q) && q[i+1] == '-' {
				j := strings.IndexByte(q[i:], '\n')
				if j < 0 {
					j = len(q) - i
				}
				b.WriteString(q[i : i+j])
				i += j - 1
				continue
			}
			b.WriteByte(ch)
		case '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
