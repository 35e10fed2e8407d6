package quiz

import (
	"os"
	"path/filepath"
	"testing"
)

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

func TestTopicIsOptional(t *testing.T) {
	b, err := Parse([]byte("questions:\n  - {text: \"Кто?\", answers: [я], topic: разное}\n  - {text: \"Где?\", answers: [тут]}\n"), "x")
	if err != nil || b.Questions[0].Topic != "разное" || b.Questions[1].Topic != "" {
		t.Fatalf("%v %+v", err, b)
	}
}
