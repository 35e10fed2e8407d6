package picture

import (
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// Palette are the team colours a Team's Colour picks from; none is close to a ball's colour
// or to the fire's orange.
var Palette = []color.NRGBA{
	{0x1f, 0x5f, 0xc4, 0xff}, // blue
	{0x8e, 0x3f, 0xb0, 0xff}, // purple
	{0x8d, 0x55, 0x24, 0xff}, // brown
	{0x00, 0x80, 0x8a, 0xff}, // teal
	{0xb0, 0x1c, 0x5a, 0xff}, // raspberry
	{0x4a, 0x4a, 0x8f, 0xff}, // slate
}

func teamColour(f *Field, team int) color.NRGBA {
	i := f.Teams[team].Colour % len(Palette)
	if team == 1 && i == f.Teams[0].Colour%len(Palette) {
		i = (i + 1) % len(Palette)
	}
	return Palette[i]
}

// ballColours are the balls in dragonball.Colors' order: the name the legend uses, the points,
// the fill and the colour of the height digit drawn on it.
var ballColours = [5]struct {
	name   string
	points int
	fill   color.NRGBA
	ink    color.NRGBA
}{
	{"чёрный", 1, color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}, white},
	{"зелёный", 2, color.NRGBA{0x2c, 0xb0, 0x3a, 0xff}, white},
	{"голубой", 3, color.NRGBA{0x62, 0xc8, 0xf5, 0xff}, ink},
	{"красный", 5, color.NRGBA{0xe0, 0x25, 0x25, 0xff}, white},
	{"жёлтый", 10, color.NRGBA{0xff, 0xd4, 0x1a, 0xff}, ink},
}

var (
	white     = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	ink       = color.NRGBA{0x22, 0x22, 0x22, 0xff}
	paper     = color.NRGBA{0xfb, 0xfb, 0xf8, 0xff}
	gridLine  = color.NRGBA{0xb4, 0xb4, 0xb0, 0xff}
	numberInk = color.NRGBA{0x70, 0x70, 0x70, 0xff}
	midCell   = color.NRGBA{0xee, 0xee, 0xea, 0xff}
	midLine   = color.NRGBA{0x50, 0x50, 0x50, 0xb0}
	fireFill  = color.NRGBA{0xff, 0x7a, 0x00, 0x80}
	fireEdge  = color.NRGBA{0xe0, 0x4a, 0x00, 0xd0}
	mouthRed  = color.NRGBA{0xc0, 0x18, 0x18, 0xff}
	eyeYellow = color.NRGBA{0xff, 0xe0, 0x40, 0xff}
)

// mix is a blended with b: t = 0 is a, 1 is b.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.NRGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), m(a.A, b.A)}
}

func alpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// fonts are the parsed Go fonts, shared: their methods are safe for concurrent use.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	b, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{r, b}, err
})

// faces are the sizes a picture uses. A font.Face is not safe for concurrent use, so each
// drawing makes its own.
type faces struct {
	number, initials, digit, small, legend, legendBold, title font.Face
}

func newFaces() (*faces, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	var ferr error
	face := func(f *opentype.Font, size float64) font.Face {
		fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			ferr = err
		}
		return fc
	}
	reg, bold := fs[0], fs[1]
	out := &faces{
		number:     face(reg, 10),
		initials:   face(bold, 11),
		digit:      face(bold, 9),
		small:      face(reg, 11),
		legend:     face(reg, 13),
		legendBold: face(bold, 13),
		title:      face(bold, 18),
	}
	return out, ferr
}
