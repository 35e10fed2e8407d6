package football

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	fb "forumgm/engine/football"
	"forumgm/parser"
)

// casesDir holds the engine's case files; every post step with a `text:` must parse to that
// step's body.
const casesDir = "../../engine/football/testdata/cases"

type caseFile struct {
	Teams int        `yaml:"teams"`
	Steps []caseStep `yaml:"steps"`
}

type caseStep struct {
	Private bool       `yaml:"private"`
	Text    *string    `yaml:"text"`
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
			if len(r.Intents) != 1 || len(r.Problems) > 0 {
				t.Errorf("%s: %q: class %s, %d intents %s, problems %v", name, *s.Text, r.Class, len(r.Intents), js(r.Intents), r.Problems)
				continue
			}
			got := r.Intents[0]
			ok := false
			switch {
			case s.Roll != nil:
				v, is := got.(*fb.Roll)
				ok = is && v.Number == *s.Roll
			case s.Attack != nil:
				v, is := got.(*fb.Attack)
				ok = is && v.Number == s.Attack.Number && fb.TeamKey(v.Target) == fb.TeamKey(s.Attack.Target)
			case s.Defence != nil:
				v, is := got.(*fb.Defence)
				ok = is && v.Number == *s.Defence
			case s.Points != nil:
				v, is := got.(*fb.Points)
				ok = is && v.Role == s.Points.Role && v.Count == s.Points.Count
			case s.Answer != nil:
				v, is := got.(*fb.Answer)
				ok = is && v.Text == *s.Answer
			}
			if !ok {
				t.Errorf("%s: %q read as %T %s", name, *s.Text, got, js(got))
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d case steps with a text", n)
	}
}
