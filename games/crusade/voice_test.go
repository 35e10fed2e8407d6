package crusade

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"forumgm/game"
	"forumgm/referee"
)

// TestTemplatesParsedOnce: every game set up and every referee (and every rebuild of its rules, as
// an undo does) shares the one template set parsed for the process.
func TestTemplatesParsedOnce(t *testing.T) {
	var node yaml.Node
	if err := yaml.Unmarshal([]byte("players:\n  - {name: Джелу, side: crusaders}\n  - {name: snovaya, side: saracens}\n"), &node); err != nil {
		t.Fatal(err)
	}
	var sets []any
	for range 2 {
		setup, err := Game{}.Setup(game.Spec{Node: *node.Content[0], Start: at(18, 0)})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			ref, err := referee.New(setup, referee.Options{Seed: "1", Salt: "s"})
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, ref.Rules().(*Rules).tmpl)
			rules, err := setup.New()
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, rules.(*Rules).tmpl)
		}
	}
	for i, s := range sets {
		if s != sets[0] {
			t.Fatalf("rules %d have a template set of their own", i)
		}
	}
}
