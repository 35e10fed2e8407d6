package daemon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/store"
)

// signupStep is one thing a player does in a sign-up game: a post in the thread or a private
// message to the bot (pm), at hh:mm of December day; want is what the bot's answer (in the
// thread, or privately to the author) must hold; verdict, if set, how the post was judged.
type signupStep struct {
	day      int
	at, who  string
	pm       bool
	text     string
	want     string
	refusal  bool
	moreKind string // an event kind that must be in the log after the step
}

// TestSignupEndToEnd runs each game from an empty thread through the daemon over loopback HTTP
// on the sandbox forum: sign-ups (with refusals), the teams formed, the organisation in the
// thread or by private message, the game's opening post, a first move, and a player leaving and
// being replaced (a new daemon process taking over half-way); at the end every reply is in the thread exactly once and a new referee
// re-folded from the store agrees.
func TestSignupEndToEnd(t *testing.T) {
	cases := []struct {
		name, kind string
		users      []string
		yaml       string
		steps      []signupStep
	}{
		{name: "crusade", users: []string{"gm-bot", "Джелу", "snovaya", "Вася", "Петя", "Оля", "Moderator"}, yaml: `  kind: crusade
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  signup: {deadline: "2026-12-02T12:00:00+03:00", team_size: 2, until_full: true, organise: 6h}
  settings: {board_required: false}
`, steps: []signupStep{
			{1, "12:10", "Джелу", false, "Записываюсь за крестоносцев", "вы записаны в команду «крестоносцы»", false, "signup.joined"},
			{1, "12:15", "Moderator", false, "записываюсь", "служебная учётная запись", true, ""},
			{1, "12:20", "snovaya", false, "записываюсь за сарацин", "вы записаны в команду «сарацины»", false, ""},
			{1, "12:25", "Вася", false, "в команду крестоносцы", "Вася, вы записаны", false, ""},
			{1, "12:30", "Петя", false, "записываюсь", "Запись закрыта — команды сформированы", false, "signup.formed"},
			{1, "12:35", "Оля", false, "записываюсь", "Запись уже закрыта", true, ""},
			{1, "13:00", "Джелу", true, "Игроки-воины\nДжелу: р1, р2, р3, а1, а2, л1, л2\nВася: л3, с1, с2, к1, к2, к3, к4, к5", "В списке не так", true, ""},
			{1, "13:05", "snovaya", true, "Игроки-воины\nsnovaya: ш1, ш2, ш3, в1, в2, в3, в4, в5\nПетя: в6, в7, в8, н1, н2, н3, н4", "принят", false, "signup.pieces"},
			{1, "13:10", "Вася", true, "Игроки-воины\nДжелу: р1, р2, р3, а1, а2, л1, л2, л3\nВася: с1, с2, к1, к2, к3, к4, к5", "принят", false, "signup.started"},
			{1, "19:05", "Вася", false, "1-й ход крестоносца к1 на K16", "Ход принят[/b] — Вася (крестоносцы)", false, "crusade.turn_played"},
			{1, "19:10", "Джелу", false, "1-й ход крестоносца р1 на O18", "", true, ""},
			{1, "19:20", "Петя", false, "выхожу из игры", "найдите ему замену", false, "signup.departed"},
			{1, "19:30", "Оля", false, "записываюсь на замену Петя", "Петя → Оля", false, "crusade.player_replaced"},
			{1, "19:40", "Оля", false, "1-й ход сарацина в6 на J8", "Ход принят[/b] — Оля (сарацины)", false, ""},
		}},
		{name: "dragonball", users: []string{"gm-bot", "Гарри", "Рон", "Драко", "Гойл", "Невилл", "Moderator"}, yaml: `  kind: dragonball
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  signup: {deadline: "2026-12-02T10:00:00+03:00", team_size: 2, until_full: true, organise: 4h}
  settings: {deadline: "23:00", rounds: 2}
`, steps: []signupStep{
			{1, "10:05", "Гарри", false, "в команду Грифоны", "вы записаны в команду «Грифоны»", false, ""},
			{1, "10:10", "Драко", false, "записываюсь за Змеи", "вы записаны в команду «Змеи»", false, ""},
			{1, "10:15", "Рон", false, "записываюсь за Змеи", "вы записаны в команду «Змеи»", false, ""},
			{1, "10:20", "Гойл", false, "записываюсь за Змеи", "Команда «Змеи» уже полная", true, ""},
			{1, "10:25", "Гойл", false, "записываюсь", "команды сформированы", false, "signup.formed"},
			{1, "10:30", "Гарри", true, "Дракону приказывает: Драко", "Драко не в вашей команде", true, ""},
			{1, "10:35", "Гарри", true, "Дракону приказывает: Гойл", "дракону приказывает — Гойл", false, "signup.role"},
			{1, "14:25", "", false, "", "Драконбол начинается", false, "dragonball.game_started"},
			{1, "15:00", "Гарри", true, "Такт 1: 2 в2", "Приказы приняты", false, "dragonball.orders_accepted"},
			{1, "16:00", "Рон", false, "выхожу из игры", "найдите ему замену", false, "signup.departed"},
			{1, "16:10", "Невилл", false, "записываюсь на замену Рон", "Рон → Невилл", false, "dragonball.player_replaced"},
			{1, "16:20", "Невилл", true, "Такт 1: 12 в2", "Приказы приняты", false, ""},
		}},
		{name: "football", users: []string{"gm-bot", "Вася", "Петя", "Оля", "Гоша", "Маша", "Moderator"}, yaml: `  kind: football
  timezone: Europe/Moscow
  start: "2026-12-01T10:00:00+03:00"
  signup: {deadline: "2026-12-01T12:00:00+03:00", teams: [Спартак, Динамо], organise: 2h}
  settings: {first_turn: "2026-12-01T20:00:00+03:00", turn_every: 30m, window: 10m}
`, steps: []signupStep{
			{1, "10:05", "Вася", false, "записываюсь", "Вася, вы записаны", false, ""},
			{1, "10:10", "Петя", false, "записываюсь за Спартак", "вы записаны в команду «Спартак»", false, ""},
			{1, "10:15", "Оля", false, "записываюсь за Зенит", "Команды «зенит» нет", true, ""},
			{1, "10:20", "Оля", false, "записываюсь за Спартак", "вы записаны", false, ""},
			{1, "10:25", "Гоша", false, "записываюсь", "вы записаны", false, ""},
			{1, "12:01", "", false, "", "Запись закрыта — команды сформированы", false, "signup.formed"},
			{1, "12:10", "Петя", false, "капитан: Петя", "капитан — Петя", false, "signup.role"},
			{1, "14:01", "", false, "", "Футбольная игра с кубиком начинается", false, "signup.started"},
			{1, "20:01", "", false, "", "Время 1 хода", false, "football.turn_opened"},
			{1, "20:02", "Петя", false, "Бросаю 37", "«Спартак» (Петя): число 37", false, "football.rolled"},
			{1, "20:03", "Гоша", false, "выхожу из игры", "найдите ему замену", false, "signup.departed"},
			{1, "20:04", "Маша", false, "записываюсь на замену Гоша", "Гоша → Маша", false, "football.player_replaced"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, time.Date(2026, 12, 1, 10, 0, 0, 0, msk), c.users, "Игра")
			g := b.game(t, c.name, "gm-bot", 1, c.yaml)
			g.settle(t)
			if posts := g.botPosts(t); len(posts) != 1 || !strings.Contains(posts[0], "открыта запись") || !strings.Contains(posts[0], "записываюсь") {
				t.Fatalf("the opening post does not open the sign-up: %q", posts)
			}
			for i, s := range c.steps {
				if i == len(c.steps)/2 {
					g.restart(t, "") // a new process mid-way: the sign-up state comes back from the store
				}
				b.set(s.day, s.at)
				before := len(g.botPosts(t))
				var pmBefore int
				var id string
				switch {
				case s.who == "": // the clock only
				case s.pm:
					pmBefore = len(g.received(t, s.who))
					g.pm(t, s.who, s.text)
				default:
					id = strconv.Itoa(g.post(t, s.who, s.text))
				}
				b.clock.Advance(30 * time.Second)
				g.settle(t)
				var got []string
				if s.pm {
					got = g.received(t, s.who)[pmBefore:]
				} else {
					got = g.botPosts(t)[before:]
				}
				if s.want != "" && withText(got, s.want) == "" {
					t.Fatalf("step %d (%s: %q): no answer with %q; got %q", i, s.who, s.text, s.want, got)
				}
				if id != "" {
					v := g.verdict(t, store.SourceThread, id)
					if s.refusal != (v == store.VerdictRefused) {
						t.Errorf("step %d (%s: %q): verdict %s, refusal wanted: %v", i, s.who, s.text, v, s.refusal)
					}
				}
				if s.moreKind != "" && g.kinds(t)[s.moreKind] == 0 {
					t.Errorf("step %d: no %s event; have %v", i, s.moreKind, g.kinds(t))
				}
			}
			g.exactlyOnce(t)
			if g.newRefOver(t) {
				t.Error("the game re-folded from the store is over")
			}
		})
	}
}
