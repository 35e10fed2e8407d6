package store

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Both engines have the same migrations, by version and name.
func TestMigrationsMatch(t *testing.T) {
	lite, err := embeddedMigrations(false)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := embeddedMigrations(true)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) != len(pg) {
		t.Fatalf("SQLite has %d migrations, PostgreSQL %d: write each in both (migrations/postgres)", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].version != pg[i].version || lite[i].name != pg[i].name {
			t.Errorf("migration %d: SQLite %04d_%s, PostgreSQL %04d_%s", i+1, lite[i].version, lite[i].name, pg[i].version, pg[i].name)
		}
	}
}

// copyTables names every table of the schema, so a copy (backup of a PostgreSQL store,
// migrate-store) leaves nothing behind.
func TestCopyTablesComplete(t *testing.T) {
	s, _ := openTest(t)
	var have []string
	for _, n := range tableNames(t, s) {
		if n != "schema_migrations" {
			have = append(have, n)
		}
	}
	want := slices.Clone(copyTables)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Fatalf("tables %v, copyTables %v: add the new table to copyTables (after the tables it refers to)", have, want)
	}
}

// A store copied into another of the other engine and back holds the same rows, and the copies go
// on working: new items get ids after the copied ones.
func TestCopyRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, _ := openTest(t)
	ensureGame(t, a, "g")
	ensureGame(t, a, "h")
	for _, id := range []string{"1", "2", "3"} {
		c := moveCommit("g", id)
		c.Flags = []NewFlag{{Source: SourceThread, PostID: id, Kind: FlagDispute, Detail: "спор " + id}}
		if err := a.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Commit(ctx, moveCommit("h", "9")); err != nil {
		t.Fatal(err)
	}
	b, _ := openFileTest(t) // the other engine in the PostgreSQL pass, the same on SQLite
	if err := a.CopyTo(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got, want := gameRows(t, b), gameRows(t, a); got != want {
		t.Fatalf("copy differs:\n%s\nwant\n%s", got, want)
	}
	if err := a.CopyTo(ctx, b); err == nil {
		t.Fatal("a second copy into a store that holds games succeeded")
	}
	c, _ := openTest(t)
	if err := b.CopyTo(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got, want := gameRows(t, c), gameRows(t, a); got != want {
		t.Fatalf("copy back differs:\n%s\nwant\n%s", got, want)
	}
	next := moveCommit("g", "4")
	next.Flags = []NewFlag{{Source: SourceThread, PostID: "4", Kind: FlagDispute}}
	if err := c.Commit(ctx, next); err != nil {
		t.Fatalf("commit after the copy: %v", err)
	}
	posts, err := c.MovePosts(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []string{"1", "2", "3", "4"}) {
		t.Errorf("move posts in order %v, want 1 2 3 4 (the order recorded survives the copy)", ids)
	}
}

// gameRows is the dump of every table but schema_migrations (each engine records its own
// migrations) and PostgreSQL's stand-in for the rowid.
func gameRows(t *testing.T, s *Store) string {
	d := dump(t, s, "posts.rowid")
	i := strings.Index(d, "== schema_migrations\n")
	if i < 0 {
		t.Fatal("no schema_migrations in the dump")
	}
	j := strings.Index(d[i+1:], "== ")
	if j < 0 {
		return d[:i]
	}
	return d[:i] + d[i+1+j:]
}

func TestRebind(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT a FROM t WHERE x = ? AND y = ?`, `SELECT a FROM t WHERE x = $1 AND y = $2`},
		{`SELECT '?' || ? FROM t`, `SELECT '?' || $1 FROM t`},
		{`SELECT "we?ird" FROM t WHERE v = ?`, `SELECT "we?ird" FROM t WHERE v = $1`},
		{"SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"},
		{`SELECT 'it''s ?', ?`, `SELECT 'it''s ?', $1`},
		{`SELECT 'open ?`, `SELECT 'open ?`},
		{`SELECT 5 - 3, ?`, `SELECT 5 - 3, $1`},
	} {
		if got := rebind(tc.in); got != tc.want {
			t.Errorf("rebind(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzRebind: rebind never panics, keeps everything but the placeholders, and numbers them from 1.
func FuzzRebind(f *testing.F) {
	for _, s := range []string{`SELECT ?`, `'?'`, "-- ?\n?", `"a?"?`, `?????`, `'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		out := rebind(q)
		if !strings.Contains(q, "?") && out != q {
			t.Fatalf("rebind(%q) = %q changed a query without placeholders", q, out)
		}
		if strings.Count(out, "$1") > 0 && !strings.Contains(q, "?") {
			t.Fatalf("rebind(%q) = %q invented a placeholder", q, out)
		}
	})
}
