package smfposter

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// formValues is what a browser would send for form when the submit button named submit is
// pressed: every hidden and text input with its value, checked checkboxes and radios, the
// selected option of each select, textareas; no file inputs and no other submit buttons.
func formValues(form *goquery.Selection, submit string) url.Values {
	vals := url.Values{}
	form.Find("input, textarea, select").Each(func(_ int, s *goquery.Selection) {
		name, ok := s.Attr("name")
		if !ok || name == "" {
			return
		}
		if _, disabled := s.Attr("disabled"); disabled {
			return
		}
		switch goquery.NodeName(s) {
		case "textarea":
			vals.Add(name, strings.TrimPrefix(s.Text(), "\n"))
		case "select":
			opt := s.Find("option[selected]").First()
			if opt.Length() == 0 {
				opt = s.Find("option").First()
			}
			if opt.Length() > 0 {
				vals.Add(name, opt.AttrOr("value", opt.Text()))
			}
		case "input":
			switch strings.ToLower(s.AttrOr("type", "text")) {
			case "submit", "button", "image", "reset":
				if name == submit {
					vals.Add(name, s.AttrOr("value", ""))
				}
			case "file":
			case "checkbox", "radio":
				if _, checked := s.Attr("checked"); checked {
					vals.Add(name, s.AttrOr("value", "on"))
				}
			default:
				vals.Add(name, s.AttrOr("value", ""))
			}
		}
	})
	return vals
}

// formAction is the form's action resolved against the page's URL.
func formAction(form *goquery.Selection, page *forum.Page) (string, bool) {
	action, ok := form.Attr("action")
	if !ok || page == nil || page.URL == nil {
		return action, ok
	}
	u, err := page.URL.Parse(action)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// formCharset is the charset a browser would encode the form in: the form's accept-charset, else
// the page's own charset.
func formCharset(form *goquery.Selection, page *forum.Page) string {
	for _, cs := range strings.FieldsFunc(form.AttrOr("accept-charset", ""), func(r rune) bool { return r == ' ' || r == ',' }) {
		if !strings.EqualFold(cs, "unknown") {
			return cs
		}
	}
	if page != nil && page.Charset != "" {
		return page.Charset
	}
	return "utf-8"
}

// splitMessage cuts body into parts no longer than limit (as counted by size) at line boundaries;
// a single longer line is cut at a rune boundary. A [code] block cut in two is closed at the end of
// one part and opened again at the start of the next, so both halves still render verbatim.
func splitMessage(body string, limit int, size func(string) int) []string {
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

func runeCount(s string) int { return utf8.RuneCountInString(s) }

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
