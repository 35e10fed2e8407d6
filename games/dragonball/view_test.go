package dragonball

import (
	"bytes"
	"image/png"
	"slices"
	"testing"

	"forumgm/games/dragonball/rules"
)

// The view shows the last round tact by tact: a picture after each tact before the last, played
// again from the log (the round's event keeps only the state after it), then the field after the
// round; each tact's picture shows the players where that tact left them. A round that does not
// play again as recorded shows the field after the round alone.
func TestViewTactPictures(t *testing.T) {
	r, out := resolveRound(t, "2")
	ev := out.Events[0].(*rules.RoundResolved)
	v, err := r.rules().View(at(2, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range v.Pictures {
		names = append(names, p.Name)
	}
	if want := []string{"round-1-tact-1.png", "round-1-tact-2.png", "round-1.png"}; !slices.Equal(names, want) {
		t.Fatalf("pictures %q, want %q", names, want)
	}
	tacts := r.rules().lastTacts()
	if len(tacts) != 3 {
		t.Fatalf("%d tacts played again, want 3", len(tacts))
	}
	// Гарри ordered 17 in tact 1 and 33 in tact 2.
	for i, want := range []rules.Cell{17, 33} {
		for _, p := range tacts[i].Players {
			if p.Name == "Гарри" && p.Cell != want {
				t.Errorf("tact %d: Гарри on %d, ordered %d", i+1, p.Cell, want)
			}
		}
	}
	for i, p := range ev.State.Players {
		if q := tacts[2].Players[i]; q.Cell != p.Cell || q.Height != p.Height || q.Status != p.Status {
			t.Errorf("tact 3 played again: %s on %d/%d, the round left them on %d/%d", p.Name, q.Cell, q.Height, p.Cell, p.Height)
		}
	}
	var drawn [][]byte
	for _, p := range v.Pictures {
		data, err := p.Draw()
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s: not a PNG: %v", p.Name, err)
		}
		for j, d := range drawn {
			if bytes.Equal(d, data) {
				t.Errorf("%s is the same picture as %s", p.Name, v.Pictures[j].Name)
			}
		}
		drawn = append(drawn, data)
	}

	// A round whose recorded draws do not play it again: the field after the round alone.
	for _, c := range []struct {
		name   string
		tamper func(e *rules.RoundResolved)
	}{
		{"a draw fewer", func(e *rules.RoundResolved) { e.Draws = e.Draws[:len(e.Draws)-1] }},
		{"a draw of another bound", func(e *rules.RoundResolved) { e.Draws = slices.Clone(e.Draws); e.Draws[0].Bound++ }},
		{"another outcome", func(e *rules.RoundResolved) {
			e.Tacts[0] = append(slices.Clone(e.Tacts[0]), rules.Happening{What: rules.WVanished})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rr, _ := resolveRound(t, "2")
			e := *rr.rules().lastRound
			if len(e.Draws) == 0 {
				t.Fatal("the round drew nothing: nothing to tamper with")
			}
			c.tamper(&e)
			rr.rules().lastRound, rr.rules().tacts, rr.rules().tactsErr = &e, nil, nil
			v, err := rr.rules().View(at(2, 0, 1))
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Pictures) != 1 || v.Pictures[0].Name != "round-1.png" || rr.rules().tactsErr == nil {
				t.Errorf("%d pictures, the replay's error %v", len(v.Pictures), rr.rules().tactsErr)
			}
		})
	}
}

// BenchmarkViewAfterRound is a view drawn right after a round (its tacts played again from the
// log: the first view after each round pays for it) and one drawn again (the tacts kept).
func BenchmarkViewAfterRound(b *testing.B) {
	r, _ := resolveRound(b, "2")
	rr := r.rules()
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			rr.tacts, rr.tactsErr = nil, nil
			if _, err := rr.View(at(2, 0, 1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		for b.Loop() {
			if _, err := rr.View(at(2, 0, 1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
