package grammar

import (
	"strings"
	"unicode"

	"forumgm/russian"
)

// Answer reads a post as an answer to the daily question: the text after "Ответ:" (or "ответ -",
// "ответ —", "ответ ...") when the post says it is an answer (explicit), or else the whole own
// text when it is short enough to be one (one or two lines, at most 80 characters); "" when the
// post is too long to be an answer.
func Answer(own string) (text string, explicit bool) {
	t := strings.TrimSpace(russian.CleanText(own))
	r := []rune(t)
	const word = "ответ"
	if len(r) >= len([]rune(word)) && russian.Fold(string(r[:len([]rune(word))])) == word {
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

// AnswerForm says how surely a post is an answer to the daily question.
type AnswerForm int

const (
	NotAnswer      AnswerForm = iota // too long to be an answer
	MaybeAnswer                      // a short post that may be chatter: judged, a wrong one not answered
	BareAnswer                       // one to three words, maybe hedged ("Антиохия", "Кажется, Эдесса")
	ExplicitAnswer                   // "Ответ: …"
)

// hedgeWords may stand around a bare answer ("Кажется, Эдесса", "Эдесса, наверное").
var hedgeWords = wordSet("кажется", "мне", "наверное", "наверно", "может", "быть", "возможно", "думаю", "я",
	"видимо", "по-моему", "вероятно", "пожалуй", "это", "конечно", "точно", "вроде", "бы", "имхо")

// chatWords mark a short post as chatter, not an answer ("жду хода", "ок").
var chatWords = wordSet("жду", "ход", "хода", "ходи", "ходите", "ок", "оки", "ok", "спасибо", "привет", "да", "нет",
	"ага", "угу", "понял", "поняла", "ясно", "ладно", "хорошо", "играю", "сейчас", "щас", "минуту", "пока",
	"удачи", "ура", "блин", "хм", "ну", "вопрос", "ответ", "помощь", "справка", "спор")

// ReadAnswer reads a post as an answer to the daily question: the text answered and how surely
// it is one. "Ответ: X" is explicit; a post of one to three words, hedges around them stripped
// ("Кажется, Эдесса" answers "Эдесса"), is a bare answer unless it holds a chat word or a
// question mark; any other short post (one or two lines, at most 80 characters) may be one.
func ReadAnswer(own string) (string, AnswerForm) {
	text, explicit := Answer(own)
	switch {
	case explicit:
		return text, ExplicitAnswer
	case text == "":
		return "", NotAnswer
	case strings.ContainsAny(text, "?\n"):
		return text, MaybeAnswer
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	for len(words) > 0 && hedgeWords[russian.Fold(words[0])] {
		words = words[1:]
	}
	for len(words) > 0 && hedgeWords[russian.Fold(words[len(words)-1])] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 || len(words) > 3 {
		return text, MaybeAnswer
	}
	for _, w := range words {
		if chatWords[russian.Fold(w)] {
			return text, MaybeAnswer
		}
	}
	if len(words) < len(strings.Fields(text)) || !strings.ContainsAny(text, ",;:") {
		return strings.Join(words, " "), BareAnswer
	}
	return text, MaybeAnswer
}

// IsHelp reports whether a post asks for the help text ("помощь", "справка", "help",
// "как ходить?").
func IsHelp(own string) bool {
	switch strings.Trim(russian.Fold(strings.TrimSpace(own)), "!?. ") {
	case "помощь", "справка", "help", "как ходить":
		return true
	}
	return false
}
