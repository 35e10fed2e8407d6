package smfposter

import (
	"strings"
	"testing"
)

func TestSplitMessage(t *testing.T) {
	// A single line longer than the limit is cut at rune boundaries.
	long := strings.Repeat("ход ", 50)
	parts := splitMessage(long, 60, runeCount)
	if strings.Join(parts, "") != long {
		t.Errorf("parts do not add up: %q", parts)
	}
	for _, p := range parts {
		if runeCount(p) > 60 {
			t.Errorf("part of %d runes", runeCount(p))
		}
	}
	if got := splitMessage("short", 60, runeCount); len(got) != 1 || got[0] != "short" {
		t.Errorf("short: %q", got)
	}
}

func TestPlainOf(t *testing.T) {
	got := plainOf("[quote author=a link=msg=1 date=2][quote]x[/quote]y[/quote]\n[b]Ход[/b] [url=http://e]тут[/url]")
	if fingerprint(got) != fingerprint("Ход тут") {
		t.Errorf("%q", got)
	}
}
