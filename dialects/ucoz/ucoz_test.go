package ucoz

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func testConfig(t testing.TB, loc string) forum.Config {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	return forum.Config{Location: zone(t, loc), Now: func() time.Time { return now }}
}

func readReal(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "ucoz", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRealPages reads the thread pages saved from real uCoz sites (testdata/realboards/ucoz at the
// module root, see its README) against goldens checked field by field against the pages.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, Dialect(), testConfig(t, "Europe/Moscow"), *update, nil)
}

// The sites' zones: the date a page shows is in the site's zone (needforkill.ru: Moscow,
// lehrer.3dn.ru: Krasnoyarsk, UTC+7).
var siteZone = map[string]string{
	"ucoz-needforkill-t23-p1.html":      "Europe/Moscow",
	"ucoz-needforkill-t520-p1.html":     "Europe/Moscow",
	"ucoz-needforkill-t564-p4.html":     "Europe/Moscow",
	"ucoz-needforkill-t578-p1.html":     "Europe/Moscow",
	"ucoz-needforkill-t602-p1.html":     "Europe/Moscow",
	"ucoz-needforkill-t424-p32.html":    "Europe/Moscow",
	"ucoz-needforkill-t250-p3.html":     "Europe/Moscow",
	"ucoz-lehrer3dn-t1-p1-excerpt.html": "Asia/Krasnoyarsk",
}

var unixInLink = regexp.MustCompile(`(/forum/\d+-\d+-\d+-16-)\d+'`)

// Without the Unix time of the post's direct link, the shown date ("Дата: Вт, 2007-02-13, 13:02",
// "Дата: Четверг, 20.01.2011, 22:01") read in the site's zone gives the same minute, on every post
// of every real page.
func TestRealPagesShownDate(t *testing.T) {
	for _, path := range fixture.RealPages(t, "ucoz") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			tz, ok := siteZone[name]
			if !ok {
				t.Fatalf("%s: add the site's zone to siteZone", name)
			}
			raw := readReal(t, name)
			want, err := extract(raw, "", testConfig(t, tz))
			if err != nil {
				t.Fatal(err)
			}
			stripped := unixInLink.ReplaceAll(raw, []byte("$1'"))
			if string(stripped) == string(raw) {
				t.Fatal("no direct link with a Unix time on the page")
			}
			got, err := extract(stripped, "", testConfig(t, tz))
			if err != nil || len(got) != len(want) {
				t.Fatalf("%d posts (want %d), %v", len(got), len(want), err)
			}
			for i := range got {
				if len(got[i].Problems) > 0 || !got[i].Time.Equal(want[i].Time.Truncate(time.Minute)) {
					t.Errorf("post %s: shown date %v, Unix time %v, problems %q", got[i].ID, got[i].Time, want[i].Time, got[i].Problems)
				}
			}
		})
	}
}

// The real pages' pagination: page 4 of 4 with its previous page, page 1 of 5 with its next.
func TestRealPagination(t *testing.T) {
	for name, want := range map[string][4]string{
		"ucoz-needforkill-t564-p4.html":     {"4", "4", "2-564-3.html", ""},
		"ucoz-needforkill-t23-p1.html":      {"1", "5", "", "10-23-2.html"},
		"ucoz-lehrer3dn-t1-p1-excerpt.html": {"1", "1", "", ""},
	} {
		doc, err := scrape.Parse(readReal(t, name), "")
		if err != nil {
			t.Fatal(err)
		}
		p, err := scrape.Extract(doc, threadTable, scrape.Options{Loc: time.UTC, Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		got := [4]string{strconv.Itoa(p.Current), strconv.Itoa(p.Last), p.Prev, p.Next}
		if got != want {
			t.Errorf("%s: current, last, prev, next = %q, want %q", name, got, want)
		}
	}
}

// Markup no real page here has: a guest's post (no profile link, no direct link: the shown
// relative date "Сегодня, 12:34" is read in the site's zone), a named quote holding an unnamed
// one (kept in its text after its title, as nested quotes are), an edit line on a post of
// today; a post whose date cannot be read costs its time, not the page; a page of no uCoz
// forum is a markup change.
func TestWrittenPost(t *testing.T) {
	page := `<html><body><div class="forumContent"><table class="gTable">
<tr id="post7"><td class="postFirst"><table class="postTable">
<tr><td class="postTdTop" align="center">Гость</td><td class="postTdTop">Дата: Сегодня, 12:34 | Сообщение # 1</td></tr>
<tr><td class="postTdInfo"></td><td class="posttdMessage"><span class="ucoz-forum-post" id="ucoz-forum-post-7" edit-url=""><!--uzquote--><div class="bbQuoteBlock"><div class="bbQuoteName"><b>Цитата</b> (<span class="qName"><!--qn-->Вася<!--/qn--></span>)</div><div class="quoteMessage"><!--uzq-->Ход <!--uzquote--><div class="bbQuoteBlock"><div class="bbQuoteName"><b>Цитата</b></div><div class="quoteMessage"><!--uzq-->E2-E4<!--/uzq--></div></div><!--/uzquote-->ответ<!--/uzq--></div></div><!--/uzquote--> <br /> Ход: Е7-Е5</span>
<br><br><div class="edited">Сообщение отредактировал <span class="editedBy">Гость</span> - <span class="editedTime">Сегодня, 12:40</span></div></td></tr>
</table></td></tr>
<tr id="post8"><td class="postRest1"><table class="postTable">
<tr><td class="postTdTop"><a class="postUser" href="javascript://">Петя</a></td><td class="postTdTop">Сообщение # 2</td></tr>
<tr><td class="postTdInfo"></td><td class="posttdMessage"><span class="ucoz-forum-post">ок</span></td></tr>
<tr><td class="postBottom"></td><td class="postBottom"><a href="javascript://" onclick="window.open('/index/8-3', 'up3'); return false;">профиль</a></td></tr>
</table></td></tr></table></div></body></html>`
	posts, err := extract([]byte(page), "", testConfig(t, "Europe/Moscow"))
	if err != nil || len(posts) != 2 {
		t.Fatalf("%d posts, %v", len(posts), err)
	}
	p := posts[0]
	today := time.Date(2026, 11, 30, 12, 34, 0, 0, zone(t, "Europe/Moscow"))
	if p.ID != "7" || p.Author != "Гость" || p.AuthorID != "" || !p.Time.Equal(today) || !p.Edited || p.Text != "Ход: Е7-Е5" ||
		len(p.Quotes) != 1 || p.Quotes[0].Author != "Вася" || p.Quotes[0].Text != "Ход\nЦитата\nE2-E4\nответ" || len(p.Problems) > 0 {
		t.Errorf("guest post: %+v", p)
	}
	q := posts[1]
	if q.ID != "8" || q.Author != "Петя" || q.AuthorID != "3" || q.Text != "ок" || !q.Time.IsZero() || len(q.Problems) != 1 || !strings.HasPrefix(q.Problems[0].String(), "time:") {
		t.Errorf("post without a date: %+v", q)
	}
	if _, err := extract([]byte(`<html><body><p>Главная страница сайта</p></body></html>`), "", testConfig(t, "UTC")); !errors.Is(err, forum.ErrMarkupChanged) {
		t.Errorf("not a thread page: %v", err)
	}
}

// The quote title's forms on the real pages and the unnamed ones.
func TestQuoteAuthor(t *testing.T) {
	for title, want := range map[string]string{
		"Quote (Kain)":          "Kain",
		"Цитата (Enforcer)":     "Enforcer",
		"Цитата Enforcer ()":    "Enforcer",
		"Quote":                 "",
		"Цитата":                "",
		"Цитата (Кот (старый))": "Кот (старый)",
	} {
		m := threadTable.QuoteAuthor.FindStringSubmatch(title)
		if m == nil || m[1] != want {
			t.Errorf("%q: %q, want %q", title, m, want)
		}
	}
}

// Guests on the real pages: "Гость" and a guest who typed a name ("АШОТ") have no profile, so no
// author id and no problem; a guest's post can be edited (by a moderator); a quote of a guest
// names the guest. Unnamed quotes ("Quote" alone) name nobody, their text is not their author.
func TestRealPagesGuests(t *testing.T) {
	read := func(name string) map[string]forum.Post {
		t.Helper()
		posts, err := extract(readReal(t, name), "", testConfig(t, "Europe/Moscow"))
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]forum.Post{}
		for _, p := range posts {
			byID[p.ID] = p
		}
		return byID
	}
	posts := read("ucoz-needforkill-t250-p3.html")
	for id, name := range map[string]string{"4804": "АШОТ", "4818": "Гость"} {
		if p := posts[id]; p.Author != name || p.AuthorID != "" || len(p.Problems) > 0 {
			t.Errorf("guest %s: %+v", id, p)
		}
	}
	if !posts["4818"].Edited || posts["4818"].Text != "лучше байка нету ни чего! а такси отстой" {
		t.Errorf("the guest's edited post: %+v", posts["4818"])
	}
	if q := posts["4819"].Quotes; len(q) != 2 || q[0].Author != "Гость" || q[0].Text != "байка" {
		t.Errorf("a quote of a guest: %+v", q)
	}
	posts = read("ucoz-needforkill-t424-p32.html")
	if p := posts["8971"]; p.Author != "Гость" || p.AuthorID != "" || p.Text != "о я теперь могу постить. приветики" {
		t.Errorf("guest 8971: %+v", p)
	}
	if q := posts["8990"].Quotes; len(q) != 2 || q[0] != (forum.Quote{Text: "Что характерно, там тоже изначально кривой движок и багов до потолка."}) ||
		q[1] != (forum.Quote{Text: "Удачи."}) {
		t.Errorf("unnamed quotes: %+v", q)
	}
	if q := posts["8997"].Quotes; len(q) != 2 || q[0].Author != "aaaaaaaa" || q[1].Author != "coolant" || !posts["8997"].Edited {
		t.Errorf("named quotes: %+v", posts["8997"])
	}
}

// A site served in windows-1251 (the charset named in the <meta>) reads as the UTF-8 copy.
func TestWindows1251(t *testing.T) {
	raw := readReal(t, "ucoz-lehrer3dn-t1-p1-excerpt.html")
	want, err := extract(raw, "", testConfig(t, "Asia/Krasnoyarsk"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(string(raw), "charset=UTF-8", "charset=windows-1251", 1)
	cp, err := charmap.Windows1251.NewEncoder().String(page)
	if err != nil {
		t.Fatal(err)
	}
	got, err := extract([]byte(cp), "", testConfig(t, "Asia/Krasnoyarsk"))
	if err != nil || len(got) != 1 || got[0].Text != want[0].Text || got[0].Author != want[0].Author || got[0].Text != "Какие условия у Вас созданы для обучения детей?" {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

// cfg.Extra overrides single keys: the text read from span.ucoz-forum-post alone (current pages)
// is the same; a bad override is an error, not a silent default.
func TestExtraOverride(t *testing.T) {
	raw := readReal(t, "ucoz-needforkill-t602-p1.html")
	want, err := extract(raw, "", testConfig(t, "Europe/Moscow"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, "Europe/Moscow")
	cfg.Extra = map[string]string{"body": "span.ucoz-forum-post"}
	got, err := extract(raw, "", cfg)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d posts, %v", len(got), err)
	}
	for i := range got {
		if got[i].Text != want[i].Text || got[i].Edited != want[i].Edited || len(got[i].Quotes) != len(want[i].Quotes) {
			t.Errorf("post %s: %q, want %q", got[i].ID, got[i].Text, want[i].Text)
		}
	}
	cfg.Extra = map[string]string{"time_re": "("}
	if _, err := extract(raw, "", cfg); err == nil || !strings.Contains(err.Error(), "time_re") {
		t.Errorf("bad time_re: %v", err)
	}
}
