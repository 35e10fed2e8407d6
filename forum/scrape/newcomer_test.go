package scrape_test

import (
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// time_re applies to every alternative of time: a post whose first alternative is missing is
// read by the second with the same regexp (before, only the first had it, and the second read
// the whole byline: a wrong or failed date).
func TestTimeReEveryAlternative(t *testing.T) {
	page := `<div id="page-body">
<div class="post" id="p1"><p class="author">by <a>anna</a> » <time datetime="2026-11-30T03:45:00+00:00">Mon Nov 30, 2026 6:45 am</time></p><div class="content">one</div></div>
<div class="post" id="p2"><p class="author">by <a>boris</a> » Mon Nov 30, 2026 7:10 am</p><div class="content">two</div></div>
</div>`
	extra := map[string]string{
		"post": "div.post", "post_id": "@id", "post_id_re": `^p(\d+)$`, "author": "p.author a",
		"time": "p.author time@datetime || p.author", "time_re": `(?:^\d{4}-.*$|»\s*(.+)$)`, "body": "div.content",
	}
	msk := time.FixedZone("MSK", 3*3600)
	cfg := forum.Config{Location: msk, Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, msk) }, Extra: extra}
	posts, err := scrape.ExtractPage([]byte(page), "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{time.Date(2026, 11, 30, 3, 45, 0, 0, time.UTC), time.Date(2026, 11, 30, 7, 10, 0, 0, msk)}
	for i, p := range posts {
		if !p.Time.Equal(want[i]) || len(p.Problems) > 0 {
			t.Errorf("post %s: %v %q, want %v", p.ID, p.Time, p.Problems, want[i])
		}
	}
	// A list of regexps gives each alternative its own.
	extra["time_re"] = ` || »\s*(.+)$`
	if posts, err = scrape.ExtractPage([]byte(page), "", cfg); err != nil {
		t.Fatal(err)
	}
	for i, p := range posts {
		if !p.Time.Equal(want[i]) {
			t.Errorf("listed: post %s: %v, want %v", p.ID, p.Time, want[i])
		}
	}
}

// Zero-width characters and the engines' "click to expand" lines are removed from texts and
// quotes by default (the text too where it shows code); Code keeps what it has.
func TestCleanTexts(t *testing.T) {
	page := "<article class=\"m\" data-id=\"7\"><b class=\"who\">ann\u200b</b><i class=\"when\">2026-11-30 10:00</i>" +
		"<div class=\"body\"><blockquote><div class=\"cite\">Борис сказал(а):</div>Е2-Е4\u200b<div class=\"more\">Нажмите для раскрытия...</div></blockquote>" +
		"ход\u200b\u2060 Н2-Н3<br>Click to expand...<pre>a\u200bb</pre></div></article>"
	extra := map[string]string{
		"post": "article.m", "post_id": "@data-id", "author": ".who", "time": ".when", "body": ".body",
		"quote": "blockquote", "quote_cite": ".cite", "quote_author_re": `^(.+?)\s+сказал`, "code": "pre",
	}
	posts, err := scrape.ExtractPage([]byte(page), "", forum.Config{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	p := posts[0]
	if p.Author != "ann" || p.Text != "ход Н2-Н3\nab" || len(p.Quotes) != 1 || p.Quotes[0].Text != "Е2-Е4" ||
		p.Quotes[0].Author != "Борис" || len(p.Code) != 1 || !strings.Contains(p.Code[0], "\u200b") {
		t.Errorf("got %+v", p)
	}
	for in, want := range map[string]string{
		"a\u200bb\ufeff":           "ab",
		"x\nClick to expand...\ny": "x\ny",
		"Нажмите для раскрытия...\nтекст":    "текст",
		"текст\n  Нажмите для раскрытия…  ":  "текст",
		"click to expand the list is a text": "click to expand the list is a text",
	} {
		if got := scrape.Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// quote_author reads the author off a quote without a cite (Invision 4 as the server sends it).
func TestQuoteAuthorAttribute(t *testing.T) {
	page := `<article class="ipsComment" id="elComment_34997"><a class="u" href="/profile/894-kongondo/">kongondo</a><time datetime="2013-05-15T14:36:40Z">May 15</time>` +
		`<div data-role="commentContent"><blockquote data-ipsquote="" class="ipsQuote" data-ipsquote-contentcommentid="34996" data-ipsquote-username="diogo"><div><p>Shoes&gt;Men</p></div></blockquote><p>From the Docs</p></div></article>`
	extra := map[string]string{
		"post": "article.ipsComment", "post_id": "@id", "post_id_re": `elComment_(\d+)`, "author": "a.u", "time": "time@datetime",
		"body": "[data-role='commentContent']", "quote": "blockquote.ipsQuote", "quote_author": "@data-ipsquote-username",
		"quote_post_id": "@data-ipsquote-contentcommentid",
	}
	posts, err := scrape.ExtractPage([]byte(page), "", forum.Config{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	if q := posts[0].Quotes; len(q) != 1 || q[0] != (forum.Quote{Author: "diogo", PostID: "34996", Text: "Shoes>Men"}) || posts[0].Text != "From the Docs" {
		t.Errorf("got %+v", posts[0])
	}
}

// A cite that names nobody (uCoz's bare "Quote") leaves the author empty: quote_author_re is
// the cite's wording, not a place to read the quote's own text with (a real uCoz page, post
// 8990 of needforkill.ru's topic 424, read the quoted text as its author).
func TestQuoteCiteNamingNobody(t *testing.T) {
	page := `<div class="p" id="p1"><a class="u">Rh</a><time datetime="2009-11-03T20:47:35Z">x</time><div class="b">` +
		`<div class="q"><div class="qn"><b>Quote</b></div><div class="qm">Удачи.</div></div>Спасибо` +
		`<div class="q"><div class="qn"><b>Quote (connect)</b></div><div class="qm">Зато</div></div></div></div>`
	extra := map[string]string{
		"post": "div.p", "post_id": "@id", "post_id_re": `p(\d+)`, "author": "a.u", "time": "time@datetime",
		"body": "div.b", "quote": "div.q", "quote_cite": "div.qn",
		"quote_author_re": `^(?:Цитата|Quote)\s*\(?\s*(.*?)\s*\)?$`,
	}
	posts, err := scrape.ExtractPage([]byte(page), "", forum.Config{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	if q := posts[0].Quotes; len(q) != 2 || q[0] != (forum.Quote{Text: "Удачи."}) || q[1] != (forum.Quote{Author: "connect", Text: "Зато"}) {
		t.Errorf("got %+v", posts[0].Quotes)
	}
}
