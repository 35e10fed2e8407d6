package dragonball

import (
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
)

// Every event the engine logs has words for the moderators' web UI.
func TestDescribe(t *testing.T) {
	r := newRef(t, teamsYAML)
	d, ok := game.Rules(r.rules()).(game.Describer)
	if !ok {
		t.Fatal("dragonball rules are not a game.Describer")
	}
	cases := []struct {
		ev   game.Event
		want string
	}{
		{&rules.GameStarted{}, "игра началась"},
		{&rules.OrdersAccepted{Author: "Гарри", Round: 2}, "приказы Гарри на раунд 2"},
		{&rules.RoundResolved{Round: 1}, "раунд 1 разыгран"},
		{&rules.GameEnded{Winner: "Змеи", By: "Moderator"}, "игра окончена: победа — «Змеи» (Moderator)"},
		{&rules.GameEnded{Winner: "draw"}, "игра окончена: ничья"},
	}
	for _, tc := range cases {
		if got := d.Describe(tc.ev); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.ev.EventKind(), got, tc.want)
		}
	}
	if st := d.Status(); !strings.Contains(st, "раунд 1") {
		t.Errorf("status %q", st)
	}
	var names []string
	for _, w := range d.Winners() {
		names = append(names, w.Name)
	}
	if got := strings.Join(names, ","); got != "Грифоны,Змеи,draw" {
		t.Errorf("winners %s", got)
	}
}
