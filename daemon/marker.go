package daemon

import (
	"regexp"
	"strconv"
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
	return marker + "-p" + strconv.Itoa(i)
}

// markerLine is a line holding only an outbox marker.
var markerLine = regexp.MustCompile(`(?m)^[ \t]*fgm-[A-Za-z0-9_-]+-[0-9]+-[0-9a-f]+(?:-p[0-9]+)?[ \t]*$`)

// MarkerCount is how many marker lines a post holds: more than one in a post of the bot's means
// the forum merged the bot's consecutive messages into one post.
func MarkerCount(text string) int { return len(markerLine.FindAllStringIndex(text, -1)) }

// markOverhead is the room the marker line takes.
const markOverhead = 80
