package daemon

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

var fbUsers = []string{"gm-bot", "Вася", "Петя", "Оля", "Гоша", "Саша", "Катя", "Миша", "Дима", "Лена", "Moderator"}

// fbGame is a football quiz of four teams in two groups: turns at 20:00, 20:30, ... with a
// ten-minute window; the faces of the numbers named are fixed (settings.dice), the rest of the
// table comes from the seed. The question bank (QBANK) has questions answered «Пеле».
const fbGame = `  kind: football
  timezone: Europe/Moscow
  start: "2026-12-01T19:00:00+03:00"
  teams:
    - {name: Команда 1, captain: Вася, members: [Петя, Оля]}
    - {name: Команда 2, captain: Гоша, members: [Саша]}
    - {name: Команда 3, captain: Катя, members: [Миша]}
    - {name: Команда 4, captain: Дима, members: [Лена]}
  board: default
  question_bank: QBANK
  settings:
    first_turn: "2026-12-01T20:00:00+03:00"
    turn_every: 30m
    window: 10m
    start_cells: {Команда 1: 6, Команда 3: 23}
    points: {Команда 1: 2}
    dice: {58: 4, 12: 3, 37: 5, 44: 2, 20: 3, 61: 6, 70: 5, 71: 2, 90: 2}
`

const fbBank = `questions:
  - {topic: история, text: "Кого называют королём футбола?", answers: ["Пеле"]}
  - {topic: история, text: "Кто забил больше всех голов за сборную Бразилии в XX веке?", answers: ["Пеле"]}
  - {topic: история, text: "Кто стал чемпионом мира в 17 лет в 1958 году?", answers: ["Пеле"]}
`

// fbSteps: day 1 (day, time, who, text, private); an empty text only moves the clock.
var fbSteps = []struct {
	at, who, txt string
	pm           bool
}{
	{"19:30", "Петя", "Бросаю 11", false}, // the window is closed: refused
	{"20:00", "", "", false},              // turn 1 opens
	{"20:01", "Петя", "Атакуем Команда 2, 58", false},
	{"20:02", "Вася", "+1 к атаке", true},
	{"20:03", "Саша", "Защищаемся 12", false},
	{"20:04", "Гоша", "Бросаю 37", false},
	{"20:05", "Катя", "атакуем команду 4 — 44", false},
	{"20:06", "Лена", "кубик 20", false}, // a question cell: the question goes to Дима
	{"20:07", "Дима", "Ответ: Пеле", true},
	{"20:10", "", "", false},             // turn 1 closes: the goals and the table
	{"20:12", "Оля", "Бросаю 90", false}, // closed again: refused
	{"20:30", "", "", false},             // turn 2 opens
	{"20:31", "Оля", "атака на Команда 2: 61", false},
	{"20:33", "Гоша", "Атакуем Команда 1, 70", false},
	{"20:34", "Петя", "Защищаемся 71", false},
	{"20:40", "", "", false}, // turn 2 closes
}

// playFootball plays turns 1 and 2 over the sandbox. If crashAt is set, the daemon crashes at
// that pipeline step while handling step crashStep, and a new one on the same store takes over.
func playFootball(t *testing.T, crashStep int, crashAt string) *table {
	b := newBoard(t, time.Date(2026, 12, 1, 19, 0, 0, 0, msk), fbUsers, "Футбол")
	bank := filepath.Join(b.dir, "questions.yaml")
	if err := os.WriteFile(bank, []byte(fbBank), 0o644); err != nil {
		t.Fatal(err)
	}
	g := b.game(t, "fb", "gm-bot", 1, strings.Replace(fbGame, "QBANK", bank, 1))
	g.settle(t)
	pids := map[int]int{}
	// The windows open and close on the clock: not one cycle earlier.
	notYet := map[string]string{"20:00": "[b]Время 1 хода[/b]", "20:10": "[b]Итоги 1 хода[/b]", "20:30": "[b]Время 2 хода[/b]", "20:40": "[b]Итоги 2 хода[/b]"}
	for i, s := range fbSteps {
		b.set(1, s.at)
		if w, ok := notYet[s.at]; ok {
			b.clock.Set(b.clock.Now().Add(-30 * time.Second))
			g.settle(t)
			if withText(g.botPosts(t), w) != "" {
				t.Errorf("%q posted before %s", w, s.at)
			}
			b.set(1, s.at)
		}
		switch {
		case s.txt == "":
		case s.pm:
			g.pm(t, s.who, s.txt)
		default:
			pids[i] = g.post(t, s.who, s.txt)
		}
		b.clock.Advance(30 * time.Second)
		if i == crashStep && crashAt != "" {
			g.crashAndRecover(t, crashAt, nil)
		}
		g.settle(t)
	}
	checkFootball(t, g, pids)
	return g
}

// checkFootball checks what fbSteps must have led to; pids are the thread posts' ids by step.
func checkFootball(t *testing.T, g *table, pids map[int]int) {
	t.Helper()
	posts := g.botPosts(t)
	if !strings.Contains(posts[0], "Футбольная игра с кубиком начинается") || withText(posts, "Жеребьёвка по первому посту игрока: таблица кубика составлена") == "" || strings.Contains(posts[0], "Отпечаток таблицы") {
		t.Errorf("no opening post:\n%s", posts[0])
	}
	for _, i := range []int{0, 10} {
		if v := g.verdict(t, store.SourceThread, strconv.Itoa(pids[i])); v != store.VerdictRefused {
			t.Errorf("%q at %s with the window closed: %s, want refused", fbSteps[i].txt, fbSteps[i].at, v)
		}
	}
	if p := withText(posts, "Оля", "время хода закрыто"); p == "" {
		t.Errorf("the roll after the window closed is not refused with the reason")
	}
	for _, want := range [][]string{
		{"[b]Время 1 хода[/b] — ходим до 20:10", "«Команда 1» (ячейка 6) → «Команда 2»"},
		{"[b]«Команда 1» атакует ворота команды «Команда 2»![/b]", "число 58"},
		{"«Команда 2» защищается от атаки «Команда 1» (число 12)"},
		{"«Команда 2» (Гоша): число 37 — на кубике 5. Ячейка 1 → 6"},
		{"«Команда 4» (Лена): число 20 — на кубике 3", "Вопрос отправлен капитану (Дима)"},
		{"[b]Итоги 1 хода[/b]", "«Команда 1» → «Команда 2»: атака 4 + 1 = 5, защита 3 = 3 — [b]ГОЛ![/b]", "«Команда 3» → «Команда 4»: атака 2 = 2, защита 0", "Место  Команда"},
		{"[b]Время 2 хода[/b] — ходим до 20:40"},
		{"[b]Итоги 2 хода[/b]", "«Команда 1» → «Команда 2»: атака 6 = 6, защита 0", "«Команда 2» → «Команда 1»: атака 5 = 5, защита 2 = 2 — [b]ГОЛ![/b]"},
	} {
		if withText(posts, want...) == "" {
			t.Errorf("no post with %q", want)
		}
	}
	for _, want := range []struct{ who, text string }{
		{"Вася", "Атака на «Команда 2»: на кубике 4. На счету 2 балла"},
		{"Вася", "Добавлено 1 балл к атаке. Атака: 4 + 1 = 5"},
		{"Гоша", "Защита от «Команда 1»: на кубике 3"},
		{"Дима", "[b]Вопрос для команды «Команда 4»[/b]"},
		{"Дима", "Верно! +1 игровой балл"},
		{"Вася", "Защита от «Команда 2»: на кубике 2"},
	} {
		if withText(g.received(t, want.who), want.text) == "" {
			t.Errorf("%s got no private message with %q: %q", want.who, want.text, g.received(t, want.who))
		}
	}
	g.exactlyOnce(t)
	// Every private message arrived once.
	var all []string
	for _, u := range fbUsers[1:] {
		all = append(all, g.received(t, u)...)
	}
	_, count := markersIn(all)
	for m, n := range count {
		if n != 1 {
			t.Errorf("private message %s arrived %d times", m, n)
		}
	}
	if k := g.kinds(t); k["football.turn_opened"] < 2 {
		t.Errorf("events: %v", k)
	}
}

// TestFootballEndToEnd plays two turns of the football quiz with four teams over loopback HTTP
// against the sandbox, on a simulated clock: windows opening and closing, rolls, attacks with
// points added by private message and defences, a question answered privately, the table.
func TestFootballEndToEnd(t *testing.T) {
	g := playFootball(t, -1, "")
	if testing.Verbose() {
		t.Log(strings.Join(g.botPosts(t), "\n---\n"))
	}
}

// pmsOf is every private message the game's bot sent, user by user, markers masked.
func pmsOf(t *testing.T, g *table) string {
	var b strings.Builder
	for _, u := range fbUsers[1:] {
		b.WriteString(u + ":\n" + keyRe.ReplaceAllString(strings.Join(g.received(t, u), "\n"), "${1}KEY") + "\n")
	}
	return b.String()
}

// A crash in the middle of the game neither loses nor doubles a post or a private message: the
// daemon dies after committing an attack's judgement (its reply and the captain's die not yet
// sent), between the forum taking a reply and recording it, and after closing turn 1 (its
// results committed, not posted); the thread and the private messages are the uninterrupted
// run's, byte for byte.
func TestFootballCrashInTheMiddle(t *testing.T) {
	base := playFootball(t, -1, "")
	want, wantPM := maskedThread(t, base), pmsOf(t, base)
	for _, c := range []struct {
		step int
		at   string
	}{{2, "judged"}, {2, "sent"}, {5, "attempt"}, {9, "fired"}, {9, "sent"}, {12, "judged"}} {
		t.Run(fbSteps[c.step].at+"-"+c.at, func(t *testing.T) {
			g := playFootball(t, c.step, c.at)
			if got := maskedThread(t, g); got != want {
				t.Errorf("the thread differs from the uninterrupted run's:\n--- want\n%s\n--- got\n%s", want, got)
			}
			if got := pmsOf(t, g); got != wantPM {
				t.Errorf("the private messages differ:\n--- want\n%s\n--- got\n%s", wantPM, got)
			}
		})
	}
}
