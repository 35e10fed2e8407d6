package football

import (
	"encoding/json"
	"fmt"
	"image/color"
	"strings"

	"golang.org/x/image/font"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/games/football/rules"
	"forumgm/pictures"
)

// The ring as a picture: the same cells, in the same places round the square, with the same
// marks and the teams on their cells as the public page's grid (ringOf lays out both), for posts
// on forums that take pictures (the setting ring_picture) and for the page beside its grid. The
// turn report's text table stays what players read and quote; the picture is an attachment
// beside it.

// Sizes of the ring's picture, in pixels.
const (
	ringCellSize = 76 // a cell's side
	ringGap      = 3  // between cells
	ringMargin   = 12
	ringTop      = 34 // room for the title
	ringLine     = 15 // a line of text inside a cell or the middle
)

var (
	ringBackground = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	ringPlain      = color.NRGBA{0xfb, 0xfb, 0xf8, 0xff}
	ringQuestion   = color.NRGBA{0xee, 0xf4, 0xff, 0xff}
	ringBorder     = color.NRGBA{0xcf, 0xd5, 0xdd, 0xff}
	ringAttack     = color.NRGBA{0xb4, 0x23, 0x18, 0xff}
	ringCard       = color.NRGBA{0xfd, 0xb0, 0x22, 0xff}
	ringInk        = color.NRGBA{0x1d, 0x24, 0x30, 0xff}
	ringLabel      = color.NRGBA{0x66, 0x70, 0x85, 0xff}
	// ringGroups are the groups' colours (group 1 first), as the page's .group1…
	ringGroups = []color.NRGBA{{0xb4, 0x23, 0x18, 0xff}, {0x17, 0x5c, 0xd3, 0xff}, {0x06, 0x76, 0x47, 0xff}, {0x69, 0x41, 0xc6, 0xff}}
)

// ringPicture is the ring as it stands, drawn, titled.
func (r *Rules) ringPicture(title string) (forum.Attachment, error) {
	side, cells := ringOf(r.game)
	data, err := drawRing(title, side, cells)
	if err != nil {
		return forum.Attachment{}, fmt.Errorf("football: the ring's picture: %w", err)
	}
	return forum.Attachment{Name: "football-ring.png", ContentType: "image/png", Data: data}, nil
}

// ringReport says whether ev's thread post carries the ring's picture (with ring_picture): a
// turn's report and the end.
func ringReport(ev game.Event) bool {
	switch ev.(type) {
	case *rules.TurnClosed, *rules.GameEnded:
		return true
	}
	return false
}

// ringTitle is the title of the ring's picture under ev's post.
func ringTitle(ev game.Event) string {
	switch e := ev.(type) {
	case *rules.TurnClosed:
		return fmt.Sprintf("Футбольная игра с кубиком — поле после %d хода", e.Turn)
	case *rules.GameEnded:
		return "Футбольная игра с кубиком — поле в конце игры"
	}
	return "Футбольная игра с кубиком — поле"
}

// ringSize is the picture's width and height for a square of side cells.
func ringSize(side int) (w, h int) {
	inner := side*ringCellSize + (side-1)*ringGap
	return 2*ringMargin + inner, ringTop + 2*ringMargin + inner
}

// ringCellAt is the top-left corner of the cell at grid place (row, col), 1-based.
func ringCellAt(row, col int) (x, y int) {
	return ringMargin + (col-1)*(ringCellSize+ringGap), ringTop + ringMargin + (row-1)*(ringCellSize+ringGap)
}

var ringCache = pictures.Cache{Size: 16}

// drawRing draws the ring laid out by ringOf as a PNG.
func drawRing(title string, side int, cells []ringCell) ([]byte, error) {
	key, err := json.Marshal(struct {
		T string
		S int
		C []ringCell
	}{title, side, cells})
	if err != nil {
		return nil, err
	}
	return ringCache.Draw(string(key), func() ([]byte, error) { return drawRing1(title, side, cells) })
}

func drawRing1(title string, side int, cells []ringCell) ([]byte, error) {
	small, err := pictures.Face(false, 11)
	if err != nil {
		return nil, err
	}
	bold, err := pictures.Face(true, 12)
	if err != nil {
		return nil, err
	}
	head, err := pictures.Face(true, 14)
	if err != nil {
		return nil, err
	}
	w, h := ringSize(side)
	c := pictures.NewCanvas(w, h, ringBackground)
	c.Text(head, ringMargin, ringTop-12, ringInk, title)
	for _, cell := range cells {
		x, y := ringCellAt(cell.Row, cell.Col)
		fill, border := ringPlain, ringBorder
		if cell.Question {
			fill = ringQuestion
		}
		if cell.Attack != "" {
			border = ringAttack
		}
		c.Rect(x, y, ringCellSize, ringCellSize, fill)
		c.Frame(x, y, ringCellSize, ringCellSize, border)
		if len(cell.Teams) > 0 {
			c.Frame(x+1, y+1, ringCellSize-2, ringCellSize-2, ringInk)
			c.Frame(x+2, y+2, ringCellSize-4, ringCellSize-4, ringInk)
		}
		// The first line: the number, then the marks (? the question, the yellow card, ×N the
		// attack cell of group N).
		tx := float64(x + 5)
		num := fmt.Sprint(cell.Number)
		c.Text(bold, tx, float64(y+ringLine), ringInk, num)
		tx += pictures.Width(bold, num) + 4
		if cell.Question {
			c.Text(bold, tx, float64(y+ringLine), ringInk, "?")
			tx += pictures.Width(bold, "?") + 4
		}
		if cell.Yellow {
			c.Rect(int(tx), y+5, 7, 11, ringCard)
			tx += 11
		}
		if cell.Attack != "" {
			c.Text(bold, tx, float64(y+ringLine), ringAttack, "×"+cell.Attack)
		}
		for i, t := range cell.Teams {
			ty := y + ringLine*(i+2)
			if i == 3 && len(cell.Teams) > 4 {
				c.Text(small, float64(x+5), float64(ty), ringLabel, fmt.Sprintf("и ещё %d", len(cell.Teams)-3))
				break
			}
			c.Text(bold, float64(x+5), float64(ty), groupColour(t.Group), fit(bold, t.Name, ringCellSize-10))
		}
	}
	// The middle: where each team stands, and the legend.
	if side > 2 {
		mx, my := ringCellAt(2, 2)
		mw := (side-2)*ringCellSize + (side-3)*ringGap
		mh := mw
		line := my + ringLine + 6
		for _, cell := range cells {
			for _, t := range cell.Teams {
				if line > my+mh-3*ringLine {
					break
				}
				c.Text(bold, float64(mx+8), float64(line), groupColour(t.Group), fit(bold, fmt.Sprintf("%s — клетка %d", t.Name, cell.Number), mw-16))
				line += ringLine + 2
			}
		}
		for i, l := range []string{"? — вопрос, ×N — клетка атаки группы N,", "жёлтый прямоугольник — жёлтая карточка."} {
			c.Text(small, float64(mx+8), float64(my+mh-2*ringLine+i*ringLine), ringLabel, fit(small, l, mw-16))
		}
	}
	return c.PNG()
}

// groupColour is group g's colour (1-based; groups past the palette share its last).
func groupColour(g int) color.NRGBA {
	return ringGroups[min(max(g, 1), len(ringGroups))-1]
}

// fit is s cut with "…" to at most width pixels in face.
func fit(face font.Face, s string, width int) string {
	if pictures.Width(face, s) <= float64(width) {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && pictures.Width(face, string(r)+"…") > float64(width) {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}
