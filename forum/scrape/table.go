package scrape

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// Field says where a value is: an element (Sel, relative to the node it is read from; empty = the
// node itself), its attribute (Attr; empty = its text) and an optional regexp whose first group (or
// whole match) is the value.
type Field struct {
	Sel  string
	Attr string
	Re   *regexp.Regexp
}

// IsZero reports whether the field was not configured.
func (f Field) IsZero() bool { return f.Sel == "" && f.Attr == "" && f.Re == nil }

// Get reads the field from s: the first matching element whose value (after Re) is not empty.
// Sel may list alternatives separated by "||", tried in order (a comma list would match in
// document order instead).
func (f Field) Get(s *goquery.Selection) (string, bool) {
	if strings.Contains(f.Sel, "||") {
		for _, alt := range strings.Split(f.Sel, "||") {
			g := f
			g.Sel = strings.TrimSpace(alt)
			// An alternative may name its own attribute ("time@datetime || time").
			if i := strings.LastIndex(g.Sel, "@"); i >= 0 && isAttrName(g.Sel[i+1:]) {
				g.Sel, g.Attr = strings.TrimSpace(g.Sel[:i]), g.Sel[i+1:]
			}
			if v, ok := g.Get(s); ok {
				return v, true
			}
		}
		return "", false
	}
	nodes := s
	if f.Sel != "" {
		nodes = find(s, f.Sel)
	}
	for i := range nodes.Nodes {
		n := nodes.Eq(i)
		var v string
		if f.Attr != "" {
			a, ok := n.Attr(f.Attr)
			if !ok {
				continue
			}
			v = a
		} else {
			v = n.Text()
		}
		v = strings.TrimSpace(v)
		if f.Re != nil {
			m := f.Re.FindStringSubmatch(v)
			if m == nil {
				continue
			}
			v = m[0]
			if len(m) > 1 {
				v = m[1]
			}
			v = strings.TrimSpace(v)
		}
		if v != "" {
			return v, true
		}
	}
	return "", false
}

// parseField reads "selector@attr" (either part optional; "@attr" = the node's own attribute) plus
// an optional regexp. Alternatives "a@x || b" keep their own attributes. An empty spec gives the
// zero Field.
func parseField(spec, re string) (Field, error) {
	var f Field
	spec = strings.TrimSpace(spec)
	if strings.Contains(spec, "||") {
		f.Sel = spec
	} else if i := strings.LastIndex(spec, "@"); i >= 0 && isAttrName(spec[i+1:]) {
		f.Sel, f.Attr = strings.TrimSpace(spec[:i]), spec[i+1:]
	} else {
		f.Sel = spec
	}
	if re != "" {
		r, err := regexp.Compile(re)
		if err != nil {
			return f, err
		}
		f.Re = r
	}
	return f, nil
}

func isAttrName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Table is a dialect's selector table: everything the extraction engine needs to know about an
// engine's thread (or private message) markup. Selectors are CSS (cascadia); those below Post are
// relative to a post node, those below Body relative to the body.
type Table struct {
	Name string // dialect name, for error messages

	Post      string // one node per post
	ID        Field  // the post id (digits)
	Permalink Field  // href of the post's permalink; resolved against the page URL
	// PermalinkFormat builds the permalink when the page has none: %[1]s is the id, relative to
	// the base URL (e.g. "viewtopic.php?p=%[1]s#p%[1]s").
	PermalinkFormat string
	Subject         Field
	Author          Field
	AuthorID        Field
	// TimeUnix is a Unix-seconds timestamp (preferred when present); Time fields are tried in
	// order and parsed with TimeLayouts (relative "Сегодня"/"Вчера"/"Today"/"Yesterday" forms are
	// resolved against the injected Now).
	TimeUnix    Field
	Time        []Field
	TimeLayouts []string

	Body   string   // the post's message
	Remove []string // inside Body: left out of the text (signature, edit line, buttons)
	Edited string   // inside the post: present when the post was edited

	Quote       string         // inside Body: a quote block
	QuoteCite   string         // inside a quote: its attribution
	QuoteAuthor *regexp.Regexp // from the cite text: first group = author (else the whole text)
	// MergeSep matches, in a post's text, what the engine writes between a member's posts it
	// merged into one (uCoz's "Добавлено (date)" over a line of dashes): the post is read as its
	// parts (forum.Post.Parts). Nil: the engine merges none, or leaves no mark.
	MergeSep    *regexp.Regexp
	QuotePostID Field // inside the cite (or the quote): the quoted post's id
	// QuoteAuthorField reads the quoted author off the quote itself when it has no cite, the
	// cite names nobody, or its wording does not match QuoteAuthor: Invision's
	// blockquote[data-ipsquote-username], XenForo's data-quote, vBulletin's
	// .bbcode_postedby strong.
	QuoteAuthorField Field

	Code     string // inside Body: a code block
	CodeText string // inside a code block: the element holding the verbatim text ("" = the block)

	Spoiler      string // inside Body: a spoiler block
	SpoilerTitle string // inside a spoiler: its title
	SpoilerBody  string // inside a spoiler: its content ("" = the spoiler minus its title)

	PageCurrent Field  // number of the current page
	PageNumbers string // pagination items whose text is a page number (the largest is the last page)
	PrevPage    Field  // href of the previous page
	NextPage    Field  // href of the next page

	// Required is a selector every page of this kind has (beside posts); when it is missing the
	// markup is taken to have changed.
	Required string
	// Thread is where a thread page shows its own thread's id (a hidden input's value, a
	// canonical link's href through Re); zero: the table does not say, and pages are not checked
	// to be the thread's.
	Thread Field
}
