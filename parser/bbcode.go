package parser

import (
	"regexp"
	"strings"

	"forumgm/forum"
	"forumgm/russian"
)

// FromBBCode splits a post as its author typed it in BBCode into the shape the forum scrapers
// give (forum.Post): the author's own text with the markup removed, the quotes, the code blocks
// and the spoilers. Only Text, Quotes, Code and Spoilers are filled.
//
//   - [quote]…[/quote] in any of the engines' attribution forms ([quote=Name], [quote="Name"],
//     [quote="Name" pid='3' dateline='…'] (MyBB), [quote="Name" post_id=3 time=…] (phpBB),
//     [quote author=Name link=msg=3 date=…] (SMF), [quote=Name;3] (vBulletin),
//     [quote="Name, post: 3, member: 7"] (XenForo), [quote name='Name' post='3'] (IPB)) becomes a
//     forum.Quote with its author and post id; a quote nested in it stays inside its text.
//   - [code]…[/code] is kept verbatim (one leading and one trailing line break dropped), in
//     Post.Code and in the text where it stands (a quote's code stays in the quote's text); no
//     markup inside it is read.
//   - [spoiler]/[spoiler=Title] becomes a forum.Spoiler and leaves the text.
//   - Formatting tags ([b], [i], [color=…], [url=…], [size=…], [center], [list], [*], …) are
//     dropped and their text kept; [img] and [attachment] drop their content. Unknown bracketed
//     text ("[J5]") stays as typed, and so does an unclosed [quote], [code] or [spoiler].
//
// Line breaks are kept; blank lines at the start and end of each text are trimmed; CRLF, &nbsp;
// and no-break spaces are cleaned (russian.CleanText).
func FromBBCode(text string) forum.Post {
	text = russian.CleanText(text)
	var p forum.Post
	p.Text = trimBlankLines(renderBB(text, &p))
	return p
}

type bbTag struct {
	name    string // lower case
	attr    string // everything after the name up to ']'
	closing bool
	start   int // index of '['
	end     int // index after ']'
}

var tagNameRe = regexp.MustCompile(`^\[(/?)([a-zA-Z*]+)([= ][^\]\n]*)?\]`)

func readTag(s string, i int) (bbTag, bool) {
	m := tagNameRe.FindStringSubmatch(s[i:])
	if m == nil {
		return bbTag{}, false
	}
	return bbTag{
		name:    strings.ToLower(m[2]),
		attr:    m[3],
		closing: m[1] == "/",
		start:   i,
		end:     i + len(m[0]),
	}, true
}

// Tags whose content is dropped, and formatting tags dropped with their text kept.
var (
	dropContent = map[string]bool{"img": true, "attachment": true, "attach": true, "video": true, "youtube": true, "media": true}
	formatting  = map[string]bool{
		"b": true, "i": true, "u": true, "s": true, "strike": true, "del": true, "ins": true, "em": true,
		"strong": true, "sup": true, "sub": true, "color": true, "colour": true, "size": true,
		"font": true, "face": true, "url": true, "email": true, "center": true, "left": true,
		"right": true, "justify": true, "align": true, "indent": true, "list": true, "ul": true,
		"ol": true, "li": true, "*": true, "hr": true, "br": true, "tt": true, "c": true, "icode": true,
		"highlight": true, "mark": true, "background": true, "bgcolor": true, "table": true,
		"tr": true, "td": true, "th": true, "h": true, "h1": true, "h2": true, "h3": true,
		"plain": true, "abbr": true, "acronym": true, "shadow": true, "glow": true,
		"blur": true, "user": true, "member": true, "mention": true, "post": true, "thread": true,
		"topic": true, "offtop": true, "offtopic": true, "ot": true, "small": true, "big": true,
	}
	lineBreakTags = map[string]bool{"*": true, "hr": true, "br": true, "li": true, "tr": true, "list": true, "table": true}
	codeTags      = map[string]bool{"code": true, "php": true, "html": true, "pre": true, "noparse": true, "source": true}
	quoteTags     = map[string]bool{"quote": true}
	spoilerTags   = map[string]bool{"spoiler": true, "spoil": true, "hide": true, "details": true, "expand": true}
)

// findClose finds the tag closing the block tag opened at open (same name, nesting counted, code
// blocks skipped). It returns the closing tag, or false.
func findClose(s string, open bbTag) (bbTag, bool) {
	depth := 1
	for i := open.end; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		t, ok := readTag(s, i)
		if !ok {
			continue
		}
		if codeTags[t.name] && !t.closing && !codeTags[open.name] {
			if c, ok := findCodeClose(s, t); ok {
				i = c.end - 1
			}
			continue
		}
		if t.name != open.name {
			continue
		}
		if t.closing {
			depth--
			if depth == 0 {
				return t, true
			}
		} else {
			depth++
		}
		i = t.end - 1
	}
	return bbTag{}, false
}

// findCodeClose finds the first [/code] (of the same name) after a code tag: code does not nest.
func findCodeClose(s string, open bbTag) (bbTag, bool) {
	closeTag := "[/" + open.name + "]"
	j := indexFold(s[open.end:], closeTag)
	if j < 0 {
		return bbTag{}, false
	}
	start := open.end + j
	return bbTag{name: open.name, closing: true, start: start, end: start + len(closeTag)}, true
}

func indexFold(s, sub string) int {
	// sub is ASCII; compare case-insensitively without allocating a lowered copy of s.
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

// renderBB removes the markup of s. With post non-nil (the author's own level) quotes, code and
// spoilers are collected into it; inside a quote (post nil) nested quotes and spoilers stay in
// the text and code is kept verbatim.
func renderBB(s string, post *forum.Post) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		t, ok := readTag(s, i)
		if !ok {
			b.WriteByte('[')
			i++
			continue
		}
		switch {
		case t.closing && (quoteTags[t.name] || spoilerTags[t.name] || formatting[t.name] || dropContent[t.name] || codeTags[t.name]):
			// A stray or formatting closing tag.
			if lineBreakTags[t.name] {
				b.WriteByte('\n')
			}
			i = t.end
		case t.closing:
			b.WriteString(s[t.start:t.end])
			i = t.end
		case codeTags[t.name]:
			c, ok := findCodeClose(s, t)
			if !ok {
				b.WriteString(s[t.start:t.end])
				i = t.end
				continue
			}
			code := trimOneBreak(s[t.end:c.start])
			if post != nil {
				post.Code = append(post.Code, code)
			}
			ensureLineStart(&b)
			b.WriteString(code)
			b.WriteByte('\n')
			i = skipBreak(s, c.end)
		case quoteTags[t.name], spoilerTags[t.name]:
			c, ok := findClose(s, t)
			if !ok {
				b.WriteString(s[t.start:t.end])
				i = t.end
				continue
			}
			inner := trimBlankLines(renderBB(s[t.end:c.start], nil))
			switch {
			case post != nil && quoteTags[t.name]:
				author, id := quoteAttribution(t.attr)
				post.Quotes = append(post.Quotes, forum.Quote{Author: author, PostID: id, Text: inner})
				ensureLineStart(&b)
			case post != nil:
				post.Spoilers = append(post.Spoilers, forum.Spoiler{Title: unquote(strings.TrimPrefix(strings.TrimSpace(t.attr), "=")), Text: inner})
				ensureLineStart(&b)
			default:
				ensureLineStart(&b)
				b.WriteString(inner)
				b.WriteByte('\n')
			}
			i = skipBreak(s, c.end)
		case dropContent[t.name]:
			if c, ok := findClose(s, t); ok {
				i = c.end
			} else {
				i = t.end
			}
		case formatting[t.name]:
			if lineBreakTags[t.name] {
				b.WriteByte('\n')
			}
			i = t.end
		default:
			b.WriteString(s[t.start:t.end])
			i = t.end
		}
	}
	return b.String()
}

// skipBreak skips one line break at i: a block already ended its line.
func skipBreak(s string, i int) int {
	if i < len(s) && s[i] == '\n' {
		return i + 1
	}
	return i
}

func ensureLineStart(b *strings.Builder) {
	if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
}

func trimOneBreak(s string) string {
	s = strings.TrimPrefix(s, "\n")
	return strings.TrimSuffix(s, "\n")
}

// trimBlankLines drops blank lines (and trailing spaces on them) at both ends, keeping the
// indentation of the first non-blank line.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	a, z := 0, len(lines)
	for a < z && strings.TrimSpace(lines[a]) == "" {
		a++
	}
	for z > a && strings.TrimSpace(lines[z-1]) == "" {
		z--
	}
	return strings.Join(lines[a:z], "\n")
}

var (
	attrRe   = regexp.MustCompile(`(?i)\b(name|author|pid|post_id|post|postid|p|dateline|time|timestamp|date|user_id|userid|uid|member|link|msg)\s*=\s*("[^"]*"|'[^']*'|[^\s'"]+)`)
	xfPostRe = regexp.MustCompile(`(?i),\s*post:\s*(\d+)`)
)

// quoteAttribution reads the author and the post id from a quote tag's attributes (everything
// after "quote").
func quoteAttribution(attr string) (author, postID string) {
	attr = strings.TrimSpace(attr)
	if attr == "" {
		return "", ""
	}
	if rest, ok := strings.CutPrefix(attr, "="); ok {
		rest = strings.TrimSpace(rest)
		var tail string
		switch {
		case strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, `'`):
			q := rest[:1]
			if k := strings.Index(rest[1:], q); k >= 0 {
				author, tail = rest[1:1+k], rest[2+k:]
			} else {
				author = rest[1:]
			}
		default:
			// [quote=Name;3] (vBulletin), or a bare name possibly followed by attributes.
			author = rest
			if m := attrRe.FindStringIndex(rest); m != nil && m[0] > 0 {
				author, tail = rest[:m[0]], rest[m[0]:]
			}
			if k := strings.IndexByte(author, ';'); k >= 0 {
				author, postID = author[:k], strings.TrimSpace(author[k+1:])
			}
		}
		// [quote="Name, post: 3, member: 7"] (XenForo)
		if m := xfPostRe.FindStringSubmatchIndex(author); m != nil {
			postID = author[m[2]:m[3]]
			author = author[:m[0]]
		}
		author = strings.TrimSpace(author)
		attr = tail
	}
	for _, m := range attrRe.FindAllStringSubmatch(attr, -1) {
		v := unquote(m[2])
		switch strings.ToLower(m[1]) {
		case "name", "author":
			if author == "" {
				author = v
			}
		case "pid", "post_id", "post", "postid", "p", "msg":
			if postID == "" {
				postID = v
			}
		case "link":
			// SMF: link=msg=123 or link=topic=1.msg123#msg123
			if k := strings.LastIndex(v, "msg"); k >= 0 && postID == "" {
				postID = strings.Trim(strings.TrimLeft(v[k+3:], "="), "#")
				if h := strings.IndexByte(postID, '#'); h >= 0 {
					postID = postID[:h]
				}
			}
		}
	}
	return author, postID
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
