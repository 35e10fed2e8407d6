package picture

import (
	"strconv"
	"strings"
	"unicode"
)

// labels are the players' initials, two letters each, different for different players:
// the first letters of the first two words ("Гарри Поттер" -> "ГП"), or the first two letters
// of a one-word name ("Гермиона" -> "Ге"). A clash takes a later letter of the name, then a
// digit.
func labels(players []Player) []string {
	out := make([]string, len(players))
	used := map[string]bool{}
	for i, p := range players {
		words := strings.FieldsFunc(p.Name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		letters := []rune(strings.Join(words, ""))
		if len(letters) == 0 {
			letters = []rune("?")
		}
		first := string(unicode.ToUpper(letters[0]))
		var cands []string
		if len(words) >= 2 {
			cands = append(cands, first+string(unicode.ToUpper([]rune(words[1])[0])))
		}
		for _, r := range letters[1:] {
			if unicode.ToUpper(r) != unicode.ToUpper(letters[0]) { // not "Аа"
				cands = append(cands, first+string(unicode.ToLower(r)))
			}
		}
		if len(letters) == 1 {
			cands = append(cands, first)
		}
		for n := 2; ; n++ {
			cands = append(cands, first+strconv.Itoa(n))
			if n > len(players)+1 {
				break
			}
		}
		for _, c := range cands {
			if !used[c] {
				out[i], used[c] = c, true
				break
			}
		}
	}
	return out
}
