package daemon

import (
	"strings"

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
