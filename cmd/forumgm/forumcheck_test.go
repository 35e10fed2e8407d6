package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/sandbox"
)

// testBoard starts a sandbox board on loopback for the test (closed at its end) and returns it
// with its URL.
func testBoard(t *testing.T, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	ctx := context.Background()
	board, err := sandbox.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	url, err := board.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return board, url
}

// forum-check looks every player and moderator up on the forum: a misspelt name (a moderator
// who would never get the game's private messages) fails the check, naming it.
func TestForumCheckNames(t *testing.T) {
	dir := t.TempDir()
	msk := time.FixedZone("MSK", 3*3600)
	_, url := testBoard(t, sandbox.Options{DBPath: filepath.Join(dir, "board.db"), Location: msk,
		Users:   []sandbox.User{{Name: "Джелу", Password: "p1"}, {Name: "snovaya", Password: "p2"}, {Name: "Moderator", Password: "p3"}, {Name: "gm-bot", Password: "botpw"}},
		Threads: []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{{Author: "gm-bot", Message: "Тема игры."}}}}})
	t.Setenv("FORUMGM_TEST_FC_PW", "botpw")
	write := func(moderator string) string {
		p := filepath.Join(dir, moderator+".yaml")
		src := fmt.Sprintf(`forum: {url: %q, dialect: mybb, thread: "1", extra: {rate: "50"}}
bot: {username: gm-bot, password_env: FORUMGM_TEST_FC_PW}
moderators: [%s]
game:
  kind: crusade
  roster: [{name: джелу, side: crusaders}, {name: snovaya, side: saracens}]
`, url+"/", moderator)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var out, errb bytes.Buffer
	if code := run([]string{"forum-check", "--config", write("Moderator")}, &out, &errb); code != 0 {
		t.Fatalf("all names exist: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "player джелу: exists") || !strings.Contains(out.String(), "moderator Moderator: exists") {
		t.Fatalf("output:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"forum-check", "--config", write("Moderatr")}, &out, &errb); code != 1 ||
		!strings.Contains(out.String(), "moderator Moderatr: NOT FOUND") || !strings.Contains(errb.String(), "no such user on the forum: Moderatr") {
		t.Fatalf("a misspelt moderator: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	// check-config does the same when the bot can log in.
	out.Reset()
	errb.Reset()
	if code := run([]string{"check-config", "--config", write("Moderatr")}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "no such user on the forum: Moderatr") {
		t.Fatalf("check-config with a misspelt moderator: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"check-config", "--config", write("Moderator")}, &out, &errb); code != 0 {
		t.Fatalf("check-config: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}
