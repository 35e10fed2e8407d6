package dragonball

import (
	_ "embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
)

// The game drawn for people (game.Viewer): the field picture after the last round (the
// report's own picture), the players, dragons and free balls as the report's list, the score, and
// what happens next: the round's deadline and who has sent orders. Orders themselves are never
// shown: they are secret until the round resolves, and then the round's report tells what
// happened.

//go:embed view.html
var viewHTML string

var viewTmpl = template.Must(template.New("view").Parse(viewHTML))

type viewPlayer struct {
	Name, Team, Where, Balls string
	Side                     int
}

type viewTeam struct {
	Name                  string
	Side                  int
	Score                 int
	Held                  []string // balls its players hold
	Swallowed             []string // balls its dragon swallowed
	Dragon                string   // where the dragon is
	Sent, Waiting         []string // players whose orders came, and those still owing them
	DragonOrders, Handler string
}

type viewData struct {
	Round     int // rounds resolved
	Players   []viewPlayer
	Teams     []viewTeam
	FreeBalls []string
	Over      bool
	Winner    string
}

// Apply folds an event and keeps the last resolved round with the state it started from (its
// pictures, tact by tact).
func (r *Rules) Apply(ev game.Event) error {
	e, round := ev.(*rules.RoundResolved)
	var from *rules.State
	if round && e.State != nil {
		from = r.game.State()
	}
	set := r.game.Settings()
	if err := r.game.Apply(ev); err != nil {
		return err
	}
	if round && e.State != nil {
		r.lastRound, r.roundFrom, r.roundSet = e, from, set
		r.tacts, r.tactsErr = nil, nil
	}
	return nil
}

// lastTacts are the states after each tact of the last round, played again from the log (the
// round's event keeps only the state after the round); nil when the round could not be played
// again (then the view shows the field after the round alone).
func (r *Rules) lastTacts() []*rules.State {
	if r.tacts == nil && r.tactsErr == nil && r.lastRound != nil {
		r.tacts, r.tactsErr = r.game.TactStates(r.roundFrom, r.roundSet, r.lastRound)
	}
	return r.tacts
}

// View draws the field, the score and the round's deadline.
func (r *Rules) View(now time.Time) (game.View, error) {
	st := r.game.State()
	teams := r.game.Teams()
	d := viewData{Round: st.Round, Over: st.Over, Winner: st.Winner}
	for i, t := range teams {
		vt := viewTeam{Name: t.Name, Side: i, Score: st.Score[i], Handler: t.Handler}
		if dr := st.Dragons[i]; dr != nil {
			vt.Dragon = fmt.Sprintf("голова %d, тело %d, хвост %d, высота %d", dr.Head, dr.Body, dr.Tail(), dr.Height)
			for _, c := range dr.Swallowed {
				vt.Swallowed = append(vt.Swallowed, string(c))
			}
			if len(st.Dragon[i]) > 0 {
				vt.DragonOrders = "получен"
			}
		}
		d.Teams = append(d.Teams, vt)
	}
	for _, p := range st.Players {
		vp := viewPlayer{Name: p.Name, Team: teams[p.Team].Name, Side: p.Team}
		switch p.Status {
		case rules.OnField:
			vp.Where = fmt.Sprintf("клетка %d, высота %d", p.Cell, p.Height)
		case rules.Hospital:
			vp.Where = fmt.Sprintf("в лазарете (вернётся в раунде %d)", p.Returns)
		case rules.Swallowed:
			vp.Where = "проглочен драконом"
		}
		var balls []string
		for _, b := range p.Balls {
			balls = append(balls, string(b))
		}
		vp.Balls = strings.Join(balls, ", ")
		d.Teams[p.Team].Held = append(d.Teams[p.Team].Held, balls...)
		d.Players = append(d.Players, vp)
		if st.Started && !st.Over && p.Status == rules.OnField {
			if st.Orders[p.Name] != nil {
				d.Teams[p.Team].Sent = append(d.Teams[p.Team].Sent, p.Name)
			} else {
				d.Teams[p.Team].Waiting = append(d.Teams[p.Team].Waiting, p.Name)
			}
		}
	}
	for _, b := range st.Balls {
		switch {
		case b.Status != rules.BallFree || !b.Visible: // the invisible yellow ball stays hidden
		case b.Height == 0: // the start's draw waits for the first player post
			d.FreeBalls = append(d.FreeBalls, fmt.Sprintf("%s: клетка %d, высота — по жеребьёвке", b.Color, b.Cell))
		default:
			d.FreeBalls = append(d.FreeBalls, fmt.Sprintf("%s: клетка %d, высота %d", b.Color, b.Cell, b.Height))
		}
	}
	var pos, stand strings.Builder
	if err := viewTmpl.ExecuteTemplate(&pos, "field", d); err != nil {
		return game.View{}, fmt.Errorf("dragonball: view: %w", err)
	}
	if err := viewTmpl.ExecuteTemplate(&stand, "standings", d); err != nil {
		return game.View{}, fmt.Errorf("dragonball: view: %w", err)
	}
	set := r.game.Settings()
	v := game.View{Position: template.HTML(pos.String()), Standings: template.HTML(stand.String()),
		Zone: set.Location, Over: st.Over}
	if s := strings.TrimSpace(r.Status()); s != "" {
		v.Next = append(v.Next, s)
	}
	for _, t := range d.Teams {
		switch {
		case !st.Started || st.Over:
		case len(t.Waiting) == 0:
			v.Next = append(v.Next, fmt.Sprintf("%s: приказы всех игроков получены.", t.Name))
		default:
			v.Next = append(v.Next, fmt.Sprintf("%s: ждём приказов от %s.", t.Name, strings.Join(t.Waiting, ", ")))
		}
	}
	if !st.Over {
		if at, ok := r.game.NextTimer(now); ok {
			v.Deadline, v.DeadlineLabel = at, fmt.Sprintf("Раунд %d закрывается: приказы исполняются, выходит отчёт", st.Round+1)
		}
	}
	if e := r.lastRound; e == nil && st.Started {
		// Before the first round: the field as it was set up.
		var t strings.Builder
		if err := viewTmpl.ExecuteTemplate(&t, "picture_now", d); err != nil {
			return game.View{}, fmt.Errorf("dragonball: view: %w", err)
		}
		f := fieldAfter(&rules.RoundResolved{State: st}, teams, t.String())
		v.Pictures = append(v.Pictures, game.Picture{Name: "start.png", Title: t.String(),
			Draw: func() ([]byte, error) { return drawCached(f) }})
	} else if e != nil {
		title, err := r.tmpl.Render("picture_title", r.view(game.Context{Event: e}))
		if err != nil {
			return game.View{}, fmt.Errorf("dragonball: view: picture title: %w", err)
		}
		// The tacts before the last one, each as it ended; the last is the field after the
		// round (the report's picture). All of them exist only once the round is resolved.
		tacts := r.lastTacts()
		for i := 0; i+1 < len(tacts); i++ {
			t := i + 1
			f := fieldAtTact(e, tacts[i], t, teams, fmt.Sprintf("Раунд %d, после %d-го такта", e.Round, t))
			v.Pictures = append(v.Pictures, game.Picture{Name: fmt.Sprintf("round-%d-tact-%d.png", e.Round, t),
				Title: fmt.Sprintf("Раунд %d, такт %d", e.Round, t),
				Draw:  func() ([]byte, error) { return drawCached(f) }})
		}
		f := fieldAfter(e, teams, title)
		v.Pictures = append(v.Pictures, game.Picture{Name: fmt.Sprintf("round-%d.png", e.Round),
			Title: fmt.Sprintf("Поле после раунда %d (после третьего такта)", e.Round),
			Draw:  func() ([]byte, error) { return drawCached(f) }})
	}
	return v, nil
}

//go:embed view.css
var viewCSS string

// ViewCSS is the style of the field list the view draws (game.Styled).
func (Game) ViewCSS() string { return viewCSS }
