package scrape

import (
	"regexp"
	"strconv"
	"strings"
)

var countRe = regexp.MustCompile(`\d[\d,.\s\x{00a0}\x{202f}']*`)

// Count reads the first number of a thread list's cell ("15", "1,234", "1 234", "Replies: 15"),
// its thousands separators dropped; -1 when the text holds none.
func Count(s string) int {
	m := countRe.FindString(s)
	if m == "" {
		return -1
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, m)
	n, err := strconv.Atoi(digits)
	if err != nil {
		return -1
	}
	return n
}

var byRe = regexp.MustCompile(`(?i)^(?:by|от|автор:?|последний:?)\s+`)

// Poster is a thread list's "by Name" / "от Name" without its leading word, spaces collapsed.
func Poster(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimSpace(byRe.ReplaceAllString(s, ""))
}
