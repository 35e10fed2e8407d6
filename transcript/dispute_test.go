package transcript

import (
	"strings"
	"testing"
)

// A move and the dispute keyword in one post (issue 19, item 10): the move is judged and the
// dispute filed, the reply says both, and the other side then has the move.
func TestMoveAndDisputeInOnePost(t *testing.T) {
	tr, err := Parse([]byte(`game: crusade
settings: {board_required: false}
start: 2026-12-01T18:00:00+03:00
players:
  - {name: Джелу, side: crusaders}
  - {name: snovaya, side: saracens}
deployment: default
posts:
  - {author: Джелу, at: 2026-12-01T19:05:00+03:00, text: "1-й ход крестоносца к1 на K16"}
  - {author: snovaya, at: 2026-12-01T19:20:00+03:00, text: "1-й ход сарацина н1 на N1"}
  - {author: Джелу, at: 2026-12-01T19:40:00+03:00, text: "2-й ход крестоносца к1 на K15\n#спор: прошлый ход сарацина был не по правилам"}
  - {author: snovaya, at: 2026-12-01T20:00:00+03:00, text: "2-й ход сарацина н1 на O1"}
  - {author: Джелу, at: 2026-12-01T20:10:00+03:00, text: "#спор: и ещё раз не согласен"}
`), known)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	both := res.Posts[2]
	if both.Verdict != "accepted" {
		t.Fatalf("the move before the dispute must be judged: verdict %s, replies %q", both.Verdict, both.Replies)
	}
	reply := strings.Join(both.Replies, "\n")
	if !strings.Contains(reply, "K15") || !strings.Contains(reply, "возражение передано модератору") {
		t.Fatalf("the reply must say both the move and the dispute: %q", both.Replies)
	}
	if next := res.Posts[3]; next.Verdict != "accepted" {
		t.Fatalf("the other side has the move after it: %s %q", next.Verdict, next.Replies)
	}
	if alone := res.Posts[4]; alone.Verdict != "flagged" || len(alone.Replies) != 1 || !strings.Contains(alone.Replies[0], "возражение") {
		t.Fatalf("a dispute alone stays a dispute: %s %q", alone.Verdict, alone.Replies)
	}
}
