package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/internal/testkit"
)

// pgBase is the PostgreSQL cluster this run of the store tests uses, set by TestOnPostgres in the
// run of this test binary it starts; "" runs them on SQLite.
var pgBase = os.Getenv("FORUMGM_STORE_TEST_POSTGRES")

// openTest opens a new store of the run's engine: a SQLite file, or a fresh schema of the
// PostgreSQL cluster (TestOnPostgres). It returns the store and where it is (a path or a URL).
func openTest(t testing.TB) (*Store, string) {
	t.Helper()
	if pgBase == "" {
		return openFileTest(t)
	}
	loc := pgSchema(t, pgBase)
	return openAt(t, loc), loc
}

// openFileTest opens a new store in a SQLite file, for the tests of what only a file has (the
// lock, the file's identity and mode, SQLite's backup).
func openFileTest(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "forumgm.db")
	return openAt(t, path), path
}

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	tick := func() time.Time { return clock.Advance(time.Second) } // deterministic: one second per reading
	s, err := Open(context.Background(), path, WithClock(tick))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ensureGame(t testing.TB, s *Store, id string) {
	t.Helper()
	if _, err := s.EnsureGame(context.Background(), id, "crusade", json.RawMessage(`{"players":4}`)); err != nil {
		t.Fatal(err)
	}
}

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.FixedZone("MSK", 3*3600))

func mkPost(id string) forum.Post {
	return forum.Post{ID: id, Author: "Игрок " + id, AuthorID: "u" + id, Time: t0.Add(time.Minute), Text: "ход " + id}
}

func rec(kind, data string) game.Record {
	return game.Record{Kind: kind, Data: json.RawMessage(data)}
}

// moveCommit is a typical commit: a post accepted, two events, one reply, the cursor moved.
func moveCommit(gameID, id string) Commit {
	return Commit{
		Game: gameID,
		At:   t0,
		Post: &Judgement{Source: SourceThread, Post: mkPost(id), Verdict: VerdictAccepted},
		Events: []game.Record{
			rec("move", fmt.Sprintf(`{"post":%q,"from":"a1","to":"a2"}`, id)),
			rec("turn_passed", `{"to":"next"}`),
		},
		Outbox: []OutboxItem{{Kind: OutboxReply, Body: "[b]Ход " + id + " принят[/b]"}},
		Cursor: &CursorUpdate{Source: SourceThread, Cursor: forum.Cursor{PostID: id}},
	}
}

// dump renders every row of every table, for comparing the whole database before and after.
// Columns named in skip ("table.column") are left out (a column a later migration added).
func dump(t testing.TB, s *Store, skip ...string) string {
	t.Helper()
	ctx := context.Background()
	tables := tableNames(t, s)
	var b strings.Builder
	for _, tb := range tables {
		fmt.Fprintf(&b, "== %s\n", tb)
		order := ` ORDER BY rowid`
		if s.pg {
			order = ` ORDER BY ` + tb // the whole row
		}
		rs, err := s.r.QueryContext(ctx, `SELECT * FROM `+tb+order)
		if err != nil {
			rs, err = s.r.QueryContext(ctx, `SELECT * FROM `+tb)
			if err != nil {
				t.Fatal(err)
			}
		}
		cols, _ := rs.Columns()
		for rs.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var keep []any
			for i, v := range vals {
				if !slices.Contains(skip, tb+"."+cols[i]) {
					keep = append(keep, v)
				}
			}
			fmt.Fprintf(&b, "%q\n", fmt.Sprint(keep...))
		}
		rs.Close()
	}
	return b.String()
}

// tableNames lists the store's tables by name.
func tableNames(t testing.TB, s *Store) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
	if s.pg {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`
	}
	rows, err := s.r.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	return tables
}

func count(t testing.TB, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.r.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// rawDB opens the file without the store, for looking at it from outside.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path, url.Values{"_busy_timeout": {"5000"}}))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// gameKey is the game's marker key, made now when the game has none yet (as its first queued item
// would).
func gameKey(t *testing.T, s *Store, game string) []byte {
	t.Helper()
	ctx := context.Background()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	key, err := markerKey(ctx, tx, game)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return key
}
