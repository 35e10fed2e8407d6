package grammar

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	fb "forumgm/games/football/rules"
	"forumgm/parser"
)

// casesDir holds the engine's case files; every post step with a `text:` must parse to that
// step's body.
const casesDir = "../rules/testdata/cases"

type caseFile struct {
	Teams int        `yaml:"teams"`
	Steps []caseStep `yaml:"steps"`
}

type caseStep struct {
	Private bool       `yaml:"private"`
	Text    *string    `yaml:"text"`
	Moves   []caseStep `yaml:"moves"`
	Roll    *int       `yaml:"roll"`
	Attack  *fb.Attack `yaml:"attack"`
	Defence *int       `yaml:"defence"`
	Points  *fb.Points `yaml:"points"`
	Answer  *string    `yaml:"answer"`
}

func TestEngineCaseTexts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(casesDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files in %s: %v", casesDir, err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c caseFile
		if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nt := c.Teams
		if nt == 0 {
			nt = 4
		}
		var names []string
		for i := 1; i <= nt; i++ {
			names = append(names, fmt.Sprintf("Команда %d", i))
		}
		for i, s := range c.Steps {
			if s.Text == nil {
				continue
			}
			n++
			name := fmt.Sprintf("%s#%d", filepath.Base(f), i+1)
			r := Parse(parser.FromBBCode(*s.Text), Options{Teams: names, Private: s.Private})
			want := []caseStep{s}
			if s.Moves != nil {
				want = s.Moves
			}
			if len(r.Intents) != len(want) || len(r.Problems) > 0 {
				t.Errorf("%s: %q: class %s, %d intents %s, problems %v", name, *s.Text, r.Class, len(r.Intents), js(r.Intents), r.Problems)
				continue
			}
			for k, w := range want {
				if !sameIntent(w, r.Intents[k]) {
					t.Errorf("%s: %q: intent %d read as %T %s", name, *s.Text, k+1, r.Intents[k], js(r.Intents[k]))
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d case steps with a text", n)
	}
}

// sameIntent reports whether got is the step's body.
func sameIntent(s caseStep, got fb.Intent) bool {
	switch {
	case s.Roll != nil:
		v, ok := got.(*fb.Roll)
		return ok && v.Number == *s.Roll
	case s.Attack != nil:
		v, ok := got.(*fb.Attack)
		return ok && v.Number == s.Attack.Number && fb.TeamKey(v.Target) == fb.TeamKey(s.Attack.Target)
	case s.Defence != nil:
		v, ok := got.(*fb.Defence)
		return ok && v.Number == *s.Defence
	case s.Points != nil:
		v, ok := got.(*fb.Points)
		return ok && v.Role == s.Points.Role && v.Count == s.Points.Count
	case s.Answer != nil:
		v, ok := got.(*fb.Answer)
		return ok && v.Text == *s.Answer
	}
	return false
}
