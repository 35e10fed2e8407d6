package rules

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"forumgm/game"
)

// maxActors is how many warriors one turn may use; maxDaily how many actions a warrior has a day;
// maxForest how many warriors of one army may be in the forest; killsToWin the kills that win.
const (
	maxActors  = 3
	maxDaily   = 3
	maxForest  = 3
	killsToWin = 14
)

// EndGame is a moderator's command to end the game (the caller checks that the author is a
// moderator). Winner "" ends it without a winner.
type EndGame struct {
	Winner Side   `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Decide judges one input. Bodies: Turn, Allocation, Deployment, Answer, EndGame (values or
// pointers). A refusal is a *Refusal; nothing changes.
func (g *Game) Decide(in game.Act) ([]game.Event, error) {
	switch b := in.Body.(type) {
	case Turn:
		return g.decideTurn(in, &b)
	case *Turn:
		if b != nil {
			return g.decideTurn(in, b)
		}
	case Allocation:
		return g.decideAllocation(in, &b)
	case *Allocation:
		if b != nil {
			return g.decideAllocation(in, b)
		}
	case Deployment:
		return g.decideDeployment(in, &b)
	case *Deployment:
		if b != nil {
			return g.decideDeployment(in, b)
		}
	case Answer:
		return g.decideAnswer(in, &b)
	case *Answer:
		if b != nil {
			return g.decideAnswer(in, b)
		}
	case *AddPlayer:
		if b != nil {
			return g.decideAddPlayer(in, b)
		}
	case *AdjustWounds:
		if b != nil {
			return g.decideAdjustWounds(in, b)
		}
	case *ReplacePlayer:
		if b != nil {
			return g.decideReplace(in, b)
		}
	case *RemovePlayer:
		if b != nil {
			return g.decideRemove(in, b)
		}
	case EndGame:
		return g.decideEnd(in, &b)
	case *EndGame:
		if b != nil {
			return g.decideEnd(in, b)
		}
	}
	return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: fmt.Sprintf("%T", in.Body)})
}

func (g *Game) decideEnd(in game.Act, b *EndGame) ([]game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	if b.Winner != "" && b.Winner != Crusaders && b.Winner != Saracens && b.Winner != Draw {
		return nil, fmt.Errorf("crusade: end game: unknown winner %q", b.Winner)
	}
	return []game.Event{&GameEnded{At: in.At, Author: in.Author, Winner: b.Winner, Reason: b.Reason}}, nil
}

// turnJudge judges one Turn on a copy of the position.
type turnJudge struct {
	g        *Game
	in       game.Act
	turn     *Turn
	side     Side
	pos      *position
	probs    []Problem
	actorOK  map[WarriorID]bool
	moveOf   map[WarriorID]int // the warrior's (first) move line
	consumed map[int]bool      // move lines that are part of a charge
	removed  map[WarriorID]Cell
	killed   map[Side]int
	victory  *Victory
	ev       *TurnPlayed
}

func (j *turnJudge) problem(p Problem) { j.probs = append(j.probs, p) }

// player is the roster's player for author while the game is being played; otherwise the
// refusal that says why not (game over, still deploying, not a player).
func (g *Game) player(author string) (Player, error) {
	switch g.st.Phase {
	case PhaseOver:
		return Player{}, refuse(Problem{Code: CodeGameOver})
	case PhaseDeploying:
		return Player{}, refuse(Problem{Code: CodeNotStarted})
	}
	player, ok := g.roster.player(author)
	if !ok {
		return Player{}, refuse(Problem{Code: CodeNotAPlayer, Detail: author})
	}
	return player, nil
}

func (g *Game) decideTurn(in game.Act, t *Turn) ([]game.Event, error) {
	st := g.st
	player, err := g.player(in.Author)
	if err != nil {
		return nil, err
	}
	if player.Side != st.ToMove {
		return nil, refuse(Problem{Code: CodeOutOfTurn, Side: st.ToMove})
	}
	if len(t.Moves)+len(t.Attacks) == 0 {
		return nil, refuse(Problem{Code: CodeEmptyTurn})
	}
	j := &turnJudge{g: g, in: in, turn: t, side: player.Side, pos: g.position().clone(),
		actorOK: make(map[WarriorID]bool, maxActors), moveOf: make(map[WarriorID]int, len(t.Moves))}
	j.ev = &TurnPlayed{At: in.At, Author: in.Author, Side: j.side, Number: st.Turns + 1}
	if in.Private && !g.settings.ForestInvisible {
		j.problem(Problem{Code: CodePrivateTurn})
	}

	// The warriors the turn uses, in the order the post names them.
	var actors []WarriorID
	seen := map[WarriorID]bool{}
	addActor := func(w WarriorID) {
		if !seen[w] {
			seen[w] = true
			actors = append(actors, w)
		}
	}
	for _, m := range t.Moves {
		addActor(m.Warrior)
	}
	for _, a := range t.Attacks {
		for _, w := range a.Attackers {
			addActor(w)
		}
	}
	if len(actors) > maxActors {
		j.problem(Problem{Code: CodeTooManyWarriors, Count: len(actors), Limit: maxActors})
	}
	for _, w := range actors {
		if p, bad := j.checkActor(player, w); bad {
			j.problem(p)
			continue
		}
		j.actorOK[w] = true
	}

	// Each warrior acts once: one move line, one attack line (a move line may go with its attack).
	dupMove := map[int]bool{}
	for i, m := range t.Moves {
		if _, ok := j.moveOf[m.Warrior]; ok {
			dupMove[i] = true
			j.problem(Problem{Code: CodeActsTwice, Warrior: m.Warrior, Line: m.Line})
			continue
		}
		j.moveOf[m.Warrior] = i
	}
	kinds := make([]AttackKind, len(t.Attacks))
	skipAttack := map[int]bool{}
	inAttack := map[WarriorID]bool{}
	for i, a := range t.Attacks {
		if len(a.Attackers) == 0 {
			j.problem(Problem{Code: CodeCannotInfer, Line: a.Line, Detail: "no attacker"})
			skipAttack[i] = true
			continue
		}
		for _, w := range a.Attackers {
			if inAttack[w] {
				j.problem(Problem{Code: CodeActsTwice, Warrior: w, Line: a.Line})
				skipAttack[i] = true
			}
			inAttack[w] = true
			if !j.actorOK[w] {
				skipAttack[i] = true
			}
		}
		kinds[i] = normaliseKind(a)
		if kinds[i] == AttackCharge || kinds[i] == AttackFormation {
			for _, w := range a.Attackers {
				if mi, ok := j.moveOf[w]; ok {
					if j.consumed == nil {
						j.consumed = map[int]bool{}
					}
					j.consumed[mi] = true
				}
			}
		}
	}

	// Moves, in order, each on the position the previous ones left.
	forestBefore := j.pos.forestCount(j.side)
	for i, m := range t.Moves {
		if dupMove[i] || j.consumed[i] || !j.actorOK[m.Warrior] {
			continue
		}
		j.move(m)
	}
	if n := j.pos.forestCount(j.side); n > maxForest && n > forestBefore {
		j.problem(Problem{Code: CodeForestFull, Count: n, Limit: maxForest})
	}

	// Attacks, in order.
	for i, a := range t.Attacks {
		if skipAttack[i] {
			continue
		}
		j.attack(a, kinds[i])
	}
	if len(j.probs) > 0 {
		return nil, refuse(j.probs...)
	}

	j.sloppiness(dupMove)
	j.ev.Actors = append(j.ev.Actors, actors...)
	if len(j.ev.Sloppy) > 0 {
		j.ev.Wounds = g.settings.WoundsSloppy
	}
	if j.victory != nil {
		j.ev.Victory = j.victory
	} else {
		j.ev.Next = j.side.Other()
	}
	return []game.Event{j.ev}, nil
}

// normaliseKind maps the stated kind onto what the attacker can do with it: a knight's lance is
// its charge, a pikeman's lance its formation, the guard's charge its lance. Unstated kinds stay
// unstated (inferred later from the position) unless a destination makes them a charge.
func normaliseKind(a Attack) AttackKind {
	k := a.Attackers[0].Kind()
	switch a.Kind {
	case AttackLance, AttackCharge, AttackFormation:
		switch k {
		case Knight:
			return AttackCharge
		case Pikeman:
			return AttackFormation
		case Guard:
			return AttackLance
		}
	case AttackUnstated:
		if a.To != nil {
			switch k {
			case Knight:
				return AttackCharge
			case Pikeman:
				return AttackFormation
			}
		}
	}
	return a.Kind
}

// checkActor checks that player may act with w today.
func (j *turnJudge) checkActor(player Player, w WarriorID) (Problem, bool) {
	if !w.Valid() {
		return Problem{Code: CodeUnknownWarrior, Warrior: w}, true
	}
	if w.Side() != j.side {
		return Problem{Code: CodeEnemyWarrior, Warrior: w}, true
	}
	ws := j.g.st.Warriors[w]
	if !ws.InPlay {
		return Problem{Code: CodeNotInPlay, Warrior: w}, true
	}
	if !ws.Alive {
		return Problem{Code: CodeWarriorDead, Warrior: w}, true
	}
	if ok, owner := j.g.roster.controls(player, w); !ok {
		return Problem{Code: CodeNotYourWarrior, Warrior: w, Owner: owner}, true
	}
	if ws.Actions >= maxDaily {
		return Problem{Code: CodeDailyLimit, Warrior: w, Count: ws.Actions, Limit: maxDaily}, true
	}
	return Problem{}, false
}

// move judges one move line and, if legal, makes it on the judging position.
func (j *turnJudge) move(m Move) {
	w := m.Warrior
	from := j.pos.cellOf(w)
	if (m.From == nil || *m.From == from) && m.To.Valid() && m.To != from && j.pos.at[m.To.Row][m.To.Col] == 0 && !j.g.settings.ForestInvisible {
		// The common case, a move to an empty cell: legal when the search reaches it.
		if fs, ok := j.pos.flagAt(m.To); !ok || fs != j.side {
			if j.pos.reaches(w, from, m.To) {
				j.place(m, from)
				return
			}
		}
	}
	p := Problem{Warrior: w, Line: m.Line, Cell: cellPtr(m.To), From: cellPtr(from)}
	if m.From != nil && *m.From != from {
		p.Code, p.Cell, p.Cells = CodeWrongFrom, cellPtr(*m.From), []Cell{from}
		j.problem(p)
		return
	}
	if !m.To.Valid() {
		p.Code = CodeBadCell
		j.problem(p)
		return
	}
	if m.To == from {
		p.Code = CodeNoMove
		j.problem(p)
		return
	}
	if o := j.pos.occupant(m.To); o != "" {
		p.Code, p.Other = CodeOccupied, string(o)
		j.problem(p)
		return
	}
	if fs, ok := j.pos.flagAt(m.To); ok && fs == j.side {
		p.Code, p.Other = CodeOccupied, flagMark
		j.problem(p)
		return
	}
	forestMove := inForest(from) || inForest(m.To)
	if j.g.settings.ForestInvisible {
		if forestMove && !j.in.Private {
			p.Code = CodeForestMustBePrivate
			j.problem(p)
			return
		}
		if !forestMove && j.in.Private {
			p.Code = CodePrivateTurn
			j.problem(p)
			return
		}
	}
	dests := j.pos.destinations(w, from)
	for _, d := range dests {
		if d == m.To {
			j.place(m, from)
			return
		}
	}
	speed := speedAt(w, from, m.To)
	p.Limit, p.Cells = speed, dests
	switch {
	case inForest(from) && !inForest(m.To) && kingDist(from, m.To) <= speed &&
		m.To.Row != 2 && m.To.Row != Size-3:
		p.Code = CodeForestExit
	case kingDist(from, m.To) > speed:
		p.Code = CodeTooFar
	default:
		p.Code = CodeBlocked
	}
	j.problem(p)
}

// place makes a legal move on the judging position.
func (j *turnJudge) place(m Move, from Cell) {
	j.pos.place(m.Warrior, m.To)
	j.ev.Moves = append(j.ev.Moves, MoveResult{Warrior: m.Warrior, From: from, To: m.To, Line: m.Line})
	j.checkFlag(m.Warrior, m.To)
	j.revealMeeting(m.Warrior, from, m.To)
}

// checkFlag records a flag capture when w stands on the enemy flag.
func (j *turnJudge) checkFlag(w WarriorID, c Cell) {
	if fs, ok := j.pos.flagAt(c); ok && fs != w.Side() {
		j.win(&Victory{Winner: w.Side(), Reason: VictoryFlag, Warrior: w, Cell: cellPtr(c)})
	}
}

func (j *turnJudge) win(v *Victory) {
	if j.victory == nil {
		j.victory = v
	}
}

// sloppiness records what the post got wrong without making the turn illegal.
func (j *turnJudge) sloppiness(dupMove map[int]bool) {
	st := j.g.st
	for i, m := range j.turn.Moves {
		if dupMove[i] {
			continue
		}
		want := st.Warriors[m.Warrior].Actions + 1
		switch {
		case m.Ordinal == 0:
			j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyOrdinalMissing, Warrior: m.Warrior, Expected: want, Line: m.Line})
		case m.Ordinal != want:
			j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyOrdinalWrong, Warrior: m.Warrior, Stated: m.Ordinal, Expected: want, Line: m.Line})
		}
	}
	for i, a := range j.turn.Attacks {
		w := a.Attackers[0]
		if _, moved := j.moveOf[w]; a.Ordinal != 0 && !moved {
			if want := st.Warriors[w].Actions + 1; a.Ordinal != want {
				j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyOrdinalWrong, Warrior: w, Stated: a.Ordinal, Expected: want, Line: a.Line})
			}
		}
		if i < len(j.ev.Attacks) && j.ev.Attacks[i].Inferred {
			j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyAttackKind, Warrior: w, Line: a.Line})
		}
	}
	if j.turn.Board == nil {
		if j.g.settings.BoardRequired && !j.in.Private {
			j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyBoardMissing})
		}
		return
	}
	j.ev.BoardDiff = j.boardDiff(j.turn.Board)
	if len(j.ev.BoardDiff) > 0 {
		j.ev.Sloppy = append(j.ev.Sloppy, Sloppiness{Code: SloppyBoardMismatch})
	}
}

// boardDiff compares a quoted board with the position after the turn. Accepted without a
// difference: a number on an empty cell (an attack mark, as in the seed's diagrams) and a warrior
// killed this turn still drawn on the cell where it died.
func (j *turnJudge) boardDiff(b *BoardText) []CellDiff {
	hide := j.g.settings.ForestInvisible
	// The cells either board has something on, marked on a grid and read in row-major order
	// (sortCells' order); a warrior off the board (never, after a legal turn) takes boardDiffMaps.
	var marked [Size][Size + 1]bool
	for _, v := range j.pos.cell {
		if v == 0 {
			continue // not on the board
		}
		c := v.cell()
		if !c.Valid() {
			return j.boardDiffMaps(b)
		}
		if !hide || !inForest(c) {
			marked[c.Row][c.Col] = true
		}
	}
	for _, c := range []Cell{j.g.settings.SaracenFlag, j.g.settings.CrusaderFlag} {
		if !c.Valid() {
			return j.boardDiffMaps(b)
		}
		marked[c.Row][c.Col] = true
	}
	var quoted [Size][Size + 1]string
	for c, tok := range b.Cells {
		if c.Valid() {
			marked[c.Row][c.Col] = true
			quoted[c.Row][c.Col] = tok
		}
	}
	diedAt := j.diedAt()
	var out []CellDiff
	for r := 0; r < Size; r++ {
		for col := 1; col <= Size; col++ {
			if !marked[r][col] {
				continue
			}
			c := Cell{Row: r, Col: col}
			q := trimToken(quoted[r][col])
			a := ""
			if w := j.pos.occupant(c); w != "" && (!hide || !inForest(c)) {
				a = string(w)
			} else if c == j.g.settings.SaracenFlag || c == j.g.settings.CrusaderFlag {
				a = flagMark
			}
			if q == a || (a == "" && (digitsOnly(q) || q == diedAt[c])) {
				continue
			}
			out = append(out, CellDiff{Cell: c, Quoted: q, Actual: a})
		}
	}
	return out
}

// trimToken is a quoted cell's token without spaces and underscores around it (most need no
// trimming: the board parser trims them).
func trimToken(q string) string {
	if q == "" {
		return q
	}
	first, _ := utf8.DecodeRuneInString(q)
	last, _ := utf8.DecodeLastRuneInString(q)
	if first != '_' && last != '_' && !unicode.IsSpace(first) && !unicode.IsSpace(last) {
		return q
	}
	return strings.Trim(strings.TrimSpace(q), "_")
}

// diedAt maps the cells of the warriors killed this turn to them (nil: none was).
func (j *turnJudge) diedAt() map[Cell]string {
	if len(j.removed) == 0 {
		return nil
	}
	diedAt := map[Cell]string{}
	for w, c := range j.removed {
		diedAt[c] = string(w)
	}
	return diedAt
}

// boardDiffMaps is boardDiff through the position's tokens.
func (j *turnJudge) boardDiffMaps(b *BoardText) []CellDiff {
	actual := j.g.tokensOf(j.pos, j.g.settings.ForestInvisible)
	diedAt := j.diedAt()
	cells := map[Cell]bool{}
	for c := range actual {
		cells[c] = true
	}
	for c := range b.Cells {
		if c.Valid() {
			cells[c] = true
		}
	}
	list := make([]Cell, 0, len(cells))
	for c := range cells {
		list = append(list, c)
	}
	sortCells(list)
	var out []CellDiff
	for _, c := range list {
		q := strings.Trim(strings.TrimSpace(b.Cells[c]), "_")
		a := actual[c]
		if q == a || (a == "" && (digitsOnly(q) || q == diedAt[c])) {
			continue
		}
		out = append(out, CellDiff{Cell: c, Quoted: q, Actual: a})
	}
	return out
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// sortedWarriors returns the keys of m in the fixed warrior order.
func sortedWarriors[V any](m map[WarriorID]V) []WarriorID {
	out := make([]WarriorID, 0, len(m))
	for w := range m {
		out = append(out, w)
	}
	sort.Slice(out, func(a, b int) bool { return warriorIndex(out[a]) < warriorIndex(out[b]) })
	return out
}

func warriorIndex(w WarriorID) int {
	for i, k := range KindOrder {
		if k == w.Kind() {
			return i*100 + w.Num()
		}
	}
	return 10000
}

// revealMeeting: with invisible forests, a warrior that comes next to an enemy in the forest
// reveals both: the mover's previous cell and the enemy's cell (seed: «раскрываю их
// предшествующее местоположение на поле»).
func (j *turnJudge) revealMeeting(w WarriorID, from, to Cell) {
	if !j.g.settings.ForestInvisible || !inForest(to) {
		return
	}
	for _, d := range dirs8 {
		c := step(to, d, 1)
		if !c.Valid() || !inForest(c) {
			continue
		}
		if o := j.pos.occupant(c); o != "" && o.Side() != w.Side() {
			j.ev.Revealed = append(j.ev.Revealed, Reveal{Warrior: w, Cell: from}, Reveal{Warrior: o, Cell: c})
		}
	}
}
