package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/config"
	"forumgm/forum"
	"forumgm/review"
)

// The game master's work through the daemon over HTTP on the sandbox forum (issue 22): a
// moderator extends round 1's deadline (announced in the thread, and the round resolves at the new
// time, not the old); two hours before it, a reminder goes by private message to the one player
// with no orders, once, even when the daemon is killed between committing the reminder and
// recording its posting; never to the players who sent orders or switched reminders off.
func TestMasterDragonballE2E(t *testing.T) {
	for _, crashAt := range []string{"", "fired", "sent"} {
		t.Run("crash="+crashAt, func(t *testing.T) {
			b := newBoard(t, time.Date(2026, 12, 1, 10, 0, 0, 0, msk), dbUsers, "Драконбол")
			g := b.game(t, "db", "gm-bot", 1, dbGame)
			g.settle(t)
			hello(t, b, g)
			for _, o := range dbOrders {
				if o.day == 1 {
					b.set(1, o.at)
					g.pm(t, o.who, o.txt)
					b.clock.Advance(30 * time.Second)
					g.settle(t)
				}
			}
			b.set(1, "15:00")
			g.pm(t, "Гойл", "Напоминания выкл")
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			if got := g.received(t, "Гойл"); len(got) != 1 || !strings.Contains(got[0], "Напоминания выключены") {
				t.Fatalf("Гойл's «напоминания выкл» answered %q", got)
			}

			// The moderator extends round 1 by an hour; the daemon announces it.
			b.set(1, "18:00")
			rv := &review.Review{Store: g.st, Game: g.id, NewReferee: func() (review.Referee, error) { return g.newRef() }, Now: b.clock.Now}
			if _, err := rv.Extend(context.Background(), "Moderator", "у Змей нет связи", time.Hour, time.Time{}); err != nil {
				t.Fatal(err)
			}
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			if withText(g.botPosts(t), "Срок продлён", "01.12 23:00 на 02.12 00:00", "у Змей нет связи") == "" {
				t.Fatalf("the extension is not announced:\n%s", strings.Join(g.botPosts(t), "\n---\n"))
			}

			before := map[string]int{}
			for _, u := range dbUsers[1:7] {
				before[u] = len(g.received(t, u))
			}
			b.set(1, "21:59")
			g.settle(t)
			if n := len(g.received(t, "Джинни")); n != before["Джинни"] {
				t.Fatalf("a reminder before its time (two hours before the new deadline 00:00)")
			}
			b.set(1, "22:00")
			b.clock.Advance(30 * time.Second)
			if crashAt != "" {
				g.crashAndRecover(t, crashAt, nil)
			}
			g.settle(t)
			b.set(1, "23:00")
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			for _, u := range dbUsers[1:7] {
				got := g.received(t, u)[before[u]:]
				want := 0
				if u == "Джинни" {
					want = 1
				}
				if len(got) != want {
					t.Errorf("%s got %d reminders, want %d: %q", u, len(got), want, got)
				}
				if want == 1 && (!strings.Contains(got[0], "Напоминание") || !strings.Contains(got[0], "02.12 00:00") || !strings.Contains(got[0], "приказы на раунд 1")) {
					t.Errorf("the reminder: %q", got[0])
				}
			}
			if withText(g.botPosts(t), "[b]Раунд 1[/b]") != "" {
				t.Fatal("round 1 resolved at the old deadline")
			}
			b.set(2, "00:00")
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			if withText(g.botPosts(t), "[b]Раунд 1[/b]") == "" {
				t.Fatal("round 1 did not resolve at the extended deadline")
			}
			if k := g.kinds(t); k["judge.reminded"] != 1 || k["judge.extended"] != 1 {
				t.Errorf("events: %v", k)
			}
			// Round 2 (the last): the game ends with its result and then the summary in numbers.
			for _, o := range dbOrders {
				if o.day == 2 {
					b.set(2, o.at)
					g.pm(t, o.who, o.txt)
					b.clock.Advance(30 * time.Second)
					g.settle(t)
				}
			}
			b.set(2, "23:00")
			b.clock.Advance(30 * time.Second)
			g.settle(t)
			posts := g.botPosts(t)
			sum := withText(posts, "[b]Итоги игры «Драконбол» в цифрах[/b]")
			if sum == "" {
				t.Fatalf("no summary at the end:\n%s", strings.Join(posts, "\n---\n"))
			}
			for _, want := range []string{"Результат: ", "• Гарри (Грифоны): приказов 2", "• Джинни (Грифоны): приказов 1", "[u]Команды[/u]"} {
				if !strings.Contains(sum, want) {
					t.Errorf("the summary lacks %q:\n%s", want, sum)
				}
			}
			if k := g.kinds(t); k["judge.summary"] != 1 || k["judge.revealed"] != 1 {
				t.Errorf("events at the end: %v", k)
			}
			g.exactlyOnce(t)
		})
	}
}

// A config reloaded with another deadline does not change the game silently (issue 21, item 3):
// the thread is told the new next deadline once, the round resolves then, and a later restart
// with the same settings says nothing again.
func TestMasterReloadAnnounced(t *testing.T) {
	b := newBoard(t, time.Date(2026, 12, 1, 10, 0, 0, 0, msk), dbUsers, "Драконбол")
	g := b.game(t, "db", "gm-bot", 1, dbGame)
	g.settle(t)
	hello(t, b, g)
	reload := func(gameYAML string, was string) {
		t.Helper()
		old := g.cfg
		src := fmt.Sprintf("forum: {url: %q, thread: \"1\"}\nbot: {username: gm-bot, password_env: PW}\nmoderators: [Moderator]\ngame:\n  id: db\n%s", b.url+"/", gameYAML)
		cfg, err := config.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(known); err != nil {
			t.Fatal(err)
		}
		rec := GameRecord{Kind: "dragonball", Forum: b.url + "/", Thread: "1", Start: old.StartTime().UTC(), Seed: "e2e-db", Salt: "salt-db", Spec: was}
		if g.newRef, err = RefereeFactory(cfg, g.fo.Capabilities(), rec); err != nil {
			t.Fatal(err)
		}
		g.cfg = cfg
		g.restart(t, "")
		b.clock.Advance(30 * time.Second)
		g.settle(t)
	}
	registered := SpecPrint(g.cfg)
	b.set(1, "12:00")
	reload(strings.Replace(dbGame, `deadline: "23:00"`, `deadline: "21:00"`, 1), registered)
	if n := len(withAll(g.botPosts(t), "Расписание изменено")); n != 1 || withText(g.botPosts(t), "ближайший срок теперь 01.12 21:00") == "" {
		t.Fatalf("the reload is announced %d times:\n%s", n, strings.Join(g.botPosts(t), "\n---\n"))
	}
	b.set(1, "13:00")
	reload(strings.Replace(dbGame, `deadline: "23:00"`, `deadline: "21:00"`, 1), registered)
	if n := len(withAll(g.botPosts(t), "Расписание изменено")); n != 1 {
		t.Fatalf("a restart with the same settings announced the schedule again (%d)", n)
	}
	b.set(1, "21:00")
	b.clock.Advance(30 * time.Second)
	g.settle(t)
	if withText(g.botPosts(t), "[b]Раунд 1[/b]") == "" {
		t.Fatal("round 1 did not resolve at the reloaded deadline")
	}
}

// withAll are the texts holding want.
func withAll(texts []string, want string) []string {
	var out []string
	for _, s := range texts {
		if strings.Contains(s, want) {
			out = append(out, s)
		}
	}
	return out
}

// Football over the sandbox with reminders five minutes before each window closes: exactly the
// captains whose team has not moved yet get one, once (issue 22).
func TestMasterFootballReminders(t *testing.T) {
	b := newBoard(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fbUsers, "Футбол")
	bank := filepath.Join(b.dir, "questions.yaml")
	if err := os.WriteFile(bank, []byte(fbBank), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := strings.Replace(strings.Replace(fbGame, "QBANK", bank, 1), "  board: default\n", "  board: default\n  reminders: 5m\n", 1)
	g := b.game(t, "fb", "gm-bot", 1, spec)
	g.settle(t)
	reminders := func(who string) []string { return withAll(g.received(t, who), "Напоминание:") }
	for _, s := range fbSteps {
		b.set(1, s.at)
		switch {
		case s.txt == "":
		case s.pm:
			g.pm(t, s.who, s.txt)
		default:
			g.post(t, s.who, s.txt)
		}
		b.clock.Advance(30 * time.Second)
		g.settle(t)
		if s.at == "20:10" {
			// Turn 1: before 20:05 teams 1 and 2 had moved; team 3 moved in the reminder's minute
			// (timers due by a post's time fire before it is judged) and team 4 at 20:06.
			for who, want := range map[string]int{"Вася": 0, "Гоша": 0, "Катя": 1, "Дима": 1, "Лена": 0} {
				if got := reminders(who); len(got) != want {
					t.Errorf("turn 1: %s got %d reminders, want %d: %q", who, len(got), want, got)
				}
			}
			if r := reminders("Дима"); len(r) == 1 && !strings.Contains(r[0], "ход команды «Команда 4» в 1-м ходу") {
				t.Errorf("the reminder: %q", r[0])
			}
		}
	}
	// Turn 2: by 20:35 teams 1 and 2 had moved, teams 3 and 4 had not.
	for who, want := range map[string]int{"Вася": 0, "Гоша": 0, "Катя": 2, "Дима": 2} {
		if got := reminders(who); len(got) != want {
			t.Errorf("after turn 2: %s got %d reminders, want %d: %q", who, len(got), want, got)
		}
	}
	g.exactlyOnce(t)
}

// With game.timezone other than the forum's, the times the bot writes carry the game zone's name
// (issue 21, item 4); with the same zone, nothing is added.
func TestZoneInBotTimes(t *testing.T) {
	for _, c := range []struct {
		forumZone string
		want      bool
	}{{"UTC", true}, {"Europe/Moscow", false}} {
		src := fmt.Sprintf("forum: {url: \"http://127.0.0.1:1/\", thread: \"1\", timezone: %s}\nbot: {username: gm-bot, password_env: PW}\nmoderators: [Moderator]\ngame:\n  id: fb\n%s",
			c.forumZone, strings.Replace(fbGame, "  question_bank: QBANK\n", "", 1))
		cfg, err := config.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(known); err != nil {
			t.Fatal(err)
		}
		newRef, err := RefereeFactory(cfg, forum.Capabilities{PrivateMessages: true}, GameRecord{Start: cfg.StartTime(), Seed: "s", Salt: "t"})
		if err != nil {
			t.Fatal(err)
		}
		ref, err := newRef()
		if err != nil {
			t.Fatal(err)
		}
		out, err := ref.Start(cfg.StartTime())
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, m := range out.Messages {
			all = append(all, m.Body)
		}
		body := strings.Join(all, "\n")
		if got := strings.Contains(body, "20:00 (MSK)"); got != c.want {
			t.Errorf("forum zone %s: the zone's name beside 20:00: %v, want %v:\n%s", c.forumZone, got, c.want, body)
		}
	}
}

// hello is a player's first post in the Dragonball thread at 10:30: the balls' start draws wait
// for it (no round is due before them), and the reply announces them.
func hello(t *testing.T, b *board, g *table) {
	t.Helper()
	b.set(1, "10:30")
	g.post(t, "Джинни", "Всем удачи!")
	b.clock.Advance(30 * time.Second)
	g.settle(t)
	if withText(g.botPosts(t), "Жеребьёвка мячей по первому посту игрока") == "" {
		t.Fatalf("the first post drew no balls:\n%s", strings.Join(g.botPosts(t), "\n---\n"))
	}
}
