package dragonball

import (
	"bytes"
	"fmt"
	"image/png"
	"slices"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/games/dragonball/picture"
	"forumgm/games/dragonball/rules"
	"forumgm/referee"
)

// resolveRound plays one round with the Snakes' dragon breathing fire in tact 3 and returns the
// deadline's outcome.
func resolveRound(t testing.TB, rounds string) (*ref, game.Outcome) {
	t.Helper()
	r := newRef(t, "settings: {rounds: "+rounds+"}\n"+teamsYAML)
	r.send("Гарри", true, at(1, 11, 0), "Такт 1: 17 в2\nТакт 2: 33 в2")
	r.send("Драко", true, at(1, 12, 0), "Такт 1: 27 в2\nДракон такт 3: пламя")
	var outs []game.Outcome
	if _, err := r.Advance(at(1, 12, 0), at(2, 0, 0), func(_ time.Time, o game.Outcome) error {
		outs = append(outs, o)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(outs) != 1 {
		t.Fatalf("want one deadline, got %d", len(outs))
	}
	return r, outs[0]
}

// The round report carries one picture of the field after the round's last tact: a PNG at the
// picture's width, at most 200 KB; the other messages carry none.
func TestReportCarriesPicture(t *testing.T) {
	for _, rounds := range []string{"1", "2"} { // the last round's report comes with the end
		r, out := resolveRound(t, rounds)
		var shown, files int
		for _, m := range out.Messages {
			if len(m.Attachments) == 1 && m.Attachments[0].Name == referee.DrawsFile {
				files++ // the final post's draws file (docs/fairness.md, section 5)
				continue
			}
			if len(m.Attachments) == 0 {
				continue
			}
			shown++
			if len(m.Attachments) != 1 {
				t.Fatalf("%d attachments", len(m.Attachments))
			}
			a := m.Attachments[0]
			if a.Name != "dragonball-round-1.png" || a.ContentType != "image/png" {
				t.Errorf("attachment %q %q", a.Name, a.ContentType)
			}
			if len(a.Data) > 200<<10 {
				t.Errorf("the picture is %d bytes, over 200 KB", len(a.Data))
			}
			img, err := png.Decode(bytes.NewReader(a.Data))
			if err != nil {
				t.Fatalf("not a PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != picture.Width || b.Dy() < 600 {
				t.Errorf("picture %v", b)
			}
			// The same round drawn again is the same picture (a replay posts the same bytes).
			ev := out.Events[0].(*rules.RoundResolved)
			again, err := r.rules().pictureOf(ev, r.rules().view(game.Context{Event: ev}))
			if err != nil || !bytes.Equal(again.Data, a.Data) {
				t.Errorf("drawn again: %v, same %v", err, bytes.Equal(again.Data, a.Data))
			}
			t.Logf("rounds %s: %d messages, the picture %d bytes", rounds, len(out.Messages), len(a.Data))
		}
		if shown != 1 || len(out.Messages[0].Attachments) != 1 {
			t.Errorf("rounds %s: %d messages with a picture, want the report", rounds, shown)
		}
		if want := map[bool]int{true: 1, false: 0}[rounds == "1"]; files != want {
			t.Errorf("rounds %s: %d draws files, want %d (only with the end)", rounds, files, want)
		}
		if ord := r.send("Гойл", true, at(2, 11, 0), "Такт 1: 29 в2"); len(ord.Messages) > 0 && len(ord.Messages[0].Attachments) > 0 {
			t.Errorf("an orders answer carries a picture")
		}
	}
}

// The picture shows the state after the round: players where the text list puts them (off the
// field with the reason), the balls players may see (not the invisible yellow one), held balls in
// their holders' hands, swallowed ones on the dragon's back, tact 3's fire and the mouths.
func TestFieldAfterRound(t *testing.T) {
	r, out := resolveRound(t, "2")
	ev := *out.Events[0].(*rules.RoundResolved)
	st := *ev.State
	ev.State = &st
	teams := r.rules().game.Teams()
	f := fieldAfter(&ev, teams, "Раунд 1")
	var fire []int
	for _, h := range ev.Tacts[2] {
		if h.What == rules.WFire && h.Team == "Змеи" {
			for _, c := range h.Cells {
				fire = append(fire, int(c))
			}
		}
	}
	if len(fire) == 0 {
		t.Fatalf("no fire in tact 3: %+v", ev.Tacts[2])
	}
	if len(f.Dragons) != 2 || !slices.Equal(f.Dragons[1].Fire, fire) || f.Dragons[0].Fire != nil {
		t.Errorf("fire: %+v, want the Snakes' %v", f.Dragons, fire)
	}
	for i, d := range f.Dragons {
		sd := st.Dragons[i]
		if d.Head != int(sd.Head) || d.Body != int(sd.Body) || d.Tail != int(sd.Tail()) || d.Height != sd.Height || d.MouthOpen != sd.Open {
			t.Errorf("dragon %d: %+v, state %+v", i, d, sd)
		}
	}
	if f.Title != "Раунд 1" || f.Teams[0].Name != "Грифоны" || f.Teams[1].Name != "Змеи" || f.Teams[0].Colour == f.Teams[1].Colour {
		t.Errorf("title and teams: %q %+v", f.Title, f.Teams)
	}
	for i, p := range f.Players {
		sp := st.Players[i]
		if p.Name != sp.Name || p.Cell != int(sp.Cell) || p.Height != sp.Height {
			t.Errorf("player %+v, state %+v", p, sp)
		}
	}
	if _, err := picture.PNG(f); err != nil {
		t.Fatalf("the field does not draw: %v", err)
	}

	// What the text list says of players off the field, balls out of sight, in hands and in a
	// dragon, the picture shows too.
	st.Players = slices.Clone(st.Players)
	hurt, eaten, holder := *st.Players[1], *st.Players[2], *st.Players[0]
	hurt.Status, hurt.Cell, hurt.Height, hurt.Returns = rules.Hospital, 0, 0, 3
	eaten.Status, eaten.Cell, eaten.Height = rules.Swallowed, 0, 0
	holder.Balls = []rules.Color{rules.Red}
	st.Players[0], st.Players[1], st.Players[2] = &holder, &hurt, &eaten
	st.Balls = slices.Clone(st.Balls)
	st.Dragons[1] = &rules.DragonState{Team: 1, Head: st.Dragons[1].Head, Body: st.Dragons[1].Body, Height: 2, Swallowed: []rules.Color{rules.Black}}
	for i, b := range st.Balls {
		c := *b
		switch c.Color {
		case rules.Yellow:
			c.Status, c.Visible = rules.BallFree, false
		case rules.Red:
			c.Status, c.Holder = rules.BallHeld, holder.Name
		case rules.Black:
			c.Status, c.Cell = rules.BallSwallowed, 0
		}
		st.Balls[i] = &c
	}
	f = fieldAfter(&ev, teams, "Раунд 1")
	if p := f.Players[1]; p.Off != "hospital" || p.Cell != 0 {
		t.Errorf("in hospital: %+v", p)
	}
	if p := f.Players[2]; p.Off != "swallowed" || p.Cell != 0 {
		t.Errorf("swallowed: %+v", p)
	}
	if p := f.Players[0]; !slices.Equal(p.Balls, []string{"красный"}) {
		t.Errorf("holder: %+v", p)
	}
	balls := map[string]picture.Ball{}
	for _, b := range f.Balls {
		balls[b.Colour] = b
	}
	if _, ok := balls["жёлтый"]; ok {
		t.Errorf("the invisible yellow ball is shown: %+v", f.Balls)
	}
	if _, ok := balls["чёрный"]; ok {
		t.Errorf("the swallowed black ball is on the field: %+v", f.Balls)
	}
	if !balls["красный"].Held {
		t.Errorf("the red ball is not in hand: %+v", f.Balls)
	}
	if !slices.Equal(f.Dragons[1].Swallowed, []string{"чёрный"}) {
		t.Errorf("the dragon's belly: %+v", f.Dragons[1])
	}
	if _, err := picture.PNG(f); err != nil {
		t.Fatalf("the field does not draw: %v", err)
	}
}

// Whatever happens in a game, the picture of every round draws: random orders (moves, heights,
// catches, steals, passes, enchanted passes; dragons moving, climbing, breathing fire) over
// whole games, every round's field checked by drawing it. A field the picture refuses would
// leave the report without its picture.
func TestRandomRoundsDraw(t *testing.T) {
	games, drawn := 4, 0
	seen := map[string]int{} // what the fields drawn showed
	if testing.Short() {
		games = 1
	}
	teams := [2]rules.Team{{Name: "Грифоны", Side: rules.SideA, Players: []string{"Гарри", "Рон", "Джинни"}},
		{Name: "Змеи", Side: rules.SideB, Players: []string{"Драко", "Крэбб", "Гойл"}}}
	for gi := 0; gi < games; gi++ {
		src := game.NewRand(fmt.Sprintf("picture-orders-%d", gi), 0, game.Mix{})
		rnd := game.NewRand(fmt.Sprintf("picture-game-%d", gi), 0, game.Mix{})
		g, err := rules.New(rules.DefaultSettings(), teams[:], nil)
		if err != nil {
			t.Fatal(err)
		}
		apply := func(evs []game.Event, err error) []game.Event {
			t.Helper()
			if err != nil {
				if _, ok := rules.AsRefusal(err); ok {
					return nil
				}
				t.Fatal(err)
			}
			for _, ev := range evs {
				if err := g.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
			return evs
		}
		apply(g.Decide(game.Act{At: at(1, 10, 0), Body: rules.StartGame{}, Rand: rnd}))
		for !g.Over() {
			st := g.State()
			for _, p := range st.Players {
				if p.Status != rules.OnField {
					continue
				}
				o := &rules.Orders{}
				cell, h := p.Cell, p.Height
				for tact := 1; tact <= 3; tact++ {
					to := rules.TactOrder{Tact: tact}
					if n := cell.Neighbours(); src.Intn(3) > 0 {
						cell = n[src.Intn(len(n))]
						to.Cell = cell
					}
					if nh := h + src.Intn(3) - 1; nh >= 1 && nh <= 3 {
						h, to.Height = nh, nh
					}
					switch src.Intn(4) {
					case 0:
						to.Action = rules.Catch
					case 1:
						to.Action = rules.Steal
					case 2:
						to.Action, to.To, to.ToHeight = rules.Pass, rules.Cell(src.Intn(rules.NumCells)+1), src.Intn(3)+1
						if src.Intn(4) == 0 {
							to.Spell = rules.Spells[src.Intn(3)][0]
						}
					}
					o.Tacts = append(o.Tacts, to)
				}
				if p.Name == g.Teams()[p.Team].Players[0] {
					for tact := 1; tact <= 3; tact++ {
						o.Dragon = append(o.Dragon, rules.DragonOrder{Tact: tact,
							Move:  []rules.DragonMove{rules.MoveForward, rules.MoveLeft, rules.MoveRight, rules.MoveStay}[src.Intn(4)],
							Climb: src.Intn(3) - 1, Mouth: []rules.Mouth{rules.MouthAny, rules.MouthOpen, rules.MouthClosed}[src.Intn(3)],
							Fire: []rules.Fire{rules.FireNone, rules.FireNone, rules.FireFlame, rules.FireVolley}[src.Intn(4)]})
					}
				}
				apply(g.Decide(game.Act{At: st.At.Add(time.Minute), Author: p.Name, Private: true, Body: o}))
			}
			next, ok := g.NextTimer(st.At)
			if !ok {
				t.Fatal("no deadline while the game goes on")
			}
			for _, ev := range apply(g.Tick(next, rnd)) {
				rr, ok := ev.(*rules.RoundResolved)
				if !ok {
					continue
				}
				f := fieldAfter(rr, g.Teams(), fmt.Sprintf("Раунд %d", rr.Round))
				if _, err := picture.Draw(f); err != nil {
					t.Fatalf("game %d round %d: %v\n%+v", gi, rr.Round, err, f)
				}
				drawn++
				for _, p := range f.Players {
					if p.Off != "" {
						seen["off: "+p.Off]++
					}
				}
				for _, b := range f.Balls {
					if b.Held {
						seen["held"]++
					}
				}
				if len(f.Balls) < len(rules.Colors) {
					seen["ball not shown"]++
				}
				for _, d := range f.Dragons {
					if d.Fire != nil {
						seen["fire"]++
					}
					if len(d.Swallowed) > 0 {
						seen["swallowed ball"]++
					}
				}
			}
		}
	}
	t.Logf("%d rounds drawn: %v", drawn, seen)
	if !testing.Short() {
		for _, k := range []string{"off: hospital", "off: swallowed", "held", "ball not shown", "fire", "swallowed ball"} {
			if seen[k] == 0 {
				t.Errorf("no field drawn with %q", k)
			}
		}
	}
}
