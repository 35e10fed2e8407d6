package rules

import (
	"errors"
	"testing"
	"time"

	"forumgm/game"
)

// Replacing and removing players: a swallowed player cannot be replaced (the seed, §8) and the
// refusal changes nothing; a replacement takes over the figure, balls and the dragon's orders; a
// removed handler passes the dragon to the team's next player.
func TestReplaceAndRemove(t *testing.T) {
	cases := []struct {
		name      string
		swallowed string
		body      any
		code      Code   // a refusal wanted ("" none)
		handler   string // team A's handler after
		plays     string // a name that must play after
		gone      string // a name that must not
	}{
		{name: "swallowed", swallowed: "Рон", body: &ReplacePlayer{Old: "Рон", New: "Невилл"}, code: CodeSwallowedReplace, handler: "Гарри", plays: "Рон", gone: "Невилл"},
		{name: "on the field", body: &ReplacePlayer{Old: "Гарри", New: "Невилл"}, handler: "Невилл", plays: "Невилл", gone: "Гарри"},
		{name: "a stranger", body: &ReplacePlayer{Old: "Добби", New: "Невилл"}, code: CodeUnknownPlayer, handler: "Гарри", gone: "Невилл"},
		{name: "taken name", body: &ReplacePlayer{Old: "Гарри", New: "Драко"}, code: CodeOwnPlayer, handler: "Гарри", plays: "Гарри"},
		{name: "remove the handler", body: &RemovePlayer{Name: "Гарри"}, handler: "Рон", plays: "Рон", gone: "Гарри"},
		{name: "remove a player", body: &RemovePlayer{Name: "Джинни"}, handler: "Гарри", gone: "Джинни"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, _ := newGame(t, DefaultSettings(), nil, "roster")
			if c.swallowed != "" {
				g.st.player(c.swallowed).Status = Swallowed
			}
			before := g.st.clone()
			evs, err := g.Decide(game.Act{At: t0.Add(time.Hour), Author: "Moderator", Body: c.body})
			if c.code != "" {
				var ref *Refusal
				if !errors.As(err, &ref) || !ref.Has(c.code) {
					t.Fatalf("want refusal %s, got %v", c.code, err)
				}
				if len(g.st.Players) != len(before.Players) || g.teams[0].Handler != "Гарри" {
					t.Fatal("a refusal changed the state")
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				applyAll(t, g, evs)
			}
			if h := g.handler(0); h != c.handler {
				t.Errorf("handler %q, want %q", h, c.handler)
			}
			if c.plays != "" && g.teamOf(c.plays) < 0 {
				t.Errorf("%s does not play", c.plays)
			}
			if c.gone != "" && g.teamOf(c.gone) >= 0 {
				t.Errorf("%s still plays", c.gone)
			}
			if rep, ok := c.body.(*ReplacePlayer); ok && c.code == "" && g.st.player(rep.New) == nil {
				t.Errorf("the figure is not %s's", rep.New)
			}
		})
	}
}
