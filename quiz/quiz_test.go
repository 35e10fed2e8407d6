package quiz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultCrusadeBank(t *testing.T) {
	b, err := Default("crusade")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Questions) < 30 {
		t.Fatalf("want at least 30 questions, have %d", len(b.Questions))
	}
	seen := map[string]bool{}
	for _, q := range b.Questions {
		if seen[q.Text] {
			t.Errorf("duplicate question %q", q.Text)
		}
		seen[q.Text] = true
		if !strings.HasSuffix(strings.TrimSpace(q.Text), "?") && !strings.Contains(q.Text, "?") {
			t.Errorf("not a question: %q", q.Text)
		}
	}
	if _, err := Default("chess"); err == nil {
		t.Fatal("want an error for a game with no bank")
	}
}

func TestParseRejectsBadBanks(t *testing.T) {
	for name, src := range map[string]string{
		"empty":      "questions: []\n",
		"no answers": "questions:\n  - text: Кто?\n",
		"no text":    "questions:\n  - answers: [a]\n",
		"unknown":    "questions:\n  - text: Кто?\n    answers: [a]\n    hint: x\n",
		"not yaml":   "{{{",
	} {
		if _, err := Parse([]byte(src), name); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestLoadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bank.yaml")
	os.WriteFile(p, []byte("questions:\n  - text: Сколько воинов в армии?\n    answers: ['15', пятнадцать]\n"), 0o644)
	b, err := Load(p)
	if err != nil || len(b.Questions) != 1 || b.Questions[0].Answers[1] != "пятнадцать" {
		t.Fatalf("%v %+v", err, b)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Fatal("want an error for a missing file")
	}
}

func TestDefaultFootballBank(t *testing.T) {
	b, err := Default("football")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Questions) < 60 {
		t.Fatalf("want at least 60 questions, have %d", len(b.Questions))
	}
	seen := map[string]bool{}
	topics := map[string]int{}
	for _, q := range b.Questions {
		if seen[q.Text] {
			t.Errorf("duplicate question %q", q.Text)
		}
		seen[q.Text] = true
		if !strings.Contains(q.Text, "?") {
			t.Errorf("not a question: %q", q.Text)
		}
		if q.Topic == "" {
			t.Errorf("no topic: %q", q.Text)
		}
		topics[q.Topic]++
		for _, a := range q.Answers {
			if strings.TrimSpace(a) == "" {
				t.Errorf("%q: an empty answer", q.Text)
			}
		}
	}
	if topics["правила"] < 20 || topics["история"] < 20 {
		t.Errorf("topics %v: want rules and history questions", topics)
	}
}

func TestTopicIsOptional(t *testing.T) {
	b, err := Parse([]byte("questions:\n  - {text: \"Кто?\", answers: [я], topic: разное}\n  - {text: \"Где?\", answers: [тут]}\n"), "x")
	if err != nil || b.Questions[0].Topic != "разное" || b.Questions[1].Topic != "" {
		t.Fatalf("%v %+v", err, b)
	}
}
