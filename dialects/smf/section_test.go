package smf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

func sectionPage(t testing.TB, name string) []byte {
	if filepath.Dir(name) == "." {
		return fixture.Read(t, "smf", name)
	}
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

// sectionCases: the captured board page as a guest sees it (the last post linked as
// topic=T.S#msgM), and a member's pages written from SMF 2.1's and 2.0's MessageIndex
// (topic=T.msgM#new, topic=T.0#new for a topic without replies, a sticky locked topic, a
// moved-topic notice in 2.1, a guest's post); see testdata/sections/README.md.
var sectionCases = []struct {
	page  string
	heads []forum.ThreadHead
}{
	{"16-messageindex-board2.guest.html", []forum.ThreadHead{
		{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "17", Replies: 15, LastAt: at("2026-11-30 03:47"), LastPoster: "gm-bot"},
	}},
	{"sections/messageindex-board2.member.html", []forum.ThreadHead{
		{ID: "4", Title: "Правила раздела", LastPostID: "1", Replies: 0, LastAt: at("2026-11-20 10:00"), LastPoster: "admin", Sticky: true},
		{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "17", Replies: 15, LastAt: at("2026-11-30 03:47"), LastPoster: "gm-bot"},
		{ID: "3", Title: "Крестовый поход — партия 2: набор игроков", LastPostID: "25", Replies: 2, LastAt: at("2026-11-29 23:05"), LastPoster: "Гость Вася"},
	}},
	{"sections/smf20-messageindex-board2.member.html", []forum.ThreadHead{
		{ID: "4", Title: "Правила раздела", LastPostID: "1", Replies: 0, LastAt: at("2026-11-20 10:00"), LastPoster: "admin", Sticky: true},
		{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "17", Replies: 15, LastAt: at("2026-11-30 03:47").Add(41 * time.Second), LastPoster: "gm-bot"},
		{ID: "3", Title: "Крестовый поход — партия 2: набор игроков", LastPostID: "25", Replies: 2, LastAt: at("2026-11-29 23:05"), LastPoster: "Гость Вася"},
	}},
}

func TestSection(t *testing.T) {
	opt := options{Location: time.UTC, Now: captureNow}
	for _, c := range sectionCases {
		t.Run(c.page, func(t *testing.T) {
			heads, err := sectionBytes(sectionPage(t, c.page), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(heads, c.heads) {
				t.Errorf("heads\n%+v\nwant\n%+v", heads, c.heads)
			}
		})
	}
	for _, name := range []string{"12-thread-p1.gm-bot.html", "18-boardindex.guest.html", "03-login-error.guest.html"} {
		if heads, err := sectionBytes(sectionPage(t, name), opt); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s as a topic list: %v, %v", name, heads, err)
		}
	}
}

// SectionOf reads the innermost board of a topic page's linktree: SMF 2.1 (captured) and SMF 2.0
// with pretty URLs (a real board).
func TestSectionOf(t *testing.T) {
	real, err := os.ReadFile(filepath.Join(fixture.Root(t), "testdata", "realboards", "smf", "smf20rc3-core-contribs.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		page []byte
		want string
	}{
		{"12-thread-p1.gm-bot.html", sectionPage(t, "12-thread-p1.gm-bot.html"), "2"},
		{"15-post-permalink-msg12.guest.html", sectionPage(t, "15-post-permalink-msg12.guest.html"), "2"},
		{"smf20rc3-core-contribs.html", real, "9"},
		{"18-boardindex.guest.html", sectionPage(t, "18-boardindex.guest.html"), ""},
	} {
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(c.page))
		if err != nil {
			t.Fatal(err)
		}
		if got := sectionOf(doc); got != c.want {
			t.Errorf("%s: SectionOf = %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzSection feeds mangled topic lists to Section: it must never panic, and every head it gives
// has an id.
func FuzzSection(f *testing.F) {
	for _, c := range sectionCases {
		f.Add(sectionPage(f, c.page))
	}
	f.Add([]byte(`<div id="topic_container"><div class="windowbg sticky"><div class="message_index_title"><span id="msg_3"><a href="index.php?topic=3.0">t</a></span></div><div class="board_stats"><p>Replies: 0<br>Views: 1</p></div><div class="lastpost"><p><a href="index.php?topic=3.0#new">Today at 01:02 AM</a><br>by x</p></div></div></div>`))
	opt := options{Location: time.UTC, Now: captureNow}
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, opt)
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
