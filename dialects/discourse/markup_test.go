package discourse

import (
	"testing"
)

func TestMarkup(t *testing.T) {
	for in, want := range map[string]string{
		"[b]Ход 3[/b]: e2-e4\n[size=1][color=#b0b0b0]fgm-chess-12-ab3f[/color][/size]": "[b]Ход 3[/b]: e2-e4\n<small>fgm-chess-12-ab3f</small>",
		"[spoiler=Роль \"тайная\"]\nмафия\n[/spoiler] и [spoiler]x[/spoiler]":          "[details=\"Роль 'тайная'\"]\nмафия\n[/details] и [spoiler]x[/spoiler]",
		"[quote]a[/quote][code]b[/code][url=http://x]y[/url]":                          "[quote]a[/quote][code]b[/code][url=http://x]y[/url]",
	} {
		if got := Markup(in); got != want {
			t.Errorf("Markup(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// The marker line, as Discourse cooks the converted body (a soft break is <br>), reads back as a
// line of its own.
func TestMarkerReadBack(t *testing.T) {
	cooked := "<p><strong>Ход 3</strong>: e2-e4<br>\n<small>fgm-chess-12-ab3f</small></p>"
	if got := Cooked(cooked, nil).Text; got != "Ход 3: e2-e4\nfgm-chess-12-ab3f" {
		t.Errorf("text %q", got)
	}
}
