package picture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"forumgm/games/dragonball/rules"
)

func TestCheck(t *testing.T) {
	ok := func() Field {
		return Field{
			Teams:   [2]Team{{Name: "А", Colour: 0}, {Name: "Б", Colour: 1}},
			Players: []Player{{Name: "Гарри", Team: 0, Cell: 57, Height: 2, Balls: []string{"Красный"}}},
			Balls:   []Ball{{Colour: "красный", Held: true}, {Colour: "желтый", Cell: 106, Height: 1}},
			Dragons: []Dragon{{Team: 0, Head: 103, Body: 102, Tail: 101, Height: 2, Fire: []int{104}}},
		}
	}
	cases := []struct {
		name string
		edit func(f *Field)
		want string // a problem's text; "" for none
	}{
		{"valid", func(f *Field) {}, ""},
		{"off the field", func(f *Field) {
			f.Players = append(f.Players, Player{Name: "Рон", Team: 1}, Player{Name: "Дин", Off: "swallowed"})
		}, ""},
		{"no name", func(f *Field) { f.Players[0].Name = " " }, "without a name"},
		{"team", func(f *Field) { f.Players[0].Team = 2 }, "team 2"},
		{"cell", func(f *Field) { f.Players[0].Cell = 212 }, "cell 212"},
		{"height", func(f *Field) { f.Players[0].Height = 4 }, "height 4"},
		{"off on the field", func(f *Field) { f.Players[0].Off = "hospital" }, `off "hospital" on cell 57`},
		{"off why", func(f *Field) {
			f.Players = append(f.Players, Player{Name: "Рон", Team: 1, Off: "дома"})
		}, `off "дома"`},
		{"three balls", func(f *Field) { f.Players[0].Balls = []string{"чёрный", "зелёный", "голубой"} }, "holds 3 balls"},
		{"unknown ball", func(f *Field) { f.Players[0].Balls = []string{"фиолетовый"} }, `unknown ball "фиолетовый"`},
		{"held twice", func(f *Field) {
			f.Players = append(f.Players, Player{Name: "Рон", Team: 1, Cell: 58, Height: 1, Balls: []string{"красный"}})
		}, "held by Гарри and Рон"},
		{"held off the field", func(f *Field) { f.Players[0].Cell = 0 }, "off the field and holds"},
		{"held by nobody", func(f *Field) { f.Players[0].Balls = nil }, "held by nobody"},
		{"held and free", func(f *Field) { f.Balls[0] = Ball{Colour: "красный", Cell: 5, Height: 1} }, "on cell 5 and held"},
		{"ball cell", func(f *Field) { f.Balls[1].Cell = -1 }, "cell -1"},
		{"dragon apart", func(f *Field) { f.Dragons[0].Head = 105 }, "not next to body"},
		{"dragon bent", func(f *Field) { f.Dragons[0].Tail = 85 }, "tail 85 is not behind body 102"},
		{"dragon height", func(f *Field) { f.Dragons[0].Height = 0 }, "height 0"},
		{"fire off the field", func(f *Field) { f.Dragons[0].Fire = []int{0} }, "fire on cell 0"},
		{"swallowed", func(f *Field) { f.Dragons[0].Swallowed = []string{"x"} }, `unknown ball "x"`},
		{"colour", func(f *Field) { f.Teams[1].Colour = -1 }, "colour -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ok()
			c.edit(&f)
			_, err := Draw(f)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, want an InputError", err)
			}
			if !slices.ContainsFunc(ie.Problems, func(p string) bool { return strings.Contains(p, c.want) }) {
				t.Errorf("problems %q lack %q", ie.Problems, c.want)
			}
		})
	}
}

func TestLabels(t *testing.T) {
	cases := []struct {
		names []string
		want  []string
	}{
		{[]string{"Гарри Поттер", "Гермиона", "ёжик", "Sir_Lancelot", "Ю"}, []string{"ГП", "Ге", "Ёж", "SL", "Ю"}},
		// clashes take a later letter, the first comer keeps the plain initials
		{[]string{"Анна", "Андрей", "Анатолий"}, []string{"Ан", "Ад", "Ат"}},
		{[]string{"Иван Петров", "Игорь Павлов"}, []string{"ИП", "Иг"}},
		{[]string{"Ю", "Ю", "Ю"}, []string{"Ю", "Ю2", "Ю3"}},
		{[]string{"--", "Ирина", "Ирина"}, []string{"?", "Ир", "Ин"}},
	}
	for _, c := range cases {
		var ps []Player
		for _, n := range c.names {
			ps = append(ps, Player{Name: n})
		}
		if got := labels(ps); !slices.Equal(got, c.want) {
			t.Errorf("labels(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// TestPaletted: more colours than the palette and than the first table holds; the 256 most
// frequent keep their exact colour, every other pixel takes its nearest.
func TestPaletted(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := range 200 {
		for x := range 300 {
			c := color.RGBA{uint8(x), uint8(y), uint8(x * y), 0xff} // 60000 colours, once each
			if x < 100 {
				c = color.RGBA{uint8(x / 10 * 20), 0x80, uint8(y / 20 * 20), 0xff} // 100 frequent ones
			}
			img.SetRGBA(x, y, c)
		}
	}
	p := paletted(img)
	if len(p.Palette) != 256 {
		t.Fatalf("palette of %d colours", len(p.Palette))
	}
	var pal []uint32
	for _, c := range p.Palette {
		q := c.(color.RGBA)
		pal = append(pal, 1<<24|uint32(q.R)<<16|uint32(q.G)<<8|uint32(q.B))
	}
	for y := range 200 {
		for x := range 300 {
			got := p.Palette[p.ColorIndexAt(x, y)].(color.RGBA)
			want := img.RGBAAt(x, y)
			if x < 100 && got != want {
				t.Fatalf("(%d, %d): frequent colour %v became %v", x, y, want, got)
			}
			if i := nearest(pal, 1<<24|uint32(want.R)<<16|uint32(want.G)<<8|uint32(want.B)); p.Palette[i] != got {
				t.Fatalf("(%d, %d): %v became %v, not the nearest %v", x, y, want, got, p.Palette[i])
			}
		}
	}
}

// TestFireShaded: the cone's cells, and only they, are shaded warm.
func TestFireShaded(t *testing.T) {
	f := Field{Dragons: []Dragon{{Team: 1, Head: 126, Body: 143, Tail: 160, Height: 2}}}
	plain, err := Draw(f)
	if err != nil {
		t.Fatal(err)
	}
	cone := rules.Cone(126, rules.NW, rules.VolleyDepth)
	for _, c := range cone {
		f.Dragons[0].Fire = append(f.Dragons[0].Fire, int(c))
	}
	fire, err := Draw(f)
	if err != nil {
		t.Fatal(err)
	}
	for c := 1; c <= rules.NumCells; c++ {
		p := centre(c).add(pt{12, 8}) // clear of numbers, and of the dragon outside its cells
		x, y := int(p.X), int(p.Y)
		before, after := plain.RGBAAt(x, y), fire.RGBAAt(x, y)
		in := slices.Contains(cone, rules.Cell(c))
		switch {
		case in && !(after.R > after.B+60 && after != before):
			t.Errorf("cell %d in the cone: %v, was %v", c, after, before)
		case !in && after != before:
			t.Errorf("cell %d outside the cone changed: %v, was %v", c, after, before)
		}
	}
}

// TestPlayersDrawn: a player's disc is in the team's colour at the cell's centre, and a
// player off the field leaves the field untouched.
func TestPlayersDrawn(t *testing.T) {
	f := Field{Teams: [2]Team{{Colour: 2}, {Colour: 3}}}
	empty, err := Draw(f)
	if err != nil {
		t.Fatal(err)
	}
	f.Players = []Player{{Name: "Рон", Team: 1, Cell: 57, Height: 1}, {Name: "Дин", Team: 0}}
	img, err := Draw(f)
	if err != nil {
		t.Fatal(err)
	}
	p := centre(57).add(pt{-6, 8}) // on the disc, off the initials
	if got, want := img.RGBAAt(int(p.X), int(p.Y)), color.RGBAModel.Convert(Palette[3]); got != want {
		t.Errorf("disc at 57: %v, want %v", got, want)
	}
	field := image.Rect(0, 0, Width, int(math.Ceil(fieldBottom)))
	for y := field.Min.Y; y < field.Max.Y; y++ {
		for x := field.Min.X; x < field.Max.X; x++ {
			if img.RGBAAt(x, y) != empty.RGBAAt(x, y) && centre(57).sub(pt{float64(x), float64(y)}).len() > 40 {
				t.Fatalf("(%d, %d) changed, far from cell 57", x, y)
			}
		}
	}
}

// TestConcurrent: pictures drawn at once are the same as one drawn alone.
func TestConcurrent(t *testing.T) {
	f := loadCase(t, "testdata/cases/midgame.yaml")
	want, err := PNG(f)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Go(func() { got[i], _ = PNG(f) })
	}
	wg.Wait()
	for i, g := range got {
		if !bytes.Equal(g, want) {
			t.Errorf("picture %d differs", i)
		}
	}
}

// TestEveryOrientation: across the golden cases, each of the six directions a dragon can face
// has its fire drawn at least once.
func TestEveryOrientation(t *testing.T) {
	seen := map[rules.Dir]bool{}
	for _, path := range cases(t) {
		for _, dr := range loadCase(t, path).Dragons {
			if len(dr.Fire) > 0 {
				d, _ := rules.Cell(dr.Body).DirTo(rules.Cell(dr.Head))
				seen[d] = true
			}
		}
	}
	for _, d := range rules.Dirs {
		if !seen[d] {
			t.Errorf("no golden picture has fire facing %s", d)
		}
	}
}

// TestTeamColours: the teams get their palette colours, and different ones when they ask for
// the same.
func TestTeamColours(t *testing.T) {
	cases := []struct{ a, b, wantA, wantB int }{
		{0, 1, 0, 1}, {3, 4, 3, 4}, {2, 2, 2, 3}, {5, 5, 5, 0}, {7, 1, 1, 2}, {6, 7, 0, 1},
	}
	for _, c := range cases {
		f := &Field{Teams: [2]Team{{Colour: c.a}, {Colour: c.b}}}
		if a, b := teamColour(f, 0), teamColour(f, 1); a != Palette[c.wantA] || b != Palette[c.wantB] {
			t.Errorf("colours %d, %d: got %v, %v, want palette %d, %d", c.a, c.b, a, b, c.wantA, c.wantB)
		}
	}
}

// TestInsidePicture: every shape of every case, and of a field crowded at every cell, lies
// inside the picture (a shape reaching out is not drawn, and counted).
func TestInsidePicture(t *testing.T) {
	fields := map[string]Field{}
	for _, path := range cases(t) {
		fields[path] = loadCase(t, path)
	}
	// three players with two balls each, and a free ball, on every cell; dragons by the
	// corners of their halves facing out; fire on every cell
	crowd := Field{Title: strings.Repeat("Очень длинный заголовок ", 10),
		Teams: [2]Team{{Name: strings.Repeat("Команда ", 20)}, {Name: "Б", Colour: 1}}}
	colours := []string{"чёрный", "зелёный", "голубой", "красный", "жёлтый"}
	var fire []int
	for c := 1; c <= rules.NumCells; c++ {
		fire = append(fire, c)
		for h := 1; h <= 3; h++ {
			crowd.Players = append(crowd.Players, Player{Name: strings.Repeat("Щ", h+20) + " " + strings.Repeat("Ж", c), Team: h % 2, Cell: c, Height: h})
		}
	}
	for i, col := range colours {
		crowd.Players[i].Balls = []string{col}
		crowd.Balls = append(crowd.Balls, Ball{Colour: col, Held: true})
	}
	crowd.Dragons = []Dragon{
		{Team: 0, Head: 17, Body: 34, Tail: 51, Height: 1, MouthOpen: true, Fire: fire, Swallowed: colours},
		{Team: 1, Head: 195, Body: 178, Tail: 161, Height: 3, Fire: fire, Swallowed: colours},
	}
	fields["crowd"] = crowd
	free := Field{}
	for c := 1; c <= rules.NumCells; c++ {
		for _, col := range colours {
			free.Balls = append(free.Balls, Ball{Colour: col, Cell: c, Height: 3})
		}
		free.Players = append(free.Players, Player{Name: "Ян", Cell: c, Height: 1, Balls: nil})
	}
	fields["free balls"] = free
	for name, f := range fields {
		d, err := render(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.dropped != 0 {
			t.Errorf("%s: %d shapes reach out of the picture", name, d.dropped)
		}
	}
}

func TestFit(t *testing.T) {
	fc, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Гарри Поттер", "Вольдемар Константинович Многоименный-Длиннофамильный", "Ю", ""} {
		for _, w := range []float64{5, 30, 100, 1000} {
			got := fit(fc.legend, s, w)
			switch {
			case width(fc.legend, s) <= w:
				if got != s {
					t.Errorf("fit(%q, %v) = %q, want it whole", s, w, got)
				}
			case got != "…" && width(fc.legend, got) > w:
				t.Errorf("fit(%q, %v) = %q, %v wide", s, w, got, width(fc.legend, got))
			case !strings.HasSuffix(got, "…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")):
				t.Errorf("fit(%q, %v) = %q, not a start of it with an ellipsis", s, w, got)
			case got != "…" && width(fc.legend, strings.TrimSuffix(got, "…")+string([]rune(s)[len([]rune(got))-1])+"…") <= w:
				t.Errorf("fit(%q, %v) = %q, one more letter would fit", s, w, got)
			}
		}
	}
}
