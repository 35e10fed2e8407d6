package football

import (
	"os"
	"strings"
	"testing"

	"forumgm/games/football/rules"
	"forumgm/quiz"
)

// TestDefaultQuestionBank: the football quiz's default bank (questions.yaml, which the game's
// plug-in embeds) parses, has 60 questions or more on rules and history, no duplicates, and
// accepted answers that match their plain spellings (lower case, е for ё, punctuation around).
func TestDefaultQuestionBank(t *testing.T) {
	data, err := os.ReadFile("questions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := quiz.Parse(data, "questions.yaml")
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
			k := rules.AnswerKey(a)
			if k == "" {
				t.Errorf("%q: answer %q has an empty key", q.Text, a)
			}
			plain := strings.NewReplacer("ё", "е", "Ё", "Е").Replace(strings.ToLower(a))
			if rules.AnswerKey(" "+plain+"!") != k {
				t.Errorf("%q: %q does not match its plain spelling", q.Text, a)
			}
		}
	}
	if topics["правила"] < 20 || topics["история"] < 20 {
		t.Errorf("topics %v: want rules and history questions", topics)
	}
}
