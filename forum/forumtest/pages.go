package forumtest

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/forum"
)

// Pages are a dialect's captured pages for RunPages.
type Pages struct {
	// Dialect is the dialect whose Extract reads the pages (its descriptor, dialects/<name>'s
	// Dialect()).
	Dialect forum.Dialect
	// Config is what the extractor reads with (the board's zone, a clock for relative dates).
	Config forum.Config
	// Threads are files of thread pages (at least one), each with posts.
	Threads []string
	// ThreadIDs are the ids of the threads the pages of Threads are of, by file name (a page that
	// shows none, an old theme or an excerpt, is listed with ""): the dialect's PageThread must
	// find each.
	ThreadIDs map[string]string
	// NotThreads are files of pages that are not thread pages (a section list, a login form,
	// an error page). A page with no posts of any engine is always tried besides.
	NotThreads []string
	// ContentType is the pages' (as the extractor takes it; "" for HTML).
	ContentType string
	// LinkThread reads out of a post's permalink the thread id that has the dialect's Forum
	// build the board's own address (XenForo's "slug.T", Invision's "T-slug": ids an operator
	// may configure); nil: ThreadIDs. NoLinks are files whose permalinks are not the engine's own (a
	// rewrite mod, a site mirror's renamed files), with the reason; LinksLack is why no captured
	// page can check the Forum's post addresses (forum.Linker) at all. Otherwise every post's
	// permalink on a page of Threads must be what the dialect's Forum builds for it.
	LinkThread func(permalink string) string
	NoLinks    map[string]string
	LinksLack  string
	// Merge says how the dialect's engine merges a member's consecutive posts: the page of a
	// merged post and its parts, or why the dialect tells none apart. Required.
	Merge Merge
}

// Merge is a dialect's answer to the engine's auto-merge (forum.Post.Parts): either a page
// holding a post the engine merged, with the parts it must be read as, or None, the reason the
// dialect gives no parts (the engine merges no posts, or leaves nothing on the page between
// the merged posts).
type Merge struct {
	// Page is a file of a thread page (captured where one exists) holding a merged post.
	Page string
	// PostID is the merged post of Page; Parts are a piece of each part's text, in order.
	PostID string
	Parts  []string
	// None is why the dialect reads no parts; then no post of Threads may have any.
	None string
}

// blank is a whole page of no engine: no posts, nothing a thread page has.
const blank = `<!DOCTYPE html><html><head><title>Board</title></head><body><div id="content"><p>Welcome.</p></div></body></html>`

// RunPages reads p's pages with the dialect's extractor: every thread page gives
// posts in id order each with an id, an author and a time or the typed problem of what it lacks;
// a page cut in the middle is refused, by forum.CheckWhole (which every dialect's session runs
// on a page before its extractor: a whole captured page must pass it) or by the extractor (an
// error or posts with problems), never read as a shorter thread; a page that is not a thread is
// a typed error (Typed); the dialect's PageThread finds the thread id each thread page is of
// (Pages.ThreadIDs), required of every dialect that opens a forum; and the dialect's Forum
// builds for each post the permalink the page gives it (forum.Linker), unless Pages says why not.
func RunPages(t *testing.T, p Pages) {
	t.Helper()
	x := p.Dialect.Extract
	if x == nil {
		t.Fatalf("forumtest: dialect %q reads no pages", p.Dialect.Name)
	}
	if len(p.Threads) == 0 {
		t.Fatalf("forumtest: no thread pages of %s", p.Dialect.Name)
	}
	if p.Dialect.PageThread == nil && p.Dialect.Open != nil {
		t.Errorf("forumtest: dialect %q opens forums but has no PageThread: its pages cannot be checked to be the thread's", p.Dialect.Name)
	}
	checkMerge(t, p)
	for _, path := range p.Threads {
		t.Run(filepath.Base(path), func(t *testing.T) {
			page := readFile(t, path)
			checkPageThread(t, p, filepath.Base(path), page)
			posts, err := x(page, p.ContentType, p.Config)
			if err != nil {
				t.Fatalf("whole page: %v", err)
			}
			if len(posts) == 0 {
				t.Fatal("whole page: no posts")
			}
			checkPosts(t, posts)
			checkLinks(t, p, filepath.Base(path), posts)
			if p.ContentType == "" {
				if err := forum.CheckWhole(htmlPage(page)); err != nil {
					t.Errorf("the whole page is refused as cut short (the session would never read it): %v", err)
				}
			}
			cut := page[:len(page)/2]
			if p.ContentType == "" && errors.Is(forum.CheckWhole(htmlPage(cut)), forum.ErrTruncated) {
				return // refused before the extractor, as every dialect's session does
			}
			short, err := x(cut, p.ContentType, p.Config)
			if err != nil {
				return
			}
			for _, q := range short {
				if len(q.Problems) > 0 {
					return
				}
			}
			if len(short) < len(posts) || short[len(short)-1].Text != posts[len(short)-1].Text {
				t.Errorf("the page cut at %d of %d bytes read as %d posts (of %d) with no error and no problem", len(cut), len(page), len(short), len(posts))
			}
		})
	}
	nots := map[string][]byte{"blank page": []byte(blank)}
	if p.ContentType != "" {
		nots = map[string][]byte{}
	}
	for _, path := range p.NotThreads {
		nots[filepath.Base(path)] = readFile(t, path)
	}
	for name, page := range nots {
		t.Run("not a thread: "+name, func(t *testing.T) {
			posts, err := x(page, p.ContentType, p.Config)
			switch {
			case err == nil:
				t.Errorf("%d posts and no error", len(posts))
			case !Typed(err):
				t.Errorf("%v, want a typed error (%v)", err, typedErrors)
			}
		})
	}
}

// checkMerge checks the dialect's answer to the engine's auto-merge: a merged post is read as
// its parts, in order, each holding its own text, the post's Text still the whole; one that
// merges none reports no parts on any page.
func checkMerge(t *testing.T, p Pages) {
	t.Helper()
	m := p.Merge
	switch {
	case m.None == "" && m.Page == "":
		t.Errorf("forumtest: Pages.Merge does not say how %s's engine merges a member's consecutive posts (a page of a merged post, or None with why)", p.Dialect.Name)
	case m.None != "" && m.Page != "":
		t.Errorf("forumtest: Pages.Merge gives both a page and None (%q)", m.None)
	case m.None != "":
		t.Run("merged posts: none", func(t *testing.T) {
			t.Logf("%s: %s", p.Dialect.Name, m.None)
			for _, path := range p.Threads {
				posts, err := p.Dialect.Extract(readFile(t, path), p.ContentType, p.Config)
				if err != nil {
					continue // RunPages reports it
				}
				for _, q := range posts {
					if len(q.Parts) > 0 {
						t.Errorf("%s: post %s read as %d merged parts by a dialect whose engine merges none (%s)", filepath.Base(path), q.ID, len(q.Parts), m.None)
					}
				}
			}
		})
	default:
		t.Run("merged posts: "+filepath.Base(m.Page), func(t *testing.T) {
			if len(m.Parts) < 2 {
				t.Fatalf("forumtest: Pages.Merge names %d parts, want two or more", len(m.Parts))
			}
			posts, err := p.Dialect.Extract(readFile(t, m.Page), p.ContentType, p.Config)
			if err != nil {
				t.Fatalf("the page of the merged post: %v", err)
			}
			merged, ok := find(posts, m.PostID)
			if !ok {
				t.Fatalf("no post %s: %s", m.PostID, ids(posts))
			}
			if len(merged.Parts) != len(m.Parts) {
				t.Fatalf("post %s: %d parts, want %d (%q)", m.PostID, len(merged.Parts), len(m.Parts), m.Parts)
			}
			for i, want := range m.Parts {
				got := merged.Parts[i]
				if !strings.Contains(got.Text, want) {
					t.Errorf("part %d: %q, want it to hold %q", i+1, got.Text, want)
				}
				for j, other := range m.Parts {
					if j != i && !strings.Contains(want, other) && strings.Contains(got.Text, other) {
						t.Errorf("part %d holds part %d's %q: %q", i+1, j+1, other, got.Text)
					}
				}
				if !strings.Contains(merged.Text, want) {
					t.Errorf("the whole post's Text lacks part %d's %q", i+1, want)
				}
				if got.ID != "" || got.Author != "" {
					t.Errorf("part %d carries post fields (id %q, author %q): only its own text, quotes, code and spoilers", i+1, got.ID, got.Author)
				}
			}
			for _, q := range posts {
				if q.ID != m.PostID && len(q.Parts) > 0 {
					t.Errorf("post %s, not merged, read as %d parts", q.ID, len(q.Parts))
				}
			}
		})
	}
}

// checkPageThread checks that the dialect finds on page the thread id p.ThreadIDs gives it.
func checkPageThread(t *testing.T, p Pages, name string, page []byte) {
	t.Helper()
	if p.Dialect.PageThread == nil {
		t.Logf("dialect %s reads saved pages only and does not tell a page's thread", p.Dialect.Name)
		return
	}
	want, listed := p.ThreadIDs[name]
	got, ok := p.Dialect.PageThread(page, p.ContentType, p.Config)
	switch {
	case !listed:
		t.Errorf("forumtest: Pages.ThreadIDs does not say which thread %s is of (PageThread finds %q)", name, got)
	case ok != (got != ""):
		t.Errorf("PageThread: %q, ok %v", got, ok)
	case got != want && want == "":
		t.Errorf("the page's own thread id: PageThread finds %q, listed as showing none", got)
	case got != want:
		t.Errorf("the page's own thread id: PageThread finds %q, want %q", got, want)
	}
}

// htmlPage is page as a session fetched it: a 200 HTML answer.
func htmlPage(page []byte) *forum.Page {
	return &forum.Page{URL: &url.URL{Scheme: "file", Path: "saved-page.html"}, Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}}, Body: page}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
