package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/parser"
	"forumgm/referee"
)

// The game master's powers replay as the example transcripts write them: announced in the
// thread, the deadline moved, the holiday's moves refused and the schedule a day later.
func TestMasterExamples(t *testing.T) {
	cases := []struct {
		file  string
		check func(t *testing.T, tr *Transcript, res *Result)
	}{
		{"dragonball-master.yaml", func(t *testing.T, tr *Transcript, res *Result) {
			msk := tr.Start.Location()
			var resolved []time.Time
			for _, tm := range res.Timed {
				if strings.Contains(strings.Join(tm.Replies, "\n"), "[b]Раунд ") {
					resolved = append(resolved, tm.At)
				}
			}
			want := []time.Time{time.Date(2026, 12, 1, 23, 45, 0, 0, msk), time.Date(2026, 12, 3, 23, 0, 0, 0, msk), time.Date(2026, 12, 4, 23, 0, 0, 0, msk)}
			if len(resolved) != 3 || !resolved[0].Equal(want[0]) || !resolved[1].Equal(want[1]) || !resolved[2].Equal(want[2]) {
				t.Errorf("rounds resolved at %v, want %v (extended by 45m, then a holiday, then made 3 rounds long)", resolved, want)
			}
			byAuthorAt := func(author, at string) PostResult {
				for _, p := range res.Posts {
					src := tr.Posts[p.Index]
					if src.Author == author && src.At.In(msk).Format("01-02 15:04") == at {
						return p
					}
				}
				t.Fatalf("no post of %s at %s", author, at)
				return PostResult{}
			}
			if p := byAuthorAt("Крэбб", "12-01 23:30"); p.Verdict != "accepted" || !strings.Contains(p.Replies[0], "раунд 1") {
				t.Errorf("orders in the extension must count for round 1: %s %q", p.Verdict, p.Replies)
			}
			if p := byAuthorAt("Модератор", "12-03 14:00"); p.Verdict != "accepted" || !strings.Contains(p.Replies[0], "было 2 раунда, теперь 3 раунда") {
				t.Errorf("length: %s %q", p.Verdict, p.Replies)
			}
			if p := byAuthorAt("Гарри", "12-02 12:00"); p.Verdict != "refused" || !strings.Contains(p.Replies[0], "выходной") {
				t.Errorf("orders on the holiday must be refused: %s %q", p.Verdict, p.Replies)
			}
			// The acknowledgements name the round's time as the master moved it.
			for at, due := range map[string]string{"12-01 23:30": "1 декабря в 23:45", "12-03 10:40": "3 декабря в 23:00"} {
				if p := byAuthorAt("Крэбб", at); p.Verdict != "accepted" || !strings.Contains(p.Replies[0], "разыгрывается "+due) {
					t.Errorf("orders at %s: %s %q, want the round played %s", at, p.Verdict, p.Replies, due)
				}
			}
			// Reminders two hours before each (moved) deadline, to exactly those with no orders;
			// never to a player who switched them off.
			reminded := map[string][]string{}
			for _, tm := range res.Timed {
				for _, b := range tm.Replies {
					if strings.Contains(b, "Напоминание:") {
						to, _, _ := strings.Cut(strings.TrimPrefix(b, privatePrefix), "]")
						reminded[tm.At.In(msk).Format("01-02 15:04")] = append(reminded[tm.At.In(msk).Format("01-02 15:04")], to)
					}
				}
			}
			if got := fmt.Sprint(reminded); !strings.HasPrefix(got, "map[12-01 21:45:[Крэбб] 12-03 21:00:[Джинни Драко]") {
				t.Errorf("reminders %s", got)
			}
			for cmd, text := range map[string]string{"11:05": "Уточнение правил", "20:00": "перенёс срок 01.12 23:00 на 01.12 23:45", "21:00": "объявил 02.12.2026 выходным"} {
				if p := byAuthorAt("Модератор", "12-01 "+cmd); p.Verdict != "accepted" || !strings.Contains(p.Replies[0], text) {
					t.Errorf("command at %s: %s %q, want %q", cmd, p.Verdict, p.Replies, text)
				}
			}
		}},
		{"dragonball-whole.yaml", whole("Дракону приказывает", "записываюсь на замену Гойл", "Рон")},
		{"football-whole.yaml", whole("капитан: Петя", "replace Гоша Маша", "Маша, Маша")},
		{"crusade-whole.yaml", whole("Игроки-воины", "записываюсь на замену Петя", "Джелу, Вася")},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tr, err := Load(example(c.file), known)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tr.Replay()
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, tr, res)
			b, err := res.JSON()
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", strings.TrimSuffix(c.file, ".yaml")+".golden.json")
			if *update {
				if err := os.WriteFile(golden, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(b, want) {
				t.Errorf("output differs from %s (run with -update after checking the change)", golden)
			}
			// The thread with the commands in it replays to the same outcome (verify reads it).
			thread := &Transcript{Game: tr.Game, Start: tr.Start, Posts: nil, Until: tr.Until, Bot: tr.Bot, Seed: tr.Seed, Salt: tr.Salt, spec: tr.spec, dir: tr.dir, games: tr.games}
			for _, p := range res.Thread(tr) {
				if p.Author != tr.Bot {
					thread.Posts = append(thread.Posts, p)
				}
			}
			res2, err := thread.Replay()
			if err != nil {
				t.Fatal(err)
			}
			// The last timed post in the thread (a reminder is private, not in the thread).
			lastPublic := func(r *Result) time.Time {
				for i := len(r.Timed) - 1; i >= 0; i-- {
					for _, b := range r.Timed[i].Replies {
						if !strings.HasPrefix(b, privatePrefix) {
							return r.Timed[i].At
						}
					}
				}
				return time.Time{}
			}
			if len(res2.Timed) == 0 || !lastPublic(res2).Equal(lastPublic(res)) {
				t.Error("the thread's replay differs from the transcript's")
			}
		})
	}
}

// A moderator's power over time that cannot be carried out is refused with the reason, and
// changes nothing.
func TestMasterRefusals(t *testing.T) {
	tr, err := Load(example("dragonball-score.yaml"), known)
	if err != nil {
		t.Fatal(err)
	}
	msk := tr.Start.Location()
	at := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, msk) }
	cases := []struct {
		name string
		cmd  game.ModCommand
		want string
	}{
		{"past the next deadline", game.ModCommand{Action: game.ModExtend, Delay: 25 * time.Hour, At: at(1, 12, 0)}, "would pass the game's next deadline"},
		{"no delay", game.ModCommand{Action: game.ModExtend, At: at(1, 12, 0)}, "give how much later"},
		{"not a deadline", game.ModCommand{Action: game.ModExtend, Delay: time.Hour, Deadline: at(1, 22, 0), At: at(1, 12, 0)}, "no deadline of the game at"},
		{"holiday today", game.ModCommand{Action: game.ModHoliday, Day: at(1, 0, 0), At: at(1, 12, 0)}, "has already begun"},
		{"empty clarification", game.ModCommand{Action: game.ModClarify, Text: "  ", At: at(1, 12, 0)}, "no text"},
		{"length of a game that cannot", game.ModCommand{Action: game.ModLength, Amount: 0, At: at(1, 12, 0)}, "length"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref, err := tr.Referee()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ref.Start(tr.Start); err != nil {
				t.Fatal(err)
			}
			ready(t, ref, tr)
			before, _ := ref.NextTimer(at(1, 12, 0))
			c.cmd.By = "Модератор"
			_, err = ref.Moderate(c.cmd)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
			if after, _ := ref.NextTimer(at(1, 12, 0)); !after.Equal(before) {
				t.Errorf("a refused command moved the deadline from %v to %v", before, after)
			}
		})
	}
	// Two holidays may not overlap, an extension may not run into a holiday.
	ref, _ := tr.Referee()
	if _, err := ref.Start(tr.Start); err != nil {
		t.Fatal(err)
	}
	ready(t, ref, tr)
	if _, err := ref.Moderate(game.ModCommand{Action: game.ModHoliday, By: "m", Day: at(2, 10, 0), At: at(1, 12, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Moderate(game.ModCommand{Action: game.ModHoliday, By: "m", Day: at(2, 18, 0), At: at(1, 12, 0)}); err == nil || !strings.Contains(err.Error(), "overlaps") {
		t.Errorf("a second holiday the same day: %v", err)
	}
	if next, _ := ref.NextTimer(at(1, 23, 0)); !next.Equal(at(3, 23, 0)) {
		t.Errorf("after a holiday on the 2nd the deadline after the 1st's is %v, want the 3rd's", next)
	}
	if _, err := ref.Moderate(game.ModCommand{Action: game.ModEnd, By: "m", Reason: "x", At: at(1, 13, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Moderate(game.ModCommand{Action: game.ModExtend, By: "m", Delay: time.Hour, At: at(1, 14, 0)}); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("extending a finished game: %v", err)
	}
}

// ready is the first player post in the thread (the transcript's first poster who plays says
// hello at the start): a game's start draws wait for it (game.StartDrawer).
func ready(t *testing.T, ref *referee.Referee, tr *Transcript) {
	t.Helper()
	for _, p := range tr.Posts {
		if ref.Plays(p.Author) {
			if _, err := ref.Judge(game.Input{Source: game.Thread, PostID: "ready", Author: p.Author, At: tr.Start, Post: parser.FromBBCode("Готовы!")}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("no player posts in the transcript")
}

// Dragonball's rounds may resolve every N hours or minutes from midnight (issue 21, item 3): the
// opening post says so, and the rounds resolve at those times.
func TestDragonballEvery(t *testing.T) {
	src := `game: dragonball
start: 2026-12-01T10:00:00+03:00
settings: {rounds: 3, deadline: "every 6h"}
teams:
  - {name: Грифоны, side: A, players: [Гарри, Рон], handler: Гарри}
  - {name: Змеи, side: B, players: [Драко, Крэбб], handler: Драко}
posts:
  - {author: Рон, at: 2026-12-01T10:30:00+03:00, text: "Готовы!"}
  - {author: Гарри, at: 2026-12-01T11:00:00+03:00, private: true, text: "Такт 1: 17 в2"}
until: 2026-12-02T03:00:00+03:00
`
	tr, err := parse([]byte(src), ".", known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	msk := tr.Start.Location()
	var rounds []string
	for _, tm := range res.Timed {
		if strings.Contains(strings.Join(tm.Replies, "\n"), "[b]Раунд ") {
			rounds = append(rounds, tm.At.In(msk).Format("02 15:04"))
		}
	}
	if got := strings.Join(rounds, ","); got != "01 12:00,01 18:00,02 00:00" {
		t.Errorf("rounds resolved at %s, want every 6 hours from midnight", got)
	}
	if open := res.Timed[0].Replies[0]; !strings.Contains(open, "Раунд — 6 ч из трёх тактов") || !strings.Contains(open, "до конца раунда (раунды по 6 ч от полуночи по Москве)") {
		t.Errorf("the opening post does not say the rounds' length:\n%s", open)
	}
	for _, bad := range []string{"every 5m", "every 25h", "every six hours"} {
		if _, err := parse([]byte(strings.Replace(src, "every 6h", bad, 1)), ".", known); err == nil || !strings.Contains(err.Error(), "deadline") {
			t.Errorf("deadline %q: %v", bad, err)
		}
	}
}

// Crusade's reminders (an hour ahead; the time limit 15 minutes ahead): the side to move before
// its time limit runs out, a side's wounds to allocate before 00:00; never the other side, which
// owes nothing then.
func TestCrusadeReminders(t *testing.T) {
	b, err := os.ReadFile(example("crusade-flag.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := parse([]byte(strings.Replace(string(b), "game: crusade\n", "game: crusade\nreminders: 1h\n", 1)), filepath.Dir(example("crusade-flag.yaml")), known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	msk := tr.Start.Location()
	var got []string
	for _, tm := range res.Timed {
		for _, r := range tm.Replies {
			if strings.Contains(r, "Напоминание:") {
				to, rest, _ := strings.Cut(strings.TrimPrefix(r, privatePrefix), "]")
				what := "limit"
				if strings.Contains(rest, "распределить") {
					what = "allocate"
				}
				got = append(got, tm.At.In(msk).Format("02 15:04")+" "+to+" "+what)
			}
		}
	}
	want := "01 22:20 Джелу limit,01 23:00 Джелу allocate,01 23:20 Джелу limit"
	if g := strings.Join(got, ","); !strings.HasPrefix(g, want) {
		t.Errorf("reminders %s, want first %s", g, want)
	}
	// The game itself is not changed by reminders: the same end as without them.
	plain, err := Load(example("crusade-flag.yaml"), known)
	if err != nil {
		t.Fatal(err)
	}
	res2, err := plain.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Final) != fmt.Sprint(res2.Final) {
		t.Error("reminders changed the game")
	}
}

// whole checks a game run from an empty thread (issue 22's "Done when"): the sign-up in the
// thread, the teams formed, the organisation (organise: the entry's text), a player leaving and
// replaced (replaced: the replacing entry's text or command), the master's extension, the
// reminders (reminded: who, in order), and the end with its summary as the last post.
func whole(organise, replaced, reminded string) func(t *testing.T, tr *Transcript, res *Result) {
	return func(t *testing.T, tr *Transcript, res *Result) {
		t.Helper()
		var seq []string
		step := func(what string, ok bool) {
			if ok {
				seq = append(seq, what)
			}
		}
		var got []string
		for _, p := range res.Posts {
			src := tr.Posts[p.Index]
			text := strings.Join(p.Replies, "\n")
			if p.Verdict != "accepted" && (strings.Contains(src.Text, organise) || src.Command == replaced || strings.Contains(src.Text, replaced)) {
				t.Errorf("%s's %q: %s %q", src.Author, src.Text+src.Command, p.Verdict, p.Replies)
			}
			if src.Command != "" && p.Verdict != "accepted" {
				t.Errorf("the command %q: %s %q", src.Command, p.Verdict, p.Replies)
			}
			step("signed", strings.Contains(text, "вы записаны"))
			step("formed", strings.Contains(text, "команды сформированы"))
			step("organised", strings.Contains(src.Text, organise)) // football's captain: in the thread, as the seed says
			step("left", strings.Contains(text, "найдите ему замену"))
			step("replaced", (src.Command == replaced || strings.Contains(src.Text, replaced)) && strings.Contains(text, "Замена в команде"))
			step("extended", strings.HasPrefix(src.Command, "extend") && strings.Contains(text, "Срок продлён"))
		}
		for _, tm := range res.Timed {
			step("formed", strings.Contains(strings.Join(tm.Replies, "\n"), "команды сформированы"))
			for _, b := range tm.Replies {
				if strings.Contains(b, "Напоминание:") {
					to, _, _ := strings.Cut(strings.TrimPrefix(b, privatePrefix), "]")
					got = append(got, strings.TrimPrefix(to, "ЛС для "))
				}
			}
		}
		if !strings.HasPrefix(strings.Join(got, ", "), reminded) {
			t.Errorf("reminders to %q, want them to begin with %s", got, reminded)
		}
		for _, want := range []string{"signed", "formed", "organised", "left", "replaced", "extended"} {
			if !slices.Contains(seq, want) {
				t.Errorf("the game lacks the step %q (had %v)", want, seq)
			}
		}
		thread := res.Thread(tr)
		if last := thread[len(thread)-1]; !strings.Contains(last.Text, "в цифрах[/b]") {
			t.Errorf("the game does not end with its summary: %q", last.Text)
		}
	}
}

// The moderator's replace and remove read from a transcript entry, and what cannot be read is
// refused with what would be valid; a sign-up game's length is the game's once play began, and
// refused before.
func TestReplaceRemoveCommands(t *testing.T) {
	for _, c := range []struct {
		command, want string
		ok            bool
	}{
		{"replace Петя Оля", "replace Петя→Оля", true},
		{"remove Петя", "remove Петя→", true},
		{"replace Петя", "want the player who leaves and the new player", false},
		{"remove", "want the one player to take out", false},
		{"remove Петя Оля", "want the one player to take out", false},
		{"swap Петя Оля", "replace, remove", false},
	} {
		cmd, err := Command(Post{Author: "Модератор", Command: c.command, Reason: "r"}, time.UTC)
		if c.ok {
			if got := fmt.Sprintf("%s %s→%s", cmd.Action, cmd.Player, cmd.Replacement); err != nil || got != c.want || cmd.Reason != "r" {
				t.Errorf("%q: %q, %v; want %q", c.command, got, err, c.want)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.command, err, c.want)
		}
	}
	tr, err := Load(example("dragonball-whole.yaml"), known)
	if err != nil {
		t.Fatal(err)
	}
	ref := mustReferee(t, tr)
	if _, err := ref.Start(tr.Start); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Moderate(game.ModCommand{Action: game.ModLength, Amount: 3, By: "m", At: tr.Start.Add(time.Minute)}); err == nil || !strings.Contains(err.Error(), "sign-up runs") {
		t.Errorf("length during the sign-up: %v", err)
	}
}

// A time the master moved is the one every text names afterwards: a refusal, a move's
// acknowledgement, a deadline stated in a reply (the rules keep their own times; the texts
// write real time). Each post's reply must hold want and must not hold not.
func TestMovedTimesAreNamed(t *testing.T) {
	type check struct {
		post      int
		verdict   string
		want, not string
	}
	cases := []struct {
		name, src string
		checks    []check
		// timed: "HH:MM" then what the timed post then must say (nil: nothing checked)
		timed []string
	}{
		{"football: an extended opening and window", `game: football
start: 2026-12-01T19:00:00+03:00
settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m, turns_max: 3, turns_early: 0, start_cells: {Команда 1: 6}, dice: {58: 4, 37: 5}}
teams:
  - {name: Команда 1, captain: Вася, members: [Петя]}
  - {name: Команда 2, captain: Гоша, members: [Саша]}
  - {name: Команда 3, captain: Катя, members: [Миша]}
  - {name: Команда 4, captain: Дима, members: [Лена]}
posts:
  - {author: Модератор, at: 2026-12-01T20:15:00+03:00, command: extend 5m, reason: "форум лежал"}
  - {author: Петя, at: 2026-12-01T20:33:00+03:00, text: "Бросаю 37"}
  - {author: Модератор, at: 2026-12-01T20:36:00+03:00, command: extend 3m, reason: "ещё раз"}
  - {author: Петя, at: 2026-12-01T20:37:00+03:00, text: "Атакуем Команда 2, 58"}
  - {author: Петя, at: 2026-12-01T20:44:00+03:00, text: "Бросаю 37"}
until: 2026-12-01T21:30:00+03:00
`, []check{
			{1, "refused", "2-й ход начнётся в 20:35", "20:30"},
			{3, "accepted", "защищайтесь: «Защищаемся N» до 20:43", "20:40"},
			{4, "refused", "3-й ход начнётся в 21:00", "20:3"},
		}, nil},
		{"football: an extended question", `game: football
start: 2026-12-01T19:00:00+03:00
settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m, turns_max: 2, turns_early: 0, question_time: 10m, start_cells: {Команда 1: 1}, dice: {37: 3}}
teams:
  - {name: Команда 1, captain: Вася, members: [Петя]}
  - {name: Команда 2, captain: Гоша, members: [Саша]}
posts:
  - {author: Петя, at: 2026-12-01T20:01:00+03:00, text: "Бросаю 37"}
  - {author: Модератор, at: 2026-12-01T20:05:00+03:00, command: extend 5m 2026-12-01T20:11:00+03:00, reason: "вопрос длинный"}
  - {author: Вася, at: 2026-12-01T20:17:00+03:00, private: true, text: "Ответ: Пеле"}
until: 2026-12-01T21:30:00+03:00
`, []check{
			{2, "refused", "ответ принимался до 20:16", "20:11"},
		}, nil},
		{"crusade: a deadline after a holiday", `game: crusade
settings: {board_required: false, evening_start: "19:00", evening_end: "23:00", move_limit: 1h}
start: 2026-12-01T18:00:00+03:00
players:
  - {name: Джелу, side: crusaders}
  - {name: snovaya, side: saracens}
deployment: default
posts:
  - {author: Модератор, at: 2026-12-01T18:30:00+03:00, command: holiday 2026-12-02, reason: "праздник"}
  - {author: Джелу, at: 2026-12-01T19:05:00+03:00, text: "1-й ход крестоносца к1 на K16"}
  - {author: snovaya, at: 2026-12-01T22:50:00+03:00, text: "1-й ход сарацина н1 на N1"}
until: 2026-12-03T20:30:00+03:00
`, []check{
			{2, "accepted", "срок хода — до 3 декабря, 20:00", "2 декабря"},
		}, []string{"20:01", "Крестоносцы думают над ходом дольше часа", "до конца 3 декабря"}},
		{"football: an extension past the window", `game: football
start: 2026-12-01T19:00:00+03:00
settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m, turns_max: 3, turns_early: 0}
teams:
  - {name: Команда 1, captain: Вася, members: [Петя]}
  - {name: Команда 2, captain: Гоша, members: [Саша]}
posts:
  - {author: Модератор, at: 2026-12-01T20:15:00+03:00, command: extend 15m, reason: "форум лежал"}
  - {author: Петя, at: 2026-12-01T20:44:00+03:00, text: "Бросаю 37"}
  - {author: Петя, at: 2026-12-01T20:46:00+03:00, text: "Бросаю 37"}
until: 2026-12-01T21:30:00+03:00
`, []check{
			{1, "refused", "2-й ход начнётся в 20:45", "20:30"},
			{2, "refused", "3-й ход начнётся в 21:00", "20:45"},
		}, []string{"20:45", "Время 2 хода", "Итоги 2 хода"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse([]byte(c.src), known)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tr.Replay()
			if err != nil {
				t.Fatal(err)
			}
			if c.timed != nil {
				var said string
				for _, tm := range res.Timed {
					if tm.At.In(tr.Start.Location()).Format("15:04") == c.timed[0] {
						said += strings.Join(tm.Replies, "\n")
					}
				}
				for _, want := range c.timed[1:] {
					if !strings.Contains(said, want) {
						t.Errorf("at %s the bot must post %q; it posted %q", c.timed[0], want, said)
					}
				}
			}
			for _, ch := range c.checks {
				p := res.Posts[ch.post]
				reply := strings.Join(p.Replies, "\n")
				if p.Verdict != ch.verdict || !strings.Contains(reply, ch.want) || strings.Contains(reply, ch.not) {
					t.Errorf("post %d (%s): %s %q, want %s with %q and no %q", ch.post, p.Author, p.Verdict, p.Replies, ch.verdict, ch.want, ch.not)
				}
			}
		})
	}
}
