package football

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/football/rules"
)

// Shape is football's team shape for a sign-up in the thread (game.Enroller): the teams named in
// signup.teams (default Команда 1 and Команда 2), balanced to equal sizes, each naming its
// captain in the thread before the game (the seed: the captain's nick «указывается в теме перед
// началом игры»; default: the team's first player).
func (Game) Shape(_ game.Spec, names []string, size int) (game.Shape, error) {
	if len(names) == 0 {
		names = []string{"Команда 1", "Команда 2"}
	}
	sh := game.Shape{Equal: true, Departure: "Если замены не будет, команда играет без него."}
	for _, n := range names {
		sh.Teams = append(sh.Teams, game.Slot{Key: n, Label: n, Words: []string{n}, Size: size, Role: "капитан", RoleInThread: true})
	}
	return sh, nil
}

// Enrol writes the formed teams as the section's teams: the captain and the other members.
func (Game) Enrol(sp game.Spec, teams []game.Formed) (game.Spec, error) {
	var list []rules.Team
	for _, t := range teams {
		if len(t.Players) == 0 {
			return sp, fmt.Errorf("football: enrol: team %s has no players", t.Key)
		}
		captain := t.Role
		if captain == "" {
			captain = t.Players[0]
		}
		list = append(list, rules.Team{Name: t.Key, Captain: captain,
			Members: slices.DeleteFunc(slices.Clone(t.Players), func(p string) bool { return p == captain })})
	}
	var n yaml.Node
	if err := n.Encode(list); err != nil {
		return sp, fmt.Errorf("football: enrol: %w", err)
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

// Replace is the intent putting a new player in a player's place (game.Replacer).
func (r *Rules) Replace(old, new string) (any, error) {
	return &rules.ReplacePlayer{Old: strings.TrimSpace(old), New: strings.TrimSpace(new)}, nil
}

// Remove is the intent taking a player out of his team.
func (r *Rules) Remove(name string) (any, error) {
	return &rules.RemovePlayer{Name: strings.TrimSpace(name)}, nil
}
