package crusade

import (
	_ "embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

// The game drawn for people (game.Viewer): the 20×20 board as a grid (warriors by side and kind,
// the flags, the forest rows, the last turn's cells marked), the armies' counts and wounds, and
// what happens next. It shows exactly what the public board shows (Tokens): nothing of a private
// deployment, nothing in an invisible forest.

//go:embed view.html
var viewHTML string

var viewTmpl = template.Must(template.New("view").Parse(viewHTML))

// boardCell is one cell of the drawn board.
type boardCell struct {
	Name   string // "K16"
	Token  string // "в1", "Ф", ""
	Side   string // "crusaders", "saracens", "" (CSS class)
	Kind   string // the warrior kind's Russian name (the title)
	Forest bool
	Flag   bool
	Last   bool // the last turn moved to, from or hit here
}

type boardRow struct {
	Label string
	Cells []boardCell
}

type sideCount struct {
	Name                  string
	Alive, InPlay, Killed int
	Owed, Allocated       int
}

type viewData struct {
	Rows      []boardRow
	Cols      []int
	LastTurn  string
	Sides     []sideCount
	Deploying bool
}

// kindNames are the warrior kinds' Russian names (the cell's title).
var kindNames = map[rules.Kind]string{
	rules.Knight: "рыцарь", rules.Crossbowman: "арбалетчик", rules.Archer: "лучник", rules.Dismounted: "спешенный рыцарь",
	rules.Pikeman: "копейщик", rules.Guard: "гвардеец", rules.MountedArch: "верховой лучник", rules.Mercenary: "наёмник",
}

// View draws the board, the counts and what happens next.
func (r *Rules) View(now time.Time) (game.View, error) {
	g := r.game
	set := r.settings()
	tokens := g.Tokens()
	last := r.lastCells(set.ForestInvisible)
	d := viewData{Deploying: g.Phase() == rules.PhaseDeploying}
	for c := 1; c <= rules.Size; c++ {
		d.Cols = append(d.Cols, c)
	}
	for row := 0; row < rules.Size; row++ {
		br := boardRow{Label: rules.Rows[row : row+1]}
		for col := 1; col <= rules.Size; col++ {
			cell := rules.Cell{Row: row, Col: col}
			bc := boardCell{Name: cell.String(), Token: tokens[cell], Forest: rules.ForestRow(row), Last: last[cell]}
			switch {
			case bc.Token == rules.FlagToken:
				bc.Flag = true
			case bc.Token != "":
				w := rules.WarriorID(bc.Token)
				if w.Valid() {
					bc.Side, bc.Kind = string(w.Side()), kindNames[w.Kind()]
					if w.Commander() {
						bc.Kind = map[bool]string{true: "император", false: "шейх"}[w.Side() == rules.Crusaders]
					}
				}
			}
			br.Cells = append(br.Cells, bc)
		}
		d.Rows = append(d.Rows, br)
	}
	if r.last != nil {
		d.LastTurn = fmt.Sprintf("Последний ход — №%d, %s (%s): клетки отмечены.", r.last.Number, sideName(r.last.Side), r.last.Author)
	}
	inPlay, alive := map[rules.Side]int{}, map[rules.Side]int{}
	for _, w := range g.Warriors() {
		if !w.InPlay {
			continue
		}
		inPlay[w.Side]++
		if w.Alive {
			alive[w.Side]++
		}
	}
	for _, s := range []rules.Side{rules.Crusaders, rules.Saracens} {
		o := g.WoundsOwed(s)
		d.Sides = append(d.Sides, sideCount{Name: sideName(s), Alive: alive[s], InPlay: inPlay[s], Killed: g.Killed(s),
			Owed: o.Unallocated, Allocated: o.Total - o.Unallocated})
	}
	var pos, stand strings.Builder
	if err := viewTmpl.ExecuteTemplate(&pos, "board", d); err != nil {
		return game.View{}, fmt.Errorf("crusade: view: %w", err)
	}
	if err := viewTmpl.ExecuteTemplate(&stand, "standings", d); err != nil {
		return game.View{}, fmt.Errorf("crusade: view: %w", err)
	}
	v := game.View{Position: template.HTML(pos.String()), Standings: template.HTML(stand.String()),
		Zone: set.Location, Over: g.Phase() == rules.PhaseOver}
	if s := strings.TrimSpace(r.Status()); s != "" {
		v.Next = append(v.Next, s)
	}
	if !v.Over {
		if at, ok := g.NextTimer(now); ok {
			v.Deadline, v.DeadlineLabel = at, "Следующее по часам игры (лимит времени на ход, вопрос дня или закрытие дня в 00:00)"
		}
	}
	return v, nil
}

// lastCells are the cells the last turn moved from and to and hit; with invisible forests the
// forest cells are left out (the board does not show what happens there).
func (r *Rules) lastCells(hideForest bool) map[rules.Cell]bool {
	out := map[rules.Cell]bool{}
	t := r.last
	if t == nil {
		return out
	}
	add := func(c rules.Cell) {
		if hideForest && rules.ForestRow(c.Row) {
			return
		}
		out[c] = true
	}
	for _, m := range t.Moves {
		add(m.From)
		add(m.To)
	}
	for _, a := range t.Attacks {
		add(a.From)
		if a.Stop != nil {
			add(*a.Stop)
		}
		for _, h := range a.Hits {
			add(h.Cell)
		}
	}
	return out
}

//go:embed view.css
var viewCSS string

// ViewCSS is the style of the board the view draws (game.Styled).
func (Game) ViewCSS() string { return viewCSS }
