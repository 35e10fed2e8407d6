package mybb_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/sandbox"
)

// The bot edits its own post through the edit form (the daemon marks a reply the board merged into
// the bot's previous post); the callback sees the raw text; a callback's error leaves the post; a
// post of someone else's cannot be edited.
func TestEditPostOnTheSandbox(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)
	board, err := sandbox.New(ctx, sandbox.Options{DBPath: t.TempDir() + "/board.db", Now: func() time.Time { return now },
		Users:   []sandbox.User{{Name: "gm-bot", Password: "botpw"}, {Name: "Джелу", Password: "p1"}},
		Threads: []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{{Author: "Джелу", Message: "Начинаем"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	url, err := board.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := mybb.New(forum.Config{BaseURL: url + "/", Username: "gm-bot", Password: "botpw", Now: func() time.Time { return now }},
		mybb.WithClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	th := forum.Thread{ID: "1"}
	id, _, err := f.Reply(ctx, th, "Ход принят.\n[b]Поле[/b]")
	if err != nil {
		t.Fatal(err)
	}
	var seen string
	if err := f.EditPost(ctx, th, id, func(text string) (string, error) {
		seen = text
		return "[b]Новое[/b]\n" + text, nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen != "Ход принят.\n[b]Поле[/b]" {
		t.Fatalf("the callback saw %q", seen)
	}
	if got := message(t, board, id); got != "[b]Новое[/b]\nХод принят.\n[b]Поле[/b]" {
		t.Fatalf("edited post %q", got)
	}
	refused := errors.New("not this post")
	if err := f.EditPost(ctx, th, id, func(string) (string, error) { return "", refused }); !errors.Is(err, refused) {
		t.Fatalf("a callback's error: %v", err)
	}
	if got := message(t, board, id); !strings.HasPrefix(got, "[b]Новое[/b]") {
		t.Fatalf("the post changed after a refused edit: %q", got)
	}
	if err := f.EditPost(ctx, th, "1", func(text string) (string, error) { return text + "!", nil }); err == nil {
		t.Fatal("edited a player's post")
	}
}

func message(t *testing.T, board *sandbox.Server, id string) string {
	t.Helper()
	posts, err := board.Posts(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		if strconv.Itoa(p.PID) == id {
			return p.Message
		}
	}
	t.Fatalf("no post %s", id)
	return ""
}
