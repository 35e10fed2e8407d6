package store

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A store of an older version whose games kept their seed and salt in the config row is migrated:
// the secrets move to their own table, the config row loses them and keeps the rest, and a
// game's secret stays the first one kept.
func TestSecretsMoveOutOfTheConfig(t *testing.T) {
	ctx := context.Background()
	all, err := embeddedMigrations(false)
	if err != nil {
		t.Fatal(err)
	}
	var before int
	for i, m := range all {
		if m.name == "secrets" {
			before = i
		}
	}
	if before == 0 {
		t.Fatal("no secrets migration")
	}
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := open(ctx, path, all[:before])
	if err != nil {
		t.Fatal(err)
	}
	for id, cfg := range map[string]string{
		"g1": `{"kind":"football","start":"2026-12-01T18:00:00Z","seed":"aa11","salt":"bb22"}`,
		"g2": `{"kind":"crusade","start":"2026-12-01T18:00:00Z"}`,
	} {
		if _, err := old.EnsureGame(ctx, id, "football", json.RawMessage(cfg)); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"g1", "g2"} {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(g.Config), "seed") || strings.Contains(string(g.Config), "salt") || !strings.Contains(string(g.Config), `"start":"2026-12-01T18:00:00Z"`) {
			t.Errorf("game %s's config after the upgrade: %s", id, g.Config)
		}
	}
	// select config from games never shows a seed, whatever the game.
	if n := count(t, s, `SELECT count(*) FROM games WHERE config LIKE '%aa11%' OR config LIKE '%bb22%'`); n != 0 {
		t.Errorf("%d config rows still hold the secret", n)
	}
	sec, err := s.GameSecret(ctx, "g1")
	if err != nil || sec != (Secret{Seed: "aa11", Salt: "bb22"}) {
		t.Errorf("g1's secret after the upgrade: %+v %v", sec, err)
	}
	if _, err := s.GameSecret(ctx, "g2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("g2 had no seed; its secret: %v", err)
	}
	// The first secret kept stands; a game without one gets the one offered.
	if got, err := s.EnsureSecret(ctx, "g1", Secret{Seed: "new", Salt: "new"}); err != nil || got.Seed != "aa11" {
		t.Errorf("g1 re-keyed: %+v %v", got, err)
	}
	if got, err := s.EnsureSecret(ctx, "g2", Secret{Seed: "cc33", Salt: "dd44"}); err != nil || got.Seed != "cc33" || got.Salt != "dd44" {
		t.Errorf("g2's new secret: %+v %v", got, err)
	}
	if _, err := s.EnsureSecret(ctx, "g2", Secret{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("an empty seed: %v", err)
	}
}

// The chain a commit appends is gapless and append-only, and reads back in order.
func TestChainLinks(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g1")
	h := func(c string) string { return strings.Repeat(c, 64) }
	for i, id := range []string{"100", "101"} {
		c := moveCommit("g1", id)
		c.Link = &Link{K: uint64(i + 1), PostID: id, Head: h(string(rune('a' + i)))}
		if err := s.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	c := moveCommit("g1", "102")
	c.Link = &Link{K: 4, PostID: "102", Head: h("c")}
	if err := s.Commit(ctx, c); err == nil {
		t.Fatal("a chain link with a gap was kept")
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM chain WHERE game_id = 'g1'`); err == nil {
		t.Fatal("the chain lost a link")
	}
	links, err := s.ChainPosts(ctx, "g1")
	if err != nil || len(links) != 2 || links[0].Head != h("a") || links[1].Head != h("b") || links[1].K != 2 ||
		links[1].PostID != "101" || links[1].Text == "" || links[1].Author == "" {
		t.Fatalf("chain %+v %v", links, err)
	}
	if links, err := s.ChainPosts(ctx, "none"); err != nil || len(links) != 0 {
		t.Fatalf("chain of a game without one: %v %v", links, err)
	}
}
