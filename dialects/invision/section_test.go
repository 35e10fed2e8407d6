package invision

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The topic list of forumTable / topicRow (Invision Community 4.7.19, see testdata/README.md):
// pinned topics first, an unread topic, a moved topic's row (no data-rowid: skipped), a guest
// last poster (a bare name), a short-written count ("1.2k": no exact count), a three-digit one.
func TestReadSection(t *testing.T) {
	heads, err := sectionBytes(readTestdata(t, "forum-12.html"), "text/html; charset=utf-8")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	want := []forum.ThreadHead{
		{ID: "101", Title: "Правила игр", Replies: 0, LastAt: at("2025-11-24T10:00:00Z"), LastPoster: "admin", Sticky: true},
		{ID: "102", Title: "Как играть: ходы и приказы", Replies: 2, LastAt: at("2025-11-28T18:30:00Z"), LastPoster: "Вася", Sticky: true},
		{ID: "34923", Title: "Крестовый поход — партия 1", Replies: 13, LastAt: at("2025-11-30T11:40:00Z"), LastPoster: "snovaya"},
		{ID: "34800", Title: "Футбол — сезон 2", Replies: -1, LastAt: at("2025-11-29T22:10:00Z"), LastPoster: "Гость"},
		{ID: "34700", Title: "Мафия", Replies: 999, LastAt: at("2025-11-27T08:05:00Z"), LastPoster: "Петя"},
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
	if heads, err := sectionBytes(readTestdata(t, "forum-empty.html"), ""); err != nil || len(heads) != 0 {
		t.Errorf("empty forum: %v, %v", heads, err)
	}
	for _, name := range []string{"topic-breadcrumb.html", "processwire-post-34996.content.html"} {
		if _, err := sectionBytes(readTestdata(t, name), ""); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s as a topic list: %v", name, err)
		}
	}
}

// The row's pieces one by one: the id from the title link when data-rowid is no number, the
// first stat when none is typed, the fa-thumbtack of later icon sets, a row of no topic.
func TestReadSectionRow(t *testing.T) {
	list := func(rows string) string { return `<ol class="ipsDataList cForumTopicTable">` + rows + `</ol>` }
	for _, c := range []struct {
		name, page string
		want       forum.ThreadHead
	}{
		{"id from the link", list(`<li class="ipsDataItem" data-rowid="x"><h4 class="ipsDataItem_title"><span class="ipsType_break"><a href="/index.php?/topic/77-igra/">Игра</a></span></h4><ul class="ipsDataItem_stats"><li><span class="ipsDataItem_stats_number">1 204</span></li></ul></li>`),
			forum.ThreadHead{ID: "77", Title: "Игра", Replies: 1204}},
		{"thumbtack, no last poster", list(`<li class="ipsDataItem" data-rowid="8"><h4 class="ipsDataItem_title"><span><span class="ipsBadge ipsBadge_icon"><i class="fa fa-thumbtack"></i></span></span><span class="ipsType_break"><a href="/topic/8-a/">A</a></span></h4><ul class="ipsDataItem_lastPoster"><li><time datetime="2026-11-30T10:00:00Z">x</time></li></ul></li>`),
			forum.ThreadHead{ID: "8", Title: "A", Replies: -1, Sticky: true, LastAt: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}},
	} {
		heads, err := sectionBytes([]byte(c.page), "")
		if err != nil || len(heads) != 1 {
			t.Errorf("%s: %+v, %v", c.name, heads, err)
			continue
		}
		if !heads[0].LastAt.Equal(c.want.LastAt) {
			t.Errorf("%s: at %v, want %v", c.name, heads[0].LastAt, c.want.LastAt)
		}
		heads[0].LastAt, c.want.LastAt = time.Time{}, time.Time{}
		if heads[0] != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, heads[0], c.want)
		}
	}
	if _, err := sectionBytes([]byte(list(`<li class="ipsDataItem" data-rowid="?"><a href="/x">?</a></li>`)), ""); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("a list without a readable topic: %v", err)
	}
}

// SectionOf reads the innermost forum of the breadcrumb, skipping the topic's own crumb and the
// home link (the board may itself live under /forum/).
func TestSectionOf(t *testing.T) {
	for _, c := range []struct {
		name, page, want string
	}{
		{"topic page", string(readTestdata(t, "topic-breadcrumb.html")), "12"},
		{"forum page", string(readTestdata(t, "forum-12.html")), "12"},
		{"no friendly URLs", `<nav class="ipsBreadcrumb"><ul data-role="breadcrumbList"><li><a href="/index.php">Home</a></li><li><a href="/index.php?/forum/7-games/">G</a></li><li><a href="/index.php?/topic/5-x/">X</a></li></ul></nav>`, "7"},
		{"no crumbs", `<html><body><p>x</p></body></html>`, ""},
		{"home only", `<nav class="ipsBreadcrumb"><ul data-role="breadcrumbList"><li><a href="https://board.example/forum/">Home</a></li></ul></nav>`, ""},
	} {
		doc, err := scrape.Parse([]byte(c.page), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := sectionOf(doc); got != c.want {
			t.Errorf("%s: SectionOf = %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzSection: mangled topic lists never panic, and every head has an id.
func FuzzSection(f *testing.F) {
	page := string(readTestdata(f, "forum-12.html"))
	f.Add([]byte(page[strings.Index(page, `<ol class='ipsClear`):]))
	f.Add([]byte(`<ol class="cForumTopicTable"><li class="ipsDataItem" data-rowid="1"><h4 class="ipsDataItem_title"><span class="ipsType_break"><a href="/topic/1-a/">a</a></span></h4></li></ol>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, "text/html; charset=utf-8")
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
