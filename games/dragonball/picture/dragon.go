package picture

import (
	"image/color"
	"math"
	"strconv"
)

// dragon draws a dragon over its three cells: a tail tapering to a point, a wide back with
// wings, a round head with horns and eyes, and the mouth open (a red gap facing forward) or
// closed (a line). The height is in a white diamond by the back, swallowed balls in the belly.
func (d *drawing) dragon(dr *Dragon) {
	d.dragonAt(centre(dr.Head), centre(dr.Body), centre(dr.Tail), 1, teamColour(d.f, dr.Team), dr.MouthOpen)
	dark := mix(teamColour(d.f, dr.Team), ink, 0.35)
	b, t, u := centre(dr.Body), centre(dr.Tail), centre(dr.Head).sub(centre(dr.Body)).unit()
	// the height on the back, at the upper left clear of the cell's number and of a player
	// standing on the cell; the swallowed balls in the belly behind
	d.diamond(b.add(pt{-16, -8}), dark, dr.Height)
	for k, s := range dr.Swallowed {
		off := float64(k) - float64(len(dr.Swallowed)-1)/2
		d.ball(lerp(b, t, 0.66).add(u.perp().mul(9*off)), 4, ballIndex(s), 0)
	}
}

// diamond is a dragon's height in a white diamond ringed in col (a player's is round).
func (d *drawing) diamond(c pt, col color.NRGBA, height int) {
	shape := func(r float64) []pt {
		return []pt{c.add(pt{0, -r}), c.add(pt{r, 0}), c.add(pt{0, r}), c.add(pt{-r, 0})}
	}
	d.fill(col, shape(8.5))
	d.fill(white, shape(6.8))
	d.centred(d.fc.digit, c, ink, strconv.Itoa(height))
}

// dragonAt draws a dragon's shape with its head at h, body at b, tail at t, its sizes scaled
// by k (1 on the field).
func (d *drawing) dragonAt(h, b, t pt, k float64, col color.NRGBA, open bool) {
	dark := mix(col, ink, 0.35)
	light := mix(col, white, 0.45)
	u := h.sub(b).unit()
	n := u.perp().mul(k)
	u = u.mul(k)

	// the outline, a smooth curve through the sides of the tail, back and neck
	side := func(s float64) []pt {
		return []pt{t.sub(u.mul(21)), t.add(n.mul(7 * s)), lerp(t, b, 0.5).add(n.mul(14 * s)), b.add(n.mul(19 * s)),
			lerp(b, h, 0.55).add(n.mul(12 * s)), h.add(n.mul(9 * s))}
	}
	// wings on the back, swept to the tail, inside the body's cell
	for _, s := range []float64{1, -1} {
		w := func(along, across float64) pt { return b.add(u.mul(along)).add(n.mul(across * s)) }
		d.fill(mix(col, white, 0.2), []pt{w(10, 6), w(2, 27), w(-6, 27), w(-5, 22), w(-12, 23), w(-11, 18), w(-18, 17), w(-12, 6)})
	}
	left, right := catmull(side(1), 6), catmull(side(-1), 6)
	d.fill(alpha(dark, 0xf0), append(left, reversed(right)...))

	// a lighter spine from the tail to the neck
	spine := catmull([]pt{t.sub(u.mul(14)), lerp(t, b, 0.5).add(n.mul(0.5)), b, lerp(b, h, 0.5)}, 6)
	for i := 1; i < len(spine); i++ {
		d.line(spine[i-1], spine[i], 2.2*k, light)
	}
	d.head(h, u.unit(), k, dark, open)
}

// head is a dragon's head at h facing u, scaled by k: horns, eyes, and the mouth open (a red
// gap with teeth) or closed (a line).
func (d *drawing) head(h, u pt, k float64, dark color.NRGBA, open bool) {
	n := u.perp().mul(k)
	u = u.mul(k)
	for _, s := range []float64{1, -1} {
		d.fill(dark, []pt{h.sub(u.mul(5)).add(n.mul(11 * s)), h.sub(u.mul(22)).add(n.mul(19 * s)), h.sub(u.mul(12)).add(n.mul(5 * s))})
	}
	hr := 17 * k
	a := u.angle()
	if open {
		const gap = 0.75 // half the opening, radians
		apex := h.add(u.mul(1))
		d.fill(dark, append([]pt{apex}, arc(h, hr, a+gap, a+2*math.Pi-gap)...))
		d.fill(mouthRed, []pt{apex, apex.add(polar(hr-2*k, a+gap*0.8)), apex.add(polar(hr-2*k, a-gap*0.8))})
		for _, s := range []float64{1, -1} { // a tooth on each jaw
			j := apex.add(polar(hr*0.62, a+s*gap))
			d.fill(white, []pt{j.add(polar(3*k, a+s*gap)), j.sub(polar(3*k, a+s*gap)), j.add(polar(3.5*k, a-s*math.Pi/2))})
		}
	} else {
		d.disc(h, hr, dark)
		d.line(h.add(u.mul(4)), h.add(u.mul(17-0.5)), 2*k, ink)
	}
	for _, s := range []float64{1, -1} {
		e := h.sub(u.mul(3)).add(n.mul(8.5 * s))
		d.disc(e, 3.6*k, eyeYellow)
		d.disc(e.add(u.mul(1.2)), 1.6*k, ink)
	}
}

// catmull is a Catmull-Rom curve through ps, with steps points per segment.
func catmull(ps []pt, steps int) []pt {
	out := []pt{ps[0]}
	at := func(i int) pt { return ps[max(0, min(len(ps)-1, i))] }
	for i := 0; i < len(ps)-1; i++ {
		p0, p1, p2, p3 := at(i-1), at(i), at(i+1), at(i+2)
		for s := 1; s <= steps; s++ {
			t := float64(s) / float64(steps)
			t2, t3 := t*t, t*t*t
			f := func(a, b, c, d float64) float64 {
				return 0.5 * (2*b + (-a+c)*t + (2*a-5*b+4*c-d)*t2 + (-a+3*b-3*c+d)*t3)
			}
			out = append(out, pt{f(p0.X, p1.X, p2.X, p3.X), f(p0.Y, p1.Y, p2.Y, p3.Y)})
		}
	}
	return out
}
