package scrape

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
)

// Options are what extraction needs besides the page: where the page came from (to make links
// absolute), the forum's time zone and the clock relative dates are resolved against.
type Options struct {
	Base *url.URL
	Loc  *time.Location
	Now  time.Time
}

// OptionsFromConfig builds Options from a dialect Config (BaseURL, Location, Now).
func OptionsFromConfig(cfg forum.Config) (Options, error) {
	o := Options{Loc: cfg.Location, Now: time.Now()}
	if cfg.Now != nil {
		o.Now = cfg.Now()
	}
	if o.Loc == nil {
		o.Loc = time.UTC
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil {
			return o, fmt.Errorf("bad base URL %q: %w", cfg.BaseURL, err)
		}
		o.Base = u
	}
	return o, nil
}

// Page is what one thread page holds.
type Page struct {
	Posts   []forum.Post
	Current int    // page number shown as current (1 when the page has no pagination)
	Last    int    // the largest page number shown
	Prev    string // absolute URL of the previous page, if linked
	Next    string // absolute URL of the next page, if linked
}

// Markup reports a page that does not look like the table says, wrapping forum.ErrMarkupChanged.
func Markup(dialect, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", dialect, fmt.Sprintf(format, args...), forum.ErrMarkupChanged)
}

// Parse decodes a saved page (any charset, from contentType or <meta>) into a document.
func Parse(page []byte, contentType string) (*goquery.Document, error) {
	if len(bytes.TrimSpace(page)) == 0 {
		return nil, Markup("page", "empty page")
	}
	body, _, err := forum.Decode(page, contentType)
	if err != nil {
		return nil, Markup("page", "undecodable page: %v", err)
	}
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return nil, Markup("page", "unparsable page: %v", err)
	}
	return d, nil
}

// Extract reads the posts of a page with table t. A page without posts, or a post without an id,
// author, time or body, is a markup change (never an empty list).
func Extract(doc *goquery.Document, t *Table, o Options) (*Page, error) {
	if t.Required != "" && find(doc.Selection, t.Required).Length() == 0 {
		return nil, unrecognised(doc, Markup(t.Name, "no %q on the page", t.Required))
	}
	nodes := find(doc.Selection, t.Post)
	if nodes.Length() == 0 {
		return nil, unrecognised(doc, Markup(t.Name, "no posts (%q) on the page", t.Post))
	}
	if o.Loc == nil {
		o.Loc = time.UTC
	}
	t = pageLayouts(nodes, t, o)
	p := &Page{}
	var err error
	nodes.EachWithBreak(func(i int, s *goquery.Selection) bool {
		var post forum.Post
		post, err = extractPost(s, t, o)
		if err != nil {
			err = fmt.Errorf("post %d: %w", i+1, err)
			return false
		}
		p.Posts = append(p.Posts, post)
		return true
	})
	if err != nil {
		return nil, err
	}
	ok := false
	for _, post := range p.Posts {
		ok = ok || readable(post)
	}
	if !ok {
		return nil, Markup(t.Name, "no post has an author or a body (%q, %q)", t.Author.Sel, t.Body)
	}
	p.Current, p.Last = pageNumbers(doc, t)
	if v, ok := t.PrevPage.Get(doc.Selection); ok && !t.PrevPage.IsZero() {
		p.Prev = Link(o.Base, v)
	}
	if v, ok := t.NextPage.Get(doc.Selection); ok && !t.NextPage.IsZero() {
		p.Next = Link(o.Base, v)
	}
	return p, nil
}

var digits = regexp.MustCompile(`\d+`)

func pageNumbers(doc *goquery.Document, t *Table) (cur, last int) {
	cur, last = 1, 1
	if !t.PageCurrent.IsZero() {
		if v, ok := t.PageCurrent.Get(doc.Selection); ok {
			if n, err := strconv.Atoi(digits.FindString(v)); err == nil && n > 0 {
				cur = n
			}
		}
	}
	last = cur
	if t.PageNumbers != "" {
		find(doc.Selection, t.PageNumbers).Each(func(_ int, s *goquery.Selection) {
			txt := strings.TrimSpace(s.Text())
			if n, err := strconv.Atoi(txt); err == nil && n > last {
				last = n
			}
		})
	}
	return cur, last
}

// Link is ref resolved against base (as is when it does not parse), without a session id.
func Link(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	// Session ids in links (phpBB's sid=, PunBB's s=) are not part of a permalink.
	if q := u.Query(); q.Has("sid") {
		q.Del("sid")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func extractPost(s *goquery.Selection, t *Table, o Options) (forum.Post, error) {
	var p forum.Post
	id, ok := t.ID.Get(s)
	if !ok {
		return p, Markup(t.Name, "post without an id (%+v)", t.ID.Sel)
	}
	p.ID = id
	if v, ok := t.Permalink.Get(s); ok && !t.Permalink.IsZero() {
		p.Permalink = Link(o.Base, v)
	} else if t.PermalinkFormat != "" {
		p.Permalink = Link(o.Base, fmt.Sprintf(t.PermalinkFormat, id))
	}
	if !t.Subject.IsZero() {
		p.Subject, _ = t.Subject.Get(s)
	}
	// From here on a field that cannot be read costs that field (a problem of the post), not
	// the page.
	if author, ok := t.Author.Get(s); ok {
		p.Author = author
	} else {
		p.Problems = append(p.Problems, forum.NotFound(forum.ProblemAuthor, t.Author.Sel))
	}
	if !t.AuthorID.IsZero() {
		p.AuthorID, _ = t.AuthorID.Get(s)
	}
	if tm, err := postTime(s, t, o); err == nil {
		p.Time = tm
	} else {
		p.Problems = append(p.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: oneLineErr(err)})
	}
	body := s
	if t.Body != "" {
		body = find(s, t.Body).First()
	}
	if t.Edited != "" && find(s, t.Edited).Length() > 0 {
		p.Edited = true
	}
	p.Quotes = []forum.Quote{}
	if body.Length() == 0 {
		p.Problems = append(p.Problems, forum.NotFound(forum.ProblemText, t.Body))
		return p, nil
	}
	r := newRenderer(body, t, o)
	p.Text = Clean(r.own(body.Nodes[0]))
	p.Quotes, p.Code, p.Spoilers = r.quotes, r.code, r.spoilers
	for i := range p.Quotes {
		p.Quotes[i].Text = Clean(p.Quotes[i].Text)
		p.Quotes[i].Author = Clean(p.Quotes[i].Author)
	}
	for i := range p.Spoilers {
		p.Spoilers[i].Text = Clean(p.Spoilers[i].Text)
	}
	p.Author = Clean(p.Author)
	if p.Quotes == nil {
		p.Quotes = []forum.Quote{}
	}
	p.Parts = mergedParts(p, t.MergeSep)
	return p, nil
}

// mergedParts are the parts of a post the engine merged, split at each match of sep in its
// text (Table.MergeSep); nil unless sep finds two parts or more that hold text. The quotes,
// code and spoilers of the post stay with its first part: the text alone does not tell which
// part they were in.
func mergedParts(p forum.Post, sep *regexp.Regexp) []forum.Post {
	if sep == nil {
		return nil
	}
	var parts []forum.Post
	for _, text := range sep.Split(p.Text, -1) {
		if text = Clean(text); text != "" {
			parts = append(parts, forum.Post{Text: text, Quotes: []forum.Quote{}})
		}
	}
	if len(parts) < 2 {
		return nil
	}
	parts[0].Quotes, parts[0].Code, parts[0].Spoilers = p.Quotes, p.Code, p.Spoilers
	return parts
}

func oneLineErr(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// readable says whether a post was read at all: an author or a body. A page none of whose posts
// is readable is not the page the table describes.
func readable(p forum.Post) bool {
	var author, body bool
	for _, pr := range p.Problems {
		author = author || pr.Kind == forum.ProblemAuthor
		body = body || pr.Kind == forum.ProblemText
	}
	return !author || !body
}

// pageLayouts puts first the table's layout that reads every date of the page some layout
// reads: a board shows all its dates in one format, so where "30-09-2012" shows the day first,
// "10-11-2012" on the same page is the 10th of November, not the October 11th an earlier
// month-first layout would read. A table whose first layout reads every date (or none of whose
// layouts reads them all) is used as it is. A page whose every date is ambiguous keeps the
// table's order: the board's own layout (time_layout in the config) settles it.
func pageLayouts(posts *goquery.Selection, t *Table, o Options) *Table {
	if len(t.TimeLayouts) < 2 || len(t.Time) == 0 {
		return t
	}
	var shown []string
	posts.Each(func(_ int, s *goquery.Selection) {
		for _, f := range t.Time {
			if v, ok := f.Get(s); ok {
				if _, ok := ParseLayouts(v, o.Loc, t.TimeLayouts...); ok {
					shown = append(shown, v)
				}
				return
			}
		}
	})
	if len(shown) == 0 {
		return t
	}
	for i, l := range t.TimeLayouts {
		all := true
		for _, v := range shown {
			if _, ok := ParseLayouts(v, o.Loc, l); !ok {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		if i == 0 {
			return t
		}
		c := *t
		c.TimeLayouts = append([]string{l}, slices.Delete(slices.Clone(t.TimeLayouts), i, i+1)...)
		return &c
	}
	return t
}

func postTime(s *goquery.Selection, t *Table, o Options) (time.Time, error) {
	if !t.TimeUnix.IsZero() {
		if v, ok := t.TimeUnix.Get(s); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
				return time.Unix(n, 0).In(o.Loc), nil
			}
		}
	}
	var errs []error
	for _, f := range t.Time {
		v, ok := f.Get(s)
		if !ok {
			continue
		}
		tm, err := ParseTime(v, t.TimeLayouts, o.Loc, o.Now)
		if err == nil {
			return tm.In(o.Loc), nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return time.Time{}, errors.New("no date")
	}
	return time.Time{}, errors.Join(errs...)
}

type kind int

const (
	kindNone kind = iota
	kindRemove
	kindQuote
	kindCode
	kindSpoiler
)

// renderer renders one post body; it knows which nodes are quotes, code, spoilers and
// left-out parts.
type renderer struct {
	t        *Table
	o        Options
	kinds    map[*html.Node]kind
	cites    map[*html.Node]bool
	quotes   []forum.Quote
	code     []string
	spoilers []forum.Spoiler
}

func newRenderer(body *goquery.Selection, t *Table, o Options) *renderer {
	r := &renderer{t: t, o: o, kinds: map[*html.Node]kind{}, cites: map[*html.Node]bool{}}
	mark := func(sel string, k kind) {
		if sel == "" {
			return
		}
		find(body, sel).Each(func(_ int, s *goquery.Selection) {
			if _, done := r.kinds[s.Nodes[0]]; !done {
				r.kinds[s.Nodes[0]] = k
			}
		})
	}
	for _, sel := range t.Remove {
		mark(sel, kindRemove)
	}
	mark(t.Code, kindCode)
	mark(t.Spoiler, kindSpoiler)
	mark(t.Quote, kindQuote)
	return r
}

// own renders the author's own text, collecting top-level quotes, code and spoilers.
func (r *renderer) own(n *html.Node) string {
	w := newText()
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.walk(w, c, true)
	}
	return w.String()
}

func (r *renderer) walk(w *text, n *html.Node, top bool) {
	switch n.Type {
	case html.TextNode:
		w.Write(n.Data)
		return
	case html.ElementNode:
	default:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			r.walk(w, c, top)
		}
		return
	}
	if r.cites[n] {
		return
	}
	switch r.kinds[n] {
	case kindRemove:
		return
	case kindCode:
		txt := r.codeText(n)
		if top {
			r.code = append(r.code, strings.Trim(txt, "\r\n"))
		}
		verbatim(w, txt)
		return
	case kindQuote:
		if top {
			r.quotes = append(r.quotes, r.quote(n))
			w.Block(1)
			return
		}
		// A nested quote stays inside the outer quote's text: its attribution, then its text.
		w.Block(1)
		if c := r.cite(n); c != nil {
			txt := Collapse(goquery.NewDocumentFromNode(c).Text())
			if r.t.QuoteAuthor != nil {
				if m := r.t.QuoteAuthor.FindString(txt); m != "" {
					txt = m
				}
			}
			w.Write(txt)
			w.Block(1)
		}
		r.children(w, n, false, r.cite(n))
		w.Block(1)
		return
	case kindSpoiler:
		if top {
			r.spoilers = append(r.spoilers, r.spoiler(n))
			w.Block(1)
			return
		}
		w.Block(1)
		r.children(w, n, false, nil)
		w.Block(1)
		return
	}
	tag := n.Data
	if skipTags[tag] {
		return
	}
	switch tag {
	case "br":
		w.Break()
		return
	case "img":
		if a := smileyAlt(n); a != "" {
			w.Write(a)
		}
		return
	}
	b := blockTags[tag]
	if b > 0 {
		w.Block(b)
	}
	if tag == "li" {
		w.Write("• ")
	}
	r.children(w, n, top, nil)
	if b > 0 {
		w.Block(b)
	}
}

func (r *renderer) children(w *text, n *html.Node, top bool, skip *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c == skip {
			continue
		}
		r.walk(w, c, top)
	}
}

func (r *renderer) codeText(n *html.Node) string {
	if r.t.CodeText != "" {
		s := find(goquery.NewDocumentFromNode(n).Selection, r.t.CodeText)
		if s.Length() > 0 {
			return rawText(s.Nodes[0])
		}
	}
	return rawText(n)
}

// quoteAuthorPlace: the table names where a quote holds its author (quote_author). The field
// also carries quote_author_re (the cite's wording, by the key's name); without a selector or
// attribute it names no place, and reading the whole quote with it would take the quote's text
// for the author when a cite names nobody (uCoz's bare "Quote").
func (t *Table) quoteAuthorPlace() bool {
	return t.QuoteAuthorField.Sel != "" || t.QuoteAuthorField.Attr != ""
}

// cite finds the quote's own attribution (not that of a quote nested in it).
func (r *renderer) cite(q *html.Node) *html.Node {
	if r.t.QuoteCite == "" {
		return nil
	}
	var found *html.Node
	find(goquery.NewDocumentFromNode(q).Selection, r.t.QuoteCite).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if r.enclosing(s.Nodes[0], kindQuote) == q {
			found = s.Nodes[0]
			r.cites[found] = true
			return false
		}
		return true
	})
	return found
}

// enclosing is the nearest ancestor of n of kind k.
func (r *renderer) enclosing(n *html.Node, k kind) *html.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if r.kinds[p] == k {
			return p
		}
	}
	return nil
}

func (r *renderer) quote(q *html.Node) forum.Quote {
	var out forum.Quote
	c := r.cite(q)
	// An attribute of the quote block itself (Invision's data-ipsquote-username) is the engine's
	// record of the author; the cite is display text in the board's language ("13 часов назад,
	// Graf сказал:") and only stands in when the attribute is missing.
	var attrAuthor string
	if f := r.t.QuoteAuthorField; f.Sel == "" && f.Attr != "" {
		attrAuthor, _ = f.Get(goquery.NewDocumentFromNode(q).Selection)
	}
	if c != nil {
		cs := goquery.NewDocumentFromNode(c)
		txt := Collapse(cs.Text())
		if r.t.QuoteAuthor != nil {
			if m := r.t.QuoteAuthor.FindStringSubmatch(txt); m != nil {
				txt = m[len(m)-1]
				if len(m) > 1 {
					txt = m[1]
				}
			} else if r.t.quoteAuthorPlace() {
				// A cite in a wording the table does not know ("Gửi bởi ann"): the element that
				// holds the name (QuoteAuthorField, read as it is: the wording's regexp is what
				// failed) names the author instead.
				f := r.t.QuoteAuthorField
				f.Re = nil
				if a, ok := f.Get(goquery.NewDocumentFromNode(q).Selection); ok {
					txt = a
				}
			}
		}
		out.Author = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(txt), ":"))
		if !r.t.QuotePostID.IsZero() {
			out.PostID, _ = r.t.QuotePostID.Get(cs.Selection)
		}
	}
	if out.PostID == "" && !r.t.QuotePostID.IsZero() {
		// Some engines put the link on the quote itself (phpBB: blockquote[cite]).
		qs := goquery.NewDocumentFromNode(q).Selection
		f := r.t.QuotePostID
		f.Sel = ""
		out.PostID, _ = f.Get(qs)
	}
	if attrAuthor != "" {
		out.Author = attrAuthor
	} else if out.Author == "" && r.t.quoteAuthorPlace() {
		out.Author, _ = r.t.QuoteAuthorField.Get(goquery.NewDocumentFromNode(q).Selection)
	}
	w := newText()
	r.children(w, q, false, c)
	out.Text = w.String()
	return out
}

func (r *renderer) spoiler(n *html.Node) forum.Spoiler {
	var sp forum.Spoiler
	s := goquery.NewDocumentFromNode(n)
	var title *html.Node
	if r.t.SpoilerTitle != "" {
		find(s.Selection, r.t.SpoilerTitle).EachWithBreak(func(_ int, ts *goquery.Selection) bool {
			if r.enclosing(ts.Nodes[0], kindSpoiler) == n {
				title = ts.Nodes[0]
				r.cites[title] = true
				return false
			}
			return true
		})
	}
	if title != nil {
		sp.Title = Collapse(goquery.NewDocumentFromNode(title).Text())
	}
	w := newText()
	if r.t.SpoilerBody != "" {
		if b := find(s.Selection, r.t.SpoilerBody); b.Length() > 0 {
			r.children(w, b.Nodes[0], false, nil)
			sp.Text = w.String()
			return sp
		}
	}
	r.children(w, n, false, title)
	sp.Text = w.String()
	return sp
}

// unrecognised tells a login or maintenance page from a changed one (forum.Unrecognised).
func unrecognised(doc *goquery.Document, err error) error {
	return forum.Unrecognised(doc.Find("body").Text(), doc.Find("input[type=password]").Length() > 0, err)
}
