package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

func testRenderer() *renderer {
	now := time.Date(2026, 11, 30, 3, 22, 30, 0, time.UTC)
	return &renderer{bburl: "http://board", now: now, date: func(t time.Time) string { return englishPack.relDate(t, now, time.UTC) }}
}

func TestRenderMyCode(t *testing.T) {
	r := testRenderer()
	for _, tc := range []struct{ in, want string }{
		{"a\nb", "a<br />\nb"},
		{"[b]x[/b] [i]y[/i] [u]z[/u]", `<span style="font-weight: bold;" class="mycode_b">x</span> <span style="font-style: italic;" class="mycode_i">y</span> <span style="text-decoration: underline;" class="mycode_u">z</span>`},
		// The board in a code block: leading blank line and spaces of the block trimmed, space
		// pairs as &nbsp;&nbsp;, single leading spaces of later lines kept, tabs as 4 &nbsp;.
		{"Доска:\n[code]\n    A  B   C \n 9|__|\n\tx\n[/code]\nдальше",
			"Доска:<br />\n" + `<div class="codeblock"><div class="title">Code:</div><div class="body" dir="ltr"><code>A&nbsp;&nbsp;B&nbsp;&nbsp; C <br />` +
				"\n 9|__|<br />\n&nbsp;&nbsp;&nbsp;&nbsp;x</code></div></div>дальше"},
		{"[code][b]не жирный[/b] <i> $1 \\ :)[/code]", `<div class="codeblock"><div class="title">Code:</div><div class="body" dir="ltr"><code>[b]не жирный[/b] &lt;i&gt; &#36;1 &#92; :)</code></div></div>`},
		{"[quote]без имени[/quote]после", `<blockquote class="mycode_quote"><cite>Quote:</cite>без имени</blockquote>после`},
		{"[quote=\"Джелу\"]\nтекст\n[/quote]", `<blockquote class="mycode_quote"><cite>Джелу Wrote:</cite>текст</blockquote>`},
		{"[quote=\"Джелу\" pid='10' dateline='1796008717']\nход\n[/quote]\nответ",
			`<blockquote class="mycode_quote"><cite><span> (<span title="11-30-2026, 03:18 AM">3 minutes ago</span>)</span>Джелу Wrote:  <a href="http://board/showthread.php?pid=10#pid10" class="quick_jump"></a></cite>ход</blockquote>ответ`},
		{"[img]https://example.org/pics/3f2a.png[/img]\nтекст", `<img src="https://example.org/pics/3f2a.png" loading="lazy"  alt="[Image: 3f2a.png]" class="mycode_img" /><br />` + "\nтекст"},
		{"[img]javascript:alert(1)[/img]", "[img]javascript:alert(1)[/img]"},
		{"[spoiler]тайна[/spoiler]", `<div class="spoiler"><div class="spoiler_title">Spoiler</div><div class="spoiler_content">тайна</div></div>`},
		{"[spoiler=План]a\nb[/spoiler]\nc", `<div class="spoiler"><div class="spoiler_title">План</div><div class="spoiler_content">a<br />` + "\nb</div></div>\nc"},
		{"[url]http://example.org/a?b=1&c=2[/url]", `<a href="http://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener" class="mycode_url">http://example.org/a?b=1&amp;c=2</a>`},
		{"see http://example.org/x.", `see <a href="http://example.org/x" target="_blank" rel="noopener" class="mycode_url">http://example.org/x</a>.`},
		{"до\n[hr]\nпосле", "до<br />\n<hr class=\"mycode_hr\" />\nпосле"},
		{"<script>alert(1)</script> & &#1078;", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#1078;"},
		{"[url=javascript:alert(1)]x[/url]", "[url=javascript:alert(1)]x[/url]"},
		// The game master's marker line: numeric size (size_int, pt, clamped) around a colour.
		{"[size=1][color=#b0b0b0]fgm-g-1-abcdef[/color][/size]", `<span style="font-size: 1pt;" class="mycode_size"><span style="color: #b0b0b0;" class="mycode_color">fgm-g-1-abcdef</span></span>`},
		{"[size=99]x[/size][size=-3]y[/size]", `<span style="font-size: 50pt;" class="mycode_size">x</span><span style="font-size: 1pt;" class="mycode_size">y</span>`},
		{"Удачи :) ok", `Удачи <img src="http://board/images/smilies/smile.png" alt="Smile" title="Smile" class="smilie smilie_1" /> ok`},
	} {
		if got := r.Render(tc.in, true); got != tc.want {
			t.Errorf("Render(%q)\n got: %q\nwant: %q", tc.in, got, tc.want)
		}
	}
}

// TestRenderNoInjection renders hostile inputs and checks the HTML has no script, no event
// handler attributes and no links outside http(s)/ftp.
func TestRenderNoInjection(t *testing.T) {
	r := testRenderer()
	hostile := []string{
		`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`, `"><svg onload=alert(1)>`,
		`[url=http://x" onmouseover="alert(1)]a[/url]`, `[url=javascript://%0aalert(1)]a[/url]`, `[url]javascript:alert(1)[/url]`,
		`[quote="<b onclick=x>" pid='1' dateline='1']q[/quote]`, `[quote='a" onclick="x' pid="2"]q[/quote]`,
		`[spoiler=<img src=x onerror=alert(1)>]s[/spoiler]`, `[color=red;background:url(x)]c[/color]`, `[size=1;x]s[/size]`,
		`[code]</code><script>x</script>[/code]`, "[url=http://a.b/\"onclick=x]y[/url]", `http://a.b/"onmouseover=x`,
		`[quote][quote][url=http://a]b[/quote][/url][/quote]`, `[b][i]x[/b][/i]`, `&lt;script&gt;`, `&#60;script&#62;`,
	}
	var combos []string
	for _, a := range hostile {
		combos = append(combos, a)
		for _, b := range hostile[:6] {
			combos = append(combos, a+"\n"+b, "[quote]"+a+"[/quote]"+b, "[spoiler="+a+"]"+b+"[/spoiler]")
		}
	}
	for _, in := range combos {
		out := r.Render(in, true)
		d, err := goquery.NewDocumentFromReader(strings.NewReader("<div>" + out + "</div>"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Find("script, svg, iframe, object, embed").Length() > 0 {
			t.Errorf("%q → element injection: %s", in, out)
		}
		d.Find("*").Each(func(_ int, s *goquery.Selection) {
			for _, a := range s.Nodes[0].Attr {
				k := strings.ToLower(a.Key)
				if strings.HasPrefix(k, "on") {
					t.Errorf("%q → event attribute %s: %s", in, a.Key, out)
				}
				if k == "href" || k == "src" {
					v := strings.ToLower(strings.TrimSpace(a.Val))
					if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "ftp://") {
						t.Errorf("%q → %s=%q", in, a.Key, a.Val)
					}
				}
				if k == "style" && strings.Contains(strings.ToLower(a.Val), "url(") {
					t.Errorf("%q → style %q", in, a.Val)
				}
			}
		})
	}
}

func TestRelDate(t *testing.T) {
	now := time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want string
	}{
		{30 * time.Second, `<span title="11-30-2026, 02:59 PM">Less than 1 minute ago</span>`},
		{60 * time.Second, `<span title="11-30-2026, 02:59 PM">Less than 1 minute ago</span>`},
		{90 * time.Second, `<span title="11-30-2026, 02:58 PM">1 minute ago</span>`},
		{7 * time.Minute, `<span title="11-30-2026, 02:53 PM">7 minutes ago</span>`},
		{2 * time.Hour, `<span title="11-30-2026, 01:00 PM">2 hours ago</span>`},
		{13 * time.Hour, `<span title="11-30-2026">Today</span>, 02:00 AM`},
		{20 * time.Hour, `<span title="11-29-2026">Yesterday</span>, 07:00 PM`},
		{72 * time.Hour, `11-27-2026, 03:00 PM`},
	} {
		if got := englishPack.relDate(now.Add(-tc.ago), now, time.UTC); got != tc.want {
			t.Errorf("%v ago: %q, want %q", tc.ago, got, tc.want)
		}
	}
}
