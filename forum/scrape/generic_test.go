package scrape_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"forumgm/dialects"
	"forumgm/dialects/phpbb"
	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

// PunBBExtra configures the generic dialect for PunBB 1.4 (the captured fixtures); the same keys
// are shown as YAML in README.md.
var PunBBExtra = map[string]string{
	"post":            "div.post",
	"post_id":         ".posthead@id",
	"post_id_re":      `^p(\d+)$`,
	"permalink":       ".posthead a.permalink@href",
	"author":          ".posthead .post-byline a || .posthead .post-byline strong",
	"author_id":       ".posthead .post-byline a@href",
	"author_id_re":    `id=(\d+)`,
	"time":            ".posthead a.permalink",
	"time_layout":     "2006-01-02 15:04:05",
	"body":            ".post-entry .entry-content",
	"signature":       ".sig-content",
	"edited":          ".posthead .post-edit",
	"quote":           "div.quotebox",
	"quote_cite":      "cite",
	"quote_author_re": `^(.+?)\s+wrote:`,
	"code":            "div.codebox",
	"code_text":       "pre",
	"page_current":    "p.paging strong",
	"page_numbers":    "p.paging a, p.paging strong",
	"prev_page":       `link[rel="prev"]@href`,
	"required":        "#brd-main",
}

// PhpBBExtra configures the generic dialect for phpBB 3.3 prosilver.
var PhpBBExtra = map[string]string{
	"post":             "#page-body div.post.has-profile[id^=p]",
	"post_id":          "@id",
	"post_id_re":       `^p(\d+)$`,
	"permalink":        ".postbody h3 a[href*='p=']@href",
	"permalink_format": "viewtopic.php?p={id}#p{id}",
	"subject":          ".postbody h3 a",
	"author":           "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured || dl.postprofile dt span.username, dl.postprofile dt span.username-coloured || dl.postprofile dt strong",
	"author_id":        "dl.postprofile dt a.username, dl.postprofile dt a.username-coloured@href",
	"author_id_re":     `[?&](?:amp;)?u=(\d+)`,
	"time":             "p.author time@datetime || p.author time",
	"body":             "div.content",
	"remove":           "div.signature || div.notice || div.inline-attachment",
	"edited":           "div.notice:not(.post_deleted_msg)",
	"quote":            "blockquote",
	"quote_cite":       "cite",
	"quote_author_re":  `^(.+?)\s+(?:wrote|писал\(а\)|написал\(а\)|пишет)\s*:`,
	"quote_post_id":    "a[data-post-id]@data-post-id",
	"code":             "div.codebox",
	"code_text":        "pre code",
	"spoiler":          "div.spoiler, details",
	"spoiler_title":    "summary, div.spoiler-title",
	"page_current":     "div.pagination li.active span, div.pagination > strong",
	"page_numbers":     "div.pagination li a.button, div.pagination li.active span, div.pagination strong",
	"prev_page":        "div.pagination li.previous a[rel=prev]@href",
	"next_page":        "div.pagination li.next a[rel=next]@href",
	"required":         "#page-body",
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type rawPost struct {
	ID       int    `json:"id"`
	TopicID  int    `json:"topic_id"`
	Page     int    `json:"page"`
	Poster   string `json:"poster"`
	PosterID int    `json:"poster_id"`
	Posted   int64  `json:"posted"`
	Edited   *int64 `json:"edited"`
	Message  string `json:"message"`
}

// The generic dialect configured for PunBB reads the captured PunBB pages and finds exactly the
// posts the database holds: same ids, authors, author ids, times, edit flags.
func TestPunBBFixturesMatchDatabase(t *testing.T) {
	var raw struct {
		Posts []rawPost `json:"posts"`
	}
	fixture.Raw(t, "punbb", &raw)
	now := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC) // capture day; pages say "Today 03:45:21"
	cfg := forum.Config{BaseURL: "http://127.0.0.1:8083/", Location: time.UTC, Now: func() time.Time { return now }, Extra: PunBBExtra}
	x, err := dialects.Registry(dialects.Options{}).Extractor("generic")
	if err != nil {
		t.Fatal(err)
	}
	var got []forum.Post
	for _, name := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html"} {
		ps, err := x(fixture.Read(t, "punbb", name), "text/html; charset=utf-8", cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, ps...)
	}
	var want []rawPost
	for _, p := range raw.Posts {
		if p.TopicID == 2 {
			want = append(want, p)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d posts, database has %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != itoa(w.ID) || g.Author != w.Poster || g.AuthorID != itoa(w.PosterID) || !g.Time.Equal(time.Unix(w.Posted, 0)) || g.Edited != (w.Edited != nil) {
			t.Errorf("post %d: got %s %s/%s %v edited=%v; db %d %s/%d %v edited=%v", i, g.ID, g.Author, g.AuthorID, g.Time, g.Edited, w.ID, w.Poster, w.PosterID, time.Unix(w.Posted, 0).UTC(), w.Edited != nil)
		}
		if g.Permalink != "http://127.0.0.1:8083/viewtopic.php?pid="+g.ID+"#p"+g.ID {
			t.Errorf("permalink %s", g.Permalink)
		}
		// Every code block of the raw text is found verbatim.
		for _, c := range codeBlocks(w.Message) {
			if !contains(g.Code, c) {
				t.Errorf("post %s: code block %q not found in %q", g.ID, c, g.Code)
			}
		}
		if strings.Contains(w.Message, "[quote=") != (len(g.Quotes) > 0) {
			t.Errorf("post %s: quotes %+v for %q", g.ID, g.Quotes, w.Message)
		}
	}
	// The nested quote (pid 13 quotes pid 12, which quotes pid 11).
	q := got[11].Quotes
	if len(q) != 1 || q[0].Author != "gm-bot" || !strings.HasPrefix(q[0].Text, "Джелу wrote:\n\n2-й ход крестоносца в1 на Z9") {
		t.Errorf("nested quote %+v", q)
	}
	if got[2].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" {
		t.Errorf("move post text %q", got[2].Text)
	}
}

func codeBlocks(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "[code]")
		if i < 0 {
			return out
		}
		j := strings.Index(s[i:], "[/code]")
		if j < 0 {
			return out
		}
		out = append(out, strings.Trim(s[i+6:i+j], "\n"))
		s = s[i+j:]
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimRight(x, " \n") == strings.TrimRight(s, " \n") {
			return true
		}
	}
	return false
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Configured for phpBB, the generic dialect reads the phpBB test pages exactly as the phpbb
// dialect does.
func TestGenericConfiguredForPhpBB(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{BaseURL: "http://127.0.0.1:8081/", Location: time.UTC, Now: func() time.Time { return now }, Extra: PhpBBExtra}
	for _, name := range []string{"viewtopic-t2-page1.html", "viewtopic-t2-page2.html"} {
		page := read(t, filepath.Join("..", "..", "dialects", "phpbb", "testdata", "pages", name))
		want, err := phpbb.Extract(page, "", cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := scrape.ExtractPage(page, "", cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.MarshalIndent(got, "", " ")
			t.Errorf("%s: generic differs from phpbb:\n%s", name, gj)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	if _, err := scrape.TableFromExtra(map[string]string{}); err == nil {
		t.Error("empty config accepted")
	}
	bad := map[string]string{}
	for k, v := range PunBBExtra {
		bad[k] = v
	}
	bad["post_id_re"] = "("
	if _, err := scrape.TableFromExtra(bad); err == nil {
		t.Error("bad regexp accepted")
	}
}

func TestParseTime(t *testing.T) {
	msk, _ := time.LoadLocation("Europe/Moscow")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // 15:00 MSK
	for in, want := range map[string]time.Time{
		"Сегодня 12:34":             time.Date(2026, 11, 30, 12, 34, 0, 0, msk),
		"Сегодня, 12:34:56":         time.Date(2026, 11, 30, 12, 34, 56, 0, msk),
		"Вчера 23:59":               time.Date(2026, 11, 29, 23, 59, 0, 0, msk),
		"Today, 1:05 pm":            time.Date(2026, 11, 30, 13, 5, 0, 0, msk),
		"Yesterday at 07:00":        time.Date(2026, 11, 29, 7, 0, 0, 0, msk),
		"2026-11-28 14:00:00":       time.Date(2026, 11, 28, 14, 0, 0, 0, msk),
		"28.11.2026 14:00":          time.Date(2026, 11, 28, 14, 0, 0, 0, msk),
		"28 ноя 2026, 14:00":        time.Date(2026, 11, 28, 14, 0, 0, 0, msk),
		"Mon Nov 30, 2026 3:45 am":  time.Date(2026, 11, 30, 3, 45, 0, 0, msk),
		"5 минут назад":             time.Date(2026, 11, 30, 14, 55, 0, 0, msk),
		"2026-11-30T03:45:00+00:00": time.Date(2026, 11, 30, 3, 45, 0, 0, time.UTC),
	} {
		got, err := scrape.ParseTime(in, nil, msk, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if _, err := scrape.ParseTime("когда-то", nil, msk, now); err == nil {
		t.Error("nonsense parsed")
	}
}

func FuzzExtract(f *testing.F) {
	for _, n := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html", "25b-reply-error-flood.gm-bot.html"} {
		f.Add(firstPosts(fixture.Read(f, "punbb", n), 3))
	}
	cfg := forum.Config{BaseURL: "http://127.0.0.1:8083/", Extra: PunBBExtra, Now: func() time.Time { return time.Unix(0, 0) }}
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := scrape.ExtractPage(page, "", cfg)
		if err == nil && len(posts) == 0 {
			t.Fatal("no error and no posts")
		}
		if err != nil && !errors.Is(err, forum.ErrMarkupChanged) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

func BenchmarkExtract20Posts(b *testing.B) {
	page := read(b, filepath.Join("..", "..", "dialects", "phpbb", "testdata", "pages", "viewtopic-bench-20.html"))
	cfg := forum.Config{BaseURL: "http://127.0.0.1:8081/", Extra: PhpBBExtra, Now: func() time.Time { return time.Unix(0, 0) }}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		posts, err := scrape.ExtractPage(page, "", cfg)
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

// A board shows all its dates in one format: the page's dates settle whether "10-11-2012" is
// the day or the month first (a date no month-first layout reads, "30-09-2012", says day
// first); a page of ambiguous dates only keeps the table's order. A cite in a wording the table
// does not know names its author through the quote_author element.
func TestPageDateOrderAndQuoteAuthor(t *testing.T) {
	extra := map[string]string{
		"post": "li.post", "post_id": "@id", "post_id_re": `p(\d+)`, "author": ".name",
		"time": ".date", "time_layout": "01-02-2006, 03:04 PM || 02-01-2006, 03:04 PM", "body": ".text",
		"quote": "div.quote", "quote_cite": ".by", "quote_author_re": `Originally Posted by\s+(.+?)\s*$`,
		"quote_author": ".by strong", "quote_post_id": "a@href", "quote_post_id_re": `(?:p=|#post)(\d+)`,
	}
	post := func(id, date, body string) string {
		return `<li class="post" id="p` + id + `"><b class="name">ann</b><span class="date">` + date + `</span><div class="text">` + body + `</div></li>`
	}
	read := func(page string) []forum.Post {
		t.Helper()
		posts, err := scrape.ExtractPage([]byte("<ol>"+page+"</ol>"), "", forum.Config{Extra: extra})
		if err != nil {
			t.Fatal(err)
		}
		return posts
	}
	posts := read(post("1", "30-09-2012,&nbsp;01:13 PM", "Ход") + post("2", "10-11-2012, 03:12 PM",
		`<div class="quote"><div class="by">Gửi bởi <strong>bob</strong> <a href="../showthread.php#post1"></a></div>Ход</div>Ответ`))
	if !posts[0].Time.Equal(time.Date(2012, 9, 30, 13, 13, 0, 0, time.UTC)) || !posts[1].Time.Equal(time.Date(2012, 11, 10, 15, 12, 0, 0, time.UTC)) {
		t.Errorf("day-first page: %v, %v", posts[0].Time, posts[1].Time)
	}
	if q := posts[1].Quotes; len(q) != 1 || q[0].Author != "bob" || q[0].PostID != "1" || q[0].Text != "Ход" {
		t.Errorf("quote: %+v", q)
	}
	posts = read(post("3", "10-11-2012, 03:12 PM", `<div class="quote"><div class="by">Originally Posted by <strong>bob</strong> <a href="showthread.php?p=1#post1"></a></div>x</div>y`))
	if !posts[0].Time.Equal(time.Date(2012, 10, 11, 15, 12, 0, 0, time.UTC)) || posts[0].Quotes[0].Author != "bob" {
		t.Errorf("ambiguous page: %v %+v", posts[0].Time, posts[0].Quotes)
	}
}
