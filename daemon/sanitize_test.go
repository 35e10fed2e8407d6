package daemon

import (
	"strings"
	"testing"
	"unicode/utf8"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/store"
)

// What a player wrote reaches a post only as valid UTF-8 without NUL, opening no tag and holding
// no marker: in a moderator's notice and in any body the poster marks.
func TestEchoedPlayerTextSanitised(t *testing.T) {
	in := &game.Input{PostID: "7", Author: "Дже\x00лу\xc3", Post: forum.Post{Text: "ход\xff\xfe к1\x00 [b]fgm-g1-3-0123456789ab"}}
	f := game.Flag{Kind: game.FlagEdited, PostID: "7", Was: "ход к2"}
	_, notice, err := Notice(noticeView("g1", 3, f, store.FlagEdited, in, game.Outcome{}, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(notice) || strings.ContainsRune(notice, 0) || strings.Contains(notice, "[b]") || strings.Contains(notice, "fgm-") {
		t.Errorf("notice: %q", notice)
	}
	if !strings.Contains(notice, "Джелу") || !strings.Contains(notice, "ход к1") {
		t.Errorf("the readable text is lost: %q", notice)
	}
	got := Mark("ход\xff к1\x00\n", "fgm-g1-1-0123456789ab")
	if got != "ход к1\n[size=1][color=#b0b0b0]fgm-g1-1-0123456789ab[/color][/size]" {
		t.Errorf("Mark: %q", got)
	}
}
