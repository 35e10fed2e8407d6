// Package quiz owns the question banks games ask from: the bank file format, loading and checking
// it. Each game embeds its own default bank.
package quiz

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Question is one question and the answers accepted for it.
type Question struct {
	Text    string   `yaml:"text" json:"text"`
	Answers []string `yaml:"answers" json:"answers"`
	Topic   string   `yaml:"topic,omitempty" json:"topic,omitempty"` // optional: a bank may group questions
}

// Bank is a list of questions.
type Bank struct {
	Questions []Question `yaml:"questions"`
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
