// Package templates owns how the texts players and moderators see are rendered: loading a set of
// text/template files (BBCode) with the shared functions, rendering them tidily, and the escaping
// of player text echoed back into them. Each game embeds its own texts (games/<name>/voice); the
// shared layer's own texts (the moderators' notices, the poster's merged reply) are embedded here.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"text/template"
	"unicode/utf8"
)

//go:embed moderation/*.tmpl poster/*.tmpl master/*.tmpl
var shared embed.FS

// LoadShared parses one folder of the shared layer's own texts ("moderation", "poster", "master").
func LoadShared(dir string) (*Set, error) {
	sub, err := fs.Sub(shared, dir)
	if err != nil {
		return nil, fmt.Errorf("templates: load %s: %w", dir, err)
	}
	return Load(sub, dir, nil)
}

// Set is a parsed set of one game's templates.
type Set struct {
	t *template.Template
}

// Load parses the templates (*.tmpl) of fsys as the set named name (a game's voice.Files, or
// LoadShared's folders), with funcs added to the standard ones.
func Load(fsys fs.FS, name string, funcs template.FuncMap) (*Set, error) {
	fm := template.FuncMap{
		"esc":    Escape,
		"cut":    Cut,
		"join":   strings.Join,
		"plural": Plural,
		"add":    func(a, b int) int { return a + b },
	}
	for k, v := range funcs {
		fm[k] = v
	}
	t, err := template.New(name).Funcs(fm).Option("missingkey=error").ParseFS(fsys, "*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("templates: load %s: %w", name, err)
	}
	return &Set{t: t}, nil
}

// Render executes the named template and trims surrounding blank lines.
func (s *Set) Render(name string, data any) (string, error) {
	b := buffers.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= maxPooled {
			b.Reset()
			buffers.Put(b)
		}
	}()
	if err := s.t.ExecuteTemplate(b, name, data); err != nil {
		return "", fmt.Errorf("templates: render %s: %w", name, err)
	}
	return tidyBytes(b.Bytes()), nil
}

// buffers hold the rendering buffers between renders (a reply with the board is a few KB).
var buffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 4096)) }}

// maxPooled is the largest buffer kept for the next render.
const maxPooled = 64 << 10

// Optional renders the named template when the set has it: "" when it has none or it fails
// (words that are nice to have, such as an event described for the moderators).
func (s *Set) Optional(name string, data any) string {
	if !s.Defined(name) {
		return ""
	}
	out, err := s.Render(name, data)
	if err != nil {
		return ""
	}
	return out
}

// Defined reports whether the set has a template of that name.
func (s *Set) Defined(name string) bool { return s.t.Lookup(name) != nil }

// tidy trims trailing spaces of lines, collapses runs of blank lines into one, and trims the
// text, so templates can be laid out readably.
func tidy(s string) string { return tidyBytes([]byte(s)) }

// tidyBytes is tidy of a rendered buffer; the text it returns is its own (s may be reused).
func tidyBytes(s []byte) string {
	var b strings.Builder
	b.Grow(len(s))
	blank := true
	for len(s) > 0 {
		l := s
		if i := bytes.IndexByte(s, '\n'); i >= 0 {
			l, s = s[:i], s[i+1:]
		} else {
			s = nil
		}
		l = bytes.TrimRight(l, " \t\r")
		if len(l) == 0 {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.Write(l)
	}
	return strings.TrimSpace(b.String())
}

// Escape makes player text safe to echo inside a BBCode post: bytes that are not UTF-8, NUL and the
// other control characters (but tab and line breaks) are dropped (a windows-1251 board's form
// encoding cannot send them, which would hold the outbox up); a zero-width space goes where a
// forum would read markup: after each '[' (no tag, [url] included, is read) and inside the bare
// links forums turn into live ones ("https://…", "www.…"); "fgm-", the start of an outbox marker,
// gets a non-breaking hyphen, so an echoed line is never taken for the bot's marker.
// HTML-special characters are left to the forum, which escapes them itself.
func Escape(s string) string {
	if plain(s) {
		return s
	}
	return escaper.Replace(Sanitize(s))
}

// plain reports whether Escape leaves s as it is: valid UTF-8 with no control character and no
// byte that starts what the escaper replaces ('[', ':', 'w', 'W', 'f', 'F'). Most names are.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b < 0x20 || b == 0x7f, b == '[', b == ':', b == 'w', b == 'W', b == 'f', b == 'F':
			return false
		}
	}
	return utf8.ValidString(s)
}

var escaper = strings.NewReplacer("[", "[\u200b", "://", ":\u200b//", "www.", "www\u200b.", "WWW.", "WWW\u200b.",
	"Www.", "Www\u200b.", "fgm-", "fgm\u2011", "FGM-", "FGM\u2011")

// Sanitize drops what must never be echoed into a post: bytes that are not UTF-8, NUL and the other
// C0 control characters except tab, line feed and carriage return, and DEL.
func Sanitize(s string) string {
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// Cut shortens s to at most n letters, ending a shortened text with "…".
func Cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 1 {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// Plural picks the Russian plural form for n: one (1, 21), few (2-4, 22-24), many (5-20, 25...).
// Example: plural 3 "ранение" "ранения" "ранений" gives "ранения".
func Plural(n int, one, few, many string) string {
	if n < 0 {
		n = -n
	}
	switch {
	case n%10 == 1 && n%100 != 11:
		return one
	case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return few
	}
	return many
}
