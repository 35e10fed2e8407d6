// Package pictures owns the drawing kit the games' PNG pictures share (Crusade's board,
// football's ring): the Go fonts (they cover Cyrillic), a canvas with filled and framed
// rectangles and text, its PNG, and a small cache of drawn pictures by what they show (the same
// picture is drawn again whenever a game's log is replayed: a restart, an undo, replay and
// verify). It names no game: each game lays its own picture out.
package pictures

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// fonts are the parsed Go fonts, regular and bold, shared; a Face is made per drawing.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

// Face is the Go font (bold or regular) at size points, 72 DPI, fully hinted.
func Face(bold bool, size float64) (font.Face, error) {
	fs, err := fonts()
	if err != nil {
		return nil, fmt.Errorf("pictures: fonts: %w", err)
	}
	f := fs[0]
	if bold {
		f = fs[1]
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("pictures: font: %w", err)
	}
	return face, nil
}

// Canvas is a picture being drawn.
type Canvas struct {
	Img *image.NRGBA
}

// NewCanvas is a w×h canvas filled with bg.
func NewCanvas(w, h int, bg color.NRGBA) *Canvas {
	c := &Canvas{Img: image.NewNRGBA(image.Rect(0, 0, w, h))}
	c.Rect(0, 0, w, h, bg)
	return c
}

// Rect fills the w×h rectangle at (x, y) with col.
func (c *Canvas) Rect(x, y, w, h int, col color.NRGBA) {
	draw.Draw(c.Img, image.Rect(x, y, x+w, y+h), image.NewUniform(col), image.Point{}, draw.Src)
}

// Frame draws the one-pixel border of the w×h rectangle at (x, y).
func (c *Canvas) Frame(x, y, w, h int, col color.NRGBA) {
	c.Rect(x, y, w, 1, col)
	c.Rect(x, y+h-1, w, 1, col)
	c.Rect(x, y, 1, h, col)
	c.Rect(x+w-1, y, 1, h, col)
}

// Text writes s with its baseline starting at (x, y).
func (c *Canvas) Text(face font.Face, x, y float64, col color.Color, s string) {
	d := font.Drawer{Dst: c.Img, Src: image.NewUniform(col), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// Width is how wide s is written in face, in pixels.
func Width(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// PNG is the canvas encoded.
func (c *Canvas) PNG() ([]byte, error) {
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&out, c.Img); err != nil {
		return nil, fmt.Errorf("pictures: encode: %w", err)
	}
	return out.Bytes(), nil
}

// Cache keeps the last Size pictures drawn, by a key naming what they show.
type Cache struct {
	Size  int
	mu    sync.Mutex
	order []string
	png   map[string][]byte
}

// Draw is the picture of key: the cached one, or draw's (kept). The bytes are shared: callers
// do not change them.
func (c *Cache) Draw(key string, draw func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	if p, ok := c.png[key]; ok {
		c.mu.Unlock()
		return p, nil
	}
	c.mu.Unlock()
	p, err := draw()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.png == nil {
		c.png = map[string][]byte{}
	}
	if _, ok := c.png[key]; !ok {
		c.order = append(c.order, key)
		c.png[key] = p
		if len(c.order) > max(c.Size, 1) {
			delete(c.png, c.order[0])
			c.order = c.order[1:]
		}
	}
	return p, nil
}
