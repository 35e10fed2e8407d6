package forum

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Opener builds a dialect's Forum.
type Opener func(cfg Config) (Forum, error)

// Extractor reads the posts out of one saved page of a dialect (a thread page, an inbox or a
// private message), for `forumgm posts --file` and the dialects' golden tests.
type Extractor func(page []byte, contentType string, cfg Config) ([]Post, error)

// Dialect describes one forum engine forumgm speaks: everything the rest of the program knows of
// it. Each dialects/<name> package builds its own (its Dialect function, in dialect.go); package
// dialects lists them, and a Registry looks them up by name.
type Dialect struct {
	Name string // the name a configuration's forum.dialect gives ("mybb")
	// Open builds the dialect's Forum; nil: the dialect reads saved pages only.
	Open Opener
	// Extract reads one saved page; nil: none.
	Extract Extractor
	// ThreadID reads the thread's id out of a thread page's URL (`forumgm detect` proposes it);
	// nil: the URL does not tell.
	ThreadID func(pageURL string) (id string, ok bool)
	// PageThread reads the id of the thread a saved thread page is a page of out of the page's own
	// markup (the reply form, the canonical link, the pagination, the JSON's topic id), as the
	// dialect's Forum checks every page it reads (CheckThread); ok is false when the page shows
	// none (an old theme), or cfg says nowhere to look (generic). nil: the dialect cannot tell
	// (reading-only dialects).
	PageThread func(page []byte, contentType string, cfg Config) (id string, ok bool)
	// ThreadPath is where thread URLs that name the thread in their path begin ("/threads/"): the
	// board's base is what comes before it. "": the base is the page's folder.
	ThreadPath string
	// Fingerprints recognise the engines this dialect reads (`forumgm detect`), tried in order.
	Fingerprints []Fingerprint
}

// Board is the board's base address and the thread's id a thread page's URL gives for the
// dialect ("" for what it does not tell): the URL cut before ThreadPath, else its folder.
func (d Dialect) Board(pageURL string) (base, thread string) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return "", ""
	}
	u.RawQuery, u.Fragment = "", ""
	if cut := d.ThreadPath; cut != "" && strings.Contains(u.Path, cut) {
		u.Path = u.Path[:strings.Index(u.Path, cut)+1]
	} else if i := strings.LastIndex(u.Path, "/"); i >= 0 {
		u.Path = u.Path[:i+1]
	}
	if d.ThreadID != nil {
		thread, _ = d.ThreadID(pageURL)
	}
	return u.String(), thread
}

// ThreadIDFrom is a Dialect.ThreadID reading the id from re's groups (the first one matched, or
// all of them joined): `[?&]t=(\d+)`.
func ThreadIDFrom(re *regexp.Regexp) func(string) (string, bool) {
	return func(pageURL string) (string, bool) {
		m := re.FindStringSubmatch(pageURL)
		if m == nil {
			return "", false
		}
		return strings.Join(m[1:], ""), true
	}
}

// Registry is a set of dialects, by name and in fingerprint order. It is built once, from an
// explicit list (package dialects), and not changed afterwards.
type Registry struct {
	list   []Dialect
	byName map[string]int
}

// NewRegistry builds the registry of ds, in their order; a dialect without a name, or a name
// given twice, is an error.
func NewRegistry(ds ...Dialect) (*Registry, error) {
	r := &Registry{list: slices.Clone(ds), byName: make(map[string]int, len(ds))}
	for i, d := range ds {
		if d.Name == "" {
			return nil, fmt.Errorf("forum: dialect %d has no name", i)
		}
		if _, dup := r.byName[d.Name]; dup {
			return nil, fmt.Errorf("forum: dialect %q given twice", d.Name)
		}
		r.byName[d.Name] = i
	}
	return r, nil
}

// All are the dialects in fingerprint order (a copy).
func (r *Registry) All() []Dialect { return slices.Clone(r.list) }

// Lookup finds the named dialect.
func (r *Registry) Lookup(name string) (Dialect, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Dialect{}, false
	}
	return r.list[i], true
}

// Open builds the named dialect's Forum.
func (r *Registry) Open(name string, cfg Config) (Forum, error) {
	d, ok := r.Lookup(name)
	if !ok || d.Open == nil {
		return nil, fmt.Errorf("forum: unknown dialect %q (known: %v)", name, r.Names())
	}
	return d.Open(cfg)
}

// Extractor is the named dialect's page extractor.
func (r *Registry) Extractor(name string) (Extractor, error) {
	d, ok := r.Lookup(name)
	if !ok || d.Extract == nil {
		return nil, fmt.Errorf("forum: no extractor for dialect %q", name)
	}
	return d.Extract, nil
}

// Names lists the dialects that open a forum, sorted.
func (r *Registry) Names() []string {
	return r.names(func(d Dialect) bool { return d.Open != nil })
}

// ReaderNames lists the dialects whose saved pages can be read (Names plus the reading-only
// ones), sorted.
func (r *Registry) ReaderNames() []string {
	return r.names(func(d Dialect) bool { return d.Extract != nil })
}

func (r *Registry) names(keep func(Dialect) bool) []string {
	var out []string
	for _, d := range r.list {
		if keep(d) {
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}
