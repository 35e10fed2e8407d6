package crusade

import (
	"strings"
	"testing"

	"forumgm/quiz"
)

func TestDefaultQuestionBank(t *testing.T) {
	b, err := quiz.Parse(defaultQuestions, "embedded")
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
}
