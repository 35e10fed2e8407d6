package dragonball

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/games/dragonball/picture"
	"forumgm/games/dragonball/rules"
)

// The round report carries a picture of the field after the round's last tact: the round's event
// holds the state after the round (not after each tact), which is what the report's text list
// shows too. The text stays the report's whole content; the picture is an attachment for forums
// and readers that show it.

// fieldAfter is what the picture of a resolved round shows: the state after its last tact, the
// fire breathed in that tact and the mouths as they were then. What players must not see is left
// out: the yellow ball while it is invisible.
func fieldAfter(ev *rules.RoundResolved, teams [2]rules.Team, title string) picture.Field {
	return fieldAtTact(ev, ev.State, 3, teams, title)
}

// fieldAtTact is the picture of round ev's field after tact t (1-based) with state st: the fire
// breathed in that tact, the rest as fieldOf leaves it.
func fieldAtTact(ev *rules.RoundResolved, st *rules.State, t int, teams [2]rules.Team, title string) picture.Field {
	fire := map[string][]int{}
	for _, h := range ev.Tacts[t-1] {
		if h.What == rules.WFire {
			for _, c := range h.Cells {
				fire[h.Team] = append(fire[h.Team], int(c))
			}
		}
	}
	return fieldOf(st, fire, teams, title)
}

// fieldOf is the picture of state st with the fire breathed (by team), leaving out what players
// must not see (the yellow ball while it is invisible).
func fieldOf(st *rules.State, fire map[string][]int, teams [2]rules.Team, title string) picture.Field {
	f := picture.Field{Title: title}
	for i, t := range teams {
		f.Teams[i] = picture.Team{Name: t.Name, Colour: i}
	}
	for _, p := range st.Players {
		pp := picture.Player{Name: p.Name, Team: p.Team}
		switch p.Status {
		case rules.OnField:
			pp.Cell, pp.Height = int(p.Cell), p.Height
			for _, b := range p.Balls {
				pp.Balls = append(pp.Balls, string(b))
			}
		case rules.Hospital:
			pp.Off = "hospital"
		case rules.Swallowed:
			pp.Off = "swallowed"
		}
		f.Players = append(f.Players, pp)
	}
	for _, b := range st.Balls {
		switch {
		case b.Status == rules.BallHeld:
			f.Balls = append(f.Balls, picture.Ball{Colour: string(b.Color), Held: true})
		case b.Status == rules.BallFree && b.Visible && b.Height > 0: // no height: not drawn yet
			f.Balls = append(f.Balls, picture.Ball{Colour: string(b.Color), Cell: int(b.Cell), Height: b.Height})
		}
	}
	for i, d := range st.Dragons {
		if d == nil {
			continue
		}
		pd := picture.Dragon{Team: i, Head: int(d.Head), Body: int(d.Body), Tail: int(d.Tail()), Height: d.Height,
			MouthOpen: d.Open, Fire: fire[teams[i].Name]}
		for _, c := range d.Swallowed {
			pd.Swallowed = append(pd.Swallowed, string(c))
		}
		f.Dragons = append(f.Dragons, pd)
	}
	return f
}

// pictureOf draws the picture of a resolved round as an attachment.
func (r *Rules) pictureOf(ev *rules.RoundResolved, v *View) (forum.Attachment, error) {
	title, err := r.tmpl.Render("picture_title", v)
	if err != nil {
		return forum.Attachment{}, err
	}
	data, err := drawCached(fieldAfter(ev, r.game.Teams(), title))
	if err != nil {
		return forum.Attachment{}, err
	}
	return forum.Attachment{Name: fmt.Sprintf("dragonball-round-%d.png", ev.Round), ContentType: "image/png", Data: data}, nil
}

// StartAttachments is the opening post's picture: the field as the match starts, so a newcomer
// sees the cells, the players and the dragons before the first orders (game.Illustrated).
func (r *Rules) StartAttachments() ([]forum.Attachment, error) {
	title, err := r.tmpl.Render("start_picture_title", r.view(game.Context{}))
	if err != nil {
		return nil, err
	}
	data, err := drawCached(fieldOf(r.game.State(), nil, r.game.Teams(), title))
	if err != nil {
		return nil, fmt.Errorf("dragonball: the opening post's picture: %w", err)
	}
	return []forum.Attachment{{Name: "dragonball-start.png", ContentType: "image/png", Data: data}}, nil
}

// Drawing a picture takes tens of milliseconds, and the same report is rendered again whenever
// the log is replayed (a restart, an undo, forumgm replay and verify, the conformance suite and
// its fuzzing re-play whole games): the last pictures are kept by the hash of what they show.
const pictureCacheSize = 16

var pictures = struct {
	sync.Mutex
	order []string
	png   map[string][]byte
}{png: map[string][]byte{}}

func drawCached(f picture.Field) ([]byte, error) {
	js, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(js)
	key := string(sum[:])
	pictures.Lock()
	data, ok := pictures.png[key]
	pictures.Unlock()
	if ok {
		return slices.Clone(data), nil
	}
	data, err = picture.PNG(f)
	if err != nil {
		return nil, err
	}
	pictures.Lock()
	defer pictures.Unlock()
	if _, ok := pictures.png[key]; !ok {
		pictures.order = append(pictures.order, key)
		pictures.png[key] = data
		if len(pictures.order) > pictureCacheSize {
			delete(pictures.png, pictures.order[0])
			pictures.order = pictures.order[1:]
		}
	}
	return slices.Clone(data), nil
}
