// Package picture draws Crusade's board as a PNG: the same cells, warriors, flags and forests the
// text board in the post shows, for forums whose code box shows only part of the 23-line board
// (MyBB's default theme shows about 10 rows and scrolls inside the box). The text stays the
// post's content; the picture is an attachment beside it.
package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"forumgm/games/crusade/rules"
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

// fonts are the parsed Go fonts (they cover Cyrillic), shared; a Face is made per drawing.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

// Draw draws b as a PNG. The last pictures are kept by what they show: the same board is drawn
// again whenever a game's log is replayed (a restart, an undo, replay and verify), and most games
// open on the same default board.
func Draw(b Board) ([]byte, error) {
	key := b.Title + "\x00" + rules.Render(b.Tokens)
	cache.Lock()
	if p, ok := cache.png[key]; ok {
		cache.Unlock()
		return p, nil
	}
	cache.Unlock()
	p, err := draw1(b)
	if err != nil {
		return nil, err
	}
	cache.Lock()
	defer cache.Unlock()
	if _, ok := cache.png[key]; !ok {
		cache.order = append(cache.order, key)
		cache.png[key] = p
		if len(cache.order) > cacheSize {
			delete(cache.png, cache.order[0])
			cache.order = cache.order[1:]
		}
	}
	return p, nil
}

// cacheSize is how many pictures Draw keeps.
const cacheSize = 16

var cache = struct {
	sync.Mutex
	order []string
	png   map[string][]byte
}{png: map[string][]byte{}}

func draw1(b Board) ([]byte, error) {
	fs, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("picture: fonts: %w", err)
	}
	small, err := opentype.NewFace(fs[0], &opentype.FaceOptions{Size: 11, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("picture: font: %w", err)
	}
	bold, err := opentype.NewFace(fs[1], &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("picture: font: %w", err)
	}
	w, h := 2*margin+rules.Size*cell, top+2*margin+rules.Size*cell
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(background), image.Point{}, draw.Src)
	text(img, bold, float64(margin), float64(top-12), ink, b.Title)
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
			rect(img, px, py, cell, cell, fill)
			frame(img, px, py, cell, cell, gridLine)
			if tok != "" {
				tw := width(bold, tok)
				text(img, bold, float64(px)+(cell-tw)/2, float64(py)+cell/2+5, ink, tok)
			}
		}
		row := rules.Rows[r : r+1]
		text(img, small, float64(margin)/2-4, float64(y0+r*cell)+cell/2+4, label, row)
		text(img, small, float64(x0+rules.Size*cell)+6, float64(y0+r*cell)+cell/2+4, label, row)
	}
	for c := 1; c <= rules.Size; c++ {
		n := strconv.Itoa(c)
		cx := float64(x0+(c-1)*cell) + (cell-width(small, n))/2
		text(img, small, cx, float64(y0)-7, label, n)
		text(img, small, cx, float64(y0+rules.Size*cell)+15, label, n)
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&out, img); err != nil {
		return nil, fmt.Errorf("picture: encode: %w", err)
	}
	return out.Bytes(), nil
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

func rect(img *image.NRGBA, x, y, w, h int, c color.NRGBA) {
	draw.Draw(img, image.Rect(x, y, x+w, y+h), image.NewUniform(c), image.Point{}, draw.Src)
}

func frame(img *image.NRGBA, x, y, w, h int, c color.NRGBA) {
	rect(img, x, y, w, 1, c)
	rect(img, x, y+h-1, w, 1, c)
	rect(img, x, y, 1, h, c)
	rect(img, x+w-1, y, 1, h, c)
}

func text(img *image.NRGBA, face font.Face, x, y float64, c color.Color, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

func width(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}
