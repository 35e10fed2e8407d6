package mybbru

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

func TestSection(t *testing.T) {
	cfg := testConfig(t)
	msk := cfg.Location
	heads, err := sectionBytes(readPage(t, "viewforum-id2.html"), "text/html; charset=windows-1251", cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []forum.ThreadHead{
		{ID: "1", Title: "Правила раздела", LastPostID: "1", Replies: 0, LastAt: time.Date(2026, 11, 20, 10, 0, 0, 0, msk), LastPoster: "admin", Sticky: true},
		{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "12", Replies: 11, LastAt: time.Date(2026, 11, 30, 14, 58, 3, 0, msk), LastPoster: "snovaya"},
		{ID: "4", Title: "Футбол — сезон 2", LastPostID: "3410", Replies: 1204, LastAt: time.Date(2026, 11, 29, 22, 10, 5, 0, msk), LastPoster: "Джелу"},
		{ID: "3", Title: "Крестовый поход — набор игроков", LastPostID: "9", Replies: 3, LastAt: time.Date(2026, 11, 28, 14, 0, 0, 0, msk), LastPoster: "Moderator"},
	}
	if len(heads) != len(want) {
		t.Fatalf("heads %+v", heads)
	}
	for i := range want {
		if !heads[i].LastAt.Equal(want[i].LastAt) {
			t.Errorf("head %d: last post at %v, want %v", i, heads[i].LastAt, want[i].LastAt)
		}
		heads[i].LastAt, want[i].LastAt = time.Time{}, time.Time{}
	}
	if !reflect.DeepEqual(heads, want) {
		t.Errorf("heads\n%+v\nwant\n%+v", heads, want)
	}
	// A topic page is no topic list.
	if _, err := sectionBytes(readPage(t, "viewtopic-id2-p1.html"), "", cfg); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("topic page as a list: %v", err)
	}
}

func TestSectionOf(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{"viewtopic-id2-p1.html", "2"}, {"viewtopic-id2-p2.html", "2"}, {"login-form.html", ""},
	} {
		doc, err := scrape.Parse(readPage(t, c.page), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := sectionOf(doc); got != c.want {
			t.Errorf("%s: %q, want %q", c.page, got, c.want)
		}
	}
}

// FuzzSection: mangled forum pages never panic, and every head has an id.
func FuzzSection(f *testing.F) {
	f.Add(readPage(f, "viewforum-id2.html"))
	f.Add([]byte(`<div id="pun-viewforum"><table><tbody class="hasicon"><tr class="altstyle isticky"><td class="tcl"><a href="viewtopic.php?id=7">т</a></td><td class="tc2">1 204</td><td class="tcr"><a href="viewtopic.php?id=7&p=3#p99">Вчера 01:02:03</a> <span class="byuser">от&#160;x</span></td></tr></tbody></table></div>`))
	cfg := testConfig(f)
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, "text/html; charset=windows-1251", cfg)
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
