package forumtest

import (
	"context"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/testkit"
	"forumgm/sandbox"
)

// SandboxBoard is a Board on package sandbox's MyBB 1.8 board over HTTP, served through a Front,
// for the dialects that read MyBB markup (mybb; generic with a table for it): flood control of
// 60 s, a player's consecutive posts merged within 60 minutes, the bot's private messages with a
// Sent Items copy. open gives the bot's Forum for cfg (the board's address, the bot's account,
// UTC, the board's clock).
func SandboxBoard(t *testing.T, open func(cfg forum.Config) (forum.Forum, error)) *Board {
	return SandboxBoardIn(t, sandbox.English, open)
}

// SandboxBoardIn is SandboxBoard with the board's pages in a language pack (sandbox.Russian: a
// Russian board's words, dates and error texts).
func SandboxBoardIn(t *testing.T, lang sandbox.Language, open func(cfg forum.Config) (forum.Forum, error)) *Board {
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC))
	const bot, player, other = "gm-bot", "Джелу", "Снежана"
	sb, err := sandbox.New(ctx, sandbox.Options{DBPath: filepath.Join(t.TempDir(), "board.db"), Now: clock.Now, Language: lang,
		Users: []sandbox.User{{Name: bot, Password: "GmBotPass1"}, {Name: player, Password: "p1"}, {Name: other, Password: "p2"}},
		Threads: []sandbox.Thread{{Subject: "Игра", Posts: []sandbox.SeedPost{
			{Author: player, Message: "Начинаем партию."}, {Author: other, Message: "Первый ход: e2-e4."}, {Author: player, Message: "Ответ: e7-e5."}}}}})
	if err != nil {
		t.Fatal(err)
	}
	front := NewFront(sb.Handler())
	srv := httptest.NewServer(front)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	f, err := open(forum.Config{BaseURL: srv.URL + "/", Username: bot, Password: "GmBotPass1", Location: time.UTC, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	const tid = 1
	return &Board{
		Forum: f, Thread: forum.Thread{ID: strconv.Itoa(tid)}, NotThread: forum.Thread{ID: "999"}, Player: player,
		Post: func(t testing.TB, text string) string {
			clock.Advance(2 * time.Hour) // past flood control and the merge window
			pid, merged, err := sb.Reply(ctx, player, tid, text)
			if err != nil || merged {
				t.Fatalf("sandbox reply: %d merged=%v %v", pid, merged, err)
			}
			return strconv.Itoa(pid)
		},
		Grow: func(t testing.TB, id, text string) {
			clock.Advance(2 * time.Minute) // past flood control, within the merge window
			pid, merged, err := sb.Reply(ctx, player, tid, text)
			if err != nil || !merged || strconv.Itoa(pid) != id {
				t.Fatalf("sandbox merge into %s: %d merged=%v %v", id, pid, merged, err)
			}
		},
		LogOut: func(t testing.TB) {
			if err := sb.DropSessions(ctx, bot); err != nil {
				t.Fatal(err)
			}
		},
		Flood: func(t testing.TB) time.Duration {
			clock.Advance(2 * time.Hour)
			if _, _, err := sb.Reply(ctx, bot, tid, "Ход принят."); err != nil {
				t.Fatal(err)
			}
			// A player's post after it: the bot's next reply is not merged into its last.
			if _, _, err := sb.Reply(ctx, other, tid, "Мой ход: d2-d4."); err != nil {
				t.Fatal(err)
			}
			clock.Advance(20 * time.Second)
			return 41 * time.Second // 60 s, 20 s gone, MyBB counts the second it is in
		},
		TooLong: func(testing.TB) string { return strings.Repeat("Очень длинный ход. ", 3500) }, // over MyBB's 65535
		PM: func(t testing.TB, subject, text string) {
			clock.Advance(2 * time.Minute) // past the private messages' flood control
			if err := sb.SendPM(ctx, player, bot, subject, text); err != nil {
				t.Fatal(err)
			}
		},
		Cut: func(_ testing.TB, text string) { front.Cut(text) },
		WrongThread: func(t testing.TB) forum.Thread {
			clock.Advance(2 * time.Hour)
			moved, _, err := sb.NewThread(ctx, other, sandbox.DefaultFID, "Другая тема", "Ход в другой теме: a2-a4.")
			if err != nil {
				t.Fatal(err)
			}
			front.Swap(func(u *url.URL) { // the thread moved into the other: every request answered with its pages
				if q := u.Query(); q.Get("tid") == strconv.Itoa(tid) {
					q.Set("tid", strconv.Itoa(moved))
					u.RawQuery = q.Encode()
				}
			})
			return forum.Thread{ID: strconv.Itoa(moved)}
		},
	}
}
