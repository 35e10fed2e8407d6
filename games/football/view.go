package football

import (
	_ "embed"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"
	"time"

	"forumgm/game"
	"forumgm/games/football/rules"
)

// The game drawn for people (game.Viewer): the ring of cells round a square (each cell with its
// kind: question, yellow card, attack cell of a group, and the teams standing on it), the table,
// and what happens next: the turn's window and the teams that have not moved in it. The die
// table stays secret (its commitment is the opening post's).

//go:embed view.html
var viewHTML string

var viewTmpl = template.Must(template.New("view").Parse(viewHTML))

type ringCell struct {
	Number   int
	Row, Col int // the cell's place on the square's border (1-based grid lines)
	Question bool
	Yellow   bool
	Attack   string // the groups attacking from it ("1", "1, 2")
	Start    string // the groups starting here
	Teams    []ringTeam
}

type ringTeam struct {
	Name  string
	Group int
}

type viewData struct {
	Side   int // cells per side of the square (the grid is Side×Side)
	Cells  []ringCell
	Table  []rules.Standing
	Laps   map[string]int
	Groups map[string]int
	Turn   int
	Over   bool
}

// View draws the ring, the table and the turn's window.
func (r *Rules) View(now time.Time) (game.View, error) {
	g := r.game
	st := g.Snapshot()
	d := viewData{Turn: st.Turn, Over: st.Phase == rules.PhaseOver, Laps: map[string]int{}, Groups: map[string]int{}}
	d.Side, d.Cells = ringOf(g)
	for _, t := range g.OnField() { // before the start's draw, where the roster split puts them
		d.Laps[t.Name], d.Groups[t.Name] = t.Lap, t.Group
	}
	d.Table, _ = g.Standings()
	var pos, stand strings.Builder
	if err := viewTmpl.ExecuteTemplate(&pos, "ring", d); err != nil {
		return game.View{}, fmt.Errorf("football: view: %w", err)
	}
	if err := viewTmpl.ExecuteTemplate(&stand, "table", d); err != nil {
		return game.View{}, fmt.Errorf("football: view: %w", err)
	}
	set := g.Settings()
	v := game.View{Position: template.HTML(pos.String()), Standings: template.HTML(stand.String()), Zone: set.Location, Over: d.Over}
	if s := strings.TrimSpace(r.Status()); s != "" {
		v.Next = append(v.Next, s)
	}
	if st.Phase == rules.PhasePlaying && st.Open {
		var waiting []string
		for _, t := range st.Teams {
			if t.Moved == "" {
				waiting = append(waiting, t.Name)
			}
		}
		if len(waiting) > 0 {
			v.Next = append(v.Next, "Ещё не сходили: "+strings.Join(waiting, ", ")+".")
		} else {
			v.Next = append(v.Next, "Все команды сходили.")
		}
	}
	if !v.Over {
		if at, ok := g.NextTimer(now); ok {
			v.Deadline = at
			switch {
			case st.Phase == rules.PhasePlaying && st.Open:
				v.DeadlineLabel = fmt.Sprintf("Окно хода %d закрывается", st.Turn)
			case st.Phase == rules.PhasePlaying || st.Phase == rules.PhaseNew:
				v.DeadlineLabel = fmt.Sprintf("Открывается окно хода %d (или истекает время ответа на вопрос)", st.Turn+1)
			default:
				v.DeadlineLabel = "Истекает время ответа на вопрос"
			}
		}
	}
	return v, nil
}

// ringOf is the ring as it stands, laid out round a square: the side of the square and each cell
// with its place, its kinds and the teams on it. The page's grid and the posts' picture
// (ringPicture) both draw it.
func ringOf(g *rules.Game) (side int, out []ringCell) {
	teams := g.OnField() // before the start's draw, where the roster split puts them
	b := g.Board()
	cells := b.Cells()
	// The ring runs clockwise round the border of a square from its top-left corner: n cells
	// need a side of n/4+1.
	side = (len(cells)+3)/4 + 1
	starts := map[int][]string{}
	for _, grp := range slices.Sorted(maps.Keys(b.Starts)) {
		starts[b.Starts[grp]] = append(starts[b.Starts[grp]], fmt.Sprint(grp))
	}
	for i, c := range cells {
		rc := ringCell{Number: c.Number, Question: c.Question, Yellow: c.Yellow, Start: strings.Join(starts[c.Number], ", ")}
		var att []string
		for _, a := range c.Attack {
			att = append(att, fmt.Sprint(a))
		}
		rc.Attack = strings.Join(att, ", ")
		rc.Row, rc.Col = ringPlace(i, side)
		for _, t := range teams {
			if t.Cell == c.Number {
				rc.Teams = append(rc.Teams, ringTeam{Name: t.Name, Group: t.Group})
			}
		}
		out = append(out, rc)
	}
	return side, out
}

// ringPlace is where the i-th cell (0-based) of the ring stands on the border of a side×side
// grid, clockwise from the top-left corner: its row and column, 1-based.
func ringPlace(i, side int) (row, col int) {
	edge := side - 1
	switch {
	case i < edge: // the top, left to right
		return 1, i + 1
	case i < 2*edge: // the right, top to bottom
		return i - edge + 1, side
	case i < 3*edge: // the bottom, right to left
		return side, side - (i - 2*edge)
	default: // the left, bottom to top
		return side - (i - 3*edge), 1
	}
}

//go:embed view.css
var viewCSS string

// maxRingSide is the largest square the ring's placement classes cover (a ring of up to 76
// cells); a larger ring's cells flow in order.
const maxRingSide = 20

// ringCSS is the ring's style with its placement classes: .fside-N for a square of side N, its
// middle .fmid-N, and each cell's row and column .fr-R, .fc-C.
var ringCSS = func() string {
	var b strings.Builder
	b.WriteString(viewCSS)
	for s := 3; s <= maxRingSide; s++ {
		fmt.Fprintf(&b, ".football-ring.fside-%d{grid-template-columns:repeat(%d,minmax(0,1fr))}\n", s, s)
		fmt.Fprintf(&b, ".football-ring .fmid-%d{grid-row:2/span %d;grid-column:2/span %d}\n", s, s-2, s-2)
	}
	for i := 1; i <= maxRingSide; i++ {
		fmt.Fprintf(&b, ".football-ring .fr-%d{grid-row:%d}.football-ring .fc-%d{grid-column:%d}\n", i, i, i, i)
	}
	return b.String()
}()

// ViewCSS is the style of the ring the view draws (game.Styled).
func (Game) ViewCSS() string { return ringCSS }
