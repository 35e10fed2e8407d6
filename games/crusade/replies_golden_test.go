package crusade

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cr "forumgm/engine/crusade"
	"forumgm/judge"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTurnRepliesGolden: the turn replies, thread and private, with every part a turn can show,
// are the bytes in testdata/turn_replies.golden (see testdata/README.md).
func TestTurnRepliesGolden(t *testing.T) {
	var out strings.Builder
	c := newRef(t)
	k1, k2 := cr.Cell{Row: 10, Col: 17}, cr.Cell{Row: 10, Col: 16}
	evs := []*cr.TurnPlayed{
		{At: at(19, 5), Author: "Дже[b]лу", Side: cr.Crusaders, Number: 3,
			Moves:     []cr.MoveResult{{Warrior: "к1", From: k1, To: k2}, {Warrior: "р1", From: k2, To: k1, Charge: true}},
			Revealed:  []cr.Reveal{{Warrior: "в1", Cell: k1}, {Warrior: "в2", Cell: k2}},
			Removed:   []cr.Removed{{Warrior: "в3", Cell: k1}},
			Sloppy:    []cr.Sloppiness{{Code: cr.SloppyBoardMismatch}, {Code: cr.SloppyOrdinalWrong, Warrior: "к1", Stated: 2, Expected: 1}},
			BoardDiff: []cr.CellDiff{{Cell: k1, Quoted: "[x]", Actual: ""}, {Cell: k2, Quoted: "", Actual: "к1"}, {Cell: k2, Quoted: "\x01", Actual: "к1"}},
			Wounds:    2, Next: cr.Saracens},
		{At: at(19, 5), Author: "snovaya", Side: cr.Saracens, Number: 4, Wounds: 5,
			Victory: &cr.Victory{Winner: cr.Saracens, Reason: cr.VictoryFlag, Warrior: "в1", Cell: &k1}},
		{At: at(19, 5), Author: "snovaya", Side: cr.Saracens, Number: 5, Next: cr.Crusaders},
	}
	for _, src := range []judge.Source{judge.Thread, judge.PM} {
		for _, ev := range evs {
			in := post(ev.Author, at(19, 5), "x")
			in.Source = src
			msgs, err := c.rules().Messages(judge.Context{In: &in}, ev)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range msgs {
				out.WriteString(m.To + "|" + m.Body + "\n=====\n")
			}
		}
	}
	path := filepath.Join("testdata", "turn_replies.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("the turn replies differ from %s:\n%s", path, out.String())
	}
}
