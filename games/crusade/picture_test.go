package crusade

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"forumgm/forum"
	"forumgm/game"
)

// The opening post carries the whole board as a picture (MyBB's default code box shows about 10
// of its 23 lines); with board_picture every reply with the board carries it too, placed after
// the text board; without it the replies carry none.
func TestBoardPicture(t *testing.T) {
	for _, withPicture := range []bool{false, true} {
		c := newRef(t, func(o *CrusadeOptions) { o.Settings.BoardPicture = withPicture })
		start, err := c.Start(at(18, 0))
		if err != nil {
			t.Fatal(err)
		}
		atts := start.Messages[0].Attachments
		if len(atts) != 1 || atts[0].ContentType != "image/png" {
			t.Fatalf("the opening post's attachments: %d", len(atts))
		}
		if _, err := png.Decode(bytes.NewReader(atts[0].Data)); err != nil {
			t.Fatalf("the opening post's picture: %v", err)
		}
		out := mustJudge(t, c, post("Джелу", at(19, 5), "1-й ход крестоносца к1 на K16"), game.Accepted)
		m := out.Messages[0]
		if !withPicture {
			if len(m.Attachments) != 0 {
				t.Errorf("a turn reply without board_picture carries %d pictures", len(m.Attachments))
			}
			continue
		}
		if len(m.Attachments) != 1 || !strings.HasSuffix(m.Body, forum.Placeholder(m.Attachments[0].Name)) ||
			strings.Index(m.Body, "[/code]") > strings.Index(m.Body, forum.Placeholder(m.Attachments[0].Name)) {
			t.Fatalf("the turn reply's picture: %d attachments\n%s", len(m.Attachments), m.Body)
		}
		if bytes.Equal(m.Attachments[0].Data, atts[0].Data) {
			t.Error("the turn's picture is the opening board, not the board after the move")
		}
	}
}

// The sandbox's banner tells the truth about quoting the board: with board_required false (the
// sandbox's setting) a move without the board is accepted cleanly, but a quoted board that does
// not match the position after the move costs a wound, so the banner must not call quoting
// optional.
func TestSandboxBannerOnQuoting(t *testing.T) {
	try := strings.Join(Game{}.Sandbox().Try, " ")
	if strings.Contains(try, "optional") || !strings.Contains(try, "does not match") || !strings.Contains(try, "costs a") {
		t.Errorf("the banner:\n%s", try)
	}
	if !strings.Contains(Game{}.Sandbox().Spec, "board_required: false") {
		t.Fatal("the sandbox no longer accepts a move without the board: reword the banner")
	}
	c := newRef(t) // board_required false, as in the sandbox
	if _, err := c.Start(at(18, 0)); err != nil {
		t.Fatal(err)
	}
	stale := "[quote=gm-bot][code]\n" + c.game().Board() + "\n[/code][/quote]\n1-й ход крестоносца к1 на K16"
	out := mustJudge(t, c, post("Джелу", at(19, 5), stale), game.Accepted)
	if !strings.Contains(out.Messages[0].Body, "+1 ранение") {
		t.Errorf("a wrong quoted board must cost a wound:\n%s", out.Messages[0].Body)
	}
}
