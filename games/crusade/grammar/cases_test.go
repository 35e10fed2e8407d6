package grammar

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	cr "forumgm/games/crusade/rules"
	"forumgm/parser"
)

// casesDir holds the engine's case files; those with a `text:` field give a post's text and the
// Turn it must read as (`turn:`).
const casesDir = "../rules/testdata/cases"

type caseFile struct {
	Text *string  `yaml:"text"`
	Turn *cr.Turn `yaml:"turn"`
}

// TestEngineCaseTexts reads every case file with a text and checks that Parse gives exactly its
// turn (Line fields ignored; the board compared when the case states one). It fails when there
// are no case files or none with a text.
func TestEngineCaseTexts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(casesDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no case files in", casesDir)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for doc := 0; ; doc++ {
			var c caseFile
			if err := dec.Decode(&c); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
				break
			}
			if c.Text == nil {
				continue
			}
			n++
			name := filepath.Base(f)
			if doc > 0 {
				name += "#" + string(rune('0'+doc))
			}
			t.Run(name, func(t *testing.T) {
				r := Parse(parser.FromBBCode(*c.Text))
				want := stripLines(c.Turn)
				got := stripLines(r.Turn)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("text %q\nclass %s, problems %v\n got  %+v\n want %+v", *c.Text, r.Class, r.Problems, got, want)
				}
				if c.Turn != nil && c.Turn.Board != nil {
					if r.Turn == nil || r.Turn.Board == nil || !reflect.DeepEqual(r.Turn.Board.Cells, c.Turn.Board.Cells) {
						t.Errorf("board differs (board error %v)", r.BoardErr)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatalf("%s holds case files but none with a text", casesDir)
	}
}
