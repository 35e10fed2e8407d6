package crusade

import (
	"strings"
	"unicode"

	"forumgm/parser"
)

// Answer reads a post as an answer to the daily question: the text after "Ответ:" (or "ответ -",
// "ответ —", "ответ ...") when the post says it is an answer (explicit), or else the whole own
// text when it is short enough to be one (one or two lines, at most 80 characters); "" when the
// post is too long to be an answer.
func Answer(own string) (text string, explicit bool) {
	t := strings.TrimSpace(parser.CleanText(own))
	r := []rune(t)
	const word = "ответ"
	if len(r) >= len([]rune(word)) && parser.Fold(string(r[:len([]rune(word))])) == word {
		rest := r[len([]rune(word)):]
		if len(rest) == 0 || !unicode.IsLetter(rest[0]) {
			return strings.TrimSpace(strings.TrimLeft(string(rest), " :-—–")), true
		}
	}
	if len(r) > 80 || strings.Count(t, "\n") > 1 {
		return "", false
	}
	return t, false
}

// IsHelp reports whether a post asks for the help text ("помощь", "справка", "help",
// "как ходить?").
func IsHelp(own string) bool {
	switch strings.Trim(parser.Fold(strings.TrimSpace(own)), "!?. ") {
	case "помощь", "справка", "help", "как ходить":
		return true
	}
	return false
}
