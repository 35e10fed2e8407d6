package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pt is a point in pixels.
type pt struct{ X, Y float64 }

func (a pt) add(b pt) pt         { return pt{a.X + b.X, a.Y + b.Y} }
func (a pt) sub(b pt) pt         { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) mul(k float64) pt    { return pt{a.X * k, a.Y * k} }
func (a pt) len() float64        { return math.Hypot(a.X, a.Y) }
func (a pt) unit() pt            { return a.mul(1 / a.len()) }
func (a pt) perp() pt            { return pt{-a.Y, a.X} } // 90° clockwise on screen (y down)
func lerp(a, b pt, t float64) pt { return a.add(b.sub(a).mul(t)) }
func polar(r, angle float64) pt  { return pt{r * math.Cos(angle), r * math.Sin(angle)} }
func (a pt) angle() float64      { return math.Atan2(a.Y, a.X) }

// canvas draws anti-aliased shapes and text onto an RGBA image. Each shape is rasterized in a
// mask the size of its bounding box, so small shapes cost little on a large picture.
type canvas struct {
	img  *image.RGBA
	z    vector.Rasterizer
	mask image.Alpha
	// dropped counts the shapes not drawn for reaching out of the picture: a layout bug.
	dropped int
}

func newCanvas(w, h int, bg color.Color) *canvas {
	cv := &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
	r, g, b, a := bg.RGBA()
	pix := cv.img.Pix
	copy(pix, []uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)})
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
	return cv
}

// fill fills the paths (each closed) with c; a path wound the other way cuts a hole.
func (cv *canvas) fill(c color.Color, paths ...[]pt) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range paths {
		for _, q := range p {
			minX, minY = min(minX, q.X), min(minY, q.Y)
			maxX, maxY = max(maxX, q.X), max(maxY, q.Y)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
	if r.Empty() {
		return
	}
	if !r.In(cv.img.Rect) {
		cv.dropped++
		return
	}
	o := pt{float64(r.Min.X), float64(r.Min.Y)}
	cv.z.Reset(r.Dx(), r.Dy())
	for _, p := range paths {
		if len(p) < 3 {
			continue
		}
		q := p[0].sub(o)
		cv.z.MoveTo(float32(q.X), float32(q.Y))
		for _, q := range p[1:] {
			q = q.sub(o)
			cv.z.LineTo(float32(q.X), float32(q.Y))
		}
		cv.z.ClosePath()
	}
	// the coverage into an alpha mask the size of r, then blended by hand: most pixels of a
	// shape are fully covered and take the colour as it is
	w, h := r.Dx(), r.Dy()
	if cap(cv.mask.Pix) < w*h {
		cv.mask.Pix = make([]uint8, w*h)
	}
	cv.mask = image.Alpha{Pix: cv.mask.Pix[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	cv.z.DrawOp = draw.Src
	cv.z.Draw(&cv.mask, cv.mask.Rect, image.Opaque, image.Point{})
	nc := color.NRGBAModel.Convert(c).(color.NRGBA)
	sr, sg, sb, sa := uint32(nc.R), uint32(nc.G), uint32(nc.B), uint32(nc.A)
	for y := range h {
		m := cv.mask.Pix[y*w : y*w+w]
		px := cv.img.Pix[cv.img.PixOffset(r.Min.X, r.Min.Y+y):]
		for x, a := range m {
			if a == 0 {
				continue
			}
			p := px[4*x : 4*x+4 : 4*x+4]
			if a == 0xff && sa == 0xff {
				p[0], p[1], p[2], p[3] = nc.R, nc.G, nc.B, 0xff
				continue
			}
			k := uint32(a) * sa // 0..255*255
			q := 255*255 - k
			p[0] = uint8((sr*k + uint32(p[0])*q + 255*255/2) / (255 * 255))
			p[1] = uint8((sg*k + uint32(p[1])*q + 255*255/2) / (255 * 255))
			p[2] = uint8((sb*k + uint32(p[2])*q + 255*255/2) / (255 * 255))
			p[3] = 0xff
		}
	}
}

// reversed is p wound the other way (a hole when filled with an outer path).
func reversed(p []pt) []pt {
	out := make([]pt, len(p))
	for i, q := range p {
		out[len(p)-1-i] = q
	}
	return out
}

// circle is a polygon close enough to a circle of radius r at c.
func circle(c pt, r float64) []pt {
	n := max(12, int(r*1.6))
	out := make([]pt, n)
	for i := range out {
		out[i] = c.add(polar(r, 2*math.Pi*float64(i)/float64(n)))
	}
	return out
}

// arc is the points of the arc of radius r at c from angle a0 to a1 (radians, a1 > a0).
func arc(c pt, r, a0, a1 float64) []pt {
	n := max(4, int(r*(a1-a0)/2))
	out := make([]pt, n+1)
	for i := range out {
		out[i] = c.add(polar(r, a0+(a1-a0)*float64(i)/float64(n)))
	}
	return out
}

func (cv *canvas) disc(c pt, r float64, col color.Color) { cv.fill(col, circle(c, r)) }

// ring is a circle's outline of width w (outside radius r).
func (cv *canvas) ring(c pt, r, w float64, col color.Color) {
	cv.fill(col, circle(c, r), reversed(circle(c, r-w)))
}

// line is a straight stroke of width w from a to b.
func (cv *canvas) line(a, b pt, w float64, col color.Color) {
	n := b.sub(a).unit().perp().mul(w / 2)
	cv.fill(col, []pt{a.add(n), b.add(n), b.sub(n), a.sub(n)})
}

// text draws s with its left end of the baseline at (x, y).
func (cv *canvas) text(face font.Face, x, y float64, col color.Color, s string) {
	d := font.Drawer{Dst: cv.img, Src: image.NewUniform(col), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}}
	d.DrawString(s)
}

// width is the advance of s in pixels.
func width(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// centred draws s centred on c: horizontally by its advance, vertically by the face's cap
// height (the digits' and capitals' height).
func (cv *canvas) centred(face font.Face, c pt, col color.Color, s string) {
	cv.text(face, c.X-width(face, s)/2, c.Y+capHeight(face)/2, col, s)
}

func capHeight(face font.Face) float64 {
	b, _, ok := face.GlyphBounds('0')
	if !ok {
		return float64(face.Metrics().Ascent) / 64 * 0.7
	}
	return float64(-b.Min.Y) / 64
}

// dark reports whether the pixels in r are dark on average (white text reads better there).
func (cv *canvas) dark(r image.Rectangle) bool {
	r = r.Intersect(cv.img.Rect)
	sum, n := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			i := cv.img.PixOffset(x, y)
			p := cv.img.Pix[i : i+3]
			sum += 3*int(p[0]) + 6*int(p[1]) + int(p[2])
			n += 10
		}
	}
	return n > 0 && sum/n < 110
}
