package xenforo

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
	"forumgm/internal/fixture"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The thread list of forum_view / thread_list_macros (XenForo 2.0.2, see testdata/README.md):
// sticky group first, a prefixed unread thread (link to …/unread, a labelLink before it), a
// guest last poster (span.username), thousands in the replies, a redirect thread (no count, no
// latest post).
func TestReadSection(t *testing.T) {
	heads, err := sectionBytes(readTestdata(t, "forum-view-18.html"), "text/html; charset=utf-8")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	want := []forum.ThreadHead{
		{ID: "8101", Title: "Правила игр", Replies: 0, LastAt: at("2025-11-24T10:00:00Z"), LastPoster: "admin", Sticky: true},
		{ID: "8102", Title: "Как играть: ходы и приказы", Replies: 2, LastAt: at("2025-11-28T18:30:00Z"), LastPoster: "Вася", Sticky: true},
		{ID: "8276", Title: "Крестовый поход — партия 1", Replies: 13, LastAt: at("2025-11-30T11:40:00Z"), LastPoster: "snovaya"},
		{ID: "8270", Title: "Футбол — сезон 2", Replies: 1204, LastAt: at("2025-11-29T22:10:00Z"), LastPoster: "Гость"},
		{ID: "8200", Title: "Старые партии (перенесено)", Replies: -1},
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
	if heads, err := sectionBytes(readTestdata(t, "forum-view-empty.html"), ""); err != nil || len(heads) != 0 {
		t.Errorf("empty forum: %v, %v", heads, err)
	}
	real, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "xenforo2-default-xenforo-community.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sectionBytes(real, ""); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("a thread page as a thread list: %v", err)
	}
}

// The row's pieces one by one: the time from datetime alone (no data-time), the id from the
// row's js-threadListItem class when the link is unreadable, is-sticky on the row.
func TestReadSectionRow(t *testing.T) {
	row := func(class, link, cells string) string {
		return `<div class="structItemContainer"><div class="` + class + `" data-author="a"><div class="structItem-cell--main"><div class="structItem-title">` + link + `</div></div>` + cells + `</div></div>`
	}
	for _, c := range []struct {
		name string
		page string
		want forum.ThreadHead
	}{
		{"datetime only", row("structItem structItem--thread js-threadListItem-5", `<a href="/threads/x.5/">X</a>`,
			`<div class="structItem-cell structItem-cell--latest"><a><time class="structItem-latestDate u-dt" datetime="2026-11-30T10:00:00+0300">t</time></a><div class="structItem-minor"><a class="username">Б</a></div></div>`),
			forum.ThreadHead{ID: "5", Title: "X", Replies: -1, LastAt: time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC), LastPoster: "Б"}},
		{"id from the row class", row("structItem structItem--thread is-sticky js-threadListItem-77", `<a href="javascript:">Y</a>`,
			`<div class="structItem-cell structItem-cell--meta"><dl class="pairs pairs--justified"><dt>Ответы</dt><dd>3</dd></dl></div>`),
			forum.ThreadHead{ID: "77", Title: "Y", Replies: 3, Sticky: true}},
		{"number_short (2.1+)", row("structItem structItem--thread", `<a href="/threads/y.6/">Y</a>`,
			`<div class="structItem-cell structItem-cell--meta"><dl class="pairs pairs--justified"><dt>Replies</dt><dd>1.2K</dd></dl></div>`),
			forum.ThreadHead{ID: "6", Title: "Y", Replies: -1}},
		{"no friendly URLs", row("structItem structItem--thread", `<a href="/index.php?threads/igra.9/">Z</a>`, ``),
			forum.ThreadHead{ID: "9", Title: "Z", Replies: -1}},
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
	if _, err := sectionBytes([]byte(row("structItem structItem--thread", `<a>?</a>`, ``)), ""); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("a list without a readable thread: %v", err)
	}
}

// SectionOf reads the innermost forum of the breadcrumb: the real xenforo.com thread page
// (forums/xenforo-suggestions.18/ after a category link .#public-forums.17), none on a forum
// list page whose crumbs stop at the category, none on a page without crumbs. RageZone's
// route filter writes forums as community/<slug>.N/: its forum is the page's container node
// (node-440); pkodev.com's crumbs are forums/questions-help.7/.
func TestSectionOf(t *testing.T) {
	real, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "xenforo2-default-xenforo-community.html"))
	if err != nil {
		t.Fatal(err)
	}
	ragezone, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "xenforo23-ragezone-t539161.html"))
	if err != nil {
		t.Fatal(err)
	}
	pkodev, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "xenforo23-uix-pkodev-t161.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, page, want string
	}{
		{"real thread page", string(real), "18"},
		{"real 2.3 page, forums/ renamed community/", string(ragezone), "440"},
		{"real 2.3 UI.X page", string(pkodev), "7"},
		{"a forum's own page", `<html id="XF" data-container-key="node-7" data-content-key="forum-7"><body></body></html>`, ""},
		{"forum view", string(readTestdata(t, "forum-view-18.html")), ""},
		{"no friendly URLs", `<ul class="p-breadcrumbs"><li><a href="/index.php?forums/games.4/">G</a></li><li><a href="/index.php?forums/crusade.12/">C</a></li></ul>`, "12"},
		{"no crumbs", `<html id="XF"><body><p>x</p></body></html>`, ""},
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

// FuzzSection: mangled thread lists never panic, and every head has an id.
func FuzzSection(f *testing.F) {
	page := string(readTestdata(f, "forum-view-18.html"))
	f.Add([]byte(page[strings.Index(page, `<div class="structItemContainer">`):]))
	f.Add([]byte(`<div class="structItem structItem--thread js-threadListItem-1"><div class="structItem-title"><a href="threads/a.1/">a</a></div></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, "text/html; charset=utf-8")
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
