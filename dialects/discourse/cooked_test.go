package discourse

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// The cooked HTML below is Discourse's own: the expected outputs of pretty-text-test.js (see
// testdata/README.md), except the details and spoiler blocks, written after the
// discourse-details and discourse-spoiler-alert plugins' markup.
func TestCooked(t *testing.T) {
	numbers := map[string]string{"1": "101", "4": "104"}
	quoteID := func(topic, n string) string {
		if topic != "" && topic != "2" {
			return ""
		}
		return numbers[n]
	}
	for _, tc := range []struct {
		name, cooked string
		want         scrape.Body
	}{
		{"paragraphs and breaks", "<p>a</p>\n<p>b<br>\nc</p>", scrape.Body{Text: "a\n\nb\nc"}},
		{"quote with author and post", `<aside class="quote no-group" data-username="eviltrout" data-post="1">
<div class="title">
<div class="quote-controls"></div>
 eviltrout:</div>
<blockquote>
<p>a quote</p>
<p>second line</p>
<p>third line</p>
</blockquote>
</aside>
<p>my move: e2-e4</p>`, scrape.Body{Text: "my move: e2-e4", Quotes: []forum.Quote{{Author: "eviltrout", PostID: "101", Text: "a quote\n\nsecond line\n\nthird line"}}}},
		{"quote of another topic keeps no id", `<aside class="quote group-aUserGroup" data-username="bob" data-post="1" data-topic="1">
<div class="title">
<div class="quote-controls"></div>
 bob:</div>
<blockquote>
<p>test quote</p>
</blockquote>
</aside>`, scrape.Body{Quotes: []forum.Quote{{Author: "bob", Text: "test quote"}}}},
		{"nested quotes stay in the outer one", `<aside class="quote no-group">
<blockquote>
<p>a</p>
<aside class="quote no-group">
<blockquote>
<p>b</p>
</blockquote>
</aside>
</blockquote>
</aside>`, scrape.Body{Quotes: []forum.Quote{{Text: "a\nb"}}}},
		{"nested named quote has its header line", `<aside class="quote no-group" data-username="ann" data-post="4"><blockquote><p>x</p><aside class="quote no-group" data-username="bob" data-post="1"><div class="title"> bob:</div><blockquote><p>y</p></blockquote></aside></blockquote></aside><p>z</p>`,
			scrape.Body{Text: "z", Quotes: []forum.Quote{{Author: "ann", PostID: "104", Text: "x\nbob:\ny"}}}},
		{"quote with missing username", `<aside class="quote no-group" data-post="1">
<blockquote>
<p>a quote</p>
</blockquote>
</aside>`, scrape.Body{Quotes: []forum.Quote{{PostID: "101", Text: "a quote"}}}},
		{"markdown blockquote names nobody", "<blockquote>\n<p>indent 1<br>\nindent 2</p>\n</blockquote>\n<p>own</p>",
			scrape.Body{Text: "own", Quotes: []forum.Quote{{Text: "indent 1\nindent 2"}}}},
		{"fenced code", "<p>hello<br>\nworld</p>\n<pre data-code-wrap=\"json\"><code class=\"lang-json\">line 1\n\nline 2\n\n\nline3\n</code></pre>",
			scrape.Body{Text: "hello\nworld\nline 1\n\nline 2\n\n\nline3", Code: []string{"line 1\n\nline 2\n\n\nline3"}}},
		{"escaped code", "<pre data-code-wrap=\"ruby\"><code class=\"lang-ruby\">&lt;header&gt;hello&lt;/header&gt;\n</code></pre>",
			scrape.Body{Text: "<header>hello</header>", Code: []string{"<header>hello</header>"}}},
		{"inline code and mentions are text", "<p><code>evil</code> <span class=\"mention\">@EvilTrout</span> <code>trout</code></p>",
			scrape.Body{Text: "evil @EvilTrout trout"}},
		{"details is a spoiler", "<details>\n<summary>\nРоль</summary>\n<p>мафия</p>\n</details>\n<p>ход</p>",
			scrape.Body{Text: "ход", Spoilers: []forum.Spoiler{{Title: "Роль", Text: "мафия"}}}},
		{"spoiler plugin", "<div class=\"spoiler\">\n<p>секрет</p>\n</div>", scrape.Body{Spoilers: []forum.Spoiler{{Text: "секрет"}}}},
		{"emoji are their names, pictures nothing", `<p>ok <img src="/images/emoji/twitter/smile.png?v=12" title=":smile:" class="emoji" alt=":smile:" loading="lazy" width="20" height="20"></p>
<p><div class="lightbox-wrapper"><a class="lightbox" href="/uploads/x.png"><img src="/uploads/x_690.png" alt="board"><div class="meta"><span class="filename">board</span><span class="informations">800×600 20 KB</span></div></a></div></p>`,
			scrape.Body{Text: "ok :smile:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Cooked(tc.cooked, quoteID)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Cooked:\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// FuzzCooked: any cooked HTML is taken apart without a panic, into valid UTF-8, and what the
// quotes hold is never also the author's own text line for line.
func FuzzCooked(f *testing.F) {
	for _, s := range []string{
		`<aside class="quote no-group" data-username="a" data-post="1"><div class="title">a:</div><blockquote><p>q</p></blockquote></aside><p>own</p>`,
		"<pre><code>x\n</code></pre>", "<details><summary>t</summary><p>s</p></details>",
		`<aside class="quote" data-post="x" data-topic="">`, "<blockquote><aside class=quote><blockquote>",
		"<p>a<br>b</p><p>c</p>", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cooked string) {
		b := Cooked(cooked, func(topic, n string) string { return topic + "#" + n })
		if !utf8.ValidString(cooked) {
			return
		}
		for _, s := range append([]string{b.Text}, b.Code...) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q from %q", s, cooked)
			}
		}
		for _, q := range b.Quotes {
			if !utf8.ValidString(q.Text) || strings.ContainsRune(q.Author, '\n') {
				t.Fatalf("bad quote %#v from %q", q, cooked)
			}
		}
	})
}

// BenchmarkCooked takes apart a topic's worth of posts (twenty, each a quote, two paragraphs and
// a code block), what one chunk of a topic costs to read.
func BenchmarkCooked(b *testing.B) {
	post := `<aside class="quote no-group" data-username="alice" data-post="3" data-topic="501"><div class="title"><div class="quote-controls"></div> alice:</div><blockquote><p>ход 3: e2-e4</p></blockquote></aside>
<p>Протестую: <strong>e4</strong> занято. <span class="mention">@gm-bot</span>, посмотрите.</p>
<p>Моя доска:</p>
<pre><code class="lang-auto">8 ♜♞♝♛♚♝♞♜
7 ♟♟♟♟♟♟♟♟
</code></pre>`
	quoteID := func(topic, n string) string { return "1" + n }
	b.ReportAllocs()
	for b.Loop() {
		for range 20 {
			Cooked(post, quoteID)
		}
	}
}
