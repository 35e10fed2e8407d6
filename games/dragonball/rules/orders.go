package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"forumgm/game"
	"forumgm/russian"
)

// StartGame is the input that opens the game (the referee sends it with the game's Rand): the
// balls' random directions and heights are drawn then.
type StartGame struct{}

// Decide judges one input: an *Orders (or Orders) message, answered with an OrdersAccepted
// holding the orders as understood (and any refused lines), or a *Refusal when nothing was
// accepted; or StartGame, answered with GameStarted (it needs in.Rand).
func (g *Game) Decide(in game.Act) ([]game.Event, error) {
	switch b := in.Body.(type) {
	case StartGame, *StartGame:
		if in.Rand == nil {
			return nil, errf("start: no source of chance")
		}
		return g.Start(in.At, in.Rand)
	case *Orders:
		if b != nil {
			return g.decideOrders(in, b)
		}
	case Orders:
		return g.decideOrders(in, &b)
	case *EndGame:
		if b != nil {
			return g.decideEnd(in, b)
		}
	case EndGame:
		return g.decideEnd(in, &b)
	case *ReplacePlayer:
		return g.decideReplace(in, b)
	case *RemovePlayer:
		return g.decideRemove(in, b)
	case *SetRounds:
		if b != nil {
			return g.decideRounds(in, b)
		}
	}
	return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: fmt.Sprintf("%T", in.Body)})
}

// playerPos is where a player stands (or will stand) at a tact while orders are checked.
type playerPos struct {
	cell   Cell
	height int
}

// orderCheck carries what checking one player's tacts in sequence knows.
type orderCheck struct {
	g       *Game
	p       *PlayerState
	round   int
	pos     playerPos
	onField bool
	held    []Color // balls in hand as far as the player's orders tell
	gain    int     // earlier catches and steals that may bring a ball
	spells  int     // the team's enchanted passes counted so far
}

func (g *Game) decideOrders(in game.Act, o *Orders) ([]game.Event, error) {
	st := g.st
	switch {
	case !st.Started:
		return nil, refuse(Problem{Code: CodeNotStarted})
	case st.Over:
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	p := st.player(in.Author)
	if p == nil {
		return nil, refuse(Problem{Code: CodeNotAPlayer, Player: in.Author})
	}
	if !g.settings.OrdersPublic && !in.Private {
		return nil, refuse(Problem{Code: CodeOrdersPrivate})
	}
	if o.Empty() {
		return nil, refuse(Problem{Code: CodeEmptyOrders})
	}
	round := st.Round + 1
	ev := &OrdersAccepted{At: in.At, Author: in.Author, Round: round, Private: in.Private, Team: p.Team}
	ev.Refused = append(ev.Refused, o.Unreadable...)

	// The message's lines by tact: a later line for the same tact replaces an earlier one.
	var fresh [3]*TactOrder
	for i := range o.Tacts {
		t := o.Tacts[i]
		if t.Tact < 1 || t.Tact > 3 {
			ev.Refused = append(ev.Refused, Problem{Code: CodeBadTact, Tact: t.Tact, Count: t.Tact, Line: t.Line})
			continue
		}
		if t.Spell != "" && !in.Private {
			ev.Refused = append(ev.Refused, Problem{Code: CodeSpellPublic, Tact: t.Tact, Line: t.Line})
			continue
		}
		fresh[t.Tact-1] = &t
	}
	merged := &PlayerOrders{}
	if cur := st.Orders[in.Author]; cur != nil {
		*merged = *cur
	}
	if o.HasDescription {
		merged.Description = o.Description
		ev.Description = true
	}
	c := g.newCheck(p, round)
	for i := 0; i < 3; i++ {
		if t := fresh[i]; t != nil {
			if prob, bad := c.tact(t); bad {
				ev.Refused = append(ev.Refused, prob)
			} else {
				merged.Tacts[i] = t
				ev.Accepted = append(ev.Accepted, *t)
				continue
			}
		}
		if old := merged.Tacts[i]; old != nil {
			if prob, bad := c.tact(old); bad {
				ev.Dropped = append(ev.Dropped, Problem{Code: CodeTactDropped, Tact: i + 1, Line: old.Line, Detail: string(prob.Code)})
				merged.Tacts[i] = nil
				c.stay(i + 1)
			}
		} else {
			c.stay(i + 1)
		}
	}
	ev.Orders = merged

	if len(o.Dragon) > 0 {
		if h := g.handler(p.Team); h != in.Author {
			for _, d := range o.Dragon {
				ev.Refused = append(ev.Refused, Problem{Code: CodeNotHandler, Dragon: true, Tact: d.Tact, Line: d.Line, Player: h})
			}
		} else {
			g.decideDragon(p.Team, o.Dragon, ev)
		}
	}
	if len(ev.Accepted) == 0 && len(ev.AcceptedDragon) == 0 && !ev.Description {
		return nil, refuse(ev.Refused...)
	}
	return []game.Event{ev}, nil
}

func (g *Game) newCheck(p *PlayerState, round int) *orderCheck {
	c := &orderCheck{g: g, p: p, round: round, pos: playerPos{p.Cell, p.Height}, onField: p.Status == OnField,
		held: slices.Clone(p.Balls)}
	// the team's enchanted passes: used in resolved rounds plus those in team-mates' standing orders
	c.spells = g.st.Enchanted[p.Team]
	for _, q := range g.st.Players {
		if q.Team != p.Team || q.Name == p.Name {
			continue
		}
		if o := g.st.Orders[q.Name]; o != nil {
			for _, t := range o.Tacts {
				if t != nil && t.Action == Pass && t.Spell != "" {
					c.spells++
				}
			}
		}
	}
	return c
}

// stay advances the check over a tact without orders.
func (c *orderCheck) stay(tact int) {
	p := c.p
	if !c.onField && p.Status == Hospital && p.Returns == c.round && p.ReturnTact == tact {
		c.onField = true // a random re-entry cell: later moves cannot be checked against it
		c.pos = playerPos{0, 2}
	}
}

// tact checks one tact's order against the position the earlier tacts leave, and on success
// advances the position.
func (c *orderCheck) tact(t *TactOrder) (Problem, bool) {
	p := c.p
	prob := Problem{Tact: t.Tact, Line: t.Line}
	fail := func(code Code) (Problem, bool) {
		prob.Code = code
		return prob, true
	}
	next := c.pos
	returning := false
	if !c.onField {
		if p.Status == Hospital && p.Returns == c.round && p.ReturnTact == t.Tact {
			returning = true
		} else {
			prob.Detail, prob.Count = string(p.Status), p.Returns
			if p.Status == Hospital && p.Returns == c.round {
				prob.Limit = p.ReturnTact
			}
			return fail(CodeNotOnField)
		}
	}
	if t.Height != 0 && (t.Height < 1 || t.Height > 3) {
		prob.Height = t.Height
		return fail(CodeBadHeight)
	}
	if t.Cell != 0 && !t.Cell.Valid() {
		prob.Cell = t.Cell
		return fail(CodeBadCell)
	}
	if t.Dir != "" && t.Cell == 0 && !returning {
		d, ok := ParseDir(t.Dir)
		n, on := next.cell.Step(d)
		if !ok || !on {
			prob.From, prob.Cells, prob.Detail = next.cell, sorted(next.cell.Neighbours()), t.Dir
			return fail(CodeBadCell)
		}
		resolved := *t
		resolved.Cell, resolved.Dir = n, ""
		*t = resolved
	}
	if returning {
		side := sideOf(p.Team)
		if t.Cell != 0 && !IsReentry(side, t.Cell) {
			prob.Cell, prob.Cells = t.Cell, Reentry(side)
			return fail(CodeReentryCell)
		}
		next = playerPos{t.Cell, 2}
		if t.Height != 0 {
			next.height = t.Height
		}
	} else {
		if t.Cell != 0 && next.cell != 0 && t.Cell != next.cell {
			if Distance(next.cell, t.Cell) != 1 {
				prob.From, prob.Cell = next.cell, t.Cell
				prob.Cells = sorted(next.cell.Neighbours())
				return fail(CodeNotNeighbour)
			}
		}
		if t.Cell != 0 {
			next.cell = t.Cell
		}
		if t.Height != 0 {
			if abs(t.Height-next.height) > 1 {
				prob.Height, prob.Limit = t.Height, next.height
				return fail(CodeHeightJump)
			}
			next.height = t.Height
		}
	}
	switch t.Action {
	case Catch:
		if t.Spell != "" {
			if _, first, ok := spellPair(t.Spell); !ok || first {
				prob.Detail = t.Spell
				return fail(CodeBadSpell)
			}
		}
		if len(c.held) >= 2 {
			prob.Detail = "catch"
			return fail(CodeHandsFull)
		}
		c.gain++
	case Steal:
		if len(c.held) >= 2 {
			prob.Detail = "steal"
			return fail(CodeHandsFull)
		}
		if t.Target != "" {
			q := c.g.findPlayer(t.Target)
			if q == nil {
				prob.Player = t.Target
				for _, o := range c.g.st.Players {
					if o.Team != p.Team {
						prob.Options = append(prob.Options, o.Name)
					}
				}
				return fail(CodeUnknownPlayer)
			}
			if q.Team == p.Team {
				prob.Player = q.Name
				return fail(CodeOwnPlayer)
			}
		}
		c.gain++
	case Pass:
		ball := t.Ball
		switch {
		case ball != "" && slices.Contains(c.held, ball):
		case ball != "" && c.gain > 0:
		case ball != "":
			prob.Ball = ball
			return fail(CodeNotHolding)
		case len(c.held) == 2:
			return fail(CodeWhichBall)
		case len(c.held) == 1:
			ball = c.held[0]
		case c.gain == 0:
			return fail(CodeNoBall)
		}
		if !t.To.Valid() {
			prob.Cell = t.To
			return fail(CodeBadCell)
		}
		if t.ToHeight < 0 || t.ToHeight > 3 {
			prob.Height = t.ToHeight
			return fail(CodeBadHeight)
		}
		limit := 4
		if ball != "" {
			limit = ball.PassRange()
		}
		if next.cell != 0 {
			if d := Distance(next.cell, t.To); d < 1 || d > limit {
				prob.From, prob.Cell, prob.Count, prob.Limit, prob.Ball = next.cell, t.To, d, limit, ball
				return fail(CodePassRange)
			}
		}
		if t.Spell != "" {
			if _, first, ok := spellPair(t.Spell); !ok || !first {
				prob.Detail = t.Spell
				return fail(CodeBadSpell)
			}
			if c.spells >= c.g.settings.EnchantedPasses {
				prob.Limit = c.g.settings.EnchantedPasses
				return fail(CodeEnchantLimit)
			}
			c.spells++
		}
		if i := slices.Index(c.held, ball); ball != "" && i >= 0 {
			c.held = slices.Delete(c.held, i, i+1)
		} else if c.gain > 0 {
			c.gain--
		}
	}
	c.pos, c.onField = next, true
	return Problem{}, false
}

// NameKey is the form names are compared in: folded, look-alike letters read as Cyrillic.
func NameKey(s string) string {
	return russian.ToCyrillicLower(russian.Fold(strings.TrimSpace(s)))
}

// findPlayer finds a player by a name as written: exactly (up to case, ё and look-alike
// letters), or with a Russian case ending (Седрика for Седрик). Nil when none or several fit.
func (g *Game) findPlayer(written string) *PlayerState {
	w := NameKey(written)
	var found *PlayerState
	n := 0
	for _, p := range g.st.Players {
		k := NameKey(p.Name)
		if k == w {
			return p
		}
		if strings.HasPrefix(w, k) && utf8.RuneCountInString(w)-utf8.RuneCountInString(k) <= 2 ||
			trimLast(k) != "" && strings.HasPrefix(w, trimLast(k)) && utf8.RuneCountInString(w)-utf8.RuneCountInString(k) <= 1 {
			found = p
			n++
		}
	}
	if n == 1 {
		return found
	}
	return nil
}

func trimLast(s string) string {
	_, size := utf8.DecodeLastRuneInString(s)
	if utf8.RuneCountInString(s) < 4 {
		return ""
	}
	return s[:len(s)-size]
}

// dragonPos is a dragon's position while its orders are checked or carried out.
type dragonPos struct {
	head, body Cell
	height     int
}

// dragonStep is where order o takes a dragon at pos; a problem code when it cannot go there.
func (g *Game) dragonStep(t int, d *DragonState, pos dragonPos, o *DragonOrder) (dragonPos, Problem, bool) {
	prob := Problem{Tact: o.Tact, Line: o.Line, Dragon: true}
	next := pos
	moves := o.Move == MoveForward || o.Move == MoveLeft || o.Move == MoveRight
	if d.Has(Still) && (moves || o.Climb != 0 || (o.Height != 0 && o.Height != pos.height)) {
		prob.Code = CodeDragonStill
		return pos, prob, true
	}
	f, _ := pos.body.DirTo(pos.head)
	switch o.Move {
	case MoveForward:
		h, ok := pos.head.Step(f)
		if !ok {
			prob.Code, prob.Cells = CodeDragonEdge, []Cell{pos.head}
			return pos, prob, true
		}
		next.body, next.head = pos.head, h
	case MoveLeft, MoveRight:
		nf := f.Rotate(-1)
		if o.Move == MoveRight {
			nf = f.Rotate(1)
		}
		h, ok := pos.body.Step(nf)
		if !ok {
			prob.Code, prob.Cells = CodeDragonEdge, []Cell{pos.body}
			return pos, prob, true
		}
		next.head = h
	}
	if next != pos {
		nf, _ := next.body.DirTo(next.head)
		tail, ok := next.body.Step(nf.Opposite())
		cells := []Cell{tail, next.body, next.head}
		if !ok {
			prob.Code, prob.Cells = CodeDragonEdge, cells[1:]
			return pos, prob, true
		}
		for _, c := range cells {
			if c.IsEdge() {
				prob.Code, prob.Cells = CodeDragonEdge, cells
				return pos, prob, true
			}
		}
		for _, c := range cells {
			if h := c.Half(); h != "" && h != sideOf(t) {
				prob.Code, prob.Cells = CodeDragonMidline, cells
				return pos, prob, true
			}
		}
	}
	h := pos.height + o.Climb
	if o.Height != 0 {
		h = o.Height
	}
	if h < 1 || h > 3 || abs(h-pos.height) > 1 {
		prob.Code, prob.Height, prob.Limit = CodeDragonHeight, h, pos.height
		return pos, prob, true
	}
	next.height = h
	return next, Problem{}, false
}

// fireProblem is why ordered fire cannot be breathed, given the breaths already ordered.
func (g *Game) fireProblem(d *DragonState, o *DragonOrder, flames, volleys int) (Code, bool) {
	if o.Fire == FireNone {
		return "", false
	}
	switch {
	case d.Has(NoFire):
		return CodeNoFire, true
	case d.Has(Confused) || d.Has(Still):
		return CodeRandomFireOnly, true
	case o.Fire == FireVolley && volleys <= 0:
		return CodeFireUsedUp, true
	case o.Fire == FireFlame && flames <= 0:
		return CodeFireUsedUp, true
	}
	return "", false
}

func (g *Game) decideDragon(t int, lines []DragonOrder, ev *OrdersAccepted) {
	d := g.st.Dragons[t]
	var fresh [3]*DragonOrder
	for i := range lines {
		o := lines[i]
		if o.Tact < 1 || o.Tact > 3 {
			ev.Refused = append(ev.Refused, Problem{Code: CodeBadTact, Dragon: true, Tact: o.Tact, Count: o.Tact, Line: o.Line})
			continue
		}
		fresh[o.Tact-1] = &o
	}
	merged := map[int]*DragonOrder{}
	for k, v := range g.st.Dragon[t] {
		vv := *v
		merged[k] = &vv
	}
	pos := dragonPos{d.Head, d.Body, d.Height}
	flames, volleys := d.Flames, d.Volleys
	openFor := d.OpenFor
	check := func(o *DragonOrder) (dragonPos, Problem, bool) {
		next, prob, bad := g.dragonStep(t, d, pos, o)
		if bad {
			if prob.Code == CodeDragonEdge || prob.Code == CodeDragonMidline {
				for _, m := range []DragonMove{MoveForward, MoveLeft, MoveRight} {
					if _, _, no := g.dragonStep(t, d, pos, &DragonOrder{Move: m}); !no {
						prob.Options = append(prob.Options, string(m))
					}
				}
			}
			return pos, prob, true
		}
		if code, bad := g.fireProblem(d, o, flames, volleys); bad {
			prob = Problem{Code: code, Tact: o.Tact, Line: o.Line, Dragon: true, Detail: string(o.Fire)}
			if code == CodeFireUsedUp {
				prob.Limit = map[Fire]int{FireFlame: g.settings.Flames, FireVolley: g.settings.Volleys}[o.Fire]
			}
			return pos, prob, true
		}
		return next, Problem{}, false
	}
	for i := 0; i < 3; i++ {
		tact := i + 1
		var use *DragonOrder
		if o := fresh[i]; o != nil {
			next, prob, bad := check(o)
			if bad {
				ev.Refused = append(ev.Refused, prob)
			} else {
				merged[tact], use, pos = o, o, next
				ev.AcceptedDragon = append(ev.AcceptedDragon, *o)
			}
		}
		if use == nil {
			if old := merged[tact]; old != nil {
				next, prob, bad := check(old)
				if bad {
					ev.Dropped = append(ev.Dropped, Problem{Code: CodeTactDropped, Dragon: true, Tact: tact, Line: old.Line, Detail: string(prob.Code)})
					delete(merged, tact)
				} else {
					use, pos = old, next
				}
			}
		}
		forced := openFor > 0 || d.Has(Wide)
		if openFor > 0 {
			openFor--
		}
		if use != nil {
			switch use.Fire {
			case FireFlame:
				flames--
				forced, openFor = true, 1
			case FireVolley:
				volleys--
				forced, openFor = true, 2
			}
			if forced && use.Mouth == MouthClosed && fresh[i] == use {
				ev.Notes = append(ev.Notes, Problem{Code: CodeMouthForced, Dragon: true, Tact: tact, Line: use.Line})
			}
		}
	}
	ev.Dragon = merged
}
