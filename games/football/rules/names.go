package rules

import (
	"strings"
	"unicode"
)

// lookAlike maps Latin letters to the Cyrillic letters they look like, so that "Kоманда 2" typed
// with a Latin K is "Команда 2". (The same table as forumgm/parser's CyrillicLower; the engine
// keeps its own copy because package parser depends on the forum client.)
var lookAlike = map[rune]rune{
	'a': 'а', 'b': 'в', 'c': 'с', 'e': 'е', 'h': 'н', 'k': 'к', 'm': 'м', 'o': 'о', 'p': 'р',
	't': 'т', 'x': 'х', 'y': 'у',
}

// teamWords are the forms of "команда" a name may carry in front ("атакуем команду 2").
var teamWords = []string{"команда ", "команду ", "команды ", "командой ", "команде "}

// TeamKey is a team name as players' mentions of it are compared: lower case, ё as е, Latin
// look-alike letters as Cyrillic, punctuation dropped, spaces collapsed, and a leading "команда"
// (any case form) dropped, so "Команда 2", "команду 2", "КОМАНДА 2" and "2" are one key.
func TeamKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		r = unicode.ToLower(r)
		switch {
		case r == 'ё':
			r = 'е'
		case r < unicode.MaxASCII && lookAlike[r] != 0:
			r = lookAlike[r]
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	k := b.String()
	for _, w := range teamWords {
		if rest, ok := strings.CutPrefix(k, w); ok && rest != "" {
			return rest
		}
	}
	return k
}

// AnswerKey is an answer as compared with the accepted ones: lower case, ё as е, Latin
// look-alikes as Cyrillic when the answer is written in Cyrillic, punctuation dropped, spaces
// collapsed (the rulings: "compared after case folding, trimming, and ignoring punctuation and
// ё/е differences").
func AnswerKey(s string) string {
	cyr := false
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			cyr = true
			break
		}
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		r = unicode.ToLower(r)
		if r == 'ё' {
			r = 'е'
		}
		if cyr && r < unicode.MaxASCII && lookAlike[r] != 0 {
			r = lookAlike[r]
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}
