package punbb

import (
	"testing"
	"time"

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
	for _, v := range versionCaptures { // PunBB 1.3 (main-topic) and FluxBB 1.2/1.4/1.5 (blockposts)
		page := decoded(f, fixture.Read(f, v.dir, "11-thread-p2.guest.html"))
		f.Add(fixture.PostsFragment(page, `<div class="main-topic`, `<div class="post `, 3))
		f.Add(fixture.PostsFragment(page, `<div id="punviewtopic"`, `<div id="p`, 3))
	}
	for _, v := range russianCaptures { // Russian packs: «Сегодня», «пишет:», «Отредактировано»
		page := fixture.Read(f, v.dir, "10-thread-p1.guest.html")
		f.Add(fixture.PostsFragment(page, `<div class="main-topic`, `<div class="post `, 3))
		f.Add(fixture.PostsFragment(page, `<div id="punviewtopic"`, `<div id="p`, 3))
	}
	f.Add([]byte(`<div class="main-topic"><div class="post"><div id="p1" class="posthead"><span class="post-byline"><strong>x</strong></span><span class="post-link"><a>Today 01:02:03</a></span></div><div class="entry-content"><div class="quotebox"><blockquote><div class="codebox"><pre>a
 b</pre></div></blockquote></div><ul><li><p>1</p></li></ul><details><summary>s</summary>t</details></div></div></div>`))
	// The blockpost markup of PunBB 1.2 (quotes in div.incqbox) and FluxBB.
	f.Add([]byte(`<div id="punviewtopic" class="pun"><p class="pagelink conl">Pages: <strong>1</strong></p><div id="p9" class="blockpost"><h2><span><a href="viewtopic.php?pid=9#p9">Today 04:14:08</a></span></h2><div class="postleft"><dl><dt><strong><a href="profile.php?id=2">x</a></strong></dt></dl></div><div class="postright"><div class="postmsg"><blockquote><div class="incqbox"><h4>y wrote:</h4><p>q</p></div></blockquote><div class="codebox"><div class="incqbox"><h4>Code:</h4><pre> c</pre></div></div><p class="postedit"><em>Last edited</em></p></div><div class="postsignature postmsg">s</div></div></div></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := extract(page, "text/html; charset=utf-8", testConfig())
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
		if _, err := extract(page, "text/html; charset=utf-8", cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzSection feeds mangled topic lists to Section: it must never panic, and every thread head it
// gives has an id.
func FuzzSection(f *testing.F) {
	for _, c := range sectionCases {
		f.Add(sectionPage(f, c.page))
	}
	f.Add([]byte(`<table><tr class="isticky"><td class="tcl"><a href="viewtopic.php?id=1">t</a></td><td class="tc2">1 2</td><td class="tcr"><a href="viewtopic.php?id=1&p=2#p9">Вчера 01:02:03</a> <span class="byuser">от x</span></td></tr></table>`))
	opt := options{Location: time.UTC, Now: captureNow}
	f.Fuzz(func(t *testing.T, page []byte) {
		heads, err := sectionBytes(page, opt)
		for _, h := range heads {
			if h.ID == "" {
				t.Fatalf("a head without an id: %+v (err %v)", h, err)
			}
		}
	})
}
