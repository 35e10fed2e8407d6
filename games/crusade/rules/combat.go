package rules

// attack judges one attack line and, if legal, resolves it on the judging position.
func (j *turnJudge) attack(a Attack, kind AttackKind) {
	switch kind {
	case AttackCharge:
		j.charge(a)
		return
	case AttackFormation:
		j.formation(a)
		return
	}
	first := a.Attackers[0]
	from := j.pos.cellOf(first)
	res := AttackResult{Kind: kind, Attackers: a.Attackers, From: from, Line: a.Line}
	tc, tw, gone, ok := j.target(a, first)
	if !ok {
		return
	}
	inferred := false
	if kind == AttackUnstated {
		inferred = true
		kind = j.infer(a, from, tc)
		if kind == AttackUnstated {
			j.problem(Problem{Code: CodeCannotInfer, Warrior: first, Cell: cellPtr(tc), From: cellPtr(from), Line: a.Line})
			return
		}
		res.Kind, res.Inferred = kind, true
		if kind == AttackCharge || kind == AttackFormation {
			return // infer never returns these
		}
	}
	_ = inferred
	if kind != AttackShot && len(a.Attackers) > 1 {
		for _, w := range a.Attackers[1:] {
			j.problem(Problem{Code: CodeCannotJoin, Warrior: w, Other: string(first), Line: a.Line, Detail: "only shots combine"})
		}
		return
	}
	p := Problem{Warrior: first, Cell: cellPtr(tc), From: cellPtr(from), Line: a.Line, Other: string(tw)}
	strength := 0
	switch kind {
	case AttackSword:
		if kingDist(from, tc) != 1 {
			p.Code = CodeNotAdjacent
			j.problem(p)
			return
		}
		strength = j.g.swordOf(first)
	case AttackLance:
		if first.Kind() != Guard {
			p.Code = CodeNoLance
			j.problem(p)
			return
		}
		if inForest(from) || inForest(tc) {
			p.Code = CodeForestSwordOnly
			j.problem(p)
			return
		}
		dir, d, line := lineTo(from, tc)
		if !line {
			p.Code = CodeNotInLine
			j.problem(p)
			return
		}
		if d != 2 {
			p.Code, p.Count = CodeLanceDistance, d
			j.problem(p)
			return
		}
		if mid := step(from, dir, 1); !j.pos.empty(mid) {
			p.Code, p.Cells = CodeLanceBlocked, []Cell{mid}
			j.problem(p)
			return
		}
		res.Distance = d
		strength = j.g.lanceOf(first)
	case AttackShot:
		d, s, ok := j.shot(a, from, tc)
		if !ok {
			return
		}
		res.Distance, strength = d, s
	default:
		p.Code = CodeCannotInfer
		j.problem(p)
		return
	}
	if gone {
		res.Hits = []Hit{{Cell: tc, Warrior: tw, Strength: strength, Outcome: OutcomeEmpty}}
	} else {
		res.Hits = []Hit{j.strike(from, j.side, tc, strength, a.Attackers)}
	}
	j.ev.Attacks = append(j.ev.Attacks, res)
}

// target resolves the attack's target to a cell with an enemy warrior. gone: the target was
// removed earlier in this turn (the attack is spent on nothing, not refused).
func (j *turnJudge) target(a Attack, attacker WarriorID) (c Cell, w WarriorID, gone, ok bool) {
	p := Problem{Warrior: attacker, Line: a.Line}
	switch {
	case a.Target.Warrior != "":
		w = a.Target.Warrior
		if cell, on := j.pos.where(w); on {
			c = cell
		} else if cell, was := j.removed[w]; was {
			return cell, w, true, true
		} else {
			p.Code, p.Other = CodeNoTarget, string(w)
			j.problem(p)
			return c, w, false, false
		}
	case a.Target.Cell != nil:
		c = *a.Target.Cell
		p.Cell = cellPtr(c)
		if !c.Valid() {
			p.Code = CodeBadCell
			j.problem(p)
			return c, "", false, false
		}
		w = j.pos.occupant(c)
		if w == "" {
			for rw, rc := range j.removed {
				if rc == c {
					return c, rw, true, true
				}
			}
			p.Code = CodeNoTarget
			j.problem(p)
			return c, "", false, false
		}
	default:
		p.Code = CodeTargetMissing
		j.problem(p)
		return c, "", false, false
	}
	if w.Side() == attacker.Side() {
		p.Code, p.Other, p.Cell = CodeOwnTarget, string(w), cellPtr(c)
		j.problem(p)
		return c, w, false, false
	}
	return c, w, false, true
}

// infer picks the kind of an attack line that names none: the strongest attack the position
// allows (a shooter next to its target shoots).
func (j *turnJudge) infer(a Attack, from, tc Cell) AttackKind {
	if len(a.Attackers) > 1 {
		for _, w := range a.Attackers {
			if Table[w.Kind()].Shot[0] == 0 {
				return AttackUnstated
			}
		}
		return AttackShot
	}
	w := a.Attackers[0]
	st := Table[w.Kind()]
	forest := inForest(from) || inForest(tc)
	_, d, line := lineTo(from, tc)
	switch {
	case d == 1 && st.Shot[0] > 0 && !forest:
		return AttackShot
	case kingDist(from, tc) == 1:
		return AttackSword
	case w.Kind() == Guard && line && d >= 2:
		return AttackLance // the guard's only attack beyond its neighbours (exactly 2 cells)
	case st.Shot[0] > 0 && line && d <= st.Range():
		return AttackShot
	}
	return AttackUnstated
}

// combinable reports whether shooter kinds a and b may combine their shots.
func combinable(a, b Kind) bool {
	foot := func(k Kind) bool { return k == Crossbowman || k == Archer }
	return (foot(a) && foot(b)) || (a == MountedArch && b == MountedArch)
}

// shot checks a (possibly combined) shot and returns the distance and the strength.
func (j *turnJudge) shot(a Attack, from, tc Cell) (int, int, bool) {
	named := a.Attackers[0]
	p := Problem{Warrior: named, Cell: cellPtr(tc), From: cellPtr(from), Line: a.Line}
	bad := false
	if Table[named.Kind()].Shot[0] == 0 {
		p.Code = CodeCannotShoot
		j.problem(p)
		return 0, 0, false
	}
	if inForest(from) || inForest(tc) {
		p.Code = CodeForestSwordOnly
		if !inForest(from) {
			p.Cell = cellPtr(tc)
		}
		j.problem(p)
		return 0, 0, false
	}
	dir, d, line := lineTo(from, tc)
	if !line {
		p.Code = CodeNotInLine
		j.problem(p)
		return 0, 0, false
	}
	if rng := Table[named.Kind()].Range(); d > rng {
		p.Code, p.Count, p.Limit = CodeOutOfRange, d, rng
		j.problem(p)
		return 0, 0, false
	}
	for k := 1; k < d; k++ {
		c := step(from, dir, k)
		_, flag := j.pos.flagAt(c)
		o := j.pos.occupant(c)
		if flag || (o != "" && !(named.Kind() == Archer && o.Side() == named.Side())) {
			q := p
			q.Code, q.Cells = CodeLineBlocked, []Cell{c}
			j.problem(q)
			bad = true
			break
		}
	}
	strength := j.g.shotOf(named, d)
	for _, w := range a.Attackers[1:] {
		wc := j.pos.cellOf(w)
		q := Problem{Warrior: w, Other: string(named), Cell: cellPtr(wc), Line: a.Line}
		switch {
		case Table[w.Kind()].Shot[0] == 0:
			q.Code = CodeCannotShoot
		case !combinable(named.Kind(), w.Kind()) || kingDist(wc, from) != 1:
			q.Code = CodeCannotJoin
		case inForest(wc):
			q.Code = CodeForestSwordOnly
		default:
			strength += j.g.shotOf(w, d)
			continue
		}
		j.problem(q)
		bad = true
	}
	return d, strength, !bad
}

// strike attacks the warrior on c (if any) with strength; from is the attacker's cell (for the
// pikemen's front).
func (j *turnJudge) strike(from Cell, side Side, c Cell, strength int, by []WarriorID) Hit {
	h := Hit{Cell: c, Strength: strength, Outcome: OutcomeEmpty}
	w := j.pos.occupant(c)
	if w == "" {
		return h
	}
	h.Warrior, h.Own = w, w.Side() == side
	def, support, immune := j.defence(w, c, from)
	h.Defence, h.Support = def, support
	switch {
	case immune:
		h.Outcome = OutcomeImmune
	case def < strength:
		h.Outcome = OutcomeKilled
		j.kill(w, c, by)
	default:
		h.Outcome = OutcomeSurvived
	}
	return h
}

func (j *turnJudge) kill(w WarriorID, c Cell, by []WarriorID) {
	j.pos.remove(w)
	if j.removed == nil {
		j.removed = map[WarriorID]Cell{}
	}
	j.removed[w] = c
	j.ev.Removed = append(j.ev.Removed, Removed{Warrior: w, Cell: c, By: append([]WarriorID(nil), by...)})
	s := w.Side()
	if j.killed == nil {
		j.killed = map[Side]int{}
	}
	j.killed[s]++
	if w.Commander() {
		j.win(&Victory{Winner: s.Other(), Reason: VictoryCommander, Warrior: w, Cell: cellPtr(c)})
	}
	if j.g.st.Killed[s]+j.killed[s] >= killsToWin {
		j.win(&Victory{Winner: s.Other(), Reason: VictoryKills, Warrior: w, Cell: cellPtr(c)})
	}
}

// frontOf is a pikeman's front: its last formation charge's direction, or towards the enemy's
// deployment edge.
func (g *Game) frontOf(w WarriorID) Dir {
	if f := g.st.Warriors[w].Front; !f.zero() {
		return f
	}
	if w.Side() == Crusaders {
		return Dir{0, -1}
	}
	return Dir{0, 1}
}

// defence is the defence w on c meets an attack from `from` with: its own, or the sum of a
// back-to-back pair or a mercenaries' square; immune when a pikeman in formation is attacked from
// the front. In the forest none of the special cases apply.
func (j *turnJudge) defence(w WarriorID, c Cell, from Cell) (int, []string, bool) {
	g := j.g
	d := g.defenceOf(w)
	if inForest(c) {
		return d, nil, false
	}
	var support []string
	same := func(n Cell, k Kind) (WarriorID, bool) {
		o := j.pos.occupant(n)
		return o, o != "" && o.Kind() == k && o.Side() == w.Side() && !inForest(n)
	}
	switch w.Kind() {
	case Dismounted:
		for _, dir := range orth4 {
			if o, ok := same(step(c, dir, 1), Dismounted); ok {
				d += g.defenceOf(o)
				support = append(support, string(o))
			}
		}
	case Mercenary:
		for _, tl := range []Dir{{-1, -1}, {-1, 0}, {0, -1}, {0, 0}} {
			top := step(c, tl, 1)
			sum, sup, all := 0, []string(nil), true
			for _, off := range []Dir{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
				n := step(top, off, 1)
				o, ok := same(n, Mercenary)
				if !ok {
					all = false
					break
				}
				sum += g.defenceOf(o)
				if o != w {
					sup = append(sup, string(o))
				}
			}
			if all {
				return sum, sup, false
			}
		}
	case Pikeman:
		f := g.frontOf(w)
		for _, dir := range dirs8 {
			if dir.dot(f) != 0 {
				continue
			}
			if _, ok := same(step(c, dir, 1), Pikeman); ok {
				rel := Dir{from.Row - c.Row, from.Col - c.Col}
				if rel.dot(f) > 0 {
					return d, nil, true
				}
				break
			}
		}
	}
	return d, support, false
}

// chargeTo is the destination of a charge: its own, or the move line of its (first) warrior.
func (j *turnJudge) chargeTo(a Attack) *Cell {
	if a.To != nil {
		return a.To
	}
	if mi, ok := j.moveOf[a.Attackers[0]]; ok {
		return cellPtr(j.turn.Moves[mi].To)
	}
	return nil
}

// charge judges and resolves a knight's lance charge.
func (j *turnJudge) charge(a Attack) {
	k := a.Attackers[0]
	from := j.pos.cellOf(k)
	p := Problem{Warrior: k, From: cellPtr(from), Line: a.Line}
	if len(a.Attackers) > 1 {
		for _, w := range a.Attackers[1:] {
			j.problem(Problem{Code: CodeCannotJoin, Warrior: w, Other: string(k), Line: a.Line, Detail: "a knight charges alone"})
		}
		return
	}
	if k.Kind() != Knight {
		p.Code = CodeNoLance
		j.problem(p)
		return
	}
	if j.g.st.Warriors[k].Charges >= maxCharges {
		p.Code, p.Limit = CodeNoChargesLeft, maxCharges
		j.problem(p)
		return
	}
	to := j.chargeDest(a, k, &p)
	if to == nil {
		return
	}
	if !to.Valid() {
		p.Code = CodeBadCell
		j.problem(p)
		return
	}
	if inForest(from) {
		p.Code, p.Cell = CodeForestSwordOnly, cellPtr(from)
		j.problem(p)
		return
	}
	dir, dist, line := lineTo(from, *to)
	lanceSpeed := Table[Knight].LanceSpeed
	switch {
	case !line:
		p.Code, p.Limit = CodeChargeNotStraight, lanceSpeed
	case dist > lanceSpeed:
		p.Code, p.Count, p.Limit = CodeChargeTooFar, dist, lanceSpeed
	}
	if p.Code != "" {
		j.problem(p)
		return
	}
	for s := 1; s <= dist; s++ {
		c := step(from, dir, s)
		if inForest(c) {
			q := p
			q.Code, q.Cell = CodeForestSwordOnly, cellPtr(c)
			j.problem(q)
			return
		}
		if fs, flag := j.pos.flagAt(c); flag && (fs == j.side || s < dist) {
			q := p
			q.Code, q.Cell = CodeChargeBlocked, cellPtr(c)
			j.problem(q)
			return
		}
	}
	res := AttackResult{Kind: AttackCharge, Attackers: a.Attackers, From: from, To: cellPtr(*to), Line: a.Line}
	strength := j.g.lanceOf(k)
	attacked := map[Cell]bool{}
	cur := from
	for s := 1; s <= dist; s++ {
		c := step(from, dir, s)
		if j.pos.occupant(c) != "" {
			h := j.strike(cur, j.side, c, strength, []WarriorID{k})
			res.Hits = append(res.Hits, h)
			attacked[c] = true
			if h.Outcome != OutcomeKilled {
				break
			}
		} else if _, flag := j.pos.flagAt(c); !flag {
			res.Hits = append(res.Hits, Hit{Cell: c, Strength: strength, Outcome: OutcomeEmpty})
			attacked[c] = true
		}
		cur = c
	}
	if cur != from {
		j.pos.place(k, cur)
		j.ev.Moves = append(j.ev.Moves, MoveResult{Warrior: k, From: from, To: cur, Charge: true, Line: a.Line})
		j.checkFlag(k, cur)
	}
	res.Stop = cellPtr(cur)
	for s := 1; s <= 2; s++ {
		c := step(cur, dir, s)
		if !c.Valid() {
			break
		}
		if attacked[c] || inForest(c) {
			continue
		}
		if _, flag := j.pos.flagAt(c); flag {
			continue
		}
		res.Hits = append(res.Hits, j.strike(cur, j.side, c, strength, []WarriorID{k}))
		attacked[c] = true
	}
	j.ev.Charged = append(j.ev.Charged, k)
	j.ev.Attacks = append(j.ev.Attacks, res)
}

// formationLine finds the straight line of neighbouring cells the pikemen stand on: the
// direction and the members sorted along it.
func formationLine(cells map[WarriorID]Cell, members []WarriorID) (Dir, []WarriorID, bool) {
	for _, d := range []Dir{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		sorted := append([]WarriorID(nil), members...)
		key := func(c Cell) int { // the line's constant
			switch d {
			case Dir{0, 1}:
				return c.Row
			case Dir{1, 0}:
				return c.Col
			case Dir{1, 1}:
				return c.Row - c.Col
			}
			return c.Row + c.Col
		}
		pos := func(c Cell) int {
			if d == (Dir{0, 1}) {
				return c.Col
			}
			return c.Row
		}
		ok := true
		k0 := key(cells[sorted[0]])
		for _, w := range sorted {
			if key(cells[w]) != k0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// insertion sort along the line (at most 5 members)
		for a := 1; a < len(sorted); a++ {
			for b := a; b > 0 && pos(cells[sorted[b]]) < pos(cells[sorted[b-1]]); b-- {
				sorted[b], sorted[b-1] = sorted[b-1], sorted[b]
			}
		}
		for a := 1; a < len(sorted); a++ {
			if step(cells[sorted[a-1]], d, 1) != cells[sorted[a]] {
				ok = false
				break
			}
		}
		if ok {
			return d, sorted, true
		}
	}
	return Dir{}, nil, false
}

// formation judges and resolves a pikemen formation charge.
func (j *turnJudge) formation(a Attack) {
	lead := a.Attackers[0]
	from := j.pos.cellOf(lead)
	p := Problem{Warrior: lead, From: cellPtr(from), Line: a.Line}
	for _, w := range a.Attackers {
		if w.Kind() != Pikeman {
			q := p
			q.Code, q.Warrior = CodeNoLance, w
			j.problem(q)
			return
		}
		if c := j.pos.cellOf(w); inForest(c) {
			q := p
			q.Code, q.Warrior, q.Cell = CodeForestSwordOnly, w, cellPtr(c)
			j.problem(q)
			return
		}
	}
	if len(a.Attackers) < 2 {
		p.Code = CodeNotFormation
		j.problem(p)
		return
	}
	start := map[WarriorID]Cell{}
	for _, w := range a.Attackers {
		start[w] = j.pos.cellOf(w)
	}
	lineDir, members, ok := formationLine(start, a.Attackers)
	if !ok {
		p.Code = CodeNotFormation
		j.problem(p)
		return
	}
	to := j.chargeDest(a, lead, &p)
	if to == nil {
		return
	}
	dir, dist, line := lineTo(from, *to)
	maxStep := Table[Pikeman].LanceSpeed
	switch {
	case !line:
		p.Code, p.Limit = CodeChargeNotStraight, maxStep
	case dir.dot(lineDir) != 0:
		p.Code = CodeFormationNotPerpendicular
	case dist > maxStep:
		p.Code, p.Count, p.Limit = CodeChargeTooFar, dist, maxStep
	}
	if p.Code != "" {
		j.problem(p)
		return
	}
	for _, w := range a.Attackers[1:] {
		if mi, ok := j.moveOf[w]; ok && j.turn.Moves[mi].To != step(start[w], dir, dist) {
			j.problem(Problem{Code: CodeActsTwice, Warrior: w, Cell: cellPtr(j.turn.Moves[mi].To), Line: j.turn.Moves[mi].Line})
			return
		}
	}
	member := map[WarriorID]bool{}
	for _, w := range members {
		member[w] = true
	}
	bad := false
	for s := 1; s <= dist && !bad; s++ {
		for _, w := range members {
			c := step(start[w], dir, s)
			q := p
			q.Warrior, q.Cell = w, cellPtr(c)
			switch o := j.pos.occupant(c); {
			case !c.Valid():
				q.Code = CodeChargeBlocked
			case inForest(c):
				q.Code = CodeForestSwordOnly
			case o != "" && o.Side() == j.side && !member[o]:
				q.Code, q.Other = CodeChargeBlocked, string(o)
			default:
				if fs, flag := j.pos.flagAt(c); flag && (fs == j.side || s < dist) {
					q.Code, q.Other = CodeChargeBlocked, flagMark
				} else {
					continue
				}
			}
			j.problem(q)
			bad = true
			break
		}
	}
	if bad {
		return
	}
	res := AttackResult{Kind: AttackFormation, Attackers: a.Attackers, From: from, To: cellPtr(*to), Line: a.Line}
	strength := j.g.lanceOf(lead)
	attacked := map[Cell]bool{}
	leadCell := from
	// hit attacks c once, whoever stands there (own warriors may not stand in the cells the
	// pikemen enter, checked above, but are attacked in the swept and the ahead cells); false
	// when a warrior there survives.
	hit := func(c Cell) bool {
		if attacked[c] || !c.Valid() || inForest(c) {
			return true
		}
		if _, flag := j.pos.flagAt(c); flag {
			return true
		}
		attacked[c] = true
		h := j.strike(leadCell, j.side, c, strength, members)
		res.Hits = append(res.Hits, h)
		return h.Outcome == OutcomeKilled || h.Outcome == OutcomeEmpty
	}
	between := func(s int) { // the cells between diagonal neighbours on the side of the charge
		if lineDir.DR == 0 || lineDir.DC == 0 {
			return
		}
		for i := 1; i < len(members); i++ {
			c := step(start[members[i-1]], dir, s)
			if lineDir.DR*dir.DR > 0 {
				hit(Cell{Row: c.Row + lineDir.DR, Col: c.Col})
			} else {
				hit(Cell{Row: c.Row, Col: c.Col + lineDir.DC})
			}
		}
	}
	between(0)
	reached := 0
	for s := 1; s <= dist; s++ {
		clear := true
		for _, w := range members {
			if !hit(step(start[w], dir, s)) {
				clear = false
			}
		}
		if !clear {
			break
		}
		for _, w := range members {
			j.pos.place(w, step(start[w], dir, s))
		}
		reached = s
		leadCell = j.pos.cellOf(lead)
		between(s)
	}
	for _, w := range members {
		hit(step(start[w], dir, reached+1))
	}
	if reached > 0 {
		for _, w := range a.Attackers {
			j.ev.Moves = append(j.ev.Moves, MoveResult{Warrior: w, From: start[w], To: j.pos.cellOf(w), Charge: true, Line: a.Line})
		}
		for _, w := range a.Attackers {
			j.checkFlag(w, j.pos.cellOf(w))
		}
	}
	res.Stop = cellPtr(j.pos.cellOf(lead))
	res.Front = &dir
	j.ev.Attacks = append(j.ev.Attacks, res)
}

// chargeDest is where a charge led by lead goes (the attack's destination, or its move line's),
// with p's Cell set to it; nil, with the problem recorded, when none is given or the move line
// disagrees with the attack's destination.
func (j *turnJudge) chargeDest(a Attack, lead WarriorID, p *Problem) *Cell {
	to := j.chargeTo(a)
	if to == nil {
		p.Code = CodeChargeMissingTo
		j.problem(*p)
		return nil
	}
	p.Cell = cellPtr(*to)
	if mi, ok := j.moveOf[lead]; ok && a.To != nil && j.turn.Moves[mi].To != *a.To {
		p.Code = CodeActsTwice
		j.problem(*p)
		return nil
	}
	return to
}
