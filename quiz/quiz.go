// Package quiz owns the question banks the games ask from (Crusade's daily 21:10 question, the
// football quiz's question cells): the bank file format, loading and checking it, and the default
// banks embedded in the binary.
package quiz

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed crusade.yaml
var crusadeBank []byte

//go:embed football.yaml
var footballBank []byte

// Question is one question and the answers accepted for it.
type Question struct {
	Text    string   `yaml:"text" json:"text"`
	Answers []string `yaml:"answers" json:"answers"`
	Topic   string   `yaml:"topic,omitempty" json:"topic,omitempty"` // optional: rules, history...
}

// Bank is a list of questions.
type Bank struct {
	Questions []Question `yaml:"questions"`
}

// Default returns the embedded default bank for a game.
func Default(game string) (Bank, error) {
	switch game {
	case "crusade":
		return Parse(crusadeBank, "embedded crusade bank")
	case "football":
		return Parse(footballBank, "embedded football bank")
	}
	return Bank{}, fmt.Errorf("quiz: no default bank for game %q", game)
}

// Load reads a bank file.
func Load(path string) (Bank, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Bank{}, fmt.Errorf("quiz: %w", err)
	}
	return Parse(b, path)
}

// Parse reads a bank from YAML; name says where it came from in errors.
func Parse(b []byte, name string) (Bank, error) {
	var bank Bank
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&bank); err != nil {
		return Bank{}, fmt.Errorf("quiz: %s: %w", name, err)
	}
	if len(bank.Questions) == 0 {
		return Bank{}, fmt.Errorf("quiz: %s: no questions", name)
	}
	for i, q := range bank.Questions {
		if strings.TrimSpace(q.Text) == "" {
			return Bank{}, fmt.Errorf("quiz: %s: question %d has no text", name, i+1)
		}
		if len(q.Answers) == 0 {
			return Bank{}, fmt.Errorf("quiz: %s: question %d (%q) has no answers", name, i+1, q.Text)
		}
	}
	return bank, nil
}
