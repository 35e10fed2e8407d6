package forumtest

import (
	"net/url"
	"reflect"
	"testing"

	"forumgm/forum"
)

// testLinks: the Forum names the addresses people open (forum.Linker, which the players' game
// pages link the story with): for every post it read, the address it builds is the permalink
// the board's page gives that post; its thread's address is absolute. A fake board serving
// captured pages may keep their absolute links to the captured site: a permalink on another
// host than the board's is not compared here (RunPages compares the captured pages' own), only
// that the address built is absolute. A dialect whose forum cannot address
// a post declares LackLinks.
func testLinks(t *testing.T, h Harness, b *Board) {
	login(t, b)
	posts, _ := read(t, b, forum.Cursor{})
	l, ok := forum.As[forum.Linker](b.Forum)
	if why := h.Lacks[LackLinks]; why != "" {
		if ok {
			t.Errorf("the dialect declares it lacks post links (%s), but its Forum is a forum.Linker", why)
		}
		return
	}
	if !ok {
		t.Fatal("the Forum is no forum.Linker: the players' pages cannot link its posts (implement ThreadURL and PostURL, or declare LackLinks with the reason)")
	}
	if u, err := url.Parse(l.ThreadURL(b.Thread)); err != nil || !u.IsAbs() || u.Host == "" {
		t.Errorf("ThreadURL %q is not an absolute address (%v)", l.ThreadURL(b.Thread), err)
	}
	compared := 0
	for _, p := range posts {
		got := l.PostURL(b.Thread, p.ID)
		gu, err := url.Parse(got)
		if err != nil || !gu.IsAbs() || gu.Host == "" {
			t.Errorf("post %s: PostURL %q is not an absolute address (%v)", p.ID, got, err)
			continue
		}
		pu, err := url.Parse(p.Permalink)
		if p.Permalink == "" || err != nil || pu.Host != gu.Host {
			continue
		}
		compared++
		if !SameURL(got, p.Permalink) {
			t.Errorf("post %s: PostURL %q, the page links it as %q", p.ID, got, p.Permalink)
		}
	}
	t.Logf("%d of %d posts' permalinks compared", compared, len(posts))
	// The pages ask for addresses while the daemon reads (go test -race sees a shared map).
	if len(posts) > 0 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range 50 {
				_ = l.ThreadURL(b.Thread)
				_ = l.PostURL(b.Thread, posts[0].ID)
			}
		}()
		read(t, b, forum.Cursor{})
		<-done
	}
}

// SameURL reports whether a and b name the same address: the same scheme, host, path, fragment
// and query parameters (their order aside).
func SameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return ua.Scheme == ub.Scheme && ua.Host == ub.Host && ua.Path == ub.Path && ua.Fragment == ub.Fragment &&
		reflect.DeepEqual(ua.Query(), ub.Query())
}

// pageBase stands for the address of a captured page whose links are relative: its board's
// root is its folder.
const pageBase = "http://board.invalid/forum/page"

// checkLinks checks, on a captured thread page, that the dialect's Forum builds for each post the
// permalink the page itself gives it (forum.Linker): the Forum is opened on the board the
// permalink names (Dialect.Board), the thread given as the board's links name it.
func checkLinks(t *testing.T, p Pages, name string, posts []forum.Post) {
	if p.Dialect.Open == nil || p.LinksLack != "" {
		return
	}
	if why := p.NoLinks[name]; why != "" {
		t.Logf("post links not checked on this page: %s", why)
		return
	}
	opened := map[string]forum.Linker{}
	compared := 0
	for _, post := range posts {
		if post.Permalink == "" {
			continue
		}
		u, err := url.Parse(pageBase)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := url.Parse(post.Permalink)
		if err != nil {
			t.Errorf("post %s: permalink %q: %v", post.ID, post.Permalink, err)
			continue
		}
		abs := u.ResolveReference(ref).String()
		base, thread := p.Dialect.Board(abs)
		if id := p.ThreadIDs[name]; id != "" {
			thread = id
		}
		if p.LinkThread != nil {
			if id := p.LinkThread(abs); id != "" {
				thread = id
			}
		}
		l, ok := opened[base]
		if !ok {
			cfg := p.Config
			cfg.BaseURL = base
			f, err := p.Dialect.Open(cfg)
			if err != nil {
				t.Fatalf("open the board at %s: %v", base, err)
			}
			if l, ok = forum.As[forum.Linker](f); !ok {
				t.Fatal("the dialect's Forum is no forum.Linker: the players' pages cannot link its posts (implement ThreadURL and PostURL, or give Pages.LinksLack)")
			}
			opened[base] = l
		}
		compared++
		if got := l.PostURL(forum.Thread{ID: thread}, post.ID); !SameURL(got, abs) {
			t.Errorf("post %s: PostURL %q, the page links it as %q", post.ID, got, abs)
		}
	}
	if compared == 0 {
		t.Error("no post of the page has a permalink to check PostURL against")
	}
}
