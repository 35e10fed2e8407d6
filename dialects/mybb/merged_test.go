package mybb

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// A post MyBB auto-merged ("[hr]", its postmergesep, as a top-level <hr>) reads as its parts, each
// with its own text and quotes; an [hr] inside a quote separates nothing.
func TestMergedParts(t *testing.T) {
	body := func(s string) *html.Node {
		doc, err := html.Parse(strings.NewReader(`<div class="post_body" id="pid_7">` + s + `</div>`))
		if err != nil {
			t.Fatal(err)
		}
		var find func(*html.Node) *html.Node
		find = func(n *html.Node) *html.Node {
			if n.Type == html.ElementNode && n.Data == "div" {
				return n
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if f := find(c); f != nil {
					return f
				}
			}
			return nil
		}
		return find(doc)
	}
	b := renderBody(body(`Защищаемся 58<br />
<hr class="mycode_hr" />
<br />Защищаемся 77<blockquote class="mycode_quote"><cite>Джелу Wrote:</cite>доска</blockquote>`))
	if b.text == "" || len(b.merged) != 2 {
		t.Fatalf("want two parts: %+v", b)
	}
	if got := strings.TrimSpace(b.merged[0].Text); got != "Защищаемся 58" || len(b.merged[0].Quotes) != 0 {
		t.Errorf("part 1: %+v", b.merged[0])
	}
	if got := strings.TrimSpace(b.merged[1].Text); got != "Защищаемся 77" || len(b.merged[1].Quotes) != 1 {
		t.Errorf("part 2: %+v", b.merged[1])
	}
	for _, one := range []string{
		`Ход<br />`,
		`Ход<br /><hr class="mycode_hr" />`,
		`Ход<blockquote class="mycode_quote"><cite>X Wrote:</cite>а<hr class="mycode_hr" />б</blockquote>`,
	} {
		if b := renderBody(body(one)); b.merged != nil {
			t.Errorf("%q: one post, got parts %+v", one, b.merged)
		}
	}
}
