package punbb

import (
	"errors"
	"flag"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the captured pages")

// captureNow is when the pages were captured (manifest.tsv): "Today" on them is 2026-11-30.
var captureNow = time.Date(2026, 11, 30, 3, 48, 0, 0, time.UTC)

func testConfig() forum.Config {
	return forum.Config{Location: time.UTC, Now: func() time.Time { return captureNow }}
}

// extractPages are every captured page that shows posts.
var extractPages = []string{
	"10-thread-p1.guest.html",
	"11-thread-p2.guest.html",
	"12-thread-p1.gm-bot.html",
	"13-thread-p2.gm-bot.html",
	"15-post-permalink-pid12.guest.html",
}

func TestGolden(t *testing.T) {
	x := Dialect().Extract
	for _, name := range extractPages {
		t.Run(name, func(t *testing.T) {
			posts, err := x(fixture.Read(t, "punbb", name), "text/html; charset=utf-8", testConfig())
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) == 0 {
				t.Fatal("no posts")
			}
			fixture.Golden(t, strings.TrimSuffix(name, ".html")+".json", posts, *update)
		})
	}
}

type rawPost struct {
	ID       int    `json:"id"`
	Topic    int    `json:"topic_id"`
	PosterID int    `json:"poster_id"`
	Poster   string `json:"poster"`
	TimeUTC  string `json:"posted_utc"`
	Edited   *int64 `json:"edited"`
	Message  string `json:"message"`
}

func loadRaw(t *testing.T) []rawPost {
	var d struct {
		Posts []rawPost `json:"posts"`
	}
	fixture.Raw(t, "punbb", &d)
	return d.Posts
}

func threadPosts(t *testing.T) map[string]forum.Post {
	out := map[string]forum.Post{}
	for _, name := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html"} {
		posts, err := extract(fixture.Read(t, "punbb", name), "text/html; charset=utf-8", testConfig())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			out[p.ID] = p
		}
	}
	return out
}

func codeOf(raw string) string {
	i := strings.Index(raw, "[code]\n")
	j := strings.Index(raw, "\n[/code]")
	if i < 0 || j < 0 {
		return ""
	}
	return raw[i+len("[code]\n") : j]
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

func TestAgainstDatabase(t *testing.T) {
	posts := threadPosts(t)
	if len(posts) != 16 {
		t.Fatalf("%d posts in topic 2, want 16", len(posts))
	}
	for _, r := range loadRaw(t) {
		if r.Topic != 2 {
			continue
		}
		id := strconv.Itoa(r.ID)
		p, ok := posts[id]
		if !ok {
			t.Errorf("pid %d missing", r.ID)
			continue
		}
		if p.Author != r.Poster || p.AuthorID != strconv.Itoa(r.PosterID) {
			t.Errorf("pid %d author %q/%q, want %q/%d", r.ID, p.Author, p.AuthorID, r.Poster, r.PosterID)
		}
		want, _ := time.Parse(time.RFC3339, r.TimeUTC)
		if !p.Time.Equal(want) {
			t.Errorf("pid %d time %v, want %v", r.ID, p.Time, want)
		}
		if p.Edited != (r.Edited != nil) {
			t.Errorf("pid %d edited %v, database %v", r.ID, p.Edited, r.Edited)
		}
		if c := codeOf(r.Message); c != "" {
			if len(p.Code) != 1 || p.Code[0] != c {
				t.Errorf("pid %d code block not intact:\n got %q\nwant %q", r.ID, p.Code, c)
			}
			if !strings.Contains(p.Text, c) {
				t.Errorf("pid %d text lacks the verbatim code block", r.ID)
			}
		} else if len(p.Code) != 0 {
			t.Errorf("pid %d has code %q, database has none", r.ID, p.Code)
		}
		if strings.Contains(r.Message, "[quote") != (len(p.Quotes) > 0) {
			t.Errorf("pid %d quotes %v vs raw %q", r.ID, p.Quotes, r.Message)
		}
		if p.Permalink != "http://127.0.0.1:8083/viewtopic.php?pid="+id+"#p"+id {
			t.Errorf("pid %d permalink %q", r.ID, p.Permalink)
		}
		// Posts without markup come out exactly as typed.
		if !strings.ContainsAny(r.Message, "[:;") && p.Text != r.Message {
			t.Errorf("pid %d text %q, typed %q", r.ID, p.Text, r.Message)
		}
	}
	for id, line := range map[string]string{
		"4":  "1-й ход сарацина н2 на G5",
		"7":  "1-й ход крестоносца в1 на C4",
		"9":  "gl hf. 2-й ход сарацина н1 на D6",
		"11": "2-й ход крестоносца в1 на Z9",
		"14": "2-й ход крестоносца в2 на H4",
		"16": "3-й ход сарацина н2 на F4",
	} {
		if !hasLine(posts[id].Text, line) {
			t.Errorf("pid %s: no line %q in %q", id, line, posts[id].Text)
		}
	}
	p7 := posts["7"]
	if p7.Text != "1-й ход крестоносца в1 на C4\n\nUPD: опечатка, в1 идёт на C4, а не на C5." || !p7.Edited {
		t.Errorf("pid 7: %+v", p7)
	}
	p5 := posts["5"]
	if len(p5.Quotes) != 1 || p5.Quotes[0].Author != "snovaya" || p5.Quotes[0].PostID != "" ||
		p5.Quotes[0].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" || strings.Contains(p5.Text, "1-й ход сарацина") {
		t.Errorf("pid 5 quote: %+v / %q", p5.Quotes, p5.Text)
	}
	p13 := posts["13"]
	if len(p13.Quotes) != 1 || p13.Quotes[0].Author != "gm-bot" ||
		!strings.Contains(p13.Quotes[0].Text, "Джелу wrote:\n2-й ход крестоносца в1 на Z9") ||
		!strings.Contains(p13.Quotes[0].Text, "Ход отклонён: клетки Z9 нет на доске") ||
		p13.Text != "Джелу, проверяй координаты перед отправкой ;)" {
		t.Errorf("pid 13: %+v / %q", p13.Quotes, p13.Text)
	}
	if posts["3"].Text != "Играю за крестоносцев. Готов! Удачи, snovaya :)" {
		t.Errorf("pid 3 (smiley): %q", posts["3"].Text)
	}
	if !strings.Contains(posts["6"].Text, "\nФормат хода: «N-й ход <сторона> <фигура> на <клетка>».\n") {
		t.Errorf("pid 6: %q", posts["6"].Text)
	}
	if posts["16"].Text != "3-й ход сарацина н2 на F4\nплан: дальше давить на в2" {
		t.Errorf("pid 16: %q", posts["16"].Text)
	}
}

func TestPageInfo(t *testing.T) {
	for _, c := range []struct {
		file      string
		cur, last int
		prev      string
		user      string
	}{
		{"10-thread-p1.guest.html", 1, 2, "", ""},
		{"12-thread-p1.gm-bot.html", 1, 2, "", "gm-bot"},
		{"13-thread-p2.gm-bot.html", 2, 2, "http://127.0.0.1:8083/viewtopic.php?id=2", "gm-bot"},
		{"15-post-permalink-pid12.guest.html", 2, 2, "http://127.0.0.1:8083/viewtopic.php?id=2", ""},
	} {
		p, _, err := parseBytes(fixture.Read(t, "punbb", c.file), options{Now: captureNow})
		if err != nil {
			t.Fatal(err)
		}
		if p.TopicID != "2" || p.Current != c.cur || p.Last != c.last || p.PrevURL != c.prev || p.User != c.user ||
			p.LoggedIn != (c.user != "") || (c.user != "") != (p.CSRFToken != "") {
			t.Errorf("%s: %+v", c.file, p)
		}
	}
}

func TestMarkupChanged(t *testing.T) {
	for _, name := range []string{"16-viewforum-fid2.guest.html", "18-index.guest.html", "20-reply-form.gm-bot.html", "54-html-topic-posts.html"} {
		if _, err := extract(fixture.Read(t, "punbb", name), "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v", name, err)
		}
	}
	page := string(fixture.Read(t, "punbb", "11-thread-p2.guest.html"))
	for what, broken := range map[string]string{
		"no posts": strings.ReplaceAll(page, `class="post `, `class="entry `),
		"nothing readable": strings.NewReplacer(`class="post-byline"`, `class="by"`, `class="username"`, `class="name"`,
			`class="post-entry"`, `class="entry"`, `class="entry-content"`, `class="content"`).Replace(page),
		"no ids": strings.NewReplacer(`id="p`, `id="x`, `pid=`, `post=`).Replace(page),
	} {
		if _, err := extract([]byte(broken), "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// TestFallbacks breaks one role at a time on a captured page: each is read from its fallback
// (the same posts as from the intact page), or, when none is left, costs that part of each post
// (its Problems) and not the page.
func TestFallbacks(t *testing.T) {
	for _, name := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html"} {
		t.Run(name, func(t *testing.T) { fallbacks(t, string(fixture.Read(t, "punbb", name))) })
	}
}

func fallbacks(t *testing.T, page string) {
	intact, err := extract([]byte(page), "", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	for what, broken := range map[string]string{
		"post head renamed (id from the div, date from a.permalink)": strings.ReplaceAll(page, `class="posthead"`, `class="post-head"`),
		"byline renamed (author from the author box)":                strings.ReplaceAll(page, `class="post-byline"`, `class="by"`),
		"body renamed (body from div.post-entry)":                    strings.ReplaceAll(page, `class="entry-content"`, `class="content"`),
		"head ids gone (id from the permalink)":                      regexp.MustCompile(`<div id="p\d+" class="posthead">`).ReplaceAllString(page, `<div class="posthead">`),
	} {
		got, err := extract([]byte(broken), "", testConfig())
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if !reflect.DeepEqual(got, intact) {
			t.Errorf("%s: posts differ from the intact page's:\n%+v", what, got)
		}
	}
	got, err := extract([]byte(strings.ReplaceAll(page, `>Today 03:4`, `>someday`)), "", testConfig())
	if err != nil || len(got) != len(intact) {
		t.Fatalf("date unreadable: %d posts, %v", len(got), err)
	}
	for i, p := range got {
		if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0].String(), "time: ") || !p.Time.IsZero() {
			t.Errorf("date unreadable: post %s problems %q time %v", p.ID, p.Problems, p.Time)
		}
		p.Problems, p.Time = nil, intact[i].Time
		if !reflect.DeepEqual(p, intact[i]) {
			t.Errorf("date unreadable: post %s differs beyond its date: %+v", p.ID, p)
		}
	}
}

func TestParseTime(t *testing.T) {
	loc := time.FixedZone("MSK", 3*3600)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, loc)
	for in, want := range map[string]time.Time{
		"Today 03:45:57":      time.Date(2026, 11, 30, 3, 45, 57, 0, loc),
		"Yesterday 23:59:01":  time.Date(2026, 11, 29, 23, 59, 1, 0, loc),
		"Сегодня 12:34":       time.Date(2026, 11, 30, 12, 34, 0, 0, loc),
		"Вчера 00:05:00":      time.Date(2026, 11, 29, 0, 5, 0, 0, loc),
		"2026-11-28 03:45:57": time.Date(2026, 11, 28, 3, 45, 57, 0, loc),
		"28.11.2026 03:45":    time.Date(2026, 11, 28, 3, 45, 0, 0, loc),
		"Nov 28 2026 03:45":   time.Date(2026, 11, 28, 3, 45, 0, 0, loc),
		"10 минут назад":      time.Date(2026, 11, 30, 11, 50, 0, 0, loc),
		"1 minute ago":        time.Date(2026, 11, 30, 11, 59, 0, 0, loc),
	} {
		got, err := parseTime(in, loc, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
}
