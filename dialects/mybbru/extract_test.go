package mybbru

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func testConfig(t testing.TB) forum.Config {
	t.Helper()
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // 15:00 in Moscow
	return forum.Config{BaseURL: "http://forum.example.mybb.ru/", Location: msk, Now: func() time.Time { return now }}
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

func TestGoldenThreadPages(t *testing.T) {
	for _, name := range []string{"viewtopic-id2-p1.html", "viewtopic-id2-p2.html"} {
		t.Run(name, func(t *testing.T) {
			posts, err := extract(readPage(t, name), "text/html; charset=windows-1251", testConfig(t))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(name, ".html")+".json", posts)
		})
	}
}

// The pages are windows-1251; the charset comes from <meta> when the header says nothing.
func TestCharsetFromMeta(t *testing.T) {
	raw := readPage(t, "viewtopic-id2-p1.html")
	if bytes.Contains(raw, []byte("Сегодня")) {
		t.Fatal("test page is not windows-1251")
	}
	posts, err := extract(raw, "", testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if posts[2].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" {
		t.Errorf("post 3 text = %q", posts[2].Text)
	}
	// € and ♞ are not in windows-1251: the page carries them as &#NNNN; references.
	if !strings.Contains(posts[7].Text, "€ ♞") {
		t.Errorf("post 8 text = %q", posts[7].Text)
	}
}

func TestThreadDetails(t *testing.T) {
	posts, err := extract(readPage(t, "viewtopic-id2-p1.html"), "", testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 8 {
		t.Fatalf("%d posts, want 8", len(posts))
	}
	p := posts[3]
	if p.ID != "5" || p.Author != "gm-bot" || p.AuthorID != "3" || p.Permalink != "http://forum.example.mybb.ru/viewtopic.php?pid=5#p5" {
		t.Errorf("post 4 = %+v", p)
	}
	if len(p.Quotes) != 1 || p.Quotes[0].Author != "snovaya" || p.Quotes[0].PostID != "4" || p.Text != "Ход принят.\n\n   A B C D E F G H\n 1 . . . . . . . .\n 2 . К . . . . . .\n 5 . . . . . . С ." {
		t.Errorf("post 4 quotes/text = %+v %q", p.Quotes, p.Text)
	}
	if len(p.Code) != 1 || !strings.HasPrefix(p.Code[0], "   A B C") {
		t.Errorf("post 4 code = %q", p.Code)
	}
	if !posts[4].Edited || posts[4].Text != "1-й ход крестоносца в1 на C4\nUPD: опечатка, было C5" {
		t.Errorf("post 5 = %+v", posts[4])
	}
	if posts[3].Edited {
		t.Error("post 4 marked edited")
	}
	nested := posts[5].Quotes
	if len(nested) != 1 || nested[0].Author != "gm-bot" || !strings.Contains(nested[0].Text, "snovaya написал(а):\n\n1-й ход сарацина н2 на G5") {
		t.Errorf("nested quote = %+v", nested)
	}
	if sp := posts[6].Spoilers; len(sp) != 1 || sp[0].Title != "Расстановка" || sp[0].Text != "Мои фигуры стоят на G5 и F4." || posts[6].Text != "Спойлер выше — для своих." {
		t.Errorf("spoiler post = %+v", posts[6])
	}
	if strings.Contains(posts[2].Text, "Сарацины не сдаются") {
		t.Error("signature in the text")
	}
	// "Вчера 22:10:05" in Moscow.
	if want := time.Date(2026, 11, 29, 19, 10, 5, 0, time.UTC); !posts[4].Time.Equal(want) {
		t.Errorf("post 5 time = %v, want %v", posts[4].Time, want)
	}
}

var dataPosted = regexp.MustCompile(` data-posted="\d+"`)

// Without data-posted the date text ("Сегодня …", "Вчера …", "2026-11-28 …") must give the same
// instants, resolved against the injected clock in the forum's zone.
func TestRelativeDatesMatchTimestamps(t *testing.T) {
	cfg := testConfig(t)
	raw := readPage(t, "viewtopic-id2-p1.html")
	want, err := extract(raw, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	stripped := dataPosted.ReplaceAll(raw, nil)
	if bytes.Equal(stripped, raw) {
		t.Fatal("no data-posted in the page")
	}
	got, err := extract(stripped, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !got[i].Time.Equal(want[i].Time) {
			t.Errorf("post %s: text date %v, data-posted %v", want[i].ID, got[i].Time, want[i].Time)
		}
	}
}

func TestPageInfo(t *testing.T) {
	cfg := testConfig(t)
	o, _ := scrape.OptionsFromConfig(cfg)
	for _, c := range []struct {
		name       string
		cur, last  int
		prev, next string
	}{
		{"viewtopic-id2-p1.html", 1, 2, "", "http://forum.example.mybb.ru/viewtopic.php?id=2&p=2"},
		{"viewtopic-id2-p2.html", 2, 2, "http://forum.example.mybb.ru/viewtopic.php?id=2&p=1", ""},
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
	for _, name := range []string{"login-form.html", "post-reply-form.html", "message-no-permission.html"} {
		_, err := extract(readPage(t, name), "", testConfig(t))
		if !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: err = %v, want ErrMarkupChanged", name, err)
		}
	}
	// A theme change that renames the post body costs the bodies (each post says so).
	raw := bytes.ReplaceAll(readPage(t, "viewtopic-id2-p1.html"), []byte(`class="post-content"`), []byte(`class="message"`))
	posts, err := extract(raw, "", testConfig(t))
	if err != nil || len(posts) == 0 {
		t.Fatalf("renamed body: %d posts, err = %v", len(posts), err)
	}
	for _, p := range posts {
		if p.Author == "" || len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0].String(), "body:") {
			t.Errorf("renamed body: post %s author %q problems %q", p.ID, p.Author, p.Problems)
		}
	}
}

func TestRoundTripWindows1251(t *testing.T) {
	// A page written by the board in cp1251 (with &#NNNN; for what cp1251 lacks) reads back as
	// the UTF-8 text that was posted.
	text := "1-й ход сарацина н2 на G5 ♞ «ёЁ»"
	enc, err := forum.EncodeString(charmap.Windows1251, text)
	if err != nil {
		t.Fatal(err)
	}
	page := readPage(t, "viewtopic-id2-p2.html")
	orig, _ := charmap.Windows1251.NewEncoder().String("3-й ход сарацина н2 на F4")
	page = bytes.Replace(page, []byte(orig), []byte(enc), 1)
	posts, err := extract(page, "text/html; charset=windows-1251", testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := posts[2].Text; got != text {
		t.Errorf("round trip: %q, want %q", got, text)
	}
}

func FuzzExtract(f *testing.F) {
	for _, n := range []string{"viewtopic-id2-p1.html", "viewtopic-id2-p2.html", "post-error-flood.html"} {
		f.Add(firstPosts(readPage(f, n), 3))
	}
	f.Add([]byte(`<div id="pun-main"><div class="topic"><div class="post" id="p1" data-posted="x"><h3><span><a class="permalink">Вчера 99:99</a></span></h3></div></div></div>`))
	cfg := testConfig(f)
	f.Fuzz(func(t *testing.T, page []byte) {
		watchdog := time.AfterFunc(5*time.Second, func() {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			panic(fmt.Sprintf("Extract took over 5 s on %d bytes:\n%s", len(page), buf[:n]))
		})
		defer watchdog.Stop()
		posts, err := extract(page, "", cfg)
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
	cfg := testConfig(b)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		posts, err := extract(page, "text/html; charset=windows-1251", cfg)
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
