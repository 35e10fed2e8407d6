package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A dispute settled end to end on the sandbox: Джелу's move costs a wound for its wrong number,
// Джелу disputes it in the thread, the daemon flags it, a moderator overturns it with the
// command as the usage writes it, and the running daemon posts the ruling (the wound taken back)
// in the thread.
func TestSandboxDisputeOverturned(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sb, err := startSandbox(ctx, sandboxOptions{Addr: "127.0.0.1:0", Dir: t.TempDir(), Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	done := make(chan error, 1)
	go func() { done <- sb.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
	}()
	t.Setenv(sandboxModEnv, sandboxModerator.Password)
	waitPost := func(what string, ok func(string) bool) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			posts, err := sb.board.Posts(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range posts {
				if p.Author == sandboxBot.Name && ok(p.Message) {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no bot post with %s", what)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	waitPost("the opening post", func(m string) bool { return strings.Contains(m, "Крестовый поход начинается") })
	if _, _, err := sb.board.Reply(ctx, "Джелу", 1, "2-й ход крестоносца к1 на K16"); err != nil {
		t.Fatal(err)
	}
	waitPost("the move's wound", func(m string) bool { return strings.Contains(m, "+1 ранение крестоносцам") })
	if _, _, err := sb.board.Reply(ctx, "Джелу", 1, "#спор это был мой первый ход за сутки, но к1 ходил впервые — ошибся номером"); err != nil {
		t.Fatal(err)
	}
	id := ""
	deadline := time.Now().Add(90 * time.Second)
	for id == "" {
		var out, errb strings.Builder
		if code := run([]string{"review", "--config", sb.Config, "list"}, &out, &errb); code != 0 {
			t.Fatalf("review list: %s", errb.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Split(line, "\t"); len(f) > 2 && f[2] == "dispute" {
				id = f[0]
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dispute was not flagged:\n%s", out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	var out, errb strings.Builder
	if code := run([]string{"review", "--config", sb.Config, "overturn", id, "--by", "Moderator", "--reason", "номер хода засчитан"}, &out, &errb); code != 0 {
		t.Fatalf("overturn: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	waitPost("the ruling", func(m string) bool {
		return strings.Contains(m, "Джелу, модератор Moderator рассмотрел ваш спор и решил в вашу пользу (номер хода засчитан)") &&
			strings.Contains(m, "снято 1 ранение")
	})
}
