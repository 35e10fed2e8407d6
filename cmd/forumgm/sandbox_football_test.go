package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The football quiz opens in the sandbox: the game master posts the opening post (the groups and
// both commitments), a player's help request is answered in the thread, and a captain's private
// message the game cannot use is answered privately. (Turns open two minutes after the start;
// judging rolls is covered by the transcript and plug-in tests.)
func TestSandboxFootballOpens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sb, err := startSandbox(ctx, sandboxOptions{Addr: "127.0.0.1:0", Game: "football", Dir: t.TempDir(), Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	for _, u := range []string{"Вася", "Петя", "Гоша", "Оля", "Катя", "Миша", "Дима", "Лена"} {
		if !strings.Contains(sb.Banner(), u) {
			t.Errorf("the banner does not give %s's login:\n%s", u, sb.Banner())
		}
	}
	runErr := make(chan error, 1)
	go func() { runErr <- sb.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("daemon: %v", err)
		}
	}()
	waitPost := func(author, text string) string {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			posts, err := sb.board.Posts(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range posts {
				if p.Author == author && strings.Contains(p.Message, text) {
					return p.Message
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("no post by %s with %q", author, text)
		return ""
	}
	opening := waitPost("gm-bot", "Футбольная игра с кубиком начинается")
	for _, want := range []string{"«Команда 3» — группа 2", "Жеребьёвка — по первому посту игрока", "на ход 3 минуты"} {
		if !strings.Contains(opening, want) {
			t.Errorf("the opening post lacks %q:\n%s", want, opening)
		}
	}
	if strings.Contains(opening, "Отпечаток таблицы кубика") {
		t.Errorf("the opening post commits to a die table drawn before any player post:\n%s", opening)
	}
	if _, _, err := sb.board.Reply(ctx, "Петя", 1, "помощь"); err != nil {
		t.Fatal(err)
	}
	// The first player post fixes the start's draw: the reply to it commits to the table first.
	if help := waitPost("gm-bot", "Как ходить"); !strings.Contains(help, "Отпечаток таблицы кубика") {
		t.Errorf("the reply to the first player post does not commit to the die table:\n%s", help)
	}
	if err := sb.board.SendPM(ctx, "Вася", "gm-bot", "вопрос", "привет, как дела?"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		pms, err := sb.board.PMs(ctx, "Вася")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, pm := range pms {
			if pm.From == "gm-bot" && strings.Contains(pm.Message, "не понял это сообщение") {
				found = true
			}
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no private answer to the captain: %+v", pms)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
