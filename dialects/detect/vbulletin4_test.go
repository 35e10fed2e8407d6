package detect_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/dialects/detect"
	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/internal/fixture"
)

// A vBulletin 4 page whose style drops the generator meta and the footer and shows the time
// among the author's details (testdata/realboards/generic/vbulletin423-custom-airforce.html,
// made from vbulletin423-airforceforums.html: see the README there) is named vBulletin 4 by its
// scripts and style sheets and read by the vBulletin 4 preset as the original page is: the same
// ids, authors, times and texts.
func TestVBulletin4CustomStyle(t *testing.T) {
	read := func(name string) ([]forum.Post, detect.Finding) {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", name))
		if err != nil {
			t.Fatal(err)
		}
		f := detect.Identify(raw)
		posts, err := scrape.ExtractPage(raw, "", forum.Config{Location: time.UTC, Now: time.Now, Extra: f.Extra})
		if err != nil {
			t.Fatalf("%s: %v (finding %+v)", name, err, f)
		}
		return posts, f
	}
	posts, f := read("vbulletin423-custom-airforce.html")
	if f.Engine != "vBulletin" || !strings.HasPrefix(f.Version, "4.") || f.Dialect != "generic" || f.Extra["body"] != "blockquote.postcontent" {
		t.Fatalf("finding %+v", f)
	}
	want, _ := read("vbulletin423-airforceforums.html")
	if len(posts) != 10 || len(posts) != len(want) {
		t.Fatalf("%d posts, the original page %d", len(posts), len(want))
	}
	for i, p := range posts {
		w := want[i]
		if p.Text == "" || p.Time.IsZero() || p.ID != w.ID || p.Author != w.Author || !p.Time.Equal(w.Time) || p.Text != w.Text || len(p.Problems) > 0 {
			t.Errorf("post %d: %s %q %v %q %q, want %s %q %v %q", i, p.ID, p.Author, p.Time, p.Text, p.Problems, w.ID, w.Author, w.Time, w.Text)
		}
	}
}

// The guess never takes for quotes a selector matching the post's body or an element holding
// it, nor the wrapper of the text every post has (vBulletin 4 writes the text as
// blockquote.postcontent inside div.postbody): the posts keep their text.
func TestGuessQuoteNotBody(t *testing.T) {
	post := func(id, text string) string {
		return `<li class="postcontainer" id="post_` + id + `"><a class="username" href="member.php?u=3">ann</a>
<span class="date">2026-11-30 10:0` + id + `</span><div class="postbody"><h2 class="title">Game ` + id + `</h2>
<blockquote class="postcontent restore">` + text + `</blockquote></div></li>`
	}
	page := []byte(`<html><body><ol>` + post("1", "move E2-E4") + post("2", `<div class="bbcode_quote">ann: move E2-E4</div>reply E7-E5`) + `</ol></body></html>`)
	g := detect.Guess(page)
	if g["body"] != "div.postbody" {
		t.Fatalf("guess %v", g)
	}
	posts, err := scrape.ExtractPage(page, "", forum.Config{Location: time.UTC, Now: time.Now, Extra: g})
	if err != nil || len(posts) != 2 || !strings.Contains(posts[0].Text, "move E2-E4") || !strings.Contains(posts[1].Text, "reply E7-E5") {
		t.Fatalf("guess %v: %+v, %v", g, posts, err)
	}

	// The custom-style vBulletin 4 page (the body guessed as div.postbody, holding
	// blockquote.postcontent): no quote selector matches a body, an element holding it, or
	// blockquote.postcontent, the text's own wrapper.
	raw, err := os.ReadFile(filepath.Join(fixture.RealDir(t), "generic", "vbulletin423-custom-airforce.html"))
	if err != nil {
		t.Fatal(err)
	}
	g = detect.Guess(raw)
	if g == nil || g["body"] == "" {
		t.Fatalf("guess %v", g)
	}
	if q := g["quote"]; q != "" {
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		doc.Find(g["post"]).Each(func(_ int, p *goquery.Selection) {
			body := p.Find(g["body"]).First()
			p.Find(q).Each(func(_ int, s *goquery.Selection) {
				if body.Length() > 0 && (s.Nodes[0] == body.Nodes[0] || s.Contains(body.Nodes[0])) || s.HasClass("postcontent") {
					t.Errorf("quote %q takes the body %q of %s", q, g["body"], p.AttrOr("id", ""))
				}
			})
		})
	}
}

// Without a generator meta, footer or SIMPLEVERSION, the scripts' ?v= tells the version; one
// marker alone names no engine.
func TestVBulletinScriptVersion(t *testing.T) {
	page := `<html><head><script type="text/javascript" src="clientscript/vbulletin_md5.js?v=425"></script>
<script type="text/javascript">var SESSIONURL = "";</script></head><body><p>x</p></body></html>`
	if f := detect.Identify([]byte(page)); f.Engine != "vBulletin" || f.Version != "4.2.5" || f.Extra["post"] != "li[id^='post_'].postcontainer" {
		t.Errorf("got %+v", f)
	}
	if f := detect.Identify([]byte(`<html><body><script>var SESSIONURL = "";</script></body></html>`)); f.Engine != "" {
		t.Errorf("one marker: %+v", f)
	}
}
