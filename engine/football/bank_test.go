package football

import (
	"testing"

	"forumgm/quiz"
)

// TestDefaultBankAnswers: every accepted answer of the default bank has a non-empty key, and the
// spellings players use (lower case, е for ё, no punctuation) match it.
func TestDefaultBankAnswers(t *testing.T) {
	b, err := quiz.Default("football")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range b.Questions {
		for _, a := range q.Answers {
			k := AnswerKey(a)
			if k == "" {
				t.Errorf("%q: answer %q has an empty key", q.Text, a)
			}
			loose := []rune{}
			for _, r := range a {
				switch r {
				case 'ё':
					r = 'е'
				case 'Ё':
					r = 'Е'
				}
				loose = append(loose, r)
			}
			if AnswerKey(" "+string(loose)+"!") != k {
				t.Errorf("%q: %q does not match its plain spelling", q.Text, a)
			}
		}
	}
}
