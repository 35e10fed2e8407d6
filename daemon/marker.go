package daemon

import (
	"strings"
	"unicode/utf8"

	"forumgm/templates"
)

// Mark appends the outbox marker to a body: a small grey line that the forum renders as text, so a
// reader (and the scraper, which keeps the text of [size]/[color] tags) finds it in the post. What
// no post may hold (bytes that are not UTF-8, NUL: a board's form encoding would fail on them) is
// dropped from the body (templates.Sanitize).
func Mark(body, marker string) string {
	return strings.TrimRight(templates.Sanitize(body), "\n") + "\n[size=1][color=#b0b0b0]" + marker + "[/color][/size]"
}

// PartMarker is the marker of part i (1-based) of a message split in n parts.
func PartMarker(marker string, i, n int) string {
	if n <= 1 {
		return marker
	}
	return marker + "-p" + itoa(i)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// markOverhead is the room the marker line takes.
const markOverhead = 80

// Split cuts body into parts of at most limit characters (runes), at paragraph breaks where it
// can, then at line breaks, and never inside a [code] block unless one block alone is too long.
// limit <= 0 means no limit.
func Split(body string, limit int) []string {
	if limit <= 0 || utf8.RuneCountInString(body) <= limit {
		return []string{body}
	}
	// Units: lines, with [code]...[/code] blocks kept together.
	lines := strings.Split(body, "\n")
	var units []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.Contains(strings.ToLower(l), "[code]") && !strings.Contains(strings.ToLower(l), "[/code]") {
			j := i + 1
			for j < len(lines) && !strings.Contains(strings.ToLower(lines[j]), "[/code]") {
				j++
			}
			if j >= len(lines) {
				j = len(lines) - 1
			}
			units = append(units, strings.Join(lines[i:j+1], "\n"))
			i = j
			continue
		}
		units = append(units, l)
	}
	var parts []string
	var cur []string
	size := 0
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.Trim(strings.Join(cur, "\n"), "\n"))
		}
		cur, size = nil, 0
	}
	for _, u := range units {
		n := utf8.RuneCountInString(u) + 1
		if n > limit { // one unit alone is too long: cut it by runes
			flush()
			r := []rune(u)
			for len(r) > 0 {
				k := min(limit, len(r))
				parts = append(parts, string(r[:k]))
				r = r[k:]
			}
			continue
		}
		if size+n > limit {
			flush()
		}
		cur = append(cur, u)
		size += n
	}
	flush()
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
