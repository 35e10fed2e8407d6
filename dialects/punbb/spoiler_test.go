package punbb

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// PunBB core has no spoilers; extensions render <details> or a quote box with a spoiler class.
func TestSpoiler(t *testing.T) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(`<div class="entry-content"><p>Ход.</p>` +
		`<div class="quotebox spoiler-box"><cite>Разбор</cite><blockquote><p>в1 на C4</p></blockquote></div>` +
		`<details><summary>Тайна</summary><p>н3</p></details><p>конец</p></div>`))
	if err != nil {
		t.Fatal(err)
	}
	b := renderBody(doc.Find("div.entry-content"))
	if b.text != "Ход.\nконец" || len(b.quotes) != 0 {
		t.Errorf("text %q quotes %+v", b.text, b.quotes)
	}
	if len(b.spoilers) != 2 || b.spoilers[0].Title != "Разбор" || b.spoilers[0].Text != "в1 на C4" ||
		b.spoilers[1].Title != "Тайна" || b.spoilers[1].Text != "н3" {
		t.Errorf("spoilers %+v", b.spoilers)
	}
}
