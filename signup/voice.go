package signup

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"

	"forumgm/game"
)

// funcs are the voice's own template functions.
var funcs = template.FuncMap{
	"when":      func(v view, t time.Time) string { return t.In(v.Loc).Format("02.01 в 15:04") },
	"teamLabel": func(v view, key string) string { return v.Labels[key] },
	"problemView": func(v view, p Problem) struct {
		V view
		P Problem
	} {
		return struct {
			V view
			P Problem
		}{v, p}
	},
	"defaultText": func(v view, d string) string {
		kind, key, _ := strings.Cut(d, ":")
		for _, t := range v.Teams {
			if t.Key != key {
				continue
			}
			if kind == "role" {
				return fmt.Sprintf("%s «%s» — %s", t.Role, t.Label, t.Holder)
			}
			return fmt.Sprintf("список «%s» команды «%s» составлен по порядку", v.PiecesList, t.Label)
		}
		return d
	},
}

// teamView is one team as the texts show it.
type teamView struct {
	Key, Label, Role string
	RoleInThread     bool
	Size             int
	Players          []string
	Holder           string   // the role's holder
	Pieces           []string // "Ник: к1, к2, к3"
	PerPlayer        int
	Example          string // a pieces list's example line
}

// view is what the sign-up's templates get.
type view struct {
	Title    string
	Author   string
	Event    game.Event
	Problems []Problem
	Teams    []teamView
	Free     []string // signed up without a team
	Count    int
	Capacity int
	Deadline time.Time
	Organise time.Time
	Equal    bool
	Example  string // a team word for «записываюсь за …»
	// ExampleLabel is that team's name for «в команду …».
	ExampleLabel string
	Leave        string // the game's Departure sentence
	Fair         game.Fair
	Private      bool
	Mod          *game.ModCommand
	Loc          *time.Location    // the game's zone: every time is shown in it
	Labels       map[string]string // team key → its Russian name
	RoleWord     string            // the role teams name ("капитан"), "" none
	// PiecesList is the game's name for a pieces list («Игроки-воины»).
	PiecesList string
	// Organising: the help is asked between the formation and the start (also set for a
	// refusal then).
	Organising bool
}

func (r *Rules) view(c game.Context) view {
	v := view{Title: r.p.probe.Title(), Event: c.Event, Deadline: r.deadline, Organise: r.orgUntil, Equal: r.p.shape.Equal,
		Leave: r.p.shape.Departure, Fair: c.Fair, Private: c.Private, Mod: c.Mod, Capacity: r.capacity(), Count: len(r.signed),
		Labels: map[string]string{}, Loc: r.p.loc, PiecesList: r.p.shape.PiecesList}
	for _, t := range r.p.shape.Teams {
		v.Labels[t.Key] = t.Label
		if t.Role != "" {
			v.RoleWord = t.Role
		}
	}
	if c.In != nil {
		v.Author = c.In.Author
	}
	v.ExampleLabel = r.p.shape.Teams[len(r.p.shape.Teams)-1].Label
	if ws := r.p.shape.Teams[len(r.p.shape.Teams)-1].Words; len(ws) > 0 {
		v.Example = ws[0]
	} else {
		v.Example = r.p.shape.Teams[len(r.p.shape.Teams)-1].Label
	}
	teams := r.teams
	if teams == nil {
		teams = make([]game.Formed, len(r.p.shape.Teams))
		for i, t := range r.p.shape.Teams {
			teams[i].Key = t.Key
		}
		for _, s := range r.signed {
			if i := r.teamIndex(s.Team); i >= 0 {
				teams[i].Players = append(teams[i].Players, s.Name)
			} else {
				v.Free = append(v.Free, s.Name)
			}
		}
	}
	if st, ok := c.Event.(*Started); ok {
		teams = st.Teams
	}
	for _, f := range teams {
		slot := r.p.shape.Teams[r.teamIndex(f.Key)]
		tv := teamView{Key: f.Key, Label: slot.Label, Role: slot.Role, RoleInThread: slot.RoleInThread, Size: slot.Size,
			Players: f.Players, Holder: f.Role, PerPlayer: slot.PerPlayer}
		for _, p := range f.Players {
			if ps := f.Pieces[p]; len(ps) > 0 {
				tv.Pieces = append(tv.Pieces, p+": "+strings.Join(ps, ", "))
			}
		}
		if len(slot.Pieces) > 0 && len(f.Players) > 0 {
			d := deal(slot.Pieces, f.Players)
			tv.Example = f.Players[0] + ": " + strings.Join(d[f.Players[0]], ", ")
		}
		v.Teams = append(v.Teams, tv)
	}
	return v
}

// Say renders the sign-up's opening post and help before play; everything else is the game's.
func (r *Rules) Say(name string, c game.Context) (string, error) {
	if r.inner == nil {
		switch name {
		case game.SayStart:
			return r.p.set.Render("signup_start", r.view(c))
		case game.SayHelp:
			v := r.view(c)
			v.Organising = r.phase == organising
			return r.p.set.Render("signup_help", v)
		}
	}
	out, err := r.cur().Say(name, c)
	if err == nil && name == game.SayHelp && r.inner != nil {
		more, e := r.p.set.Render("leave_help", r.view(c))
		if e != nil {
			return "", e
		}
		out += "\n" + more
	}
	return out, err
}

// Messages renders what an event causes: the sign-up's own events here, the game's by the game.
func (r *Rules) Messages(c game.Context, ev game.Event) ([]game.Message, error) {
	if !own(ev.EventKind()) {
		if r.quiet[ev] {
			return nil, nil // in the opening post already
		}
		return r.cur().Messages(c, ev)
	}
	c.Event = ev
	v := r.view(c)
	v.Organising = r.phase == organising
	body, err := r.p.set.Render(ev.EventKind(), v)
	if err != nil {
		return nil, err
	}
	to := ""
	switch ev.(type) {
	case *Joined, *Left:
		if c.In != nil {
			to = game.Sender
		}
	case *RoleNamed, *PiecesSent:
		to = game.Sender // a private list is answered privately, a captain named in the thread there
	case *Started:
		start, err := r.inner.Say(game.SayStart, game.Context{Fair: c.Fair, Dispute: c.Dispute})
		if err != nil {
			return nil, err
		}
		m := game.Message{Body: body + "\n\n" + start}
		if cs, ok := r.inner.(game.ClockStarter); ok {
			m.Clock = cs.Clock()
		}
		return []game.Message{m}, nil
	}
	return []game.Message{{To: to, Body: body}}, nil
}

// Refusal renders a sign-up refusal; the game's own by the game.
func (r *Rules) Refusal(c game.Context, err error) (string, bool, error) {
	var ref *Refusal
	if !errors.As(err, &ref) {
		return r.cur().Refusal(c, err)
	}
	v := r.view(c)
	v.Problems, v.Organising = ref.Problems, r.phase == organising
	body, e := r.p.set.Render("refusal", v)
	if e != nil {
		return "", false, fmt.Errorf("signup: refusal: %w", e)
	}
	return body, false, nil
}

// Describe puts an event into words for the moderators.
func (r *Rules) Describe(ev game.Event) string {
	if own(ev.EventKind()) {
		return r.p.set.Optional("describe", r.view(game.Context{Event: ev}))
	}
	if d, ok := r.cur().(game.Describer); ok {
		return d.Describe(ev)
	}
	return ""
}

// Status is the state in words.
func (r *Rules) Status() string {
	switch r.phase {
	case signing:
		return fmt.Sprintf("запись до %s: %d %s", r.deadline.In(r.p.loc).Format("02.01 15:04"), len(r.signed), "записались")
	case organising:
		return "команды сформированы, организуются до " + r.orgUntil.In(r.p.loc).Format("02.01 15:04")
	case cancelled:
		return "игра отменена до начала"
	}
	if d, ok := r.inner.(game.Describer); ok {
		s := d.Status()
		for _, v := range r.open {
			s += fmt.Sprintf("; ищут замену для %s до %s", v.Player, v.Until.In(r.p.loc).Format("02.01 15:04"))
		}
		return s
	}
	return ""
}

// Winners are the game's.
func (r *Rules) Winners() []game.Winner {
	if d, ok := r.cur().(game.Describer); ok {
		return d.Winners()
	}
	return nil
}

func (r *Rules) label(key string) string {
	if i := r.teamIndex(key); i >= 0 {
		return r.p.shape.Teams[i].Label
	}
	return ""
}

func (r *Rules) labels() []string {
	var out []string
	for _, t := range r.p.shape.Teams {
		out = append(out, t.Label)
	}
	return slices.Clip(out)
}
