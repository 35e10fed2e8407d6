package smf

import (
	"strings"
	"testing"

	"forumgm/internal/fixture"
)

// FuzzExtract feeds mangled SMF pages to the extractor: it must never panic, and a nil error must
// come with posts (never an empty list) unless the page is a PM folder.
func FuzzExtract(f *testing.F) {
	// Go's fuzzer slows to a crawl on inputs of tens of kilobytes, so the seeds are the posts part
	// of each captured page, cut to a few posts.
	for _, name := range extractPages {
		if strings.Contains(name, "-pm-") {
			f.Add(fixture.PostsFragment(fixture.Read(f, "smf", name), `<div id="personal_messages">`, `<div class="windowbg" id="msg`, 2))
			continue
		}
		f.Add(fixture.PostsFragment(fixture.Read(f, "smf", name), `<div id="forumposts">`, `<div class="windowbg" id="msg`, 1))
	}
	// The SMF 2.0.15 captures: a member's page (online mark before the poster) and a PM folder.
	f.Add(fixture.PostsFragment(fixture.Read(f, "smf20", "13-thread-p2.gm-bot.html"), `<div id="forumposts">`, `<a id="msg`, 2))
	f.Add(fixture.PostsFragment(fixture.Read(f, "smf20", "33-pm-inbox.dzhelu.html"), `<div id="personal_messages">`, `<div class="windowbg clear">`, 1))
	f.Add([]byte(`<div id="forumposts"><div class="windowbg" id="msg1"><div class="poster"><h4>x</h4></div><div class="postinfo"><a class="smalltext">Today at 01:00 AM</a></div><div class="post"><div class="inner"><blockquote><cite>Quote</cite><blockquote><code class="bbc_code">a<br>&nbsp;b</code></blockquote></blockquote><details><summary>s</summary>t</details></div></div></div></div>`))
	// SMF 2.0: no div#msgN; div.inner#msg_N, the date in div.keyinfo, quotes beside their header.
	f.Add([]byte(`<div id="forumposts"><div class="windowbg"><div class="poster"><h4><a href="?action=profile;u=3">x</a></h4></div><div class="keyinfo"><h5 id="subject_5"><a href="index.php/topic,1.msg5.html#msg5">s</a></h5><div class="smalltext">« <strong>Reply #1 on:</strong> September 19, 2007, 02:16:51 PM »</div></div><div class="post"><div class="inner" id="msg_5"><div class="quoteheader"><div class="topslice_quote"><a href="index.php?topic=1.msg4#msg4">Quote from: y on September 19, 2007</a></div></div><blockquote class="bbc_standard_quote">q</blockquote><div class="quotefooter"></div>t</div></div><div id="modified_5">« <em>Last Edit: x</em> »</div></div></div>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		posts, err := extract(page, "text/html; charset=UTF-8", testConfig())
		if err != nil {
			return
		}
		p, _, perr := parseBytes(page, options{Now: captureNow})
		if perr != nil {
			t.Fatalf("Extract ok but Parse failed: %v", perr)
		}
		if len(posts) == 0 && p.Kind != kindPM {
			t.Fatalf("empty list without an error")
		}
	})
}

func BenchmarkExtractThreadPage(b *testing.B) {
	page := fixture.Read(b, "smf", "13-thread-p2.gm-bot.html")
	cfg := testConfig()
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := extract(page, "text/html; charset=UTF-8", cfg); err != nil {
			b.Fatal(err)
		}
	}
}
