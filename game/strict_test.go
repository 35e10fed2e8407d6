package game

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// In a list the path names the entry's index.
func TestKeyPathInList(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("games:\n  - id: a\n  - id: b\n    colour: red\n"), &doc); err != nil {
		t.Fatal(err)
	}
	if p := keyPath(&doc, 4, "colour", ""); p != "games[1].colour" {
		t.Errorf("keyPath: %q", p)
	}
}

// A game's own keys are decoded from a subtree of config.yaml: a problem names its line in the
// file (not counted from the game's block), the key's place under the subtree and, for a
// misspelt key, what it may have meant (issue 21, item 5).
func TestDecodeStrictLinesOfTheFile(t *testing.T) {
	type settings struct {
		FirstSide string `yaml:"first_side"`
		MoveLimit int    `yaml:"move_limit"`
	}
	type spec struct {
		Roster   []string `yaml:"roster"`
		Settings settings `yaml:"settings"`
	}
	src := "# a config\nforum: {}\ngames:\n  - id: a\n    kind: x\n    roster: [a, b]\n    settings:\n      first_sid: crusaders\n      move_limit: many\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	game := doc.Content[0].Content[3].Content[0] // games[0]
	var s spec
	err := DecodeStrict(game, &s)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"line 8: settings.first_sid: unknown field (did you mean first_side? known here: first_side, move_limit)",
		"line 9: settings.move_limit: cannot unmarshal",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\nwant %q", err, want)
		}
	}
}
