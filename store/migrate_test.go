package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestMigrationsApplyOnceAndReopenIsNoOp(t *testing.T) {
	ctx := context.Background()
	s, path := openTest(t)
	want, err := embeddedMigrations(s.pg)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 2 {
		t.Fatalf("want at least 2 embedded migrations, have %d", len(want))
	}
	first, err := s.Migrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(want) {
		t.Fatalf("applied %d migrations, want %d", len(first), len(want))
	}
	for i, m := range first {
		if m.Version != i+1 || m.Name != want[i].name {
			t.Errorf("migration %d = %+v, want version %d name %s", i, m, i+1, want[i].name)
		}
	}
	s.Close()

	// Re-open with a clock far in the future: nothing is applied again.
	later := func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	s2, err := Open(ctx, path, WithClock(later))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	again, err := s2.Migrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(first) {
		t.Fatalf("after re-open %d migrations, want %d", len(again), len(first))
	}
	for i := range again {
		if !again[i].AppliedAt.Equal(first[i].AppliedAt) {
			t.Errorf("migration %d re-applied: applied_at %v, was %v", i+1, again[i].AppliedAt, first[i].AppliedAt)
		}
	}
	if !slices.Contains(tableNames(t, s2), "games") {
		t.Errorf("no games table after re-open")
	}
}

func TestOldVersionDBMigrates(t *testing.T) {
	ctx := context.Background()
	all, err := embeddedMigrations(false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := open(ctx, path, all[:1])
	if err != nil {
		t.Fatal(err)
	}
	ensureGame(t, old, "g1")
	v1Commit(t, old, "g1", "100") // what a version-1 binary wrote

	if n := count(t, old, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'outbox_by_state'`); n != 0 {
		t.Fatalf("version 1 already has the version 2 index")
	}
	before := dump(t, old)
	old.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ms, err := s.Migrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(all) || ms[len(ms)-1].Version != len(all) {
		t.Fatalf("migrations after upgrade: %+v", ms)
	}
	for _, idx := range []string{"posts_by_verdict", "outbox_by_state", "flags_by_state", "flags_by_post"} {
		if n := count(t, s, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?`, idx); n != 1 {
			t.Errorf("index %s missing after upgrade", idx)
		}
	}
	// The old data is intact (only schema_migrations gained rows, posts a NULL post_json) and
	// usable: the old post reads back with its own text only (not Whole), hashed as before.
	after := dump(t, s, "posts.post_json")
	if n := count(t, s, `SELECT count(*) FROM posts WHERE post_json IS NULL`); n != 1 {
		t.Errorf("%d old posts with a NULL post_json, want 1", n)
	}
	p, ok, err := s.SeenPost(ctx, "g1", SourceThread, "100")
	if err != nil || !ok || p.Whole || p.Post.Text != mkPost("100").Text || p.HashOf(mkPost("100")) != p.TextHash {
		t.Errorf("old post after the upgrade: %+v %v %v", p, ok, err)
	}
	strip := func(d string) string {
		var keep []string
		in := false
		for _, l := range strings.Split(d, "\n") {
			if strings.HasPrefix(l, "== ") {
				in = l == "== schema_migrations" || l == "== marker_keys" || // gained rows; new tables
					l == "== blobs" || l == "== outbox_attachments" || l == "== chain" || l == "== secrets" ||
					l == "== leases" || l == "== daemons" || l == "== rates" || l == "== progress"
			}
			if !in {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(before) != strip(after) {
		t.Errorf("data changed by the upgrade:\nbefore\n%s\nafter\n%s", before, after)
	}
	if err := s.Commit(ctx, moveCommit("g1", "101")); err != nil {
		t.Fatal(err)
	}
	if seq, _ := s.LastSeq(ctx, "g1"); seq != 4 {
		t.Errorf("last seq %d, want 4", seq)
	}
}

// v1Commit writes moveCommit(game, id) the way the version-1 schema stored it (no post_json), in
// raw SQL: the current Commit needs the later columns.
func v1Commit(t *testing.T, s *Store, game, id string) {
	t.Helper()
	ctx := context.Background()
	c := moveCommit(game, id)
	p := c.Post.Post
	now := fmtTime(t0)
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO posts (game_id, source, post_id, author, author_id, posted_at, first_seen_at, text_hash, text, verdict, judged_at)
			VALUES (?, 'thread', ?, ?, ?, ?, ?, ?, ?, 'accepted', ?)`,
			[]any{game, p.ID, p.Author, p.AuthorID, fmtTime(p.Time), now, TextHash(p.Text), p.Text, now}},
		{`INSERT INTO outbox (game_id, n, kind, body, marker, event_seq, created_at) VALUES (?, 1, 'reply', ?, ?, ?, ?)`,
			[]any{game, c.Outbox[0].Body, "fgm-" + game + "-1-" + TextHash(game + "\x001")[:6], len(c.Events), now}}, // the marker as version 1 made it
		{`INSERT INTO cursors (game_id, source, cursor, updated_at) VALUES (?, 'thread', ?, ?)`,
			[]any{game, fmt.Sprintf(`{"post_id":%q}`, id), now}},
	}
	for i, r := range c.Events {
		stmts = append(stmts, struct {
			q    string
			args []any
		}{`INSERT INTO events (game_id, seq, at, kind, data, cause) VALUES (?, ?, ?, ?, ?, ?)`,
			[]any{game, i + 1, fmtTime(c.At), r.Kind, string(r.Data), PostCause(SourceThread, id)}})
	}
	for _, st := range stmts {
		if _, err := s.w.ExecContext(ctx, st.q, st.args...); err != nil {
			t.Fatalf("v1 write: %v", err)
		}
	}
}

func TestMigrationErrors(t *testing.T) {
	ok1 := &fstest.MapFile{Data: []byte(`CREATE TABLE a (x INTEGER) STRICT;`)}
	ok2 := &fstest.MapFile{Data: []byte(`CREATE TABLE b (y INTEGER) STRICT;`)}
	bad2 := &fstest.MapFile{Data: []byte(`CREATE TABLE b (y INTEGER) STRICT; INSERT INTO nowhere VALUES (1);`)}
	tests := []struct {
		name    string
		setup   fstest.MapFS // applied first (nil: none)
		fs      fstest.MapFS
		wantErr string
		version int // the version recorded afterwards
		noTable string
	}{
		{name: "gap", fs: fstest.MapFS{"0001_a.sql": ok1, "0003_b.sql": ok2}, wantErr: "version 3 found where 2"},
		{name: "bad name", fs: fstest.MapFS{"1_a.sql": ok1}, wantErr: "bad file name"},
		{name: "failing migration rolls back", fs: fstest.MapFS{"0001_a.sql": ok1, "0002_b.sql": bad2},
			wantErr: "0002_b", version: 1, noTable: "b"},
		{name: "edited applied migration", setup: fstest.MapFS{"0001_a.sql": ok1},
			fs:      fstest.MapFS{"0001_a.sql": &fstest.MapFile{Data: []byte(`CREATE TABLE a (x TEXT) STRICT;`)}},
			wantErr: "checksum", version: 1},
		{name: "database newer than binary", setup: fstest.MapFS{"0001_a.sql": ok1, "0002_b.sql": ok2},
			fs: fstest.MapFS{"0001_a.sql": ok1}, wantErr: "newer than this binary", version: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "m.db")
			if tc.setup != nil {
				ms, err := loadMigrations(tc.setup)
				if err != nil {
					t.Fatal(err)
				}
				s, err := open(ctx, path, ms)
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
			}
			ms, err := loadMigrations(tc.fs)
			if err == nil {
				var s *Store
				s, err = open(ctx, path, ms)
				if err == nil {
					s.Close()
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if tc.version == 0 {
				return
			}
			s, err := open(ctx, path, nil)
			if err == nil {
				s.Close()
				t.Fatal("opening with no migrations should refuse a versioned database")
			}
			raw := rawDB(t, path)
			defer raw.Close()
			var v int
			if err := raw.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
				t.Fatal(err)
			}
			if v != tc.version {
				t.Errorf("recorded version %d, want %d", v, tc.version)
			}
			if tc.noTable != "" {
				var n int
				raw.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = ?`, tc.noTable).Scan(&n)
				if n != 0 {
					t.Errorf("table %s of the failed migration exists", tc.noTable)
				}
			}
		})
	}
}

func TestOpenOddPath(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a b?c#d%20")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "игра.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ensureGame(t, s, "g")
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
	if _, err := Open(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty path: %v", err)
	}
}

// Migration 0007 widens the flags' kinds by 'late' (a move that reached the bot late): a store
// written before keeps its flags (ids, kinds, states) and its indexes, takes a late flag, and still
// refuses a kind nobody knows.
func TestFlagLateMigration(t *testing.T) {
	ctx := context.Background()
	all, err := embeddedMigrations(false)
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, m := range all {
		if strings.HasSuffix(m.name, "flag_late") {
			at = i
		}
	}
	if at < 1 {
		t.Fatal("no flag_late migration")
	}
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := open(ctx, path, all[:at])
	if err != nil {
		t.Fatal(err)
	}
	ensureGame(t, old, "g1")
	v1Commit(t, old, "g1", "100")
	if _, err := old.w.ExecContext(ctx, `INSERT INTO flags (game_id, source, post_id, kind, detail, created_at) VALUES ('g1', 'thread', '100', 'other', 'old', ?)`, fmtTime(t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := old.w.ExecContext(ctx, `INSERT INTO flags (game_id, source, post_id, kind, detail, created_at) VALUES ('g1', 'thread', '100', 'late', 'x', ?)`, fmtTime(t0)); err == nil {
		t.Fatal("the old schema took a late flag: the test does not test the migration")
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := moveCommit("g1", "101")
	c.Flags = []NewFlag{{Source: SourceThread, PostID: "101", Kind: FlagLate, Detail: "пришёл с опозданием"}}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatalf("a late flag after the migration: %v", err)
	}
	flags, err := s.OpenFlags(ctx, "g1")
	if err != nil || len(flags) != 2 || flags[0].Kind != FlagOther || flags[0].Detail != "old" || flags[1].Kind != FlagLate {
		t.Fatalf("flags after the migration: %+v %v", flags, err)
	}
	for _, idx := range []string{"flags_by_state", "flags_by_post"} {
		if n := count(t, s, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?`, idx); n != 1 {
			t.Errorf("index %s missing after the migration", idx)
		}
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO flags (game_id, kind, created_at) VALUES ('g1', 'made-up', ?)`, fmtTime(t0)); err == nil {
		t.Error("a made-up kind was stored")
	}
}
