package football

import (
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/games/football/rules"
)

// Every event the engine logs has words for the moderators' web UI.
func TestDescribe(t *testing.T) {
	g := newGame(t, "", false)
	d, ok := g.ref.Rules().(game.Describer)
	if !ok {
		t.Fatal("football rules are not a game.Describer")
	}
	cases := []struct {
		ev   game.Event
		want string
	}{
		{&rules.GameStarted{}, "жеребьёвка по первому посту игрока"},
		{&rules.TurnOpened{Turn: 2}, "ход 2 открыт"},
		{&rules.Rolled{Turn: 2, Team: "Команда 1", Number: 58, Author: "a"}, "ход 2: бросок «Команда 1», число 58 (a)"},
		{&rules.AttackDeclared{Turn: 2, Team: "A", Target: "B", Author: "a"}, "атака «A» на «B»"},
		{&rules.DefenceRolled{Turn: 2, Team: "B", Attacker: "A", Author: "b"}, "защита «B» от «A»"},
		{&rules.PointsSpent{Team: "A", Added: 2, Author: "a"}, "баллы «A»: +2"},
		{&rules.AnswerJudged{Team: "A", Correct: true, Author: "a"}, "ответ «A» верный"},
		{&rules.QuestionExpired{Team: "A"}, "без ответа"},
		{&rules.TurnClosed{Turn: 2}, "ход 2 закрыт"},
		{&rules.GameEnded{Author: "Moderator"}, "игра окончена (Moderator)"},
	}
	for _, tc := range cases {
		if got := d.Describe(tc.ev); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.ev.EventKind(), got, tc.want)
		}
	}
	if st := d.Status(); st == "" {
		t.Error("no status")
	}
	if w := d.Winners(); len(w) != 0 {
		t.Errorf("winners %v: the final table decides", w)
	}
}
