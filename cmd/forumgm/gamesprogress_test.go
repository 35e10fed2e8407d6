package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/daemon"
	"forumgm/forum"
	"forumgm/store"
)

// games list shows long work under way: a game's catch-up of a long thread (pages done, pages to
// go, the estimate) and the games that have not read their thread yet with how long their first
// reads take in the forum's background share.
func TestGamesListShowsProgress(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfgPath := dir + "/config.yaml"
	t.Setenv("FORUMGM_TEST_GP_BOT", "x")
	src := `forums:
  main: {url: "http://127.0.0.1:1/", dialect: mybb, bot: {username: gm-bot, password_env: FORUMGM_TEST_GP_BOT}, extra: {rate: "2"}}
moderators: [Moderator]
store: {path: forumgm.db}
poll: {background_share: 0.25}
games:
  - {id: long, kind: crusade, forum: main, thread: "1", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
  - {id: new1, kind: crusade, forum: main, thread: "2", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
  - {id: new2, kind: crusade, forum: main, thread: "3", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
  - {id: done, kind: crusade, forum: main, thread: "4", roster: [{name: Джелу, side: crusaders}, {name: snovaya, side: saracens}]}
`
	if err := os.WriteFile(cfgPath, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	all, err := config.Load(cfgPath, knownGames())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, dir+"/forumgm.db")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, v := range all.GameConfigs() {
		if _, err := daemon.Register(ctx, st, v, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetCursor(ctx, "done", store.SourceThread, forum.Cursor{PostID: "40", Page: 1}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCursor(ctx, "long", store.SourceThread, forum.Cursor{PostID: "480", Page: 60}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetProgress(ctx, "long", 60, 191, 191*time.Second, now.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	list := func() string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run([]string{"games", "--config", cfgPath, "list"}, &out, &errb); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		return out.String()
	}
	got := list()
	for _, want := range []string{
		"first reads: 2 of 4 games have not read their thread yet, about 4s to go at the background share (25% of each forum's rate)",
		"reading the thread: 60 of 251 pages, about 3m11s left",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("games list lacks %q:\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "done ") && strings.Contains(l, "reading") {
			t.Errorf("a game with no read under way shows progress: %q", l)
		}
	}
	// The read done, the cursors set: nothing under way is shown.
	st, err = store.Open(ctx, dir+"/forumgm.db")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"new1", "new2"} {
		if err := st.SetCursor(ctx, g, store.SourceThread, forum.Cursor{PostID: "1", Page: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetProgress(ctx, "long", 251, 0, 0, now); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if got := list(); strings.Contains(got, "first reads") || strings.Contains(got, "reading the thread") {
		t.Errorf("games list after the reads:\n%s", got)
	}
}
