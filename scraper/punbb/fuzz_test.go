package punbb

import (
	"testing"

	"forumgm/internal/fixture"
)

// FuzzExtract feeds mangled PunBB pages to the extractor: it must never panic, and a nil error
// must come with posts (never an empty list).
func FuzzExtract(f *testing.F) {
	// Go's fuzzer slows to a crawl on inputs of tens of kilobytes, so the seeds are the posts part
	// of each captured page, cut to a few posts.
	for _, name := range extractPages {
		f.Add(fixture.PostsFragment(fixture.Read(f, "punbb", name), `<div class="main-topic`, `<div class="post `, 3))
	}
	f.Add([]byte(`<div class="main-topic"><div class="post"><div id="p1" class="posthead"><span class="post-byline"><strong>x</strong></span><span class="post-link"><a>Today 01:02:03</a></span></div><div class="entry-content"><div class="quotebox"><blockquote><div class="codebox"><pre>a
 b</pre></div></blockquote></div><ul><li><p>1</p></li></ul><details><summary>s</summary>t</details></div></div></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := Extract(page, "text/html; charset=utf-8", testConfig())
		if err == nil && len(posts) == 0 {
			t.Fatalf("empty list without an error")
		}
	})
}

func BenchmarkExtractThreadPage(b *testing.B) {
	page := fixture.Read(b, "punbb", "13-thread-p2.gm-bot.html")
	cfg := testConfig()
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(page, "text/html; charset=utf-8", cfg); err != nil {
			b.Fatal(err)
		}
	}
}
