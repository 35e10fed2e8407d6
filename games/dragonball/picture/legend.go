package picture

import (
	"fmt"
	"strings"

	"golang.org/x/image/font"
)

// The legend, under the field: the symbols on the left, each team's roster on the right.
const (
	legendTop  = fieldBottom + 14
	symbolRowH = 23.0
	rosterRowH = 20.0
	symbolRows = 9
	symbolsX   = fieldX
	rosterX    = 345.0
	rosterW    = (Width - fieldX - rosterX) / 2
	bottomPad  = 8.0
)

// legendHeight is the height of the legend: the symbols or the longer roster.
func legendHeight(f *Field) float64 {
	n := 0
	for t := range 2 {
		k := 0
		for _, p := range f.Players {
			if p.Team == t {
				k++
			}
		}
		n = max(n, k)
	}
	return max(symbolRows*symbolRowH, float64(n+1)*rosterRowH) + bottomPad
}

func (d *drawing) legend() error {
	d.symbols()
	for t := range 2 {
		if err := d.roster(t, rosterX+float64(t)*rosterW); err != nil {
			return err
		}
	}
	return nil
}

// symbols explains what the field shows, one symbol a row.
func (d *drawing) symbols() {
	w := d.words
	x := symbolsX + 14
	tx := symbolsX + 46.0
	row := func(i int) float64 { return legendTop + symbolRowH*(float64(i)+0.5) }
	say := func(i int, x float64, s string) { d.text(d.fc.legend, x, row(i)+4.5, ink, s) }
	a := teamColour(d.f, 0)

	d.disc(pt{x, row(0)}, 11.5, white)
	d.disc(pt{x, row(0)}, 10, a)
	d.centred(d.fc.initials, pt{x - 0.5, row(0)}, white, w.sample)
	d.badge(pt{x + 9, row(0) + 7}, a, 2)
	say(0, tx, w.player)

	d.ball(pt{x, row(1)}, 7, 3, 2)
	say(1, tx, w.freeBall)

	d.disc(pt{x + 4, row(2)}, 10, a)
	d.ball(pt{x - 6, row(2) + 5}, 5, 1, 0)
	say(2, tx, w.heldBall)

	bx := x - 8
	for i, b := range ballColours {
		c := pt{bx, row(3)}
		d.ball(c, 6, i, 0)
		s := fmt.Sprint(b.points)
		d.text(d.fc.legend, c.X+9, row(3)+4.5, ink, s)
		bx += 19 + width(d.fc.legend, s)
	}
	d.text(d.fc.legend, bx, row(3)+4.5, ink, w.points)

	d.dragonAt(pt{x + 34, row(4)}, pt{x + 12, row(4)}, pt{x - 10, row(4)}, 0.5, a, false)
	d.diamond(pt{x + 64, row(4)}, mix(a, ink, 0.35), 2)
	say(4, x+80, w.dragon)

	dark := mix(a, ink, 0.35)
	d.head(pt{x + 2, row(5)}, pt{1, 0}, 0.7, dark, true)
	say(5, tx, w.open)
	px := tx + width(d.fc.legend, w.open+" ") + 14
	d.head(pt{px, row(5)}, pt{1, 0}, 0.7, dark, false)
	say(5, px+16, w.closed)

	d.hexIcon(pt{x, row(6)}, func(c pt, r float64) {
		d.fill(fireFill, hexagon(c, r))
		d.fill(fireEdge, hexagon(c, r), reversed(hexagon(c, r-1.5)))
	})
	say(6, tx, w.fire)

	d.hexIcon(pt{x, row(7)}, func(c pt, r float64) { d.fill(mix(paper, a, 0.2), hexagon(c, r)) })
	say(7, tx, w.edge)
	px = tx + width(d.fc.legend, w.edge+" ") + 14
	d.hexIcon(pt{px, row(7)}, func(c pt, r float64) {
		d.fill(mix(paper, a, 0.2), hexagon(c, r))
		d.fill(alpha(a, 0xa0), hexagon(c, r-2), reversed(hexagon(c, r-3.5)))
	})
	say(7, px+18, w.reentry)

	for k := range 3 {
		yy := row(8) - 10 + 8*float64(k)
		d.line(pt{x, yy}, pt{x, yy + 5}, 1.6, midLine)
	}
	say(8, tx, w.midline)
}

// hexIcon is a small cell drawn by paint inside a grid-coloured outline.
func (d *drawing) hexIcon(c pt, paint func(c pt, r float64)) {
	const r = 11.0
	d.fill(gridLine, hexagon(c, r+0.8))
	d.fill(paper, hexagon(c, r))
	paint(c, r)
}

// roster lists a team's players: initials, name, where they are, the balls they hold.
func (d *drawing) roster(team int, x0 float64) error {
	col := teamColour(d.f, team)
	y := legendTop + rosterRowH*0.5
	d.fill(col, []pt{{x0, y - 7}, {x0 + 14, y - 7}, {x0 + 14, y + 7}, {x0, y + 7}})
	half := d.words.half[team]
	name := d.f.Teams[team].Name
	if name == "" {
		name = d.words.team[team]
	}
	d.text(d.fc.legendBold, x0+20, y+4.5, ink, fit(d.fc.legendBold, name, rosterW-30-width(d.fc.small, half)))
	d.text(d.fc.small, x0+24+width(d.fc.legendBold, fit(d.fc.legendBold, name, rosterW-30-width(d.fc.small, half))), y+4.5, numberInk, half)
	for i, p := range d.f.Players {
		if p.Team != team {
			continue
		}
		y += rosterRowH
		c := pt{x0 + 8, y}
		d.disc(c, 8.5, col)
		d.centred(d.fc.digit, c, white, d.labels[i])
		where, err := d.words.where(p)
		if err != nil {
			return err
		}
		ww := width(d.fc.small, where)
		bw := 12 * float64(len(p.Balls))
		right := x0 + rosterW - 12
		d.text(d.fc.legend, x0+22, y+4.5, ink, fit(d.fc.legend, p.Name, right-bw-ww-x0-30))
		d.text(d.fc.small, right-bw-ww, y+4, numberInk, where)
		for k, b := range p.Balls {
			d.ball(pt{right - bw + 6 + 12*float64(k) + 3, y}, 5, ballIndex(b), 0)
		}
	}
	return nil
}

// fit cuts s with an ellipsis to at most w pixels.
func fit(face font.Face, s string, w float64) string {
	if width(face, s) <= w {
		return s
	}
	// the longest start that leaves room for the ellipsis, by the letters' advances
	room := w - width(face, "…")
	r := []rune(s)
	n, used := 0, 0.0
	for ; n < len(r); n++ {
		adv, _ := face.GlyphAdvance(r[n])
		if used+float64(adv)/64 > room {
			break
		}
		used += float64(adv) / 64
	}
	for ; n > 0; n-- { // kerning may make it a little wider
		if t := strings.TrimSpace(string(r[:n])) + "…"; width(face, t) <= w {
			return t
		}
	}
	return "…"
}
