package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/internal/fixture"
	"forumgm/internal/testkit"
)

// extracted is what a scraper written against the real pages reads from one post.
type extracted struct {
	DivID, Anchor, Author, AuthorHref string
	DateTitle, DateText               string
	Edit                              string
	Permalink, Number                 string
	Body                              string
}

var spaces = strings.NewReplacer("\n", " ", "\t", " ")

func squash(s string) string { return strings.Join(strings.Fields(spaces.Replace(s)), " ") }

// extractPosts reads the posts with the selectors a MyBB dialect uses; base is replaced by BASE
// so that pages from different hosts compare.
func extractPosts(t *testing.T, html, base string) []extracted {
	t.Helper()
	d := doc(t, html)
	var out []extracted
	d.Find("div.post").Each(func(_ int, p *goquery.Selection) {
		var e extracted
		e.DivID, _ = p.Attr("id")
		e.Anchor, _ = p.Prev().Filter("a[name]").Attr("name")
		a := p.Find(".author_information span.largetext a[href*=uid]")
		e.Author = a.Text()
		e.AuthorHref = strings.ReplaceAll(a.AttrOr("href", ""), base, "BASE")
		// Links inside the messages point at the captured board.
		ds := p.Find("span.post_date > span[title]").First()
		e.DateTitle = ds.AttrOr("title", "")
		e.DateText = ds.Text()
		e.Edit = squash(p.Find("span.post_edit").Text())
		pl := p.Find(".post_head a[href*='pid=']").First()
		e.Permalink = pl.AttrOr("href", "")
		e.Number = pl.Text()
		body, err := p.Find("div.post_body").Html()
		if err != nil {
			t.Fatal(err)
		}
		e.Body = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(body, base, "BASE"), fixtureBase, "BASE"))
		out = append(out, e)
	})
	return out
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	return string(fixture.Read(t, "mybb", name))
}

func comparePosts(t *testing.T, what string, want, got []extracted) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d posts, want %d", what, len(got), len(want))
	}
	for i := range want {
		if want[i] != got[i] {
			w, g := want[i], got[i]
			if w.Body != g.Body {
				t.Errorf("%s post %d body:\n got: %q\nwant: %q", what, i, g.Body, w.Body)
				w.Body, g.Body = "", ""
			}
			if w != g {
				t.Errorf("%s post %d:\n got: %+v\nwant: %+v", what, i, g, w)
			}
		}
	}
}

// TestThreadPagesMatchFixtures seeds the captured thread (posts-raw.json: tid 1, 16 posts, and
// tid 2) at the capture time and checks that the sandbox's thread pages read exactly like the
// real ones: post ids, anchors, authors, profile links, dates (title and relative text), edit
// marks, permalinks, post numbers and the post bodies' HTML (quotes, nested quotes, code blocks,
// spoilers, links, smilies, [hr]).
func TestThreadPagesMatchFixtures(t *testing.T) {
	clock := testkit.NewClock(captureTime)
	_, base := newBoard(t, true, clock, nil)
	guest := newClient(t, base)
	for _, tc := range []struct{ fixture, path string }{
		{"10-thread-p1.guest.html", "showthread.php?tid=1"},
		{"11-thread-p2.guest.html", "showthread.php?tid=1&page=2"},
		{"15-post-permalink-pid12.guest.html", "showthread.php?tid=1&pid=12"},
		{"15-post-permalink-pid12.guest.html", "showthread.php?pid=12"},
	} {
		resp, page := guest.get(tc.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=UTF-8" {
			t.Fatalf("%s: %d %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		want := extractPosts(t, readFixture(t, tc.fixture), fixtureBase)
		got := extractPosts(t, page, base)
		comparePosts(t, tc.path, want, got)

		// Pagination reads the same.
		wp := squash(doc(t, readFixture(t, tc.fixture)).Find(".pagination").First().Text())
		gp := squash(doc(t, page).Find(".pagination").First().Text())
		if wp != gp {
			t.Errorf("%s pagination %q, want %q", tc.path, gp, wp)
		}
		if wt, gt := doc(t, readFixture(t, tc.fixture)).Find("title").Text(), doc(t, page).Find("title").Text(); wt != gt {
			t.Errorf("%s title %q, want %q", tc.path, gt, wt)
		}
	}

	// Logged in (captured at 03:22:34): the quick reply form carries lastpid and the same hidden
	// fields.
	clock.Set(captureTime.Add(4 * time.Second))
	bot := newClient(t, base)
	if _, ok := bot.login("gm-bot", "GmBotPass1"); !ok {
		t.Fatal("login failed")
	}
	_, page := bot.get("showthread.php?tid=1")
	fx := doc(t, readFixture(t, "12-thread-p1.gm-bot.html"))
	sb := doc(t, page)
	if w, g := fx.Find("input#lastpid").AttrOr("value", ""), sb.Find("input#lastpid").AttrOr("value", ""); w != g {
		t.Errorf("lastpid %q, want %q", g, w)
	}
	names := func(d *goquery.Document) string {
		var n []string
		d.Find("#quick_reply_form input[type=hidden]").Each(func(_ int, s *goquery.Selection) { n = append(n, s.AttrOr("name", "")) })
		return strings.Join(n, ",")
	}
	if w, g := names(fx), names(sb); w != g {
		t.Errorf("quick reply fields %q, want %q", g, w)
	}
	comparePosts(t, "member page 1", extractPosts(t, readFixture(t, "12-thread-p1.gm-bot.html"), fixtureBase), extractPosts(t, page, base))
	if n := sb.Find(`a.postbit_quote[href="newreply.php?tid=1&replyto=3"]`).Length(); n != 1 {
		t.Errorf("quote button for pid 3: %d", n)
	}

	// The quote pre-fill gives the raw MyCode, like the real form.
	_, page = bot.get("newreply.php?tid=1&replyto=3")
	w := doc(t, readFixture(t, "21-newreply-form-quote-pid3.gm-bot.html")).Find("textarea#message").Text()
	if g := doc(t, page).Find("textarea#message").Text(); g != w {
		t.Errorf("quote pre-fill %q, want %q", g, w)
	}
	if !strings.Contains(page, `[quote=&quot;snovaya&quot; pid='3' dateline='1796008582']`) {
		t.Errorf("quote pre-fill markup differs")
	}
}

func TestLastPostRedirect(t *testing.T) {
	_, base := newBoard(t, true, testkit.NewClock(captureTime), nil)
	resp, body := newClient(t, base).get("showthread.php?tid=1&action=lastpost")
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "showthread.php?tid=1&pid=16#pid16" || body != "" {
		t.Fatalf("lastpost: %d %q %q", resp.StatusCode, resp.Header.Get("Location"), body)
	}
}

func TestForumDisplayAndIndex(t *testing.T) {
	_, base := newBoard(t, true, testkit.NewClock(captureTime), nil)
	c := newClient(t, base)
	_, page := c.get("forumdisplay.php?fid=3")
	d := doc(t, page)
	var subjects []string
	d.Find(`span[id^="tid_"] a`).Each(func(_ int, s *goquery.Selection) { subjects = append(subjects, s.Text()) })
	fx := doc(t, readFixture(t, "16-forumdisplay-fid3.guest.html"))
	var want []string
	fx.Find(`span[id^="tid_"] a`).Each(func(_ int, s *goquery.Selection) { want = append(want, s.Text()) })
	if strings.Join(subjects, "|") != strings.Join(want, "|") {
		t.Errorf("threads %q, want %q", subjects, want)
	}
	// Each row's cells as a reader of the real list takes them: the row's class, the replies
	// link, the last-post cell's date (title and text) and poster.
	rows := func(d *goquery.Document) []string {
		var out []string
		d.Find("tr.inline_row").Each(func(_ int, r *goquery.Selection) {
			lp := r.Find("span.lastpost").First()
			date := lp.Find("span[title]").First()
			out = append(out, strings.Join([]string{
				r.Find(`span[id^="tid_"]`).AttrOr("id", ""),
				strings.Fields(r.Find("td").Last().AttrOr("class", "x"))[1],
				r.Find("a[href*='action=whoposted']").Text(),
				date.AttrOr("title", ""), date.Text(),
				lp.Find("a[href*='action=lastpost']").AttrOr("href", ""),
				lp.Find("a[href*='uid=']").Text(),
			}, "|"))
		})
		return out
	}
	if g, w := rows(d), rows(fx); strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("thread rows:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	_, page = c.get("index.php")
	if !strings.Contains(page, `<a href="forumdisplay.php?fid=3">Игры по переписке</a>`) {
		t.Errorf("index lacks the forum")
	}
}

// TestPMReadMatchesFixture sends the captured PM and compares the read page and the inbox row.
func TestPMReadMatchesFixture(t *testing.T) {
	clock := testkit.NewClock(time.Date(2026, 11, 30, 3, 22, 36, 0, time.UTC))
	s, base := newBoard(t, true, clock, nil)
	raw := loadRaw(t)
	pm := raw.PMs[0]
	if err := s.SendPM(t.Context(), "gm-bot", "Джелу", pm.Subject, pm.Message); err != nil {
		t.Fatal(err)
	}
	clock.Set(time.Date(2026, 11, 30, 3, 22, 37, 0, time.UTC))
	c := newClient(t, base)
	if _, ok := c.login("Джелу", "DzheluPass1"); !ok {
		t.Fatal("login")
	}
	_, inbox := c.get("private.php")
	row := func(html string) string {
		d := doc(t, html)
		a := d.Find(`a[href^="private.php?action=read&pmid="]`).First()
		return a.AttrOr("class", "") + " " + a.AttrOr("href", "") + " " + a.Text() + " " +
			a.Closest("tr").Find(`a[href*="uid="]`).Text()
	}
	if w, g := row(readFixture(t, "33-pm-inbox.dzhelu.html")), row(inbox); w != g {
		t.Errorf("inbox row %q, want %q", g, w)
	}
	clock.Set(time.Date(2026, 11, 30, 3, 22, 38, 0, time.UTC))
	_, page := c.get("private.php?action=read&pmid=1")
	comparePosts(t, "pm read", extractPosts(t, readFixture(t, "34-pm-read.dzhelu.html"), fixtureBase), extractPosts(t, page, base))
	_, inbox = c.get("private.php")
	if w, g := row(readFixture(t, "36-pm-inbox-after-read.dzhelu.html")), row(inbox); w != g {
		t.Errorf("inbox row after read %q, want %q", g, w)
	}
	// The sender's copy is a separate message (pmid 2) in Sent Items.
	bot := newClient(t, base)
	bot.login("gm-bot", "GmBotPass1")
	_, sent := bot.get("private.php?fid=2")
	if w, g := row(readFixture(t, "35-pm-sent-folder.gm-bot.html")), row(sent); w != g {
		t.Errorf("sent row %q, want %q", g, w)
	}
}

// The list of a forum with a sticky thread and two pages is laid out as on the second captured
// board (testdata/forums/mybb/section/01: threadsperpage 4): "Important Threads", the sticky
// row's cells forumdisplay_sticky, "Normal Threads", the others by last post, and the same
// pagination; a thread page of that forum carries the breadcrumb popup of the forum's pages.
func TestForumDisplayStickyAndPages(t *testing.T) {
	clock := testkit.NewClock(captureTime)
	_, base := newBoard(t, false, clock, func(o *Options) {
		o.ThreadsPerPage = 4
		for i, subject := range []string{"Правила", "Партия 1", "Партия 2", "Партия 3", "Партия 4", "Партия 5"} {
			o.Threads = append(o.Threads, Thread{Subject: subject, Sticky: i == 0,
				Posts: []SeedPost{{Author: "gm-bot", Message: subject + ".", Time: captureTime.Add(time.Duration(i-10) * time.Minute)}}})
		}
	})
	layout := func(d *goquery.Document) string {
		var out []string
		d.Find("td.trow_sep, tr.inline_row").Each(func(_ int, s *goquery.Selection) {
			if s.Is("td") {
				out = append(out, s.Text())
				return
			}
			out = append(out, strings.Fields(s.Find("td").First().AttrOr("class", "x"))[1])
		})
		return strings.Join(out, ",") + " / " + squash(d.Find("div.pagination").First().Text())
	}
	_, page := newClient(t, base).get("forumdisplay.php?fid=3")
	fx := doc(t, readFixture(t, "section/01-forumdisplay-fid2.guest.html"))
	if g, w := layout(doc(t, page)), layout(fx); g != w {
		t.Errorf("layout %q, want %q", g, w)
	}
	var ids []string
	doc(t, page).Find(`span[id^="tid_"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("id", "")) })
	if strings.Join(ids, ",") != "tid_1,tid_6,tid_5,tid_4" {
		t.Errorf("page 1 lists %v", ids)
	}
	_, page = newClient(t, base).get("showthread.php?tid=2")
	popup := func(d *goquery.Document) string {
		return squash(d.Find("div.navigation div.pagination_breadcrumb").Text())
	}
	if g, w := popup(doc(t, page)), popup(doc(t, readFixture(t, "section/05-showthread-tid2.gm-bot.html"))); g != w || g == "" {
		t.Errorf("breadcrumb popup %q, want %q", g, w)
	}
}
