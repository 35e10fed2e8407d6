package picture

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"forumgm/games/crusade/rules"
)

// The picture is the board: every cell where the text board has it, a warrior's cell in its
// side's colour, the flags, the forest rows, the empty cells white; the whole board fits one
// picture (what MyBB's code box does not show).
func TestDrawShowsTheBoard(t *testing.T) {
	k17 := rules.Cell{Row: 10, Col: 17} // K17: к1 at the start
	i2 := rules.Cell{Row: 8, Col: 2}    // I2: ш1
	j1 := rules.Cell{Row: 9, Col: 1}    // J1: the saracen flag
	png1, err := Draw(Board{Title: "Крестовый поход", Tokens: map[rules.Cell]string{k17: "к1", i2: "ш1", j1: rules.FlagToken}})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(png1))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2*margin+rules.Size*cell || b.Dy() != top+2*margin+rules.Size*cell {
		t.Fatalf("size %v", b)
	}
	at := func(c rules.Cell) color.NRGBA {
		// A corner of the cell, inside its frame and away from its text.
		x, y := margin+(c.Col-1)*cell+3, top+margin+c.Row*cell+3
		return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	}
	for _, tc := range []struct {
		cell rules.Cell
		want color.NRGBA
	}{{k17, crusader}, {i2, saracen}, {j1, flag}, {rules.Cell{Row: 0, Col: 5}, forest}, {rules.Cell{Row: 5, Col: 5}, background}} {
		if got := at(tc.cell); got != tc.want {
			t.Errorf("cell %+v: %v, want %v", tc.cell, got, tc.want)
		}
	}
	// The token is written in the cell: dark pixels in its middle.
	dark := 0
	x0, y0 := margin+16*cell, top+margin+10*cell
	for y := y0 + 8; y < y0+cell-8; y++ {
		for x := x0 + 5; x < x0+cell-5; x++ {
			if c := color.GrayModel.Convert(img.At(x, y)).(color.Gray); c.Y < 100 {
				dark++
			}
		}
	}
	if dark < 10 {
		t.Errorf("no token drawn in K17 (%d dark pixels)", dark)
	}
}
