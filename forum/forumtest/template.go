package forumtest

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

// Blocks cuts a captured page into its repeated blocks (the posts of a thread page, the rows of
// a folder): head is what comes before the first block, tail what comes after the last. A block
// begins at a match of start and runs to the next block; the last runs through the first end
// after it. A fake board renders a page as head, one filled block per post, tail.
func Blocks(t testing.TB, page string, start *regexp.Regexp, end string) (head string, blocks []string, tail string) {
	t.Helper()
	at := start.FindAllStringIndex(page, -1)
	if len(at) == 0 {
		t.Fatalf("forumtest: no block %s in the page", start)
	}
	last := at[len(at)-1][0]
	e := strings.Index(page[last:], end)
	if e < 0 {
		t.Fatalf("forumtest: the last block %s has no end %q", start, end)
	}
	stop := last + e + len(end)
	for i, a := range at {
		to := stop
		if i+1 < len(at) {
			to = at[i+1][0]
		}
		blocks = append(blocks, page[a[0]:to])
	}
	return page[:at[0][0]], blocks, page[stop:]
}

// Slot replaces the content of the element whose opening tag begins with open (its first
// occurrence in s) by slot: the element's end is found by its tag name, nested elements of the
// same name counted.
func Slot(t testing.TB, s, open, slot string) string {
	t.Helper()
	i := strings.Index(s, open)
	if i < 0 || !strings.HasPrefix(open, "<") {
		t.Fatalf("forumtest: no %q to make a slot of", open)
	}
	name := strings.FieldsFunc(open[1:], func(r rune) bool { return r == ' ' || r == '>' })[0]
	j := i + strings.Index(s[i:], ">") + 1
	depth := 1
	for k := j; k < len(s); k++ {
		switch {
		case strings.HasPrefix(s[k:], "</"+name+">"):
			depth--
			if depth == 0 {
				return s[:j] + slot + s[k:]
			}
		case strings.HasPrefix(s[k:], "<"+name) && len(s) > k+len(name)+1 && strings.ContainsRune(" >\t\n", rune(s[k+len(name)+1])):
			depth++
		}
	}
	t.Fatalf("forumtest: %q is not closed", open)
	return ""
}

// HTML is text as a board shows a post typed with no markup: escaped, lines broken by br.
func HTML(text, br string) string {
	return strings.ReplaceAll(html.EscapeString(text), "\n", br)
}
