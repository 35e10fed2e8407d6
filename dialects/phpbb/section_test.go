package phpbb

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

func TestReadSection(t *testing.T) {
	heads, err := sectionBytes(readPage(t, "viewforum-f2.html"), "text/html; charset=UTF-8")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	want := []forum.ThreadHead{
		{ID: "1", Title: "Правила форума", LastPostID: "1", Replies: 0, LastAt: at("2026-11-20T10:00:00Z"), LastPoster: "admin", Sticky: true},
		{ID: "3", Title: "Как играть: правила партий", LastPostID: "21", Replies: 2, LastAt: at("2026-11-28T18:30:00Z"), LastPoster: "Вася", Sticky: true},
		{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "15", Replies: 13, LastAt: at("2026-11-30T11:40:00Z"), LastPoster: "snovaya"},
		{ID: "4", Title: "Футбол — сезон 2", LastPostID: "3410", Replies: 1204, LastAt: at("2026-11-29T22:10:00Z"), LastPoster: "Джелу"},
	}
	if len(heads) != len(want) {
		t.Fatalf("heads %+v", heads)
	}
	for i := range want {
		if !heads[i].LastAt.Equal(want[i].LastAt) {
			t.Errorf("head %d at %v, want %v", i, heads[i].LastAt, want[i].LastAt)
		}
		heads[i].LastAt, want[i].LastAt = time.Time{}, time.Time{}
	}
	if !reflect.DeepEqual(heads, want) {
		t.Errorf("heads\n%+v\nwant\n%+v", heads, want)
	}
	for _, name := range []string{"viewtopic-t2-page1.html", "login-form.html"} {
		if _, err := sectionBytes(readPage(t, name), ""); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s as a topic list: %v", name, err)
		}
	}
}

// SectionOf and totalPosts on the written 3.3 pages and the real boards (3.0 navlinks; a style
// with only the "Return to" link and div.paging; subsilver2's "[ 7 posts ]"; 3.2 crumbs).
func TestSectionOfAndTotalPosts(t *testing.T) {
	real := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(fixture.Root(t), "testdata", "realboards", "phpbb", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name    string
		page    []byte
		section string
		total   int // 0: not checked
	}{
		{"viewtopic-t2-page1.html", readPage(t, "viewtopic-t2-page1.html"), "2", 14},
		{"viewtopic-t2-page2.html", readPage(t, "viewtopic-t2-page2.html"), "2", 14},
		{"phpbb30-prosilver-ilovephilosophy.html", real("phpbb30-prosilver-ilovephilosophy.html"), "1", 247},
		{"phpbb30-raspite-raspberrypi.html", real("phpbb30-raspite-raspberrypi.html"), "35", 5},
		// A mirror that renamed the forum links (viewforum-11477.php): no forum to read.
		{"phpbb30-subsilver2-dildano-edited.html", real("phpbb30-subsilver2-dildano-edited.html"), "", 7},
		{"phpbb32-allanstyle-subsilver-dostips.html", real("phpbb32-allanstyle-subsilver-dostips.html"), "3", 18},
		{"ucp-pm-inbox.html", readPage(t, "ucp-pm-inbox.html"), "", 0},
	} {
		doc, err := scrape.Parse(c.page, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := sectionOf(doc); got != c.section {
			t.Errorf("%s: SectionOf = %q, want %q", c.name, got, c.section)
		}
		if got := totalPosts(doc); c.total != 0 && got != c.total {
			t.Errorf("%s: TotalPosts = %d, want %d", c.name, got, c.total)
		}
	}
}

// FuzzSection: mangled topic lists never panic, and every head has an id.
func FuzzSection(f *testing.F) {
	f.Add(fixture.PostsFragment(readPage(f, "viewforum-f2.html"), `<div id="page-body"`, `<li class="row`, 3))
	f.Add([]byte(`<h2 class="forum-title">f</h2><ul class="topiclist topics"><li class="row sticky"><a class="topictitle" href="./viewtopic.php?t=7">x</a><dd class="posts">1,2 <dfn>R</dfn></dd><dd class="lastpost"><span>by <span class="username">y</span><a href="./viewtopic.php?p=9#p9">></a><br /><time datetime="2026-11-30T11:40:00+00:00">t</time></span></dd></li></ul>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, "text/html; charset=UTF-8")
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
