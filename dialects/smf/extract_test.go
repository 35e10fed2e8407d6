package smf

import (
	"errors"
	"flag"
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

// extractPages are every captured page that shows posts or private messages.
var extractPages = []string{
	"10-thread-p1.guest.html",
	"11-thread-p2.guest.html",
	"12-thread-p1.gm-bot.html",
	"13-thread-p2.gm-bot.html",
	"14-thread-new.guest.html",
	"14b-thread-new.gm-bot.html",
	"15-post-permalink-msg12.guest.html",
	"15b-thread-msg-beyond-last.guest.html",
	"22b-reply-redirect-target.gm-bot.html",
	"33-pm-inbox.dzhelu.html",
	"34-pm-read.dzhelu.html",
	"35-pm-sent.gm-bot.html",
	"36-pm-inbox-after-read.dzhelu.html",
}

func TestGolden(t *testing.T) {
	x := Dialect().Extract
	for _, name := range extractPages {
		t.Run(name, func(t *testing.T) {
			posts, err := x(fixture.Read(t, "smf", name), "text/html; charset=UTF-8", testConfig())
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
	ID       int    `json:"id_msg"`
	Topic    int    `json:"id_topic"`
	Member   int    `json:"id_member"`
	Poster   string `json:"poster_name"`
	TimeUTC  string `json:"poster_time_utc"`
	Modified int64  `json:"modified_time"`
	Subject  string `json:"subject"`
	BodyText string `json:"body_text"`
	Page     int    `json:"page"`
}

type rawDump struct {
	Posts []rawPost `json:"posts"`
	PMs   []struct {
		ID       int    `json:"id_pm"`
		From     string `json:"from_name"`
		FromID   int    `json:"id_member_from"`
		TimeUTC  string `json:"msgtime_utc"`
		Subject  string `json:"subject"`
		BodyText string `json:"body_text"`
	} `json:"personal_messages"`
}

func loadRaw(t *testing.T) rawDump {
	var d rawDump
	fixture.Raw(t, "smf", &d)
	return d
}

func threadPosts(t *testing.T) map[string]forum.Post {
	out := map[string]forum.Post{}
	for _, name := range []string{"10-thread-p1.guest.html", "11-thread-p2.guest.html"} {
		posts, err := extract(fixture.Read(t, "smf", name), "text/html; charset=UTF-8", testConfig())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			out[p.ID] = p
		}
	}
	return out
}

// codeOf is the [code] block of a raw body, as typed.
func codeOf(raw string) string {
	i := strings.Index(raw, "[code]\n")
	j := strings.Index(raw, "\n[/code]")
	if i < 0 || j < 0 {
		return ""
	}
	return raw[i+len("[code]\n") : j]
}

func TestAgainstDatabase(t *testing.T) {
	raw := loadRaw(t)
	posts := threadPosts(t)
	if len(posts) != 16 {
		t.Fatalf("%d posts in topic 2, want 16", len(posts))
	}
	for _, r := range raw.Posts {
		if r.Topic != 2 {
			continue
		}
		id := itoa(r.ID)
		p, ok := posts[id]
		if !ok {
			t.Errorf("msg %d missing", r.ID)
			continue
		}
		if p.Author != r.Poster || p.AuthorID != itoa(r.Member) {
			t.Errorf("msg %d author %q/%q, want %q/%d", r.ID, p.Author, p.AuthorID, r.Poster, r.Member)
		}
		// The page shows minutes only; the database has seconds.
		want, _ := time.Parse(time.RFC3339, r.TimeUTC)
		if !p.Time.Equal(want.Truncate(time.Minute)) {
			t.Errorf("msg %d time %v, want %v", r.ID, p.Time, want.Truncate(time.Minute))
		}
		if p.Edited != (r.Modified != 0) {
			t.Errorf("msg %d edited %v, database modified_time %d", r.ID, p.Edited, r.Modified)
		}
		if c := codeOf(r.BodyText); c != "" {
			if len(p.Code) != 1 || p.Code[0] != c {
				t.Errorf("msg %d code block not intact:\n got %q\nwant %q", r.ID, p.Code, c)
			}
			if !strings.Contains(p.Text, c) {
				t.Errorf("msg %d text lacks the verbatim code block", r.ID)
			}
		} else if len(p.Code) != 0 {
			t.Errorf("msg %d has code %q, database has none", r.ID, p.Code)
		}
		if strings.Contains(r.BodyText, "[quote") != (len(p.Quotes) > 0) {
			t.Errorf("msg %d quotes %v vs raw %q", r.ID, p.Quotes, r.BodyText)
		}
		if p.Permalink != "http://127.0.0.1:8082/index.php?topic=2.msg"+id+"#msg"+id {
			t.Errorf("msg %d permalink %q", r.ID, p.Permalink)
		}
	}
	// Move lines come through as whole lines of the author's own text.
	for id, line := range map[string]string{
		"4":  "1-й ход сарацина н2 на G5",
		"7":  "1-й ход крестоносца в1 на C4",
		"9":  "gl hf. 2-й ход сарацина н1 на D6",
		"11": "2-й ход крестоносца в1 на Z9",
		"14": "2-й ход крестоносца в2 на H4",
		"16": "3-й ход сарацина н2 на F4",
	} {
		if !hasLine(posts[id].Text, line) {
			t.Errorf("msg %s: no line %q in %q", id, line, posts[id].Text)
		}
	}
	// The edited post: the text after the edit, the edit mark out of the text.
	p7 := posts["7"]
	if p7.Text != "1-й ход крестоносца в1 на C4\n\nUPD: опечатка, в1 идёт на C4, а не на C5." || !p7.Edited {
		t.Errorf("msg 7: %+v", p7)
	}
	// A quote keeps its author and linked post; the quoted move is not the author's own text.
	p5 := posts["5"]
	if len(p5.Quotes) != 1 || p5.Quotes[0].Author != "snovaya" || p5.Quotes[0].PostID != "4" ||
		p5.Quotes[0].Text != "Играю за сарацин, поехали.\n\n1-й ход сарацина н2 на G5" || strings.Contains(p5.Text, "1-й ход сарацина") {
		t.Errorf("msg 5 quote: %+v / %q", p5.Quotes, p5.Text)
	}
	// Nested quote: the inner quote stays inside the outer quote's text.
	p13 := posts["13"]
	if len(p13.Quotes) != 1 || p13.Quotes[0].Author != "gm-bot" || p13.Quotes[0].PostID != "12" ||
		!strings.Contains(p13.Quotes[0].Text, "2-й ход крестоносца в1 на Z9") ||
		!strings.Contains(p13.Quotes[0].Text, "Ход отклонён: клетки Z9 нет на доске") ||
		p13.Text != "Джелу, проверяй координаты перед отправкой ;)" {
		t.Errorf("msg 13: %+v / %q", p13.Quotes, p13.Text)
	}
	// Lists, links and escaped <> come out as text.
	if !strings.Contains(posts["6"].Text, "Формат хода: «N-й ход <сторона> <фигура> на <клетка>».") ||
		!strings.Contains(posts["6"].Text, "Вопросы — в раздел игр.") {
		t.Errorf("msg 6: %q", posts["6"].Text)
	}
	if posts["16"].Text != "3-й ход сарацина н2 на F4\nплан: дальше давить на в2" {
		t.Errorf("msg 16: %q", posts["16"].Text)
	}
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestPMAgainstDatabase(t *testing.T) {
	raw := loadRaw(t)
	posts, err := extract(fixture.Read(t, "smf", "34-pm-read.dzhelu.html"), "", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 1 || len(raw.PMs) != 1 {
		t.Fatalf("posts %d, raw %d", len(posts), len(raw.PMs))
	}
	p, r := posts[0], raw.PMs[0]
	want, _ := time.Parse(time.RFC3339, r.TimeUTC)
	if p.ID != itoa(r.ID) || p.Author != r.From || p.AuthorID != itoa(r.FromID) || p.Subject != r.Subject ||
		!p.Time.Equal(want.Truncate(time.Minute)) {
		t.Errorf("PM %+v vs raw %+v", p, r)
	}
	if len(p.Code) != 1 || p.Code[0] != codeOf(r.BodyText) {
		t.Errorf("PM code %q", p.Code)
	}
	if !strings.HasPrefix(p.Text, "Джелу, ваш ход в теме Крестовый поход — партия 1.\nТекущая позиция:\n") {
		t.Errorf("PM text %q", p.Text)
	}
}

func TestPageInfo(t *testing.T) {
	for _, c := range []struct {
		file             string
		cur, last        int
		prev, new, last_ string
		member           int
	}{
		{"10-thread-p1.guest.html", 1, 2, "", "", "", 0},
		{"13-thread-p2.gm-bot.html", 2, 2, "http://127.0.0.1:8082/index.php?topic=2.0", "", "17", 2},
		{"22b-reply-redirect-target.gm-bot.html", 2, 2, "http://127.0.0.1:8082/index.php?topic=2.0", "17", "17", 2},
		{"15-post-permalink-msg12.guest.html", 2, 2, "http://127.0.0.1:8082/index.php?topic=2.0", "12", "", 0},
	} {
		p, _, err := parseBytes(fixture.Read(t, "smf", c.file), options{Now: captureNow})
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != kindThread || p.TopicID != "2" || p.Current != c.cur || p.Last != c.last || p.PrevURL != c.prev ||
			p.NewID != c.new || p.LastMsg != c.last_ || p.MemberID != c.member {
			t.Errorf("%s: %+v", c.file, p)
		}
	}
	p, _, err := parseBytes(fixture.Read(t, "smf", "33-pm-inbox.dzhelu.html"), options{Now: captureNow})
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != kindPM || len(p.PMList) != 1 || p.PMList[0].ID != "1" || !p.PMList[0].Unread || !p.PMList[0].Rendered ||
		p.PMList[0].From != "gm-bot" || p.PMList[0].Subject != "Партия 1: ваш 3-й ход" {
		t.Errorf("inbox: %+v", p.PMList)
	}
}

// Pages that are not topic or PM pages, and pages whose markup changed, are errors, never an
// empty list.
func TestMarkupChanged(t *testing.T) {
	for _, name := range []string{"16-messageindex-board2.guest.html", "18-boardindex.guest.html", "55-printpage.guest.html"} {
		if _, err := extract(fixture.Read(t, "smf", name), "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v", name, err)
		}
	}
	page := string(fixture.Read(t, "smf", "11-thread-p2.guest.html"))
	for what, broken := range map[string]string{
		"posts renamed":           strings.ReplaceAll(page, `id="msg`, `id="post`), // the 2.0 body ids too
		"body and poster renamed": strings.ReplaceAll(strings.ReplaceAll(page, `class="inner"`, `class="content"`), `class="poster"`, `class="author"`),
	} {
		if _, err := extract([]byte(broken), "", testConfig()); !errors.Is(err, forum.ErrMarkupChanged) {
			t.Errorf("%s: %v", what, err)
		}
	}
	// A body or a poster that cannot be found costs that field of every post, not the page.
	for what, c := range map[string]struct{ from, to, problem string }{
		"body renamed":   {`class="inner"`, `class="content"`, "body:"},
		"poster renamed": {`class="poster"`, `class="author"`, "author:"},
	} {
		posts, err := extract([]byte(strings.ReplaceAll(page, c.from, c.to)), "", testConfig())
		if err != nil || len(posts) == 0 {
			t.Fatalf("%s: %d posts, %v", what, len(posts), err)
		}
		for _, p := range posts {
			if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0].String(), c.problem) || p.Time.IsZero() {
				t.Errorf("%s: post %s problems %q", what, p.ID, p.Problems)
			}
		}
	}
	// A date that cannot be read costs the date of that post (a problem it reports), not the page.
	posts, err := extract([]byte(strings.ReplaceAll(page, `<strong>Today</strong> at 03:4`, `someday`)), "", testConfig())
	if err != nil || len(posts) == 0 {
		t.Fatalf("date unreadable: %d posts, %v", len(posts), err)
	}
	lacking := 0
	for _, p := range posts {
		if len(p.Problems) > 0 {
			lacking++
			if !p.Time.IsZero() || p.Author == "" || !strings.HasPrefix(p.Problems[0].String(), "time:") {
				t.Errorf("date unreadable: post %s time %v problems %q", p.ID, p.Time, p.Problems)
			}
		}
	}
	if lacking == 0 {
		t.Error("date unreadable: no post reports it")
	}
}

func TestParseTime(t *testing.T) {
	loc := time.FixedZone("MSK", 3*3600)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, loc)
	for in, want := range map[string]time.Time{
		"Today at 03:44 AM":              time.Date(2026, 11, 30, 3, 44, 0, 0, loc),
		"Yesterday at 11:59 PM":          time.Date(2026, 11, 29, 23, 59, 0, 0, loc),
		"Сегодня в 12:34":                time.Date(2026, 11, 30, 12, 34, 0, 0, loc),
		"Вчера в 00:05":                  time.Date(2026, 11, 29, 0, 5, 0, 0, loc),
		"Nov 30, 2026, 03:44 AM":         time.Date(2026, 11, 30, 3, 44, 0, 0, loc),
		"December 01, 2025, 12:10:05 PM": time.Date(2025, 12, 1, 12, 10, 5, 0, loc),
		"01 Декабря 2025, 12:10:05":      time.Date(2025, 12, 1, 12, 10, 5, 0, loc),
		"2026-01-02 13:14":               time.Date(2026, 1, 2, 13, 14, 0, 0, loc),
		"02.01.2026, 13:14":              time.Date(2026, 1, 2, 13, 14, 0, 0, loc),
		"5 minutes ago":                  time.Date(2026, 11, 30, 11, 55, 0, 0, loc),
		"2 часа назад":                   time.Date(2026, 11, 30, 10, 0, 0, 0, loc),
	} {
		got, err := parseTime(in, loc, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "Feb 30, 2026, 10:00 AM", "25:00", "Today at 13:00 PM"} {
		if _, err := parseTime(bad, loc, now); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
