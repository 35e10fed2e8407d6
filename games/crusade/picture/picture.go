// Package picture draws Crusade's board as a PNG: the same cells, warriors, flags and forests the
// text board in the post shows, for forums whose code box shows only part of the 23-line board
// (MyBB's default theme shows about 10 rows and scrolls inside the box). The text stays the
// post's content; the picture is an attachment beside it.
package picture

import (
	"fmt"
	"image/color"
	"strconv"

	"forumgm/games/crusade/rules"
	"forumgm/pictures"
)

// Board is what a picture shows: the title above the board and what stands in each cell (the
// text board's tokens: a warrior "в1", the flag "Ф", marks such as "10").
type Board struct {
	Title  string
	Tokens map[rules.Cell]string
}

// Sizes of the drawing, in pixels.
const (
	cell   = 30 // a cell's side
	margin = 26 // room for the row letters and column numbers
	top    = 34 // room for the title
)

var (
	background = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	gridLine   = color.NRGBA{0xb8, 0xb8, 0xb8, 0xff}
	forest     = color.NRGBA{0xcf, 0xe8, 0xc4, 0xff}
	crusader   = color.NRGBA{0xf6, 0xd2, 0xcc, 0xff}
	saracen    = color.NRGBA{0xcc, 0xdc, 0xf6, 0xff}
	flag       = color.NRGBA{0xf3, 0xd9, 0x6b, 0xff}
	ink        = color.NRGBA{0x22, 0x22, 0x22, 0xff}
	label      = color.NRGBA{0x66, 0x66, 0x66, 0xff}
)

// Draw draws b as a PNG. The last pictures are kept by what they show: the same board is drawn
// again whenever a game's log is replayed (a restart, an undo, replay and verify), and most games
// open on the same default board.
func Draw(b Board) ([]byte, error) {
	return cache.Draw(b.Title+"\x00"+rules.Render(b.Tokens), func() ([]byte, error) { return draw1(b) })
}

// cache keeps the last pictures drawn.
var cache = pictures.Cache{Size: 16}

func draw1(b Board) ([]byte, error) {
	small, err := pictures.Face(false, 11)
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	bold, err := pictures.Face(true, 13)
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	w, h := 2*margin+rules.Size*cell, top+2*margin+rules.Size*cell
	img := pictures.NewCanvas(w, h, background)
	img.Text(bold, float64(margin), float64(top-12), ink, b.Title)
	x0, y0 := margin, top+margin
	for r := 0; r < rules.Size; r++ {
		for c := 1; c <= rules.Size; c++ {
			px, py := x0+(c-1)*cell, y0+r*cell
			fill := background
			if rules.ForestRow(r) {
				fill = forest
			}
			tok := b.Tokens[rules.Cell{Row: r, Col: c}]
			switch side(tok) {
			case rules.Crusaders:
				fill = crusader
			case rules.Saracens:
				fill = saracen
			case "flag":
				fill = flag
			}
			img.Rect(px, py, cell, cell, fill)
			img.Frame(px, py, cell, cell, gridLine)
			if tok != "" {
				tw := pictures.Width(bold, tok)
				img.Text(bold, float64(px)+(cell-tw)/2, float64(py)+cell/2+5, ink, tok)
			}
		}
		row := rules.Rows[r : r+1]
		img.Text(small, float64(margin)/2-4, float64(y0+r*cell)+cell/2+4, label, row)
		img.Text(small, float64(x0+rules.Size*cell)+6, float64(y0+r*cell)+cell/2+4, label, row)
	}
	for c := 1; c <= rules.Size; c++ {
		n := strconv.Itoa(c)
		cx := float64(x0+(c-1)*cell) + (cell-pictures.Width(small, n))/2
		img.Text(small, cx, float64(y0)-7, label, n)
		img.Text(small, cx, float64(y0+rules.Size*cell)+15, label, n)
	}
	data, err := img.PNG()
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	return data, nil
}

// side is whose a token is: a warrior's side by its letter, "flag", or "" (a mark, nothing).
func side(tok string) rules.Side {
	if tok == rules.FlagToken {
		return "flag"
	}
	for _, r := range tok {
		if st, ok := rules.Table[rules.Kind(r)]; ok {
			return st.Side
		}
		break
	}
	return ""
}
