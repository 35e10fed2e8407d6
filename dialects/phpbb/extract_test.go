package phpbb

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func testConfig() forum.Config {
	return forum.Config{BaseURL: "http://127.0.0.1:8081/", Location: time.UTC, Now: func() time.Time { return testNow }}
}

func readPage(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pages", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

func TestGolden(t *testing.T) {
	for _, name := range []string{"viewtopic-t2-page1.html", "viewtopic-t2-page2.html", "ucp-pm-view-21.html"} {
		t.Run(name, func(t *testing.T) {
			posts, err := Extract(readPage(t, name), "text/html; charset=UTF-8", testConfig())
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(name, ".html")+".json", posts)
		})
	}
}

func TestThreadDetails(t *testing.T) {
	posts, err := Extract(readPage(t, "viewtopic-t2-page1.html"), "", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 10 {
		t.Fatalf("%d posts, want 10", len(posts))
	}
	p := posts[3]
	if p.ID != "5" || p.Author != "gm-bot" || p.AuthorID != "3" || p.Permalink != "http://127.0.0.1:8081/viewtopic.php?p=5#p5" {
		t.Errorf("post 4 = %+v", p)
	}
	if len(p.Quotes) != 1 || p.Quotes[0] != (forum.Quote{Author: "snovaya", PostID: "4", Text: "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5"}) {
		t.Errorf("post 4 quotes = %+v", p.Quotes)
	}
	if !strings.HasPrefix(p.Text, "Ход принят.\n   A B C D") || len(p.Code) != 1 {
		t.Errorf("post 4 text %q code %q", p.Text, p.Code)
	}
	if !posts[4].Edited || posts[4].Text != "1-й ход крестоносца в1 на C4\nUPD: опечатка, было C5" {
		t.Errorf("edited post = %+v", posts[4])
	}
	if q := posts[5].Quotes; len(q) != 1 || q[0].Author != "gm-bot" || q[0].Text != "snovaya wrote:\n1-й ход сарацина н2 на G5\nХод принят." {
		t.Errorf("nested quote = %+v", q)
	}
	if strings.Contains(posts[2].Text, "Сарацины") || posts[2].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" {
		t.Errorf("signature post text = %q", posts[2].Text)
	}
	if q := posts[6].Quotes; len(q) != 1 || q[0].Author != "" || q[0].Text != "без имени" || posts[6].Text != "Цитата без автора выше.\n<b>не тег</b>" {
		t.Errorf("uncited quote post = %+v", posts[6])
	}
}

var datetimeAttr = regexp.MustCompile(` datetime="[^"]*"`)

// Without time[datetime] (phpBB 3.0/3.1, or a stripped theme) the shown text — "Today, 09:10" or
// "30 Nov 2026, 03:45" — gives the same instants against the injected clock.
func TestTextDatesMatchDatetime(t *testing.T) {
	for _, name := range []string{"viewtopic-t2-page1.html", "viewtopic-t2-page2.html"} {
		raw := readPage(t, name)
		want, err := Extract(raw, "", testConfig())
		if err != nil {
			t.Fatal(err)
		}
		got, err := Extract(datetimeAttr.ReplaceAll(raw, nil), "", testConfig())
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !got[i].Time.Equal(want[i].Time) {
				t.Errorf("%s post %s: text %v, datetime %v", name, want[i].ID, got[i].Time, want[i].Time)
			}
		}
	}
}

func TestPageInfo(t *testing.T) {
	o, _ := scrape.OptionsFromConfig(testConfig())
	for _, c := range []struct {
		name       string
		cur, last  int
		prev, next string
	}{
		{"viewtopic-t2-page1.html", 1, 2, "", "http://127.0.0.1:8081/viewtopic.php?start=10&t=2"},
		{"viewtopic-t2-page2.html", 2, 2, "http://127.0.0.1:8081/viewtopic.php?t=2", ""},
		{"viewtopic-bench-20.html", 1, 1, "", ""},
	} {
		doc, err := scrape.Parse(readPage(t, c.name), "")
		if err != nil {
			t.Fatal(err)
		}
		p, err := scrape.Extract(doc, threadTable, o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Current != c.cur || p.Last != c.last || p.Prev != c.prev || p.Next != c.next {
			t.Errorf("%s: page %d/%d prev %q next %q", c.name, p.Current, p.Last, p.Prev, p.Next)
		}
	}
}

func TestNotAThreadPage(t *testing.T) {
	for _, name := range []string{"login-form.html", "posting-reply-form.html", "message-no-permission.html"} {
		if _, err := Extract(readPage(t, name), "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: err = %v, want ErrMarkupChanged", name, err)
		}
	}
	// A theme that renames the profile costs the authors (each post says so), not the page.
	raw := bytes.ReplaceAll(readPage(t, "viewtopic-t2-page1.html"), []byte(`class="postprofile"`), []byte(`class="profile"`))
	raw = bytes.ReplaceAll(raw, []byte(`class="author"`), []byte(`class="byline"`))
	posts, err := Extract(raw, "", testConfig())
	if err != nil || len(posts) == 0 {
		t.Fatalf("renamed profile: %d posts, err = %v", len(posts), err)
	}
	for _, p := range posts {
		if p.Author != "" || len(p.Problems) == 0 || !strings.HasPrefix(p.Problems[0].String(), "author:") || p.Text == "" || p.ID == "" {
			t.Errorf("renamed profile: post %s author %q problems %q", p.ID, p.Author, p.Problems)
		}
	}
	// Without authors and bodies the page is not a thread page this dialect knows.
	raw = bytes.ReplaceAll(raw, []byte(`class="content"`), []byte(`class="text"`))
	if _, err := Extract(raw, "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("renamed profile and body: err = %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	for _, n := range []string{"viewtopic-t2-page1.html", "viewtopic-t2-page2.html", "ucp-pm-view-21.html"} {
		f.Add(firstPosts(readPage(f, n), 3))
	}
	f.Add([]byte(`<div id="page-body"><div id="p1" class="post has-profile"><dl class="postprofile"><dt><a class="username">x</a></dt></dl><p class="author"><time datetime="bad">Today, 25:61</time></p><div class="content"><blockquote><div><cite>a wrote:</cite><blockquote></div></div></div>`))
	cfg := testConfig()
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := Extract(page, "", cfg)
		if err == nil && len(posts) == 0 {
			t.Fatal("no error and no posts")
		}
		if err != nil && !errors.Is(err, forum.ErrMarkupChanged) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

func BenchmarkExtract20Posts(b *testing.B) {
	page := readPage(b, "viewtopic-bench-20.html")
	cfg := testConfig()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		posts, err := Extract(page, "text/html; charset=UTF-8", cfg)
		if err != nil || len(posts) != 20 {
			b.Fatal(err, len(posts))
		}
	}
}

// firstPosts cuts a page after its n-th post (small seeds keep the fuzzer fast; the parser closes
// what the cut leaves open).
func firstPosts(page []byte, n int) []byte {
	s := string(page)
	at := 0
	for i := 0; i <= n; i++ {
		j := strings.Index(s[at:], `class="post`)
		if j < 0 {
			return page
		}
		at += j + 1
	}
	return []byte(s[:at-1])
}
