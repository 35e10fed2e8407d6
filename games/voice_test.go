package games

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// No game's texts rely on an emoji font: a forum reader without one sees a box («⚽» was the
// football report's bullet). Symbols from the Miscellaneous Symbols and Dingbats blocks and
// everything beyond the Basic Multilingual Plane are refused in every voice template.
func TestVoicesWithoutEmoji(t *testing.T) {
	files, err := filepath.Glob("*/voice/*.tmpl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no voice templates found: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, r := range line {
				if r == utf8.RuneError || (r >= 0x2600 && r <= 0x27BF) || r >= 0x1F000 || r == 0xFE0F {
					t.Errorf("%s:%d: %q (U+%04X) needs an emoji font: %s", f, i+1, r, r, line)
				}
			}
		}
	}
}
