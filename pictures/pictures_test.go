package pictures

import (
	"bytes"
	"errors"
	"image/color"
	"image/png"
	"testing"
)

// A canvas draws what it is told where it is told, and its PNG decodes to the same pixels.
func TestCanvas(t *testing.T) {
	bg, red, ink := color.NRGBA{0xff, 0xff, 0xff, 0xff}, color.NRGBA{0xff, 0, 0, 0xff}, color.NRGBA{0, 0, 0, 0xff}
	c := NewCanvas(120, 60, bg)
	c.Rect(10, 10, 20, 20, red)
	c.Frame(40, 10, 20, 20, ink)
	face, err := Face(true, 14)
	if err != nil {
		t.Fatal(err)
	}
	c.Text(face, 70, 40, ink, "Ж1")
	data, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
	for _, p := range []struct {
		x, y int
		want color.NRGBA
	}{{0, 0, bg}, {15, 15, red}, {29, 29, red}, {30, 30, bg}, {40, 10, ink}, {59, 29, ink}, {50, 20, bg}} {
		if got := at(p.x, p.y); got != p.want {
			t.Errorf("(%d, %d): %v, want %v", p.x, p.y, got, p.want)
		}
	}
	dark := 0
	for y := 25; y < 42; y++ {
		for x := 70; x < 70+int(Width(face, "Ж1")); x++ {
			if at(x, y).R < 100 {
				dark++
			}
		}
	}
	if w := Width(face, "Ж1"); w < 10 || dark < 20 {
		t.Errorf("the text: %.1f px wide, %d dark pixels", w, dark)
	}
}

// The cache draws a key once while it holds it, keeps the last Size, and keeps no failure.
func TestCache(t *testing.T) {
	c := Cache{Size: 2}
	drawn := 0
	draw := func(s string) func() ([]byte, error) {
		return func() ([]byte, error) { drawn++; return []byte(s), nil }
	}
	for _, k := range []string{"a", "a", "b", "a", "c", "a"} {
		if p, err := c.Draw(k, draw(k)); err != nil || string(p) != k {
			t.Fatalf("%s: %q %v", k, p, err)
		}
	}
	if drawn != 4 { // a, b, c, then a again (pushed out by c)
		t.Errorf("drawn %d times, want 4", drawn)
	}
	if _, err := c.Draw("x", func() ([]byte, error) { return nil, errors.New("no") }); err == nil {
		t.Error("a failed drawing gave no error")
	}
	if p, _ := c.Draw("x", draw("x")); string(p) != "x" {
		t.Errorf("after a failure: %q", p)
	}
}
