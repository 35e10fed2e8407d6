package football

import "forumgm/game"

// Sandbox is the football quiz in the sandbox forum: four teams of two (a captain and a member),
// every one a throwaway login, and short turns so a whole game fits in an hour.
func (Game) Sandbox() game.SandboxGame {
	return game.SandboxGame{
		Title:   "Football dice quiz",
		Subject: "Футбольная игра с кубиком — песочница",
		Intro: "[b]Футбольная игра с кубиком — партия в песочнице[/b]\n" +
			"Ведущий — бот gm-bot. Четыре команды: «Команда 1» (капитан Вася, Петя), «Команда 2» (капитан Гоша, Оля), " +
			"«Команда 3» (капитан Катя, Миша), «Команда 4» (капитан Дима, Лена).\n" +
			"Ходы короткие: первый — через 2 минуты после старта, потом каждые 4 минуты, на ход 3 минуты. Удачной игры!",
		Players: []game.SandboxUser{
			{Name: "Вася", Password: "team1cap", Role: "captain, Команда 1 (group 1)"},
			{Name: "Петя", Password: "team1", Role: "member, Команда 1"},
			{Name: "Гоша", Password: "team2cap", Role: "captain, Команда 2 (group 1)"},
			{Name: "Оля", Password: "team2", Role: "member, Команда 2"},
			{Name: "Катя", Password: "team3cap", Role: "captain, Команда 3 (group 2)"},
			{Name: "Миша", Password: "team3", Role: "member, Команда 3"},
			{Name: "Дима", Password: "team4cap", Role: "captain, Команда 4 (group 2)"},
			{Name: "Лена", Password: "team4", Role: "member, Команда 4"},
		},
		Spec: `  teams:
    - {name: Команда 1, captain: Вася, members: [Петя]}
    - {name: Команда 2, captain: Гоша, members: [Оля]}
    - {name: Команда 3, captain: Катя, members: [Миша]}
    - {name: Команда 4, captain: Дима, members: [Лена]}
  board: default
  # A try-out: short turns (a real game: turn_every 30m, window 10m, question_time 10m).
  settings: {first_turn_after: 2m, turn_every: 4m, window: 3m, question_time: 3m}
`,
		Try: []string{
			"Turn 1 opens 2 minutes after the start (the bot posts «Время 1 хода»), then every 4 minutes;",
			"each turn's window is 3 minutes, questions must be answered within 3 minutes.",
			"The first player post in the thread (any text) draws the first die table; its reply commits to it.",
			"Log in as Петя (or any member) and reply in the thread:  Бросаю 37",
			"From an attack cell:  Атакуем Команда 2, 58  — the attacked team answers  Защищаемся 12",
			"Captains (Вася, Гоша, Катя, Дима) get the faces and questions by private message and reply",
			"privately:  +2 к атаке  or  Ответ: Пеле",
		},
		SignupSpec: `  board: default
  settings: {first_turn_after: 2m, turn_every: 4m, window: 3m, question_time: 3m}
`,
		Signup: "team_size: 2, until_full: true, teams: [Команда 1, Команда 2, Команда 3, Команда 4]",
		SignupTry: []string{
			"Log in as Вася and reply:  записываюсь за Команда 1  (or  записываюсь: the draw places you)",
			"When eight have signed up the teams are formed; a team's player names the captain in the",
			"thread:  капитан: Вася  (or nothing: the team's first player). Turn 1 opens 2 minutes after",
			"the game starts, then every 4 minutes; reply  Бросаю 37  in the turn's window.",
		},
	}
}
