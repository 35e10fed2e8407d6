package phpbb

import (
	"testing"

	"forumgm/internal/fixture"
)

// TestRealPages reads the thread pages saved from real boards (testdata/realboards/phpbb at the
// module root, see its README) against goldens checked by reading each page.
func TestRealPages(t *testing.T) {
	fixture.RealGolden(t, "phpbb", testConfig(), *update, nil)
}

// phpBB 3.0 writes code as dl.codebox > dd > code with <br /> breaks and the indentation as
// no-break spaces; the code block keeps the indentation as spaces.
func TestOldCodebox(t *testing.T) {
	page := `<div id="p5" class="post bg1"><div class="postbody"><p class="author">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=3">ann</a></strong> &raquo; Sun May 26, 2019 4:34 pm </p>` +
		`<div class="content">move:<dl class="codebox"><dt>Code: <a href="#">Select all</a></dt><dd><code>if x:<br />&nbsp; &nbsp; E2-E4<br /></code></dd></dl></div></div></div>`
	posts, err := Extract([]byte(page), "", testConfig())
	if err != nil {
		t.Fatal(err)
	}
	p := posts[0]
	if p.Author != "ann" || p.AuthorID != "3" || len(p.Code) != 1 || p.Code[0] != "if x:\n    E2-E4" || len(p.Problems) > 0 {
		t.Errorf("got %+v", p)
	}
}
