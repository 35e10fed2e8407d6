package web

import (
	"strings"
	"unicode/utf8"
)

// The tags of a code block, as a split closes and reopens one.
const (
	codeOpen  = "[code]\n"
	codeClose = "\n[/code]"
)

// Split cuts body into parts no longer than limit, as size counts them (bytes, runes: Bytes,
// Runes; any size must count every character as at least 1 and grow with the text), for a board
// that takes no longer posts. limit <= 0 means no limit. Each part ends at the last place that
// fits, in this order of preference:
//
//   - a paragraph break (blank line) outside a [code] block, then a line break outside one, so a
//     code block short enough for one part is never cut;
//   - a line break inside a code block too long for any part (preferred over the breaks above,
//     so the part is filled): the part closes the block and the next opens it again, and both
//     halves still render verbatim (a board stays a board);
//   - a space, then any character boundary, for a line longer than a part.
//
// The line breaks or the space at a cut are dropped (outside code, parts joined by "\n", "\n\n"
// or " " as they were cut give body back); inside a code block a cut within a line keeps every
// character. Parts that would hold only white space are left out.
func Split(body string, limit int, size func(string) int) []string {
	if limit <= 0 || size(body) <= limit {
		return []string{body}
	}
	// Room to close a code block cut in two; too small a limit cuts code like text.
	reserve := size(codeClose)
	if limit <= reserve+size(codeOpen) {
		reserve = -1
	}
	var parts []string
	add := func(p string) {
		if strings.TrimSpace(p) != "" && p != strings.TrimSuffix(codeOpen, "\n")+codeClose {
			parts = append(parts, p)
		}
	}
	text := body
	for {
		n := fit(text, limit, size)
		if n == len(text) {
			break
		}
		cut, skip := lastBreakOutsideCode(text[:n])
		closing := false
		if reserve >= 0 && blockTooLong(text, n, limit, size) {
			// The block the window ends in is cut anyway: fill this part with its first lines.
			if i := lastLineInBlock(text, fit(text, limit-reserve, size)); i > 0 {
				cut, skip, closing = i, 1, true
			}
		}
		if cut <= 0 {
			cut, skip, closing = cutInside(text, n, limit, reserve, size)
		}
		part, rest := text[:cut], text[cut+skip:]
		if skip > 0 {
			part = strings.TrimRight(part, "\n")
			rest = strings.TrimLeft(rest, "\n")
		}
		if closing {
			add(part + codeClose)
			if after, ok := cutPrefixFold(strings.TrimLeft(rest, "\n"), strings.TrimPrefix(codeClose, "\n")); ok {
				rest = strings.TrimLeft(after, "\n") // the block ended right at the cut
			} else {
				rest = codeOpen + rest
			}
		} else {
			add(part)
		}
		text = rest
	}
	add(text)
	return parts
}

// Bytes is the size of s in bytes, for Split on a board that counts bytes.
func Bytes(s string) int { return len(s) }

// Runes is the size of s in characters, for Split on a board that counts characters.
func Runes(s string) int { return utf8.RuneCountInString(s) }

// fit is the length in bytes of the longest prefix of s, cut at a character boundary, whose size
// is at most limit (0 when not even the first character fits). size counts every character as
// at least 1 and grows with the prefix, so only the first limit+1 characters need a look.
func fit(s string, limit int, size func(string) int) int {
	if limit <= 0 {
		return 0
	}
	bounds := make([]int, 0, min(len(s), limit+1)+1)
	for i := range s {
		if len(bounds) > limit {
			break
		}
		bounds = append(bounds, i)
	}
	if len(bounds) <= limit {
		bounds = append(bounds, len(s))
	}
	lo, hi := 0, len(bounds)-1 // bounds[lo] fits (the empty prefix always does)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if size(s[:bounds[mid]]) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return bounds[lo]
}

// lastBreakOutsideCode is the last paragraph break in w outside a code block, else its last line
// break outside one: where it starts and how long it is (0, 0 when there is none).
func lastBreakOutsideCode(w string) (at, length int) {
	for _, sep := range []string{"\n\n", "\n"} {
		for i := strings.LastIndex(w, sep); i > 0; i = strings.LastIndex(w[:i], sep) {
			if codeStart(w[:i]) < 0 {
				return i, len(sep)
			}
		}
	}
	return 0, 0
}

// cutInside cuts text (whose first n bytes fit the limit) where no break outside a code block
// fits: at a line break inside a code block (closing it), else at a space, else at a character
// boundary. It returns where, how many bytes the cut drops, and whether the part closes a code
// block. reserve < 0: the limit has no room for the tags, and code is cut like text.
func cutInside(text string, n, limit, reserve int, size func(string) int) (at, skip int, closing bool) {
	if reserve < 0 {
		if i := strings.LastIndex(text[:n], "\n"); i > 0 {
			return i, 1, false
		}
		if i := strings.LastIndex(text[:n], " "); i > 0 {
			return i, 1, false
		}
		return atLeastOne(text, n), 0, false
	}
	m := fit(text, limit-reserve, size) // the prefix that leaves room to close a block
	if i := lastLineInBlock(text, m); i > 0 {
		return i, 1, true
	}
	if i := strings.LastIndex(text[:n], " "); i > 0 && codeStart(text[:i]) < 0 {
		return i, 1, false
	}
	if i := strings.LastIndex(text[:m], " "); i > 0 && inBlock(text, i+1) {
		return i + 1, 0, true // inside code every space counts
	}
	switch {
	case codeStart(text[:n]) < 0:
		return atLeastOne(text, n), 0, false
	case inBlock(text, m):
		return m, 0, true
	}
	return atLeastOne(text, n), 0, false // no room to close the block: cut it like text
}

// atLeastOne is n, or the first character's length when n is 0.
func atLeastOne(text string, n int) int {
	if n > 0 {
		return n
	}
	_, size := utf8.DecodeRuneInString(text)
	return size
}

// inBlock says whether a cut of text at c falls inside a code block, after the block's first
// line has begun (so that the part holds some of the block and the split makes progress).
func inBlock(text string, c int) bool {
	o := codeStart(text[:c])
	if o < 0 {
		return false
	}
	k := strings.IndexByte(text[o:], '\n')
	return k >= 0 && c > o+k+1
}

// lastLineInBlock is the last line break in text[:m] inside a code block, 0 when there is none.
func lastLineInBlock(text string, m int) int {
	for i := strings.LastIndex(text[:m], "\n"); i > 0; i = strings.LastIndex(text[:i], "\n") {
		if inBlock(text, i) {
			return i
		}
	}
	return 0
}

// blockTooLong says whether the code block open at the end of text[:n] is longer than limit
// (from its [code] to its [/code]), so that it cannot go whole in any part.
func blockTooLong(text string, n, limit int, size func(string) int) bool {
	o := codeStart(text[:n])
	if o < 0 {
		return false
	}
	whole := text[o : o+fit(text[o:], limit, size)]
	return !strings.Contains(lowerASCII(whole), "[/code]")
}

// codeStart is where the code block open at the end of s starts, -1 when none is open.
func codeStart(s string) int {
	low := lowerASCII(s)
	open := strings.LastIndex(low, "[code")
	if open < 0 || strings.LastIndex(low, "[/code]") > open {
		return -1
	}
	return open
}

// lowerASCII is s with A-Z lowered and every other byte kept, so indexes stay those of s.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
