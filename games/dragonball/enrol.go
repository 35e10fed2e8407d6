package dragonball

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
)

// Shape is Dragonball's team shape for a sign-up in the thread (game.Enroller): two teams (names
// from signup.teams, default Грифоны and Змеи), up to team_size players each (the settings' 7
// unless signup.team_size), and the player who gives the dragon's orders, named by the team by
// private message (default: its first player).
func (Game) Shape(_ game.Spec, names []string, size int) (game.Shape, error) {
	if len(names) == 0 {
		names = []string{"Грифоны", "Змеи"}
	}
	if len(names) != 2 {
		return game.Shape{}, fmt.Errorf("signup.teams: Dragonball has two teams, not %d", len(names))
	}
	if size == 0 {
		size = rules.DefaultSettings().TeamSize
	}
	sh := game.Shape{Equal: true, Departure: "Если замены не будет, его игрок остаётся на поле без приказов; проглоченного драконом заменить нельзя."}
	for _, n := range names {
		sh.Teams = append(sh.Teams, game.Slot{Key: n, Label: n, Words: []string{n}, Size: size, Role: "дракону приказывает"})
	}
	return sh, nil
}

// Enrol writes the formed teams as the section's teams (side A first).
func (Game) Enrol(sp game.Spec, teams []game.Formed) (game.Spec, error) {
	var list []rules.Team
	for i, t := range teams {
		side := rules.SideA
		if i == 1 {
			side = rules.SideB
		}
		list = append(list, rules.Team{Name: t.Key, Side: side, Players: t.Players, Handler: t.Role})
	}
	var n yaml.Node
	if err := n.Encode(list); err != nil {
		return sp, fmt.Errorf("dragonball: enrol: %w", err)
	}
	out := yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(sp.Node.Content); i += 2 {
		if sp.Node.Content[i].Value != "teams" {
			out.Content = append(out.Content, sp.Node.Content[i], sp.Node.Content[i+1])
		}
	}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "teams"}, &n)
	sp.Node = out
	return sp, nil
}

// Replace is the intent putting a new player in a player's place (game.Replacer); the engine
// refuses a swallowed player.
func (r *Rules) Replace(old, new string) (any, error) {
	return &rules.ReplacePlayer{Old: strings.TrimSpace(old), New: strings.TrimSpace(new)}, nil
}

// Remove is the intent taking a player out of the roster.
func (r *Rules) Remove(name string) (any, error) {
	return &rules.RemovePlayer{Name: strings.TrimSpace(name)}, nil
}
