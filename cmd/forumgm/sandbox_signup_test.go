package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// `forumgm sandbox --signup` opens each game in a sign-up phase: the config has the sign-up
// block (its deadline set from the sandbox's clock) and no roster, the bot's opening post opens
// the sign-up in the thread, and a player's «записываюсь» there is confirmed with the roster.
func TestSandboxSignup(t *testing.T) {
	for _, c := range []struct{ game, player, join, roster string }{
		{"crusade", "Джелу", "записываюсь за крестоносцев", "\n  roster:"},
		{"dragonball", "Гарри", "записываюсь за Грифоны", "\n  teams:"},
		{"football", "Вася", "записываюсь за Команда 1", "\n  teams:"},
	} {
		t.Run(c.game, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			now := time.Now()
			msk, err := time.LoadLocation("Europe/Moscow")
			if err != nil {
				t.Fatal(err)
			}
			sb, err := startSandbox(ctx, sandboxOptions{Addr: "127.0.0.1:0", Game: c.game, Dir: t.TempDir(), Quiet: true, Signup: true, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			cfg, err := os.ReadFile(sb.Config)
			if err != nil {
				t.Fatal(err)
			}
			wantDeadline := now.In(msk).Add(sandboxSignupFor).Truncate(time.Minute).Format(time.RFC3339)
			if !strings.Contains(string(cfg), "signup: {deadline: \""+wantDeadline+"\"") || strings.Contains(string(cfg), c.roster) {
				t.Fatalf("the config does not open a sign-up at %s without a roster:\n%s", wantDeadline, cfg)
			}
			runErr := make(chan error, 1)
			go func() { runErr <- sb.Run(ctx) }()
			defer func() {
				cancel()
				if err := <-runErr; err != nil {
					t.Errorf("daemon: %v", err)
				}
			}()
			waitPost := func(text string) {
				t.Helper()
				deadline := time.Now().Add(time.Minute)
				for time.Now().Before(deadline) {
					posts, err := sb.board.Posts(ctx, 1)
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range posts {
						if p.Author == "gm-bot" && strings.Contains(p.Message, text) {
							return
						}
					}
					time.Sleep(200 * time.Millisecond)
				}
				t.Fatalf("no post by gm-bot with %q", text)
			}
			waitPost("открыта запись")
			if _, _, err := sb.board.Reply(ctx, c.player, 1, c.join); err != nil {
				t.Fatal(err)
			}
			waitPost(c.player + ", вы записаны в команду")
		})
	}
}
