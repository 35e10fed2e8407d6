package crusade

import (
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

// Every event the engine logs has words for the moderators' web UI, and a few say what matters.
func TestDescribe(t *testing.T) {
	c := newRef(t)
	var r game.Rules = c.rules()
	d, ok := r.(game.Describer)
	if !ok {
		t.Fatal("crusade rules are not a game.Describer")
	}
	cases := []struct {
		ev   game.Event
		want string
	}{
		{&rules.GameStarted{}, "игра началась"},
		{&rules.DeploymentReceived{Side: rules.Saracens, Author: "snovaya"}, "расстановка сарацин (snovaya)"},
		{&rules.TurnPlayed{Number: 3, Side: rules.Crusaders, Author: "Джелу", Wounds: 2}, "ход 3: крестоносцы (Джелу), 2 ранения за небрежность"},
		{&rules.WoundsAllocated{Side: rules.Crusaders, Author: "Джелу"}, "ранения крестоносцев распределены (Джелу)"},
		{&rules.QuestionAsked{Number: 2}, "вопрос дня №2"},
		{&rules.AnswerAccepted{Side: rules.Saracens, Author: "snovaya"}, "ответ на вопрос дня засчитан: сарацины (snovaya)"},
		{&rules.TimeLimitExceeded{Side: rules.Saracens, Wounds: 1}, "время на ход вышло: сарацины, 1 ранение"},
		{&rules.DayClosed{Day: "2026-12-01"}, "итоги дня"},
		{&rules.GameEnded{Winner: rules.Draw, Author: "Moderator"}, "игра окончена: ничья (Moderator)"},
		{&rules.GameEnded{Winner: rules.Saracens}, "игра окончена: победа — сарацины"},
	}
	for _, tc := range cases {
		got := d.Describe(tc.ev)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.ev.EventKind(), got, tc.want)
		}
	}
	for _, k := range []string{rules.KindGameStarted, rules.KindDeploymentReceived, rules.KindTurnPlayed, rules.KindWoundsAllocated,
		rules.KindQuestionAsked, rules.KindAnswerAccepted, rules.KindTimeLimitExceeded, rules.KindDayClosed, rules.KindGameEnded} {
		if !c.rules().Defined("event " + k) {
			t.Errorf("no words for %s", k)
		}
	}
	if st := d.Status(); !strings.Contains(st, "Ходят крестоносцы") {
		t.Errorf("status %q", st)
	}
	names := []string{}
	for _, w := range d.Winners() {
		names = append(names, w.Name+"="+w.Label)
	}
	if got := strings.Join(names, ","); got != "crusaders=крестоносцы,saracens=сарацины,draw=ничья" {
		t.Errorf("winners %s", got)
	}
}
