package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"forumgm/games/dragonball/rules"
)

// Width is a picture's width in pixels; the height depends on the longer roster (Size).
const Width = 900

// The field's layout: a cell is cellW pixels wide (pointy-top hexagons), rows are rowH apart.
const (
	cellW  = 50.0
	halfW  = cellW / 2
	radius = cellW / 1.7320508075688772 // centre to corner
	rowH   = radius * 1.5
	fieldX = (Width - 17*cellW) / 2 // left end of the widest row
	titleH = 40.0
	// fieldBottom is where the field's lowest corners are.
	fieldBottom = titleH + 12*rowH + 2*radius
)

// centre is a cell's centre in pixels.
func centre(c int) pt {
	cell := rules.Cell(c)
	return pt{fieldX + halfW + halfW*float64(cell.X()), titleH + radius + rowH*float64(cell.Row()-1)}
}

// hexagon is a pointy-top hexagon of circumradius r at c.
func hexagon(c pt, r float64) []pt {
	out := make([]pt, 6)
	for i := range out {
		out[i] = c.add(polar(r, math.Pi/180*float64(-90+60*i)))
	}
	return out
}

// Size is the size of f's picture.
func Size(f Field) image.Point {
	return image.Pt(Width, int(math.Ceil(legendTop+legendHeight(&f))))
}

// PNG draws f and encodes it as an 8-bit PNG (about 60-80 KB). It compresses for speed: the
// best compression saves a seventh of the bytes for a third more time.
func PNG(f Field) ([]byte, error) {
	img, err := Draw(f)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, paletted(img)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Draw draws f.
func Draw(f Field) (*image.RGBA, error) {
	d, err := render(f)
	if err != nil {
		return nil, err
	}
	return d.img, nil
}

func render(f Field) (*drawing, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	fc, err := newFaces()
	if err != nil {
		return nil, err
	}
	w, err := loadWords()
	if err != nil {
		return nil, err
	}
	size := Size(f)
	d := &drawing{canvas: newCanvas(size.X, size.Y, paper), f: &f, fc: fc, words: w, labels: labels(f.Players)}
	d.grid()
	d.fire()
	d.midline()
	for i := range f.Dragons {
		d.dragon(&f.Dragons[i])
	}
	d.numbers()
	d.pieces()
	d.title()
	if err := d.legend(); err != nil {
		return nil, err
	}
	return d, nil
}

type drawing struct {
	*canvas
	f      *Field
	fc     *faces
	words  *words
	labels []string
}

// tint is a cell's fill: its half's team colour, lightly; stronger on the edge.
func (d *drawing) tint(c int) color.NRGBA {
	cell := rules.Cell(c)
	if cell.OnMidline() {
		if cell.IsEdge() {
			return mix(midCell, ink, 0.06)
		}
		return midCell
	}
	team := 0
	if cell.Half() == rules.SideB {
		team = 1
	}
	t := 0.09
	if cell.IsEdge() {
		t = 0.2
	}
	return mix(paper, teamColour(d.f, team), t)
}

func (d *drawing) grid() {
	for c := 1; c <= rules.NumCells; c++ {
		d.fill(gridLine, hexagon(centre(c), radius+0.5))
	}
	for c := 1; c <= rules.NumCells; c++ {
		p := centre(c)
		d.fill(d.tint(c), hexagon(p, radius-0.6))
		for team, side := range []rules.Side{rules.SideA, rules.SideB} {
			if rules.IsReentry(side, rules.Cell(c)) {
				col := alpha(teamColour(d.f, team), 0xa0)
				d.fill(col, hexagon(p, radius-3.5), reversed(hexagon(p, radius-5.5)))
			}
		}
	}
}

func (d *drawing) fire() {
	for _, dr := range d.f.Dragons {
		for _, c := range dr.Fire {
			p := centre(c)
			d.fill(fireFill, hexagon(p, radius-0.6))
			d.fill(fireEdge, hexagon(p, radius-1), reversed(hexagon(p, radius-2.6)))
		}
	}
}

// midline is a dashed line through the cells on the midline, broken where their numbers are.
func (d *drawing) midline() {
	x := fieldX + halfW + halfW*rules.Midline
	for row := 1; row <= 13; row++ {
		y0 := titleH + rowH*float64(row-1)
		y1 := y0 + rowH
		if row == 13 {
			y1 = fieldBottom
		}
		if c, ok := rules.CellAt(row, rules.Midline); ok { // the number's place
			y0 = centre(int(c)).Y - 10
		}
		for y := y0 + 2; y < y1-2; y += 10 {
			d.line(pt{x, y}, pt{x, min(y+6, y1-2)}, 1.6, midLine)
		}
	}
}

// numbers writes each cell's number at the top of its hexagon: grey, or white where a dragon
// darkens the place; on a dragon's cells with a halo, as its wings may lie under them.
func (d *drawing) numbers() {
	onDragon := map[int]bool{}
	for _, dr := range d.f.Dragons {
		onDragon[dr.Head], onDragon[dr.Body], onDragon[dr.Tail] = true, true, true
	}
	for c := 1; c <= rules.NumCells; c++ {
		p := centre(c)
		at := pt{p.X, p.Y - 18}
		col, halo := numberInk, paper
		if d.dark(image.Rect(int(at.X)-8, int(at.Y)-4, int(at.X)+8, int(at.Y)+4)) {
			col, halo = white, ink
		}
		s := strconv.Itoa(c)
		if onDragon[c] {
			for _, o := range []pt{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				d.centred(d.fc.number, at.add(o), alpha(halo, 0xc0), s)
			}
		}
		d.centred(d.fc.number, at, col, s)
	}
}

func (d *drawing) title() {
	d.text(d.fc.title, fieldX, 27, ink, fit(d.fc.title, d.f.Title, Width-2*fieldX))
}

// pieces draws the free balls and the players, cell by cell.
func (d *drawing) pieces() {
	players := map[int][]int{}
	balls := map[int][]Ball{} // the free ones
	for i, p := range d.f.Players {
		if p.Cell != 0 {
			players[p.Cell] = append(players[p.Cell], i)
		}
	}
	for _, b := range d.f.Balls {
		if !b.Held && b.Cell != 0 {
			balls[b.Cell] = append(balls[b.Cell], b)
		}
	}
	for c := 1; c <= rules.NumCells; c++ {
		p := centre(c)
		ps, bs := players[c], balls[c]
		for k, at := range ballSlots(len(bs), len(ps) > 0) {
			d.ball(p.add(at), 7, ballIndex(bs[k].Colour), bs[k].Height)
		}
		r := 12.0
		switch {
		case len(ps) > 2:
			r = 8.5
		case len(ps) > 1:
			r = 10
		}
		slots := playerSlots(len(ps))
		for k, i := range ps { // the discs first, then what goes on and next to them
			d.playerDisc(p.add(slots[k]), r, i)
		}
		for k, i := range ps {
			d.playerMarks(p.add(slots[k]), r, i, len(ps) > 1)
		}
	}
}

// playerSlots are where n players sharing a cell stand, from the cell's centre. There are at
// most 3 after a tact (one a height); more are laid out two by two.
func playerSlots(n int) []pt {
	switch n {
	case 1:
		return []pt{{0, 1}}
	case 2:
		return []pt{{-11, -3}, {11, -3}}
	case 3:
		return []pt{{-16, -3}, {0, -3}, {16, -3}}
	}
	out := make([]pt, n)
	for i := range out {
		out[i] = pt{-16 + 32*float64(i%2), -10 + 22*float64(i/2%2)}
	}
	return out
}

// ballSlots are where n free balls lie in a cell: at the bottom when players stand there,
// spread over the cell otherwise.
func ballSlots(n int, players bool) []pt {
	if players {
		out := make([]pt, n)
		for i := range out {
			out[i] = pt{15 * (float64(i) - float64(n-1)/2), 20}
		}
		return out
	}
	switch n {
	case 0:
		return nil
	case 1:
		return []pt{{0, 2}}
	case 2:
		return []pt{{-8, 2}, {8, 2}}
	case 3:
		return []pt{{-8, -2}, {8, -2}, {0, 12}}
	case 4:
		return []pt{{-8, -2}, {8, -2}, {-8, 13}, {8, 13}}
	}
	out := []pt{{-16, -1}, {0, -1}, {16, -1}, {-8, 13}, {8, 13}}
	for i := 5; i < n; i++ {
		out = append(out, pt{0, 13})
	}
	return out
}

// ball is a ball of radius r; height > 0 is written on it.
func (d *drawing) ball(c pt, r float64, colour, height int) {
	b := ballColours[colour]
	d.disc(c, r+1, alpha(ink, 0xc0))
	d.disc(c, r, b.fill)
	if height > 0 {
		d.centred(d.fc.digit, c, b.ink, strconv.Itoa(height))
	}
}

// badge is a height in a small white disc ringed in col.
func (d *drawing) badge(c pt, col color.NRGBA, height int) {
	d.disc(c, 6.5, col)
	d.disc(c, 5.3, white)
	d.centred(d.fc.digit, c, ink, strconv.Itoa(height))
}

// playerDisc is player i's disc of radius r at c with the initials.
func (d *drawing) playerDisc(c pt, r float64, i int) {
	col := teamColour(d.f, d.f.Players[i].Team)
	d.disc(c, r+1.5, white)
	d.disc(c, r, col)
	d.centred(d.fc.initials, pt{c.X - 0.5, c.Y}, white, d.labels[i])
}

// playerMarks are player i's height at the disc's lower right and the balls held at its left;
// in a shared cell the height is under the disc and the balls on its upper corners.
func (d *drawing) playerMarks(c pt, r float64, i int, shared bool) {
	p := d.f.Players[i]
	badge := pt{r * 0.85, r * 0.8}
	held := []pt{{-r * 0.95, r * 0.75}, {-r * 1.05, -r * 0.35}}
	if shared {
		badge = pt{0, r + 4}
		held = []pt{{-r * 0.8, -r * 0.8}, {r * 0.8, -r * 0.8}}
	}
	d.badge(c.add(badge), teamColour(d.f, p.Team), p.Height)
	for k, b := range p.Balls {
		d.ball(c.add(held[k]), 5-float64(boolInt(shared)), ballIndex(b), 0)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
