package grammar

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	db "forumgm/games/dragonball/rules"
)

// casesDir holds the engine's case files; a message with a `text:` gives what a player writes
// and the tacts and dragon orders it must read as.
const casesDir = "../rules/testdata/cases"

type caseMessage struct {
	Text   string           `yaml:"text"`
	Tacts  []db.TactOrder   `yaml:"tacts"`
	Dragon []db.DragonOrder `yaml:"dragon"`
}

type caseFile struct {
	Messages []caseMessage `yaml:"messages"`
	Variants []struct {
		Messages []caseMessage `yaml:"messages"`
	} `yaml:"variants"`
}

// TestEngineCaseTexts: every message text of the engine's cases reads as its orders.
func TestEngineCaseTexts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(casesDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no case files in", casesDir, err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c caseFile
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		msgs := c.Messages
		for _, v := range c.Variants {
			msgs = append(msgs, v.Messages...)
		}
		for _, m := range msgs {
			if m.Text == "" {
				continue
			}
			n++
			o := Parse(m.Text)
			for i := range o.Tacts {
				o.Tacts[i].Line = ""
			}
			for i := range o.Dragon {
				o.Dragon[i].Line = ""
			}
			if len(o.Unreadable) > 0 || js(o.Tacts) != js(m.Tacts) || js(o.Dragon) != js(m.Dragon) {
				t.Errorf("%s: %q\n got %s %s %v\nwant %s %s", filepath.Base(f), m.Text, js(o.Tacts), js(o.Dragon), o.Unreadable, js(m.Tacts), js(m.Dragon))
			}
		}
	}
	if n == 0 {
		t.Fatal("no case has a text")
	}
}
