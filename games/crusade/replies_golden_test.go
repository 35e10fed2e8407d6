package crusade

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTurnRepliesGolden: the turn replies, thread and private, with every part a turn can show,
// are the bytes in testdata/turn_replies.golden (see testdata/README.md).
func TestTurnRepliesGolden(t *testing.T) {
	var out strings.Builder
	c := newRef(t)
	k1, k2 := rules.Cell{Row: 10, Col: 17}, rules.Cell{Row: 10, Col: 16}
	evs := []*rules.TurnPlayed{
		{At: at(19, 5), Author: "Дже[b]лу", Side: rules.Crusaders, Number: 3,
			Moves:     []rules.MoveResult{{Warrior: "к1", From: k1, To: k2}, {Warrior: "р1", From: k2, To: k1, Charge: true}},
			Revealed:  []rules.Reveal{{Warrior: "в1", Cell: k1}, {Warrior: "в2", Cell: k2}},
			Removed:   []rules.Removed{{Warrior: "в3", Cell: k1}},
			Sloppy:    []rules.Sloppiness{{Code: rules.SloppyBoardMismatch}, {Code: rules.SloppyOrdinalWrong, Warrior: "к1", Stated: 2, Expected: 1}},
			BoardDiff: []rules.CellDiff{{Cell: k1, Quoted: "[x]", Actual: ""}, {Cell: k2, Quoted: "", Actual: "к1"}, {Cell: k2, Quoted: "\x01", Actual: "к1"}},
			Wounds:    2, Next: rules.Saracens},
		{At: at(19, 5), Author: "snovaya", Side: rules.Saracens, Number: 4, Wounds: 5,
			Victory: &rules.Victory{Winner: rules.Saracens, Reason: rules.VictoryFlag, Warrior: "в1", Cell: &k1}},
		{At: at(19, 5), Author: "snovaya", Side: rules.Saracens, Number: 5, Next: rules.Crusaders},
	}
	for _, src := range []game.Source{game.Thread, game.PM} {
		for _, ev := range evs {
			in := post(ev.Author, at(19, 5), "x")
			in.Source = src
			msgs, err := c.rules().Messages(game.Context{In: &in}, ev)
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
