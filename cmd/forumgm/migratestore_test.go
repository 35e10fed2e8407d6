package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/internal/pgtest"
	"forumgm/store"
)

// forumgm migrate-store moves a community's SQLite store into PostgreSQL (refused while a daemon
// holds the file, and into a database that already holds games), and forumgm backup of the
// PostgreSQL store writes a SQLite file holding the same games.
func TestMigrateStoreToPostgres(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := `forum: {url: "http://127.0.0.1:1/", dialect: mybb, thread: "1", timezone: Europe/Moscow}
bot: {username: gm-bot, password_env: FORUMGM_TEST_BOT_PW}
game:
  id: g1
  kind: crusade
  timezone: Europe/Moscow
  start: "2026-12-01T19:00:00+03:00"
  roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]
%s
`
	write := func(name, storeLine string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(fmt.Sprintf(cfg, storeLine)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfgPath := write("config.yaml", "store: {path: forumgm.db}")
	src, err := store.Open(ctx, filepath.Join(dir, "forumgm.db"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 19, 5, 0, 0, time.UTC)
	if _, err := src.EnsureGame(ctx, "g1", "crusade", json.RawMessage(`{"kind":"crusade"}`)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		id := fmt.Sprint(i)
		if err := src.Commit(ctx, store.Commit{Game: "g1", At: at,
			Post:   &store.Judgement{Source: store.SourceThread, Post: forum.Post{ID: id, Author: "Джелу", Time: at, Text: "ход " + id}, Verdict: store.VerdictAccepted},
			Events: []game.Record{{Kind: "crusade.turn_played", Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}},
			Outbox: []store.OutboxItem{{Kind: store.OutboxReply, Body: "Ход принят " + id}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	pg, err := pgtest.Start(ctx, t.TempDir(), pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	url, err := pg.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"migrate-store", "--config", cfgPath, url}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "stop it first") {
		t.Fatalf("migrating a store a daemon holds: exit %d: %s", code, stderr.String())
	}
	src.Close()
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"migrate-store", "--config", cfgPath, url}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "copied 1 games") {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if code := run([]string{"migrate-store", "--config", cfgPath, url}, &stdout, &stderr); code == 0 {
		t.Fatal("a second copy into a database that holds the games succeeded")
	}
	records := func(loc string) string {
		s, err := store.Open(ctx, loc, store.Shared())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		recs, err := s.Records(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		pend, err := s.PendingOutbox(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(recs)
		var bodies []string
		for _, o := range pend {
			bodies = append(bodies, o.Body+" "+o.Marker)
		}
		return string(b) + "\n" + strings.Join(bodies, "\n")
	}
	want := records(filepath.Join(dir, "forumgm.db"))
	if got := records(url); got != want {
		t.Fatalf("PostgreSQL holds\n%s\nwant\n%s", got, want)
	}
	// The PostgreSQL store's backup is a SQLite file with the same games.
	pgCfg := write("pg.yaml", fmt.Sprintf("store: {url: %q}", url))
	copyPath := filepath.Join(dir, "copy.db")
	if code := run([]string{"backup", "--config", pgCfg, copyPath}, &stdout, &stderr); code != 0 {
		t.Fatalf("backup of the PostgreSQL store: exit %d: %s", code, stderr.String())
	}
	if got := records(copyPath); got != want {
		t.Fatalf("the backup holds\n%s\nwant\n%s", got, want)
	}
}
