package crusade

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

// Shape is Crusade's team shape for a sign-up in the thread (game.Enroller): the seed's «две
// команды по пять игроков», each player holding three of his side's fifteen warriors («по три на
// игрока»), sent by the team in its «Игроки-воины» list.
func (Game) Shape(_ game.Spec, names []string, size int) (game.Shape, error) {
	if len(names) > 0 {
		return game.Shape{}, fmt.Errorf("signup.teams: Crusade's two sides are fixed (крестоносцы and сарацины)")
	}
	if size == 0 {
		size = 5
	}
	pieces := map[rules.Side][]string{}
	for _, w := range rules.AllWarriors() {
		pieces[w.Side()] = append(pieces[w.Side()], string(w))
	}
	per := (len(pieces[rules.Crusaders]) + size - 1) / size
	return game.Shape{
		Equal:      true,
		PiecesList: "Игроки-воины",
		Departure:  "Если замены не будет, его воины будут сняты с поля.",
		Teams: []game.Slot{
			{Key: string(rules.Crusaders), Label: "крестоносцы", Words: []string{"крестоносцев", "крестоносцы", "крестоносца"},
				Size: size, Pieces: pieces[rules.Crusaders], PerPlayer: per},
			{Key: string(rules.Saracens), Label: "сарацины", Words: []string{"сарацин", "сарацины", "сарацинов", "сарацина"},
				Size: size, Pieces: pieces[rules.Saracens], PerPlayer: per},
		},
	}, nil
}

// Enrol writes the formed sides as the section's players (each with his warriors). A private
// deployment without a deadline gets one: DeploymentWithin after play begins (the seed sends
// the deployment with the «Игроки-воины» list; here it follows it).
func (Game) Enrol(sp game.Spec, teams []game.Formed) (game.Spec, error) {
	var list []player
	for _, t := range teams {
		for _, p := range t.Players {
			list = append(list, player{Name: p, Side: t.Key, Warriors: t.Pieces[p]})
		}
	}
	sp, err := withKey(sp, "players", list)
	if err != nil {
		return sp, err
	}
	return privateDeadline(sp)
}

// DeploymentWithin is how long the sides of a sign-up game have for a private deployment when
// the section sets no settings.deployment_deadline.
const DeploymentWithin = 24 * time.Hour

// privateDeadline adds settings.deployment_deadline to a private deployment that has none.
func privateDeadline(sp game.Spec) (game.Spec, error) {
	private := false
	var settings *yaml.Node
	for i := 0; i+1 < len(sp.Node.Content); i += 2 {
		switch k, v := sp.Node.Content[i].Value, sp.Node.Content[i+1]; k {
		case "deployment":
			private = v.Kind == yaml.ScalarNode && v.Value == "private"
		case "settings":
			settings = v
		}
	}
	if !private {
		return sp, nil
	}
	dl := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: sp.Start.Add(DeploymentWithin).Format(time.RFC3339)}
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "deployment_deadline"}
	if settings == nil {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, dl}}
		sp.Node.Content = append(sp.Node.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "settings"}, m)
		return sp, nil
	}
	for i := 0; i+1 < len(settings.Content); i += 2 {
		if settings.Content[i].Value == "deployment_deadline" {
			return sp, nil
		}
	}
	c := *settings
	c.Content = append(append([]*yaml.Node(nil), settings.Content...), key, dl)
	for i := 0; i+1 < len(sp.Node.Content); i += 2 {
		if sp.Node.Content[i].Value == "settings" {
			sp.Node.Content = append([]*yaml.Node(nil), sp.Node.Content...)
			sp.Node.Content[i+1] = &c
		}
	}
	return sp, nil
}

// withKey is sp with its section's key set to v (replacing roster keys it had).
func withKey(sp game.Spec, key string, v any) (game.Spec, error) {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return sp, fmt.Errorf("crusade: enrol: %w", err)
	}
	out := yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(sp.Node.Content); i += 2 {
		if k := sp.Node.Content[i].Value; k == key || k == "roster" || strings.EqualFold(k, "players") {
			continue
		}
		out.Content = append(out.Content, sp.Node.Content[i], sp.Node.Content[i+1])
	}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &n)
	sp.Node = out
	return sp, nil
}

// Replace is the intent putting a new player in a player's place (game.Replacer).
func (r *Rules) Replace(old, new string) (any, error) {
	return &rules.ReplacePlayer{Old: strings.TrimSpace(old), New: strings.TrimSpace(new)}, nil
}

// Remove is the intent taking a player out, his warriors off the field.
func (r *Rules) Remove(name string) (any, error) {
	return &rules.RemovePlayer{Name: strings.TrimSpace(name)}, nil
}
