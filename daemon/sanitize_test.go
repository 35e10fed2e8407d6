package daemon

import (
	"testing"
)

// What a player wrote reaches a post only as valid UTF-8 without NUL, opening no tag and holding
// no marker: in any body the poster marks (a moderator's notice: store's TestEchoedPlayerTextSanitised).
func TestEchoedPlayerTextSanitised(t *testing.T) {
	got := Mark("ход\xff к1\x00\n", "fgm-g1-1-0123456789ab")
	if got != "ход к1\n[size=1][color=#b0b0b0]fgm-g1-1-0123456789ab[/color][/size]" {
		t.Errorf("Mark: %q", got)
	}
}
