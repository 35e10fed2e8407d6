package dragonball

import (
	"fmt"
	"time"

	"forumgm/game"
)

// sandboxLead is how long after the sandbox opens the first round resolves.
const sandboxLead = 10 * time.Minute

// Sandbox is Dragonball in the sandbox forum: two teams of three with throwaway logins, three
// rounds. The deadline is a time of day, so the sandbox sets it to the time of day ten minutes
// after it opens (the wall clock, in the sandbox's zone Europe/Moscow): the first round resolves
// then, the next ones at the same time on the following days.
func (Game) Sandbox() game.SandboxGame {
	return sandboxAt(time.Now())
}

func sandboxAt(now time.Time) game.SandboxGame {
	loc, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		loc = time.FixedZone("MSK", 3*3600)
	}
	d := now.In(loc).Add(sandboxLead + time.Minute - 1).Truncate(time.Minute)
	deadline := d.Format("15:04")
	return game.SandboxGame{
		Title:   "Dragonball",
		Subject: "Драконбол — матч в песочнице",
		Intro: "[b]Драконбол — матч в песочнице[/b]\n" +
			"Ведущий — бот gm-bot. Грифоны: Гарри, Рон, Джинни (дракону приказывает Гарри). " +
			"Змеи: Драко, Крэбб, Гойл (дракону приказывает Драко).\n" +
			"Приказы — личным сообщением боту, раунд разыгрывается в " + deadline + " по Москве. Удачной игры!",
		Players: []game.SandboxUser{
			{Name: "Гарри", Password: "griffin-1", Role: "player, Грифоны (side A), the dragon's handler"},
			{Name: "Рон", Password: "griffin-2", Role: "player, Грифоны (side A)"},
			{Name: "Джинни", Password: "griffin-3", Role: "player, Грифоны (side A)"},
			{Name: "Драко", Password: "snake-1", Role: "player, Змеи (side B), the dragon's handler"},
			{Name: "Крэбб", Password: "snake-2", Role: "player, Змеи (side B)"},
			{Name: "Гойл", Password: "snake-3", Role: "player, Змеи (side B)"},
		},
		Spec: fmt.Sprintf(`  teams:
    - {name: Грифоны, side: A, players: [Гарри, Рон, Джинни], handler: Гарри}
    - {name: Змеи, side: B, players: [Драко, Крэбб, Гойл], handler: Драко}
  # A try-out: the deadline is a time of day, set to %s (ten minutes after the sandbox
  # opened); the next rounds resolve at the same time on the following days.
  settings: {deadline: "%s", rounds: 3}
`, deadline, deadline),
		Try: []string{
			"First reply in the thread as any player (any text:  Готовы!): the balls are drawn then, no round before.",
			"Log in as Гарри and send gm-bot a private message:  Такт 1: 17 в2  (and  Дракон такт 1: вперёд)",
			"The answer (the orders as understood, or each refused line with the reason) comes within seconds.",
			fmt.Sprintf("The round resolves at %s Moscow time, ten minutes after the sandbox opened: the report", deadline),
			"appears in the thread. Rounds are daily (a time-of-day deadline), so the second one is tomorrow.",
		},
		SignupSpec: "  settings: {rounds: 3}\n",
		Signup:     "team_size: 3, until_full: true, teams: [Грифоны, Змеи]",
		SignupTry: []string{
			"Log in as Гарри and reply:  записываюсь за Грифоны  (or  записываюсь: the draw places you)",
			"When six have signed up the teams are formed; a team's player then sends gm-bot a private",
			"message  дракону приказывает: Гарри  (or nothing: the first player gets the dragon). Orders",
			"come by private message once the game starts; rounds resolve daily at 23:00 Moscow time.",
		},
	}
}
