package picture

import (
	"cmp"
	"image"
	"image/color"
	"slices"
)

// paletted turns an opaque picture into one of at most 256 colours: the 256 most frequent
// (every flat fill and most anti-aliasing shades) keep their exact colour, the rarer shades take
// the nearest of them. An 8-bit PNG of it is a third of the size of a true-colour one and
// encodes faster; the difference is not visible.
func paletted(img *image.RGBA) *image.Paletted {
	r := img.Rect
	n := r.Dx() * r.Dy()
	// an open-addressing table of the colours (key: 0x01RRGGBB, 0 empty) and their counts
	size := 1 << 14
	keys := make([]uint32, size)
	counts := make([]int32, size)
	slot := make([]int32, n) // each pixel's slot in the table
	used := 0
	var grow func()
	find := func(k uint32) int32 {
		h := (k * 2654435761) >> 8
		for i := int(h) & (size - 1); ; i = (i + 1) & (size - 1) {
			if keys[i] == k {
				return int32(i)
			}
			if keys[i] == 0 {
				keys[i] = k
				used++
				return int32(i)
			}
		}
	}
	grow = func() {
		oldKeys, oldCounts := keys, counts
		size *= 2
		keys, counts = make([]uint32, size), make([]int32, size)
		remap := make([]int32, len(oldKeys))
		used = 0
		for i, k := range oldKeys {
			if k != 0 {
				j := find(k)
				counts[j] = oldCounts[i]
				remap[i] = j
			}
		}
		for i, s := range slot {
			slot[i] = remap[s]
		}
	}
	last, lastSlot := uint32(0), int32(0)
	for y, p := 0, 0; y < r.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*r.Dx()]
		for x := 0; x < len(row); x, p = x+4, p+1 {
			k := 1<<24 | uint32(row[x])<<16 | uint32(row[x+1])<<8 | uint32(row[x+2])
			if k != last { // most pixels are the same as the one before: a flat fill
				if used*4 > size*3 {
					slot = slot[:p]
					grow()
					slot = slot[:n]
				}
				last, lastSlot = k, find(k)
			}
			counts[lastSlot]++
			slot[p] = lastSlot
		}
	}

	// the palette: the most frequent colours, ties by colour so it is the same every time
	var all []int32
	for i, k := range keys {
		if k != 0 {
			all = append(all, int32(i))
		}
	}
	slices.SortFunc(all, func(a, b int32) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(keys[a], keys[b])
	})
	pal := make(color.Palette, 0, 256)
	rgb := make([]uint32, 0, 256)
	index := make([]uint8, size)
	for i, s := range all {
		if i < 256 {
			k := keys[s]
			pal = append(pal, color.RGBA{uint8(k >> 16), uint8(k >> 8), uint8(k), 0xff})
			rgb = append(rgb, k)
			index[s] = uint8(i)
			continue
		}
		index[s] = nearest(rgb, keys[s])
	}

	out := image.NewPaletted(r, pal)
	for y, p := 0, 0; y < r.Dy(); y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+r.Dx()]
		for x := range row {
			row[x] = index[slot[p]]
			p++
		}
	}
	return out
}

// nearest is the index of the palette colour closest to k, by weighted squared distance;
// colours are 0x01RRGGBB.
func nearest(pal []uint32, k uint32) uint8 {
	r, g, b := int(k>>16&0xff), int(k>>8&0xff), int(k&0xff)
	best, bestD := 0, 1<<62
	for i, q := range pal {
		dg := g - int(q>>8&0xff)
		d := 4 * dg * dg
		if d >= bestD {
			continue
		}
		dr := r - int(q>>16&0xff)
		if d += 3 * dr * dr; d >= bestD {
			continue
		}
		db := b - int(q&0xff)
		if d += 2 * db * db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}
