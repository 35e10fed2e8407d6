package scrape

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"forumgm/forum"
)

var (
	punbbLike = &Dialect{
		QuoteBoxClass:     "quotebox",
		CodeBoxClass:      "codebox",
		SkipClasses:       []string{"sig-content"},
		CiteTitlesSpoiler: true,
		ParagraphGap:      true,
		QuoteAuthor:       func(h string) string { return strings.TrimSuffix(h, " wrote:") },
	}
	smfLike = &Dialect{
		CiteInBlockquote: true,
		CodeClass:        "bbc_code",
		SkipClasses:      []string{"codeheader", "signature"},
		NbspInCode:       true,
		Smiley: func(n *html.Node) string {
			if HasClass(n, "smiley") {
				return Attr(n, "alt")
			}
			return ""
		},
		QuotePostID: func(href string) string {
			if _, id, ok := strings.Cut(href, "#msg"); ok {
				return id
			}
			return ""
		},
	}
	mybbLike = &Dialect{
		CiteInBlockquote: true,
		CodeBoxClass:     "codeblock",
		CodeBodyClass:    "body",
		CodeBreaksOnly:   true,
		NbspInCode:       true,
		NbspVisible:      true,
		KeepBreaks:       true,
		HrBlankLine:      true,
		SpoilerClass:     "spoiler",
		NestedQuoteBare:  true,
		QuoteCite: func(cite *html.Node) (string, string) {
			return strings.TrimSuffix(Collapse(goquery.NewDocumentFromNode(cite).Find("b").Text()), ":"), Attr(cite, "data-pid")
		},
	}
)

// attrsLike reads Discourse-like markup: quotes named by attributes, <pre> as code.
var attrsLike = &Dialect{
	PreIsCode: true,
	QuoteAttrs: func(n *html.Node) (string, string, *html.Node, bool) {
		if n.Data != "aside" {
			return "", "", nil, false
		}
		return Attr(n, "data-username"), Attr(n, "data-post"), firstChild(n, "blockquote"), true
	},
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *Dialect
		html string
		want Body
	}{
		{"white space collapses, br breaks", &Dialect{}, "  a \n  b<br>c<br><br><br>d", Body{Text: "a b\nc\n\nd"}},
		{"blocks start on a new line", &Dialect{}, "<p>a</p><p>b</p><div>c</div>", Body{Text: "a\nb\nc"}},
		{"paragraph gap", punbbLike, "<p>a</p><p>b</p><ul><li><p>c</p><p>d</p></li></ul>", Body{Text: "a\n\nb\nc\nd"}},
		{"table cells are spaced", &Dialect{}, "<table><tr><td>a</td><td>b</td></tr></table>", Body{Text: "a b"}},
		{"hidden and form elements add nothing", &Dialect{}, "a<script>x</script><textarea>y</textarea><img src=s.png alt=z>b", Body{Text: "ab"}},
		{"bare blockquote names nobody", &Dialect{}, "<blockquote><cite>X</cite> q</blockquote>t",
			Body{Text: "t", Quotes: []forum.Quote{{Text: "X q"}}}},
		{"quote box", punbbLike, `<div class="quotebox"><cite>ann wrote:</cite><blockquote><p>q</p></blockquote></div><p>own</p>`,
			Body{Text: "own", Quotes: []forum.Quote{{Author: "ann", Text: "q"}}}},
		{"cite in blockquote with post id", smfLike, `<blockquote><cite><a href="index.php?topic=1.msg5#msg5">Quote from: bob</a></cite>q<blockquote><cite>Quote</cite>inner</blockquote></blockquote>own`,
			Body{Text: "own", Quotes: []forum.Quote{{Author: "Quote from: bob", PostID: "5", Text: "q\nQuote\ninner"}}}},
		{"code box", punbbLike, "<div class=\"codebox\"><pre>a\r\n  b\n</pre></div>x",
			Body{Text: "a\n  b\nx", Code: []string{"a\n  b"}}},
		{"code class and nbsp", smfLike, "<div class=\"codeheader\">Code:</div><code class=\"bbc_code\">a&nbsp; b<br>c</code>",
			Body{Text: "a  b\nc", Code: []string{"a  b\nc"}}},
		{"code element without the class is text", punbbLike, "<code>a  b</code>", Body{Text: "a b"}},
		{"pre is verbatim, not code", &Dialect{}, "x<pre>  a&nbsp;b</pre>y", Body{Text: "x\n  a\u00a0b\ny"}},
		{"spoilers", punbbLike, `<details><summary>S</summary>s1</details><div class="quotebox spoiler"><cite>T</cite>s2</div><div class="sp-wrap"><div class="sp-head">U</div>s3</div>`,
			Body{Spoilers: []forum.Spoiler{{Title: "S", Text: "s1"}, {Title: "T", Text: "s2"}, {Title: "U", Text: "s3"}}}},
		{"cite does not title a spoiler unless told", smfLike, `<details><cite>T</cite> s</details>`,
			Body{Spoilers: []forum.Spoiler{{Text: "T s"}}}},
		{"spoiler in a quote stays in its text", punbbLike, `<blockquote><details><summary>S</summary>s</details></blockquote>`,
			Body{Quotes: []forum.Quote{{Text: "S\ns"}}}},
		{"skipped classes", smfLike, `a<div class="signature">sig</div>`, Body{Text: "a"}},
		{"kept breaks and visible no-break spaces", mybbLike, "a<br>\n<br>\n<br>\nb&nbsp;&nbsp;c", Body{Text: "a\n\n\nb  c"}},
		{"hr is an empty line", mybbLike, "a<hr>b", Body{Text: "a\n\nb"}},
		{"code body, breaks only", mybbLike, `<div class="codeblock"><div class="title">Code:</div><div class="body"><code>a&nbsp;&nbsp;b<br />` + "\n" + `c</code></div></div>`,
			Body{Text: "a  b\nc", Code: []string{"a  b\nc"}}},
		{"quote header read from the node; nested quote bare", mybbLike,
			`<blockquote><cite data-pid="7">(date) <b>ann:</b></cite>q<blockquote><cite>(d) <b>bob:</b></cite>inner</blockquote></blockquote>own`,
			Body{Text: "own", Quotes: []forum.Quote{{Author: "ann", PostID: "7", Text: "q\ninner"}}}},
		{"exact spoiler class", mybbLike, `<div class="spoiler"><div class="spoiler_title">T</div><div class="spoiler_content">a<br />b</div></div>`,
			Body{Spoilers: []forum.Spoiler{{Title: "T", Text: "a\nb"}}}},
		{"smiley", smfLike, `hi <img class="smiley" alt=";)"> <img src="p.png" alt="photo">`, Body{Text: "hi ;)"}},
		{"quote named by attributes, header outside its text", attrsLike,
			`<aside class="quote" data-username="ann" data-post="3"><div class="title">ann:</div><blockquote><p>q</p><aside class="quote" data-username="bob"><blockquote>r</blockquote></aside></blockquote></aside><p>own</p>`,
			Body{Text: "own", Quotes: []forum.Quote{{Author: "ann", PostID: "3", Text: "q\nbob:\nr"}}}},
		{"quote named by attributes without a content node", attrsLike, `<aside data-username="cy">t</aside>`,
			Body{Quotes: []forum.Quote{{Author: "cy", Text: "t"}}}},
		{"pre is code when told", attrsLike, "x<pre><code>  a\nb\n</code></pre>", Body{Text: "x\n  a\nb", Code: []string{"  a\nb"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(`<div id="body">` + tc.html + `</div>`))
			if err != nil {
				t.Fatal(err)
			}
			if got := Render(doc.Find("#body"), tc.d); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestCollapse(t *testing.T) {
	for in, want := range map[string]string{"": "", "  a \n\t b ": "a b", "a\u00a0\u00a0b": "a b"} {
		if got := Collapse(in); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAbsURL(t *testing.T) {
	base, _ := url.Parse("http://h/f/viewtopic.php?id=1")
	for _, tc := range []struct {
		base      *url.URL
		ref, want string
	}{
		{base, "viewtopic.php?pid=2#p2", "http://h/f/viewtopic.php?pid=2#p2"},
		{base, "/index.php", "http://h/index.php"},
		{nil, "viewtopic.php", "viewtopic.php"},
		{base, "%zz", "%zz"},
	} {
		if got := AbsURL(tc.base, tc.ref); got != tc.want {
			t.Errorf("AbsURL(%v, %q) = %q, want %q", tc.base, tc.ref, got, tc.want)
		}
	}
}

// text is the layout the walkers share (forum/scrape drives it with its own selectors).
func TestText(t *testing.T) {
	var w text
	w.Break() // nothing yet: no leading line
	w.Write("  a \n b")
	w.Break()
	w.Block(1) // the break already started the line
	w.Write("c")
	w.Block(2)
	w.Break()
	w.Break() // at most one blank line
	w.Write("d\u00a0\u00a0e")
	w.Verbatim("  x\n y\n\n")
	w.Write("f")
	if got, want := w.String(), "a b\nc\n\nd e\n  x\n y\nf"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	v := text{NbspVisible: true, KeepBreaks: true}
	v.Write("d\u00a0\u00a0e")
	v.Break()
	v.Break()
	v.Break()
	v.Write("f")
	if got, want := v.String(), "d  e\n\n\nf"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
