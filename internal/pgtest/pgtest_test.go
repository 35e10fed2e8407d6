package pgtest

import (
	"context"
	"database/sql"
	"testing"
)

// TestClusterSchemas starts a cluster and shows two schemas keep their tables apart.
func TestClusterSchemas(t *testing.T) {
	ctx := context.Background()
	c, err := Start(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	var urls [2]string
	for i := range urls {
		if urls[i], err = c.Schema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a, err := sql.Open("pgx", urls[0])
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.ExecContext(ctx, `CREATE TABLE x (v INTEGER); INSERT INTO x VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	b, err := sql.Open("pgx", urls[1])
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.ExecContext(ctx, `SELECT v FROM x`); err == nil {
		t.Fatal("schema 2 sees schema 1's table")
	}
	var v int
	if err := a.QueryRowContext(ctx, `SELECT v FROM x`).Scan(&v); err != nil || v != 7 {
		t.Fatalf("v = %d, %v", v, err)
	}
}
