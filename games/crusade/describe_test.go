package crusade

import (
	"strings"
	"testing"

	"forumgm/engine"
	cr "forumgm/engine/crusade"
	"forumgm/judge"
)

// Every event the engine logs has words for the moderators' web UI, and a few say what matters.
func TestDescribe(t *testing.T) {
	c := newRef(t)
	var r judge.Rules = c.rules()
	d, ok := r.(judge.Describer)
	if !ok {
		t.Fatal("crusade rules are not a judge.Describer")
	}
	cases := []struct {
		ev   engine.Event
		want string
	}{
		{&cr.GameStarted{}, "игра началась"},
		{&cr.DeploymentReceived{Side: cr.Saracens, Author: "snovaya"}, "расстановка сарацин (snovaya)"},
		{&cr.TurnPlayed{Number: 3, Side: cr.Crusaders, Author: "Джелу", Wounds: 2}, "ход 3: крестоносцы (Джелу), 2 ранения за небрежность"},
		{&cr.WoundsAllocated{Side: cr.Crusaders, Author: "Джелу"}, "ранения крестоносцев распределены (Джелу)"},
		{&cr.QuestionAsked{Number: 2}, "вопрос дня №2"},
		{&cr.AnswerAccepted{Side: cr.Saracens, Author: "snovaya"}, "ответ на вопрос дня засчитан: сарацины (snovaya)"},
		{&cr.TimeLimitExceeded{Side: cr.Saracens, Wounds: 1}, "время на ход вышло: сарацины, 1 ранение"},
		{&cr.DayClosed{Day: "2026-12-01"}, "итоги дня"},
		{&cr.GameEnded{Winner: cr.Draw, Author: "Moderator"}, "игра окончена: ничья (Moderator)"},
		{&cr.GameEnded{Winner: cr.Saracens}, "игра окончена: победа — сарацины"},
	}
	for _, tc := range cases {
		got := d.Describe(tc.ev)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.ev.EventKind(), got, tc.want)
		}
	}
	for _, k := range []string{cr.KindGameStarted, cr.KindDeploymentReceived, cr.KindTurnPlayed, cr.KindWoundsAllocated,
		cr.KindQuestionAsked, cr.KindAnswerAccepted, cr.KindTimeLimitExceeded, cr.KindDayClosed, cr.KindGameEnded} {
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
