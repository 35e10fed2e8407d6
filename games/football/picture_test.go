package football

import (
	"bytes"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/internal/testkit"
)

// With ring_picture the turn report carries the ring's picture under its text table (the table
// stays the post's content); without it, it carries none.
func TestRingPictureInReports(t *testing.T) {
	for _, with := range []bool{false, true} {
		extra := ""
		if with {
			extra = "  ring_picture: true\n"
		}
		g := newGame(t, extra, false)
		var report game.Message
		var err error
		g.last, err = g.ref.Advance(g.last, at(20, 15), func(_ time.Time, o game.Outcome) error {
			for _, m := range o.Messages {
				if strings.HasPrefix(m.Body, "[b]Итоги 1 хода") {
					report = m
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if report.Body == "" {
			t.Fatal("no report of turn 1")
		}
		if !with {
			if len(report.Attachments) != 0 {
				t.Errorf("without ring_picture the report carries %d pictures", len(report.Attachments))
			}
			continue
		}
		if len(report.Attachments) != 1 {
			t.Fatalf("the report carries %d pictures, want 1", len(report.Attachments))
		}
		a := report.Attachments[0]
		ph := forum.Placeholder(a.Name)
		if a.ContentType != "image/png" || !strings.HasSuffix(report.Body, ph) || strings.Index(report.Body, "[/code]") > strings.Index(report.Body, ph) {
			t.Errorf("the picture %q (%s) is not placed under the table:\n%s", a.Name, a.ContentType, report.Body)
		}
		if _, err := png.Decode(bytes.NewReader(a.Data)); err != nil {
			t.Errorf("not a PNG: %v", err)
		}
	}
}

// The ring's picture is the page's ring: each cell in its place round the square, a question
// cell in its colour, an attack cell's red border, a team's cell framed, the team's name in its
// group's colour; and it looks as its golden does, pixel for pixel (-update rewrites it: look at
// it first).
func TestRingPictureGolden(t *testing.T) {
	g := newGame(t, "", false)
	g.advance(at(20, 1)) // the groups are split and Команда 1 stands on its attack cell 6
	side, cells := ringOf(g.ref.Rules().(*Rules).game)
	data, err := drawRing("Футбольная игра с кубиком — поле", side, cells)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := ringSize(side); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("size %v, want %d×%d", img.Bounds(), w, h)
	}
	at := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
	byNumber := map[int]ringCell{}
	for _, c := range cells {
		byNumber[c.Number] = c
	}
	corner := func(n int) (int, int) { c := byNumber[n]; return ringCellAt(c.Row, c.Col) }
	x, y := corner(4) // a question, no team
	if got := at(x+ringCellSize-6, y+ringCellSize-6); got != ringQuestion {
		t.Errorf("question cell 4: %v, want %v", got, ringQuestion)
	}
	x, y = corner(2) // a plain cell
	if got, edge := at(x+ringCellSize-6, y+ringCellSize-6), at(x, y+ringCellSize/2); got != ringPlain || edge != ringBorder {
		t.Errorf("plain cell 2: %v, border %v", got, edge)
	}
	x, y = corner(6) // Команда 1's attack cell, taken
	if edge, inner := at(x, y+ringCellSize/2), at(x+2, y+ringCellSize/2); edge != ringAttack || inner != ringInk {
		t.Errorf("cell 6: border %v, frame %v", edge, inner)
	}
	group := 0
	for _, c := range byNumber[6].Teams {
		if c.Name == "Команда 1" {
			group = c.Group
		}
	}
	coloured := 0
	for yy := y + 2*ringLine - 11; yy < y+2*ringLine+2; yy++ {
		for xx := x + 5; xx < x+ringCellSize-5; xx++ {
			if at(xx, yy) == groupColour(group) {
				coloured++
			}
		}
	}
	if group == 0 || coloured < 10 {
		t.Errorf("Команда 1 (group %d) is not written on cell 6 in its colour (%d pixels)", group, coloured)
	}
	golden := filepath.Join("testdata", "ring.png")
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if n, why, err := testkit.PixelDiff(data, want, 0); err != nil || n != 0 {
		t.Errorf("%s: %d pixels differ%s %v (run with -update to accept, after looking at it)", golden, n, why, err)
	}
}
