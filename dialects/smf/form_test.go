package smf

import "testing"

func TestPlainOf(t *testing.T) {
	got := plainOf("[quote author=a link=msg=1 date=2][quote]x[/quote]y[/quote]\n[b]Ход[/b] [url=http://e]тут[/url]")
	if fingerprint(got) != fingerprint("Ход тут") {
		t.Errorf("%q", got)
	}
}
