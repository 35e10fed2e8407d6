package form

import (
	"strings"
	"unicode/utf8"
)

// Split cuts body into parts of at most max runes, at paragraph breaks where it can, then at line
// breaks, then at spaces, never inside a [code]…[/code] block unless that block alone is too long.
// A part's trailing line breaks and spaces, and the next part's leading line breaks, are dropped.
// max <= 0 means no limit.
func Split(body string, max int) []string {
	if max <= 0 || len([]rune(body)) <= max {
		return []string{body}
	}
	var parts []string
	rest := body
	for len([]rune(rest)) > max {
		r := []rune(rest)
		window := string(r[:max])
		cut := bestCut(window)
		if cut <= 0 {
			cut = len(window)
		}
		parts = append(parts, strings.TrimRight(rest[:cut], "\n "))
		rest = strings.TrimLeft(rest[cut:], "\n")
	}
	if strings.TrimSpace(rest) != "" {
		parts = append(parts, rest)
	}
	return parts
}

func bestCut(window string) int {
	lower := strings.ToLower(window)
	inCode := func(i int) bool {
		open := strings.LastIndex(lower[:i], "[code")
		return open >= 0 && strings.LastIndex(lower[:i], "[/code]") < open
	}
	for _, sep := range []string{"\n\n", "\n", " "} {
		for i := strings.LastIndex(window, sep); i > 0; i = strings.LastIndex(window[:i], sep) {
			if !inCode(i) {
				return i + len(sep)
			}
		}
	}
	return 0
}

// SplitLines cuts body into parts no longer than limit (as counted by size: bytes, runes) at line
// boundaries; a single longer line is cut at a rune boundary. A [code] block cut in two is closed
// at the end of one part and opened again at the start of the next, so both halves still render
// verbatim. limit <= 0 means no limit.
func SplitLines(body string, limit int, size func(string) int) []string {
	if limit <= 0 || size(body) <= limit {
		return []string{body}
	}
	const open, closeTag = "[code]", "[/code]"
	reserve := size(open+"\n") + size("\n"+closeTag)
	var parts []string
	var cur []string
	inCode := false // inside a [code] block at the end of cur
	curStartsInCode := false
	flush := func() {
		if len(cur) == 0 {
			return
		}
		text := strings.Join(cur, "\n")
		if curStartsInCode {
			text = open + "\n" + text
		}
		if inCode {
			text += "\n" + closeTag
		}
		parts = append(parts, text)
		cur = nil
		curStartsInCode = inCode
	}
	curSize := func(extra string) int {
		n := size(strings.Join(append(append([]string(nil), cur...), extra), "\n"))
		return n + reserve
	}
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		for size(line)+reserve > limit && limit > reserve {
			cut := cutAt(line, limit-reserve, size)
			lines = append(lines, line[:cut])
			line = line[cut:]
		}
		lines = append(lines, line)
	}
	for _, line := range lines {
		if len(cur) > 0 && curSize(line) > limit {
			flush()
		}
		cur = append(cur, line)
		low := strings.ToLower(line)
		if strings.LastIndex(low, open) > strings.LastIndex(low, closeTag) {
			inCode = true
		} else if strings.Contains(low, closeTag) {
			inCode = false
		}
	}
	inCode = false
	flush()
	return parts
}

func cutAt(s string, limit int, size func(string) int) int {
	cut := 0
	for i := range s {
		if i > 0 && size(s[:i]) > limit {
			break
		}
		cut = i
	}
	if cut == 0 {
		_, n := utf8.DecodeRuneInString(s)
		cut = n
	}
	return cut
}
