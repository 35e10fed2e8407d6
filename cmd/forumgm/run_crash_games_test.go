package main

import (
	"testing"
	"time"
)

// The crash test over the other games: a whole Dragonball game of two rounds (orders by private
// message, each round resolved at its deadline with the report in the thread), killed between
// resolving a round and posting its report among other points; and two turns of the football
// quiz with four teams (rolls, attacks, points and an answer by private message, the windows'
// results). All the posts are made before the daemon first runs, so a run judges them and fires
// the timers due before each (committing) before it sends anything: "fired:1" kills a run right
// after it committed a round's resolution (or a turn's opening or results), its report unsent.
// Every run must end with the uninterrupted run's thread, private messages and state.

var dragonballCrash = crashGame{
	kind: "dragonball", subject: "Драконбол", start: "2026-12-01T10:00:00+03:00",
	players: []string{"Гарри", "Рон", "Джинни", "Драко", "Крэбб", "Гойл"},
	section: `  timezone: Europe/Moscow
  teams:
    - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
    - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
  settings: {deadline: "23:00", rounds: 2}
`,
	posts: []crashPost{
		{"11:00", "Гарри", "Такт 1: 17 в2\nТакт 2: 33 в2\nДракон такт 1: вперёд\nДракон такт 2: стоит, пасть открыта", true},
		{"12:00", "Драко", "Такт 1: 27 в2\nТакт 2: 43 в3\nДракон такт 1: вперёд, пасть закрыта", true},
		{"13:00", "Рон", "Такт 1: 18 в2\nТакт 2: 34 в2\nОписание: Рон летит за мячом.", true},
		{"14:00", "Крэбб", "Такт 1: 28 в2", true},
		{"15:00", "Джинни", "Такт 1: 19 в2", false}, // orders in the thread: refused
		{"2026-12-02 11:00", "Гарри", "Такт 1: 49 в2\nДракон такт 1: налево", true},
		{"2026-12-02 12:00", "Драко", "Такт 1: 59 в3\nДракон такт 1: вперёд, пламя", true},
		{"2026-12-02 13:00", "Джинни", "Такт 1: 19 в2\nТакт 2: 35 в2", true},
	},
	until:   time.Date(2026, 12, 2, 23, 40, 0, 0, mskZone),
	clockAt: time.Date(2026, 12, 2, 23, 0, 0, 0, mskZone),
}

func TestCrashAnywhereExactlyOnceDragonball(t *testing.T) {
	crashAnywhere(t, &dragonballCrash, []string{"fired:1", "attempt:1", "fired:1", "sent:1", "posted:1", "attempt:2", "sent:2"})
}

var footballCrash = crashGame{
	kind: "football", subject: "Футбол", start: "2026-12-01T19:00:00+03:00",
	players: []string{"Вася", "Петя", "Оля", "Гоша", "Саша", "Катя", "Миша", "Дима", "Лена"},
	section: `  timezone: Europe/Moscow
  teams:
    - {name: Команда 1, captain: Вася, members: [Петя, Оля]}
    - {name: Команда 2, captain: Гоша, members: [Саша]}
    - {name: Команда 3, captain: Катя, members: [Миша]}
    - {name: Команда 4, captain: Дима, members: [Лена]}
  board: default
  question_bank: questions.yaml
  settings:
    first_turn: "2026-12-01T20:00:00+03:00"
    turn_every: 30m
    window: 10m
    start_cells: {Команда 1: 6, Команда 3: 23}
    points: {Команда 1: 2}
    dice: {58: 4, 12: 3, 37: 5, 44: 2, 20: 3, 61: 6, 70: 5, 71: 2, 90: 2}
`,
	files: map[string]string{"questions.yaml": `questions:
  - {topic: история, text: "Кого называют королём футбола?", answers: ["Пеле"]}
  - {topic: история, text: "Кто стал чемпионом мира в 17 лет в 1958 году?", answers: ["Пеле"]}
`},
	posts: []crashPost{
		{"19:30", "Петя", "Бросаю 11", false},
		{"20:01", "Петя", "Атакуем Команда 2, 58", false},
		{"20:02", "Вася", "+1 к атаке", true},
		{"20:03", "Саша", "Защищаемся 12", false},
		{"20:04", "Гоша", "Бросаю 37", false},
		{"20:05", "Катя", "атакуем команду 4 — 44", false},
		{"20:06", "Лена", "кубик 20", false},
		{"20:07", "Дима", "Ответ: Пеле", true},
		{"20:12", "Оля", "Бросаю 90", false},
		{"20:31", "Оля", "атака на Команда 2: 61", false},
		{"20:33", "Гоша", "Атакуем Команда 1, 70", false},
		{"20:34", "Петя", "Защищаемся 71", false},
	},
	until:   time.Date(2026, 12, 1, 20, 50, 0, 0, mskZone),
	clockAt: time.Date(2026, 12, 1, 20, 40, 0, 0, mskZone),
}

func TestCrashAnywhereExactlyOnceFootball(t *testing.T) {
	crashAnywhere(t, &footballCrash, []string{"fired:2", "judged:2", "fired:1", "sent:2", "attempt:3", "posted:2", "sent:1", "attempt:2", "posted:1"})
}
