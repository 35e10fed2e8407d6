package smf

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// SMF core has no spoiler BBCode; mods render <details> or div.*spoiler*: taken out of the text.
func TestSpoilerAndPre(t *testing.T) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(`<div class="inner">Ход.<br>` +
		`<details><summary>Разбор</summary>в1 на C4<br>н2 на G5</details>` +
		`<div class="sp-wrap"><div class="sp-head">Тайна</div><div class="sp-body">н3</div></div>` +
		`<pre>  a  b</pre>конец</div>`))
	if err != nil {
		t.Fatal(err)
	}
	b := renderBody(doc.Find("div.inner"))
	if b.text != "Ход.\n  a  b\nконец" {
		t.Errorf("text %q", b.text)
	}
	if len(b.spoilers) != 2 || b.spoilers[0].Title != "Разбор" || b.spoilers[0].Text != "в1 на C4\nн2 на G5" ||
		b.spoilers[1].Title != "Тайна" || b.spoilers[1].Text != "н3" {
		t.Errorf("spoilers %+v", b.spoilers)
	}
	if len(b.code) != 0 {
		t.Errorf("[pre] is not a code block: %q", b.code)
	}
}
