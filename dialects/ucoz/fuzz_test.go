package ucoz

import (
	"testing"

	"forumgm/internal/fixture"
)

// FuzzExtract feeds mangled uCoz thread pages to the extractor: it must never panic, and a nil
// error must come with posts (never an empty list), each with an id.
func FuzzExtract(f *testing.F) {
	// The fuzzer slows to a crawl on inputs of tens of kilobytes: the seeds are the posts part of
	// the real pages, cut to a few posts.
	for _, name := range []string{"ucoz-needforkill-t520-p1.html", "ucoz-needforkill-t23-p1.html", "ucoz-needforkill-t602-p1.html"} {
		f.Add(fixture.PostsFragment(readReal(f, name), `<table class="gTable"`, `<tr id="post`, 3))
	}
	f.Add([]byte(`<table class="gTable"><tr id="post1"><td><table><tr><td class="postTdTop"><a class="postUser">x</a></td><td class="postTdTop">Дата: Сегодня, 12:34 | Сообщение # <a class="postNumberLink" onclick="prompt('', 'http://a/forum/1-2-1-16-1700000000')">1</a></td></tr><tr><td class="posttdMessage"><span class="ucoz-forum-post"><div class="bbQuoteBlock"><div class="bbQuoteName">Цитата (y)</div><div class="quoteMessage">q</div></div><table><tr><td><span><b>Quote</b> (z)</span></td></tr><tr><td class="quoteMessage">old</td></tr></table><div class="bbCodeBlock"><div class="codeMessage">&nbsp;c<br />d</div></div><div class="uSpoilerClosed"><div class="uSpoilerButBl"><input value="s"></div><div class="uSpoilerText">t</div></div></span><div class="edited">Сообщение отредактировал x</div></td></tr></table></td></tr></table>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := extract(page, "text/html; charset=utf-8", testConfig(t, "Europe/Moscow"))
		if err == nil && len(posts) == 0 {
			t.Fatalf("empty list without an error")
		}
		for _, p := range posts {
			if p.ID == "" {
				t.Fatalf("post without an id: %+v", p)
			}
		}
	})
}

// BenchmarkExtract reads the largest real page (9 posts, 6 quotes, a code block).
func BenchmarkExtract(b *testing.B) {
	page := readReal(b, "ucoz-needforkill-t564-p4.html")
	cfg := testConfig(b, "Europe/Moscow")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := extract(page, "", cfg); err != nil {
			b.Fatal(err)
		}
	}
}
