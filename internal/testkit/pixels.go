package testkit

import (
	"bytes"
	"fmt"
	"image/png"
)

// PixelDiff counts the pixels that differ between two PNGs (a and a golden b) by more than
// tolerance (0..255) in a channel: a browser's anti-aliasing of one layout may shift an edge's
// shade by a few levels between runs, while a changed text, colour or layout differs by far
// more. A size mismatch counts every pixel of the larger one, with why saying so.
func PixelDiff(a, b []byte, tolerance uint8) (n int, why string, err error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, "", fmt.Errorf("testkit: pixels: %w", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, "", fmt.Errorf("testkit: pixels of the golden: %w", err)
	}
	if !ia.Bounds().Eq(ib.Bounds()) {
		return max(ia.Bounds().Dx()*ia.Bounds().Dy(), ib.Bounds().Dx()*ib.Bounds().Dy()),
			" (size " + ia.Bounds().Size().String() + ", golden " + ib.Bounds().Size().String() + ")", nil
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if max(diff(r1, r2), diff(g1, g2), diff(b1, b2), diff(a1, a2))>>8 > uint32(tolerance) {
				n++
			}
		}
	}
	return n, "", nil
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
