package rules

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"time"

	"forumgm/game"
)

// What names one kind of Happening. Stable: templates key their Russian text on it.
type What string

// Happenings, by the step of the tact they belong to.
const (
	WReturned      What = "returned"         // start: Player back on Cell at Height (Detail: hospital|spat)
	WDropped       What = "dropped"          // start: Player sent no orders and drops Ball
	WThrowIn       What = "throw_in"         // start: the referee takes Ball from Player (Team) and throws it in at Cell
	WDragonMoved   What = "dragon_moved"     // 1: Team's dragon, Detail the move, Cell the head, Height
	WDragonBlocked What = "dragon_blocked"   // 1: Team's dragon cannot carry out its move (Detail: why)
	WDragonIdle    What = "dragon_idle"      // 1: Team's dragon had no orders: it stays with its mouth open
	WFire          What = "fire"             // 1: Team's dragon breathes Fire (Detail "random" when not ordered); Cells
	WMouth         What = "mouth"            // 1: Team's dragon's mouth, Detail open|closed
	WPassLanded    What = "pass_landed"      // 1: Ball lands on Cell at Height
	WBounced       What = "bounced"          // 1, 2: Ball bounces on Cell (off the dome, or a closed mouth: Detail mouth)
	WAvoided       What = "avoided"          // 1: Ball swerves away from a dragon's reach
	WVanished      What = "vanished"         // 1: the yellow ball vanished
	WAppeared      What = "appeared"         // 1: the yellow ball appeared
	WBallSwallowed What = "ball_swallowed"   // 2, 3, 7: Team's dragon swallows Ball: Count points for Other (a team)
	WCollision     What = "collision"        // 3: Players collide on Cell at Height (Names)
	WFell          What = "fell"             // 3, 6: Player falls from Height (Detail: collision|dragon|fire|bludger); Count: the round of return
	WStagger       What = "stagger"          // 3: Player keeps their balls but loses this tact's ball action
	WPlayerEaten   What = "player_swallowed" // 3: Team's dragon swallows Player
	WSpat          What = "spat"             // 3, 7: Team's dragon spits out Player (the red ball): back next round
	WFreed         What = "freed"            // 3, 6: Ball falls from Player's hands on Cell at Height
	WEffect        What = "effect"           // end of tact: Team's dragon is now under Detail (an Effect)
	WPass          What = "pass"             // 4: Player passes Ball towards Cell at Height
	WPassSkipped   What = "pass_skipped"     // 4: Player's pass could not be made (Detail: no_ball|which_ball|not_holding|pass_range)
	WStolen        What = "stolen"           // 5: Player takes Ball from Other
	WStealFailed   What = "steal_failed"     // 5: Player fails to take a ball from Other ("" when no one was in reach)
	WCaught        What = "caught"           // 6: Player catches Ball
	WCatchMissed   What = "catch_missed"     // 6: Player tried to catch and missed (Ball: the last one tried)
	WDisenchanted  What = "disenchanted"     // 6: Player named the counter-spell: Ball is no longer enchanted
	WBludger       What = "bludger"          // 6: the enchanted Ball knocks Player down
	WWarning       What = "warning"          // after: Team keeps Ball on its half: a warning
	WThrowInDue    What = "throw_in_due"     // after: Ball will be thrown in at Count (round), Height (tact)
	WEnd           What = "end"              // after: the game ends; Detail the reason, Other the winner (or "draw")
)

// AllWhats lists every happening kind, for the templates' completeness test.
var AllWhats = []What{WReturned, WDropped, WThrowIn, WDragonMoved, WDragonBlocked, WDragonIdle, WFire,
	WMouth, WPassLanded, WBounced, WAvoided, WVanished, WAppeared, WBallSwallowed, WCollision, WFell,
	WStagger, WPlayerEaten, WSpat, WFreed, WEffect, WPass, WPassSkipped, WStolen, WStealFailed,
	WCaught, WCatchMissed, WDisenchanted, WBludger, WWarning, WThrowInDue, WEnd}

// Happening is one thing that happened in a tact, for the report.
type Happening struct {
	What   What     `json:"what"`
	Step   int      `json:"step,omitempty"`
	Team   string   `json:"team,omitempty"`
	Player string   `json:"player,omitempty"`
	Other  string   `json:"other,omitempty"`
	Names  []string `json:"names,omitempty"`
	Ball   Color    `json:"ball,omitempty"`
	Cell   Cell     `json:"cell,omitempty"`
	Cells  []Cell   `json:"cells,omitempty"`
	Height int      `json:"height,omitempty"`
	Fire   Fire     `json:"fire,omitempty"`
	Count  int      `json:"count,omitempty"`
	Detail string   `json:"detail,omitempty"`
}

// Tick resolves the round at its deadline. rnd is the game's source of chance; every draw goes
// into the RoundResolved event.
func (g *Game) Tick(at time.Time, rnd *game.Rand) ([]game.Event, error) {
	if !g.st.Started || g.st.Over || !g.isDeadline(at) {
		return nil, nil
	}
	if rnd == nil {
		return nil, errf("tick %s: no source of chance", at.Format(time.RFC3339))
	}
	ev := g.Resolve(at, rnd)
	return []game.Event{ev}, nil
}

// Resolve plays out the round on a copy of the state and returns the event.
func (g *Game) Resolve(at time.Time, rnd *game.Rand) *RoundResolved {
	return g.resolve(g.st, g.settings, at, rnd, nil)
}

// resolve plays out the round from state st (not changed) under settings set; each tact's state
// goes to tact when it is set.
func (g *Game) resolve(st *State, set Settings, at time.Time, rnd *game.Rand, tact func(*State)) *RoundResolved {
	r := &resolver{g: g, st: st.clone(), rnd: rnd, set: set}
	r.round = r.st.Round + 1
	ev := &RoundResolved{At: at, Round: r.round}
	for _, p := range r.st.Players {
		if o := r.st.Orders[p.Name]; o != nil && o.Description != "" {
			ev.Descriptions = append(ev.Descriptions, Description{Player: p.Name, Team: g.teams[p.Team].Name, Text: o.Description})
		}
	}
	for t := 1; t <= 3; t++ {
		r.tact = t
		r.h = nil
		r.playTact()
		ev.Tacts[t-1] = r.h
		if tact != nil {
			tact(r.st.clone())
		}
		if r.st.Over {
			break
		}
	}
	r.h = nil
	if !r.st.Over {
		r.stalling()
		if r.round >= set.Rounds {
			r.end("rounds")
		}
	}
	ev.After = r.h
	r.st.Round = r.round
	r.st.At = at
	r.st.Orders = map[string]*PlayerOrders{}
	r.st.Dragon = [2]map[int]*DragonOrder{{}, {}}
	ev.State = r.st
	ev.Draws = rnd.Take()
	return ev
}

// TactStates plays round ev out again from before (the state the round started from: the log
// folded up to just before ev) under set (the settings then), with the draws ev recorded, and
// returns the state after each tact played, for the round's pictures tact by tact. It is an error
// when the round played again is not ev (the rules changed since ev was decided, or before is
// not its round's state): a caller shows the state after the round alone then.
func (g *Game) TactStates(before *State, set Settings, ev *RoundResolved) ([]*State, error) {
	if ev == nil || ev.State == nil {
		return nil, errf("round tacts: no round to play again")
	}
	if before == nil || before.Round+1 != ev.Round {
		return nil, errf("round %d tacts: no state the round started from", ev.Round)
	}
	rnd := game.Recorded(ev.Draws)
	var tacts []*State
	again := g.resolve(before, set, ev.At, rnd, func(st *State) { tacts = append(tacts, st) })
	if err := rnd.Replayed(); err != nil {
		return nil, errf("round %d tacts: %v", ev.Round, err)
	}
	again.Draws = ev.Draws
	a, err1 := json.Marshal(again)
	b, err2 := json.Marshal(ev)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		return nil, errf("round %d tacts: the round played again differs from the one recorded", ev.Round)
	}
	return tacts, nil
}

// resolver plays one round on its own copy of the state.
type resolver struct {
	g     *Game
	st    *State
	rnd   *game.Rand
	set   Settings
	round int
	tact  int
	step  int
	h     []Happening

	// per tact
	open      [2]bool
	fire      [2]map[Cell]bool
	noAction  map[string]bool
	freed     map[Color]bool // freed from hands this tact: not caught this tact
	passedNow map[Color]bool // thrown this tact (step 4)
	vanished  map[Color]bool
	late      map[Color]bool // may be swallowed in step 7
	eatenNow  [2][]Color     // swallowed this tact, effects from the next
	returned  map[string]bool
}

func (r *resolver) add(h Happening) {
	h.Step = r.step
	r.h = append(r.h, h)
}

func (r *resolver) teamName(t int) string { return r.g.teams[t].Name }

func (r *resolver) order(p *PlayerState) *TactOrder {
	if o := r.st.Orders[p.Name]; o != nil {
		return o.Tacts[r.tact-1]
	}
	return nil
}

func (r *resolver) hasOrders(p *PlayerState) bool {
	if o := r.st.Orders[p.Name]; o != nil {
		for _, t := range o.Tacts {
			if t != nil {
				return true
			}
		}
	}
	return false
}

// playTact plays one tact in the order of the seed's section 9.
func (r *resolver) playTact() {
	r.open = [2]bool{}
	r.fire = [2]map[Cell]bool{{}, {}}
	r.noAction, r.freed, r.passedNow = map[string]bool{}, map[Color]bool{}, map[Color]bool{}
	r.vanished, r.late, r.returned = map[Color]bool{}, map[Color]bool{}, map[string]bool{}
	r.eatenNow = [2][]Color{}

	r.step = 0
	r.returns()
	r.dropUnordered()
	r.throwIns()

	r.step = 1 // players, balls (free and passed; the yellow ball's toggle), dragons; fire
	r.movePlayers()
	r.moveBalls()
	r.moveDragons()

	r.step = 2 // dragons swallow the loose balls in their reach
	r.swallowLoose(false)

	r.step = 3 // collisions between players, then players and dragons
	r.collisions()
	r.dragonsMeetPlayers()

	r.step = 4 // passes (they fly next tact)
	r.passes()

	r.step = 5 // steals
	r.steals()

	r.step = 6 // catches of free balls
	r.catches()

	r.step = 7 // dragons swallow balls freed this tact or passed from their reach
	r.swallowLoose(true)

	r.step = 0
	r.effects()
	r.stallTact()
	r.checkEnd()
}

// ---- start of tact ----

func (r *resolver) returns() {
	for _, p := range r.st.Players {
		if p.Status != Hospital || p.Returns != r.round || p.ReturnTact != r.tact {
			continue
		}
		side := sideOf(p.Team)
		cell, height := Cell(0), 2
		if o := r.order(p); o != nil {
			if IsReentry(side, o.Cell) {
				cell = o.Cell
			}
			if o.Height >= 1 && o.Height <= 3 {
				height = o.Height
			}
		}
		if cell == 0 {
			var free []Cell
			for _, c := range reentryCells[side] {
				if !r.occupied(c) {
					free = append(free, c)
				}
			}
			if len(free) == 0 {
				free = reentryCells[side]
			}
			cell = free[r.rnd.Intn(len(free))]
		}
		detail := "hospital"
		if p.ReturnTact == 1 {
			detail = "spat"
		}
		p.Status, p.Cell, p.Height, p.Returns, p.ReturnTact = OnField, cell, height, 0, 0
		r.returned[p.Name] = true
		r.add(Happening{What: WReturned, Player: p.Name, Team: r.teamName(p.Team), Cell: cell, Height: height, Detail: detail})
	}
}

func (r *resolver) occupied(c Cell) bool {
	for _, p := range r.st.Players {
		if p.Status == OnField && p.Cell == c {
			return true
		}
	}
	return false
}

// dropUnordered: a player who sent no orders for the round drops every ball at tact 1.
func (r *resolver) dropUnordered() {
	if r.tact != 1 {
		return
	}
	for _, p := range r.st.Players {
		if p.Status != OnField || len(p.Balls) == 0 || r.hasOrders(p) {
			continue
		}
		for _, c := range slices.Clone(p.Balls) {
			r.add(Happening{What: WDropped, Player: p.Name, Ball: c, Cell: p.Cell, Height: p.Height})
			r.free(p, c)
		}
	}
}

func (r *resolver) throwIns() {
	var keep []ThrowIn
	for _, ti := range r.st.ThrowIns {
		if ti.Round != r.round || ti.Tact != r.tact {
			keep = append(keep, ti)
			continue
		}
		b := r.st.ball(ti.Ball)
		if b.Status != BallHeld {
			continue
		}
		p := r.st.player(b.Holder)
		if p == nil || p.Team != ti.Team {
			continue
		}
		r.take(p, b.Color)
		b.Status, b.Cell, b.Holder, b.Visible, b.PassTacts = BallFree, Centre, "", true, 0
		b.Dir = Dir(r.rnd.Intn(6))
		b.Height = r.rnd.Intn(3) + 1
		b.StallTeam, b.StallRounds = 0, 0
		r.freed[b.Color] = true
		r.add(Happening{What: WThrowIn, Team: r.teamName(ti.Team), Player: p.Name, Ball: b.Color, Cell: Centre, Height: b.Height})
	}
	r.st.ThrowIns = keep
}

// ---- step 1 ----

func (r *resolver) movePlayers() {
	for _, p := range r.st.Players {
		if p.Status != OnField || r.returned[p.Name] {
			continue
		}
		o := r.order(p)
		if o == nil {
			continue
		}
		if o.Cell != 0 && o.Cell.Valid() && Distance(p.Cell, o.Cell) <= 1 {
			p.Cell = o.Cell
		}
		if o.Height >= 1 && o.Height <= 3 && abs(o.Height-p.Height) <= 1 {
			p.Height = o.Height
		}
	}
}

// reachOf lists every cell where a dragon's head reaches now.
func (r *resolver) reachOf() map[Cell]bool {
	m := map[Cell]bool{}
	for _, d := range r.st.Dragons {
		for _, c := range d.Reach() {
			m[c] = true
		}
	}
	return m
}

// inwardDir draws a random direction pointing into the field from c.
func (r *resolver) inwardDir(c Cell) Dir {
	var in, any []Dir
	for _, d := range Dirs {
		if n, ok := c.Step(d); ok {
			any = append(any, d)
			if !n.IsEdge() {
				in = append(in, d)
			}
		}
	}
	if len(in) == 0 {
		in = any
	}
	return in[r.rnd.Intn(len(in))]
}

func (r *resolver) bounce(b *BallState, detail string) {
	b.Dir = r.inwardDir(b.Cell)
	b.Height = r.rnd.Intn(3) + 1
	b.PassTacts = 0
	r.add(Happening{What: WBounced, Ball: b.Color, Cell: b.Cell, Height: b.Height, Detail: detail})
}

func (r *resolver) moveBalls() {
	reach := r.reachOf() // the dragons as they stand at the start of the tact
	for _, b := range r.st.Balls {
		if b.Status != BallFree {
			continue
		}
		if pp := b.Pass; pp != nil {
			b.Cell, b.Height = pp.To, pp.Height
			b.Dir = NearestDir(pp.From, pp.To)
			b.PassTacts, b.Spell, b.Pass, b.Visible = 2, pp.Spell, nil, true
			r.add(Happening{What: WPassLanded, Ball: b.Color, Cell: b.Cell, Height: b.Height, Player: pp.By})
			continue
		}
		if b.Dir == NoDir {
			b.Dir = r.inwardDir(b.Cell)
		}
		next, ok := b.Cell.Step(b.Dir)
		if !ok {
			b.Dir = r.inwardDir(b.Cell)
			next, _ = b.Cell.Step(b.Dir)
		}
		if reach[next] {
			moved := false
			for _, k := range []int{1, -1, 2, -2, 3} {
				d := b.Dir.Rotate(k)
				if n, ok := b.Cell.Step(d); ok && !reach[n] {
					b.Dir, next, moved = d, n, true
					break
				}
			}
			r.add(Happening{What: WAvoided, Ball: b.Color, Cell: b.Cell})
			if !moved {
				next = b.Cell
			}
		}
		b.Cell = next
		if b.PassTacts > 0 {
			b.PassTacts--
		}
		if b.Cell.IsEdge() {
			r.bounce(b, "edge")
		}
		if b.Color == Yellow && r.rnd.Percent(r.set.YellowToggle) {
			b.Visible = !b.Visible
			if b.Visible {
				r.add(Happening{What: WAppeared, Ball: b.Color, Cell: b.Cell, Height: b.Height})
			} else {
				r.vanished[b.Color] = true
				r.add(Happening{What: WVanished, Ball: b.Color})
			}
		}
	}
}

func (r *resolver) moveDragons() {
	var next [2]dragonPos
	var ord [2]*DragonOrder
	for t, d := range r.st.Dragons {
		pos := dragonPos{d.Head, d.Body, d.Height}
		next[t] = pos
		o := r.st.Dragon[t][r.tact]
		ord[t] = o
		if o == nil {
			continue
		}
		if np, prob, bad := r.g.dragonStep(t, d, pos, o); bad {
			if o.Move != MoveNone && o.Move != MoveStay || o.Climb != 0 || o.Height != 0 {
				r.add(Happening{What: WDragonBlocked, Team: r.teamName(t), Detail: string(prob.Code)})
			}
		} else {
			next[t] = np
		}
	}
	cellsOf := func(p dragonPos) []Cell {
		f, _ := p.body.DirTo(p.head)
		tail, _ := p.body.Step(f.Opposite())
		return []Cell{tail, p.body, p.head}
	}
	a, b := cellsOf(next[0]), cellsOf(next[1])
	for _, c := range a {
		if slices.Contains(b, c) {
			for t := range next {
				if next[t].head != r.st.Dragons[t].Head || next[t].body != r.st.Dragons[t].Body {
					r.add(Happening{What: WDragonBlocked, Team: r.teamName(t), Detail: "dragons_meet"})
				}
				next[t].head, next[t].body = r.st.Dragons[t].Head, r.st.Dragons[t].Body
			}
			break
		}
	}
	for t, d := range r.st.Dragons {
		o := ord[t]
		moved := next[t].head != d.Head || next[t].body != d.Body || next[t].height != d.Height
		d.Head, d.Body, d.Height = next[t].head, next[t].body, next[t].height
		if d.Has(Still) {
			d.Height = 1
		}
		if moved {
			detail := "forward"
			if o != nil && o.Move != MoveNone {
				detail = string(o.Move)
			}
			r.add(Happening{What: WDragonMoved, Team: r.teamName(t), Detail: detail, Cell: d.Head, Height: d.Height})
		}
		if o == nil {
			r.add(Happening{What: WDragonIdle, Team: r.teamName(t)})
		}
		// fire
		forced := d.OpenFor > 0 || d.Has(Wide) || o == nil
		if d.OpenFor > 0 {
			d.OpenFor--
		}
		breath, random := FireNone, false
		if !d.Has(NoFire) {
			if d.Has(Confused) || d.Has(Still) {
				if r.rnd.Percent(r.set.RandomFire) {
					breath, random = FireFlame, true
				}
			} else if o != nil {
				switch {
				case o.Fire == FireVolley && d.Volleys > 0:
					breath = FireVolley
					d.Volleys--
				case o.Fire == FireFlame && d.Flames > 0:
					breath = FireFlame
					d.Flames--
				}
			}
		}
		if breath != FireNone {
			depth := FlameDepth
			d.OpenFor = 1
			if breath == FireVolley {
				depth, d.OpenFor = VolleyDepth, 2
			}
			forced = true
			cone := Cone(d.Head, d.Facing(), depth)
			for _, c := range cone {
				r.fire[t][c] = true
			}
			h := Happening{What: WFire, Team: r.teamName(t), Fire: breath, Cells: cone}
			if random {
				h.Detail = "random"
			}
			r.add(h)
		}
		switch {
		case forced:
			r.open[t] = true
		case o != nil && o.Mouth == MouthOpen:
			r.open[t] = true
		case o != nil && o.Mouth == MouthClosed:
			r.open[t] = false
		default:
			r.open[t] = r.rnd.Percent(r.set.MouthOpen)
		}
		d.Open = r.open[t]
		r.add(Happening{What: WMouth, Team: r.teamName(t), Detail: map[bool]string{true: "open", false: "closed"}[r.open[t]]})
	}
}

// ---- steps 2 and 7 ----

// swallowLoose: each dragon with an open mouth swallows, by the probabilities, the loose balls
// in its reach (late: only those freed this tact or passed from its reach). With the mouth
// closed a ball on the head's cell bounces away (step 2).
func (r *resolver) swallowLoose(late bool) {
	for t, d := range r.st.Dragons {
		reach := d.Reach()
		for _, b := range r.st.Balls {
			if b.Status != BallFree || !b.Visible || (late && !r.late[b.Color]) {
				continue
			}
			if !late && b.Pass != nil {
				continue
			}
			if !slices.Contains(reach, b.Cell) {
				continue
			}
			if !r.open[t] {
				if !late && b.Cell == d.Head {
					r.bounce(b, "mouth")
				}
				continue
			}
			p := r.set.BallSwallowNear
			if b.Cell == d.Head {
				p = r.set.BallSwallowHeight
				if b.Height == d.Height {
					p = 100
				}
			}
			if r.rnd.Percent(p) {
				r.swallowBall(t, b)
			}
		}
	}
}

// swallowBall: dragon t swallows ball b (held or loose): it scores for the other team and leaves
// the game; the red ball's effect is at once, the others' from the next tact.
func (r *resolver) swallowBall(t int, b *BallState) {
	if b.Status == BallHeld {
		if p := r.st.player(b.Holder); p != nil {
			r.take(p, b.Color)
		}
	}
	d := r.st.Dragons[t]
	b.Status, b.Cell, b.Height, b.Holder, b.Pass, b.PassTacts, b.Spell = BallSwallowed, 0, 0, "", nil, 0, 0
	b.StallTeam, b.StallRounds = 0, 0
	d.Swallowed = append(d.Swallowed, b.Color)
	r.st.Score[other(t)] += b.Color.Value()
	r.eatenNow[t] = append(r.eatenNow[t], b.Color)
	r.add(Happening{What: WBallSwallowed, Team: r.teamName(t), Ball: b.Color, Count: b.Color.Value(), Other: r.teamName(other(t))})
	if b.Color == Red {
		for _, name := range d.Eaten {
			p := r.st.player(name)
			p.Status, p.Returns, p.ReturnTact = Hospital, r.round+1, 1
			r.add(Happening{What: WSpat, Team: r.teamName(t), Player: name, Count: r.round + 1})
		}
		d.Eaten = nil
	}
}

// ---- step 3 ----

func (r *resolver) collisions() {
	type spot struct {
		c Cell
		h int
	}
	groups := map[spot][]*PlayerState{}
	var keys []spot
	for _, p := range r.st.Players {
		if p.Status != OnField {
			continue
		}
		k := spot{p.Cell, p.Height}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], p)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].c != keys[j].c {
			return keys[i].c < keys[j].c
		}
		return keys[i].h < keys[j].h
	})
	for _, k := range keys {
		ps := groups[k]
		if len(ps) < 2 {
			continue
		}
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.Name
		}
		r.add(Happening{What: WCollision, Names: names, Cell: k.c, Height: k.h})
		if len(ps) > 2 {
			for _, p := range ps {
				r.fall(p, "collision")
			}
			continue
		}
		v := r.rnd.Intn(2)
		r.fall(ps[v], "collision")
		o := ps[1-v]
		if r.rnd.Percent(r.set.CollisionSecondFalls) {
			r.fall(o, "collision")
		} else {
			r.noAction[o.Name] = true
			r.add(Happening{What: WStagger, Player: o.Name})
		}
	}
}

func (r *resolver) dragonsMeetPlayers() {
	for t, d := range r.st.Dragons {
		tail := d.Tail()
		reach := d.Reach()
		for _, p := range r.st.Players {
			if p.Status != OnField {
				continue
			}
			own := p.Team == t && !d.Has(Confused)
			switch {
			case r.fire[t][p.Cell]:
				r.fall(p, "fire")
			case p.Cell == d.Body || p.Cell == tail:
				if p.Height == d.Height || (!own && r.rnd.Percent(r.set.DragonBodyHits)) {
					r.fall(p, "dragon")
				}
			case p.Cell == d.Head:
				switch {
				case p.Height == d.Height && r.open[t]:
					r.eat(t, p)
				case p.Height == d.Height:
					r.fall(p, "dragon")
				case own:
				case r.open[t] && r.rnd.Percent(r.set.HeadOpenHeight):
					r.eat(t, p)
				case !r.open[t] && r.rnd.Percent(r.set.HeadClosedHeight):
					r.fall(p, "dragon")
				}
			case slices.Contains(reach, p.Cell):
				if !own && r.open[t] && r.rnd.Percent(r.set.HeadOpenNear) {
					r.eat(t, p)
				}
			}
		}
	}
}

// fall sends p to the hospital for as many rounds as the height fallen from; the balls in hand
// fly free (not caught this tact, swallowed in step 7 if in reach).
func (r *resolver) fall(p *PlayerState, cause string) {
	if p.Status != OnField {
		return
	}
	h := p.Height
	back := r.round + h
	r.add(Happening{What: WFell, Player: p.Name, Team: r.teamName(p.Team), Cell: p.Cell, Height: h, Detail: cause, Count: back})
	for _, c := range slices.Clone(p.Balls) {
		r.add(Happening{What: WFreed, Player: p.Name, Ball: c, Cell: p.Cell, Height: p.Height})
		r.free(p, c)
	}
	p.Status, p.Returns, p.ReturnTact, p.Cell, p.Height = Hospital, back, 3, 0, 0
}

// free drops ball c from p's hands: it keeps p's height and flies in a random direction into
// the field.
func (r *resolver) free(p *PlayerState, c Color) {
	b := r.st.ball(c)
	r.take(p, c)
	b.Status, b.Cell, b.Height, b.Holder, b.PassTacts = BallFree, p.Cell, p.Height, "", 0
	b.Visible = true
	b.Dir = r.inwardDir(p.Cell)
	r.freed[c], r.late[c] = true, true
}

func (r *resolver) take(p *PlayerState, c Color) {
	if i := slices.Index(p.Balls, c); i >= 0 {
		p.Balls = slices.Delete(p.Balls, i, i+1)
	}
}

func (r *resolver) give(p *PlayerState, b *BallState) {
	b.Status, b.Holder, b.Cell, b.Height, b.PassTacts, b.Pass, b.Visible = BallHeld, p.Name, p.Cell, p.Height, 0, nil, true
	p.Balls = append(p.Balls, b.Color)
}

// eat: dragon t swallows player p; the balls p holds are delivered.
func (r *resolver) eat(t int, p *PlayerState) {
	d := r.st.Dragons[t]
	r.add(Happening{What: WPlayerEaten, Team: r.teamName(t), Player: p.Name, Cell: p.Cell})
	balls := slices.Clone(p.Balls)
	p.Status, p.Cell, p.Height, p.Returns, p.ReturnTact = Swallowed, 0, 0, 0, 0
	d.Eaten = append(d.Eaten, p.Name)
	for _, c := range balls {
		r.swallowBall(t, r.st.ball(c))
	}
}

// ---- step 4 ----

func (r *resolver) passes() {
	for _, p := range r.st.Players {
		o := r.order(p)
		if p.Status != OnField || o == nil || o.Action != Pass || r.noAction[p.Name] {
			continue
		}
		skip := func(why string) {
			r.add(Happening{What: WPassSkipped, Player: p.Name, Ball: o.Ball, Detail: why})
		}
		ball := o.Ball
		switch {
		case ball != "" && !slices.Contains(p.Balls, ball):
			skip("not_holding")
			continue
		case ball == "" && len(p.Balls) == 0:
			skip("no_ball")
			continue
		case ball == "":
			ball = p.Balls[len(p.Balls)-1]
		}
		if d := Distance(p.Cell, o.To); d < 1 || d > ball.PassRange() {
			r.add(Happening{What: WPassSkipped, Player: p.Name, Ball: ball, Detail: "pass_range", Cell: o.To, Count: d})
			continue
		}
		spell := 0
		if pair, first, ok := spellPair(o.Spell); ok && first && r.st.Enchanted[p.Team] < r.set.EnchantedPasses {
			spell = pair + 1
			r.st.Enchanted[p.Team]++
		}
		h := o.ToHeight
		if h == 0 {
			h = p.Height
		}
		b := r.st.ball(ball)
		r.take(p, ball)
		b.Status, b.Holder, b.Cell, b.Height, b.Visible = BallFree, "", p.Cell, p.Height, true
		b.Pass = &PendingPass{By: p.Name, From: p.Cell, To: o.To, Height: h, Spell: spell}
		r.passedNow[ball] = true
		for t, d := range r.st.Dragons {
			if r.open[t] && slices.Contains(d.Reach(), p.Cell) {
				r.late[ball] = true
			}
		}
		r.add(Happening{What: WPass, Player: p.Name, Ball: ball, Cell: o.To, Height: h})
	}
}

// ---- step 5 ----

func (r *resolver) steals() {
	claims := map[string][]*PlayerState{} // target -> stealers
	for _, p := range r.st.Players {
		o := r.order(p)
		if p.Status != OnField || o == nil || o.Action != Steal || r.noAction[p.Name] || len(p.Balls) >= 2 {
			continue
		}
		var cands []*PlayerState
		for _, q := range r.st.Players {
			if q.Team == p.Team || q.Status != OnField || len(q.Balls) == 0 {
				continue
			}
			if (q.Cell == p.Cell && q.Height != p.Height) || Distance(q.Cell, p.Cell) == 1 {
				cands = append(cands, q)
			}
		}
		var target *PlayerState
		if o.Target != "" {
			if want := r.g.findPlayer(o.Target); want != nil {
				for _, q := range cands {
					if q.Name == want.Name {
						target = q
					}
				}
			}
		} else if len(cands) == 1 {
			target = cands[0]
		} else if len(cands) > 1 {
			target = cands[r.rnd.Intn(len(cands))]
		}
		if target == nil {
			r.add(Happening{What: WStealFailed, Player: p.Name, Other: o.Target, Detail: "no_target"})
			continue
		}
		claims[target.Name] = append(claims[target.Name], p)
	}
	for _, q := range r.st.Players {
		stealers := claims[q.Name]
		if len(stealers) == 0 {
			continue
		}
		var won []*PlayerState
		for _, p := range stealers {
			if len(q.Balls) > 0 && r.rnd.Percent(r.stealChance(p, q)) {
				won = append(won, p)
			} else {
				r.add(Happening{What: WStealFailed, Player: p.Name, Other: q.Name})
			}
		}
		if len(won) == 0 {
			continue
		}
		w := won[0]
		if len(won) > 1 {
			w = won[r.rnd.Intn(len(won))]
			for _, p := range won {
				if p != w {
					r.add(Happening{What: WStealFailed, Player: p.Name, Other: q.Name, Detail: "beaten"})
				}
			}
		}
		c := q.Balls[0]
		if len(q.Balls) == 2 {
			c = q.Balls[r.rnd.Intn(2)]
		}
		r.take(q, c)
		r.give(w, r.st.ball(c))
		r.add(Happening{What: WStolen, Player: w.Name, Other: q.Name, Ball: c})
	}
}

func (r *resolver) stealChance(p, q *PlayerState) int {
	s := r.set
	same := p.Cell == q.Cell
	holding := len(p.Balls) > 0
	if len(q.Balls) >= 2 {
		switch {
		case same && holding:
			return s.Steal2SameHolding
		case same:
			return s.Steal2Same
		case holding:
			return s.Steal2NearHolding
		}
		return s.Steal2Near
	}
	switch {
	case same && holding:
		return s.Steal1SameHolding
	case same:
		return s.Steal1Same
	case holding:
		return s.Steal1NearHolding
	}
	return s.Steal1Near
}

// ---- step 6 ----

// catchable: a free ball that may be caught now (not passed, freed or vanished this tact).
func (r *resolver) catchable(b *BallState) bool {
	return b.Status == BallFree && b.Pass == nil && b.Visible && !r.freed[b.Color] &&
		!r.passedNow[b.Color] && !r.vanished[b.Color]
}

// closeness: 0 same cell and height, 1 same cell, 2 neighbouring cell, -1 out of reach.
func closeness(p *PlayerState, b *BallState) int {
	switch {
	case p.Cell == b.Cell && p.Height == b.Height:
		return 0
	case p.Cell == b.Cell:
		return 1
	case Distance(p.Cell, b.Cell) == 1:
		return 2
	}
	return -1
}

func (r *resolver) catchChance(p *PlayerState, cl int) int {
	s := r.set
	if len(p.Balls) == 0 {
		return [3]int{s.CatchSame, s.CatchHeight, s.CatchNear}[cl]
	}
	return [3]int{s.Catch2Same, s.Catch2Height, s.Catch2Near}[cl]
}

// catches: each catcher rolls for the balls in reach, nearest first (ties: the more valuable),
// one roll a ball, until one succeeds; several successes on one ball: one drawn.
func (r *resolver) catches() {
	type catcher struct {
		p     *PlayerState
		o     *TactOrder
		balls []*BallState
		next  int
		tried *BallState
		done  bool
	}
	var cs []*catcher
	for _, p := range r.st.Players {
		o := r.order(p)
		if p.Status != OnField || o == nil || o.Action != Catch || r.noAction[p.Name] || len(p.Balls) >= 2 {
			continue
		}
		c := &catcher{p: p, o: o}
		for _, b := range r.st.Balls {
			if r.catchable(b) && closeness(p, b) >= 0 {
				c.balls = append(c.balls, b)
			}
		}
		sort.SliceStable(c.balls, func(i, j int) bool {
			ci, cj := closeness(p, c.balls[i]), closeness(p, c.balls[j])
			if ci != cj {
				return ci < cj
			}
			return c.balls[i].Color.Value() > c.balls[j].Color.Value()
		})
		cs = append(cs, c)
	}
	for {
		succ := map[Color][]*catcher{}
		rolled := false
		for _, c := range cs {
			if c.done {
				continue
			}
			for c.next < len(c.balls) && !r.catchable(c.balls[c.next]) {
				c.next++
			}
			if c.next >= len(c.balls) || len(c.p.Balls) >= 2 || c.p.Status != OnField {
				c.done = true
				continue
			}
			b := c.balls[c.next]
			c.next++
			c.tried = b
			rolled = true
			if r.rnd.Percent(r.catchChance(c.p, closeness(c.p, b))) {
				succ[b.Color] = append(succ[b.Color], c)
			}
		}
		if !rolled {
			break
		}
		for i := len(Colors) - 1; i >= 0; i-- {
			b := r.st.ball(Colors[i])
			won := succ[b.Color]
			if len(won) == 0 {
				continue
			}
			w := won[0]
			if len(won) > 1 {
				w = won[r.rnd.Intn(len(won))]
			}
			if b.Spell > 0 {
				if w.o.Spell != Spells[b.Spell-1][1] {
					w.done = true
					r.add(Happening{What: WBludger, Player: w.p.Name, Ball: b.Color})
					r.fall(w.p, "bludger")
					continue
				}
				b.Spell = 0
				r.add(Happening{What: WDisenchanted, Player: w.p.Name, Ball: b.Color})
			}
			w.done = true
			r.give(w.p, b)
			r.add(Happening{What: WCaught, Player: w.p.Name, Ball: b.Color})
		}
	}
	for _, c := range cs {
		if c.tried != nil && c.p.Status == OnField && !slices.Contains(c.p.Balls, c.tried.Color) && !r.caughtAny(c.p) {
			r.add(Happening{What: WCatchMissed, Player: c.p.Name, Ball: c.tried.Color})
		}
	}
}

func (r *resolver) caughtAny(p *PlayerState) bool {
	for _, h := range r.h {
		if h.What == WCaught && h.Player == p.Name && h.Step == 6 {
			return true
		}
	}
	return false
}

// ---- end of tact ----

// effects: the balls swallowed this tact take effect; confusion and the wide mouth last until
// the next ball.
func (r *resolver) effects() {
	for t, d := range r.st.Dragons {
		if len(r.eatenNow[t]) == 0 {
			continue
		}
		d.Effects = slices.DeleteFunc(d.Effects, func(e Effect) bool { return e == Confused || e == Wide })
		for _, c := range r.eatenNow[t] {
			var e Effect
			switch c {
			case Black:
				e = Confused
			case Green:
				e = Wide
			case Blue:
				e = NoFire
			case Yellow:
				e = Still
				d.Height = 1
			}
			if e != "" && !d.Has(e) {
				d.Effects = append(d.Effects, e)
				r.add(Happening{What: WEffect, Team: r.teamName(t), Detail: string(e)})
			}
		}
	}
}

func (r *resolver) checkEnd() {
	st := r.st
	allGone := true
	inPlay := 0
	for _, b := range st.Balls {
		if b.Status != BallSwallowed {
			allGone = false
			inPlay += b.Color.Value()
		}
	}
	switch {
	case allGone:
		r.end("all_balls")
	case r.teamSwallowed(0) || r.teamSwallowed(1):
		r.end("all_swallowed")
	case abs(st.Score[0]-st.Score[1]) > inPlay:
		r.end("out_of_reach")
	}
}

func (r *resolver) teamSwallowed(t int) bool {
	for _, p := range r.st.Players {
		if p.Team == t && p.Status != Swallowed {
			return false
		}
	}
	return true
}

func (r *resolver) end(reason string) {
	st := r.st
	st.Over, st.Reason = true, reason
	switch {
	case st.Score[0] > st.Score[1]:
		st.Winner = r.teamName(0)
	case st.Score[1] > st.Score[0]:
		st.Winner = r.teamName(1)
	default:
		st.Winner = "draw"
	}
	st.Round = r.round
	r.add(Happening{What: WEnd, Detail: reason, Other: st.Winner})
}

// ---- stalling ----

// stallTact marks, in a round after a warning, a warned ball carried off the team's half in
// tact 1, and schedules the tact-3 throw-in when it is back on the half after tact 2.
func (r *resolver) stallTact() {
	for _, b := range r.st.Balls {
		if b.StallRounds != 2 || b.Status != BallHeld {
			continue
		}
		p := r.st.player(b.Holder)
		if p == nil || p.Team+1 != b.StallTeam {
			continue
		}
		onHalf := p.Cell.Half() == sideOf(p.Team)
		switch r.tact {
		case 1:
			if !onHalf {
				if r.st.Attacked == nil {
					r.st.Attacked = map[Color]bool{}
				}
				r.st.Attacked[b.Color] = true
			}
		case 2:
			if onHalf && r.st.Attacked[b.Color] {
				r.st.ThrowIns = append(r.st.ThrowIns, ThrowIn{Ball: b.Color, Team: p.Team, Round: r.round, Tact: 3})
				r.st.Warnings = append(r.st.Warnings, Warning{Team: r.teamName(p.Team), Round: r.round, Ball: b.Color, ThrowIn: true, Tact: 3})
				r.add(Happening{What: WThrowInDue, Team: r.teamName(p.Team), Ball: b.Color, Count: r.round, Height: 3})
				b.StallRounds = 0
				b.StallTeam = 0
			}
		}
	}
}

// stalling counts, at the round's end, the rounds each ball has been held by one team on its own
// half: a warning after 2, a throw-in at the next round's tact 1 after 3 (one ball a tact, the
// cheapest first).
func (r *resolver) stalling() {
	r.st.Attacked = nil
	var due []*BallState
	for _, b := range r.st.Balls {
		if b.Status != BallHeld {
			b.StallTeam, b.StallRounds = 0, 0
			continue
		}
		p := r.st.player(b.Holder)
		if p.Cell.Half() != sideOf(p.Team) {
			b.StallTeam, b.StallRounds = 0, 0
			continue
		}
		if b.StallTeam == p.Team+1 {
			b.StallRounds++
		} else {
			b.StallTeam, b.StallRounds = p.Team+1, 1
		}
		switch {
		case b.StallRounds == 2:
			r.st.Warnings = append(r.st.Warnings, Warning{Team: r.teamName(p.Team), Round: r.round, Ball: b.Color})
			r.add(Happening{What: WWarning, Team: r.teamName(p.Team), Ball: b.Color, Player: p.Name})
		case b.StallRounds >= 3:
			due = append(due, b)
		}
	}
	// one throw-in a tact, from the next round's tact 1, the cheapest first
	slot := 0
	for _, ti := range r.st.ThrowIns {
		if ti.Round == r.round+1 {
			slot = max(slot, ti.Tact)
		}
	}
	for _, b := range due { // Balls are in colour order: the cheapest first
		slot++
		rd, tact := r.round+1+(slot-1)/3, (slot-1)%3+1
		team := b.StallTeam - 1
		r.st.ThrowIns = append(r.st.ThrowIns, ThrowIn{Ball: b.Color, Team: team, Round: rd, Tact: tact})
		r.st.Warnings = append(r.st.Warnings, Warning{Team: r.teamName(team), Round: rd, Ball: b.Color, ThrowIn: true, Tact: tact})
		r.add(Happening{What: WThrowInDue, Team: r.teamName(team), Ball: b.Color, Count: rd, Height: tact})
		b.StallTeam, b.StallRounds = 0, 0
	}
}
