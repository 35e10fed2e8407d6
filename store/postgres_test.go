package store

import (
	"context"
	goflag "flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"forumgm/internal/pgtest"
	"forumgm/internal/testkit"
)

// TestOnPostgres runs this package's whole test suite a second time on PostgreSQL: it starts a
// throwaway cluster (Debian's postgresql, loopback) and this test binary again with
// FORUMGM_STORE_TEST_POSTGRES set, so openTest gives every test a fresh schema of that cluster.
// The tests of what only a SQLite file has (lock, identity, mode, the file backup) use
// openFileTest and run on SQLite in both passes.
func TestOnPostgres(t *testing.T) {
	if pgBase != "" {
		t.Fatal("TestOnPostgres must not run inside its own PostgreSQL pass (-test.skip)")
	}
	ctx := context.Background()
	c, err := pgtest.Start(ctx, t.TempDir(), pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	args := []string{"-test.skip=^TestOnPostgres$", "-test.count=1", "-test.v"}
	for _, name := range []string{"test.short", "test.timeout"} {
		if f := goflag.Lookup(name); f != nil && f.Value.String() != "" {
			args = append(args, fmt.Sprintf("-%s=%s", name, f.Value))
		}
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FORUMGM_STORE_TEST_POSTGRES="+c.URL)
	out, err := cmd.CombinedOutput()
	var failed []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "--- FAIL") {
			failed = append(failed, strings.TrimSpace(l))
		}
	}
	if err != nil || len(failed) > 0 {
		t.Fatalf("the store's tests on PostgreSQL failed (%v): %s\n%s", err, strings.Join(failed, "; "), tail(string(out), 8000))
	}
	if n := strings.Count(string(out), "--- PASS"); n < 20 {
		t.Fatalf("only %d tests passed on PostgreSQL:\n%s", n, tail(string(out), 4000))
	}
	t.Logf("%d store tests passed on PostgreSQL", strings.Count(string(out), "--- PASS"))
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// pgSchema is a fresh schema of the cluster at base, as a URL.
func pgSchema(t testing.TB, base string) string {
	t.Helper()
	loc, err := pgtest.SchemaOf(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// BenchmarkCommitPostgres is BenchmarkCommit on a PostgreSQL cluster of its own with fsync on
// (the durability a daemon runs with), over loopback TCP: the commit latency of the shared store.
func BenchmarkCommitPostgres(b *testing.B) {
	ctx := context.Background()
	c, err := pgtest.Start(ctx, b.TempDir(), pgtest.Options{Durable: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Stop()
	loc, err := c.Schema(ctx)
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(ctx, loc)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ensureGame(b, s, "g")
	i := 0
	for b.Loop() {
		i++
		if err := s.Commit(ctx, moveCommit("g", fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAcquireOrphans: taking a dead daemon's 100 games, one Acquire per game (as the fleet
// did) and in one AcquireFree, on SQLite and on PostgreSQL over loopback with fsync on; one op
// is all 100 games. `go test ./store -run XXX -bench AcquireOrphans -benchtime 20x`
func BenchmarkAcquireOrphans(b *testing.B) {
	ctx := context.Background()
	c, err := pgtest.Start(ctx, b.TempDir(), pgtest.Options{Durable: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Stop()
	pgLoc, err := c.Schema(ctx)
	if err != nil {
		b.Fatal(err)
	}
	const games = 100
	for _, engine := range []string{"sqlite", "postgres"} {
		loc := pgLoc
		if engine == "sqlite" {
			_, loc = openFileTest(b)
		}
		clock := testkit.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
		var ids []string
		owners := map[string]*Store{}
		for _, o := range []string{"one", "batch"} {
			s, err := Open(ctx, loc, Shared(), WithOwner(o, clock.Now))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			owners[o] = s
		}
		for i := range games {
			id := fmt.Sprintf("orphan%03d", i)
			ensureGame(b, owners["one"], id)
			ids = append(ids, id)
		}
		take := map[string]func(*Store) int{
			"one": func(s *Store) int {
				n := 0
				for _, id := range ids {
					if _, ok, err := s.Acquire(ctx, id, time.Second); err != nil {
						b.Fatal(err)
					} else if ok {
						n++
					}
				}
				return n
			},
			"batch": func(s *Store) int {
				ls, err := s.AcquireFree(ctx, ids, time.Second)
				if err != nil {
					b.Fatal(err)
				}
				return len(ls)
			},
		}
		for _, how := range []string{"one", "batch"} {
			b.Run(engine+"/"+how, func(b *testing.B) {
				for b.Loop() {
					clock.Advance(2 * time.Second) // the last holder's leases expired: all orphans
					if n := take[how](owners[how]); n != games {
						b.Fatalf("took %d of %d", n, games)
					}
				}
			})
		}
	}
}
