package smf

import (
	"regexp"
	"strings"
	"unicode"

	"forumgm/forum"
)

var bbTag = regexp.MustCompile(`\[/?[a-zA-Z*]+(?:[= ][^\]]*)?\]`)

// plainOf is a post's BBCode with the quotes left out and the tags removed: what a reader sees of
// the author's own text.
func plainOf(bb string) string {
	low := strings.ToLower(bb)
	for {
		i := strings.LastIndex(low, "[quote")
		if i < 0 {
			break
		}
		j := strings.Index(low[i:], "[/quote]")
		if j < 0 {
			break
		}
		bb = bb[:i] + "\n" + bb[i+j+len("[/quote]"):]
		low = low[:i] + "\n" + low[i+j+len("[/quote]"):]
	}
	return bbTag.ReplaceAllString(bb, "")
}

// fingerprint is text without whitespace, lower-cased, for comparing what was sent with what the
// forum shows.
func fingerprint(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !unicode.IsSpace(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// sameText says whether a post shown by the forum carries the text that was sent.
func sameText(shown forum.Post, sent string) bool {
	a, b := fingerprint(shown.Text), fingerprint(plainOf(sent))
	if a == b {
		return true
	}
	if len(a) < 8 || len(b) < 8 {
		return false
	}
	return strings.Contains(a, b) || strings.Contains(b, a)
}
