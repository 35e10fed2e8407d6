package rules

import (
	"strings"
	"unicode"

	"forumgm/game"
)

// decideAllocation judges a side's wound allocation (a post or a private message).
func (g *Game) decideAllocation(in game.Act, a *Allocation) ([]game.Event, error) {
	st := g.st
	player, err := g.player(in.Author)
	if err != nil {
		return nil, err
	}
	side := player.Side
	if len(a.Wounds) == 0 {
		return nil, refuse(Problem{Code: CodeEmptyAllocation})
	}
	var probs []Problem
	owed := st.Owed[side]
	if owed == 0 {
		probs = append(probs, Problem{Code: CodeNothingOwed})
	}
	// projected wounds per warrior: applied + already allocated + this allocation so far
	projAtt, projDef := map[WarriorID]int{}, map[WarriorID]int{}
	for _, w := range st.Allocated[side] {
		if w.Stat == StatAttack {
			projAtt[w.Warrior] += w.Count
		} else {
			projDef[w.Warrior] += w.Count
		}
	}
	total := 0
	var out []Wound
	for _, w := range a.Wounds {
		n := w.Count
		if n == 0 {
			n = 1
		}
		p := Problem{Warrior: w.Warrior}
		ws, known := st.Warriors[w.Warrior]
		switch {
		case !w.Warrior.Valid() || !known:
			p.Code = CodeUnknownWarrior
		case w.Warrior.Side() != side:
			p.Code = CodeEnemyWarrior
		case !ws.InPlay:
			p.Code = CodeNotInPlay
		case !ws.Alive:
			p.Code = CodeWarriorDead
		case n < 0 || (w.Stat != StatAttack && w.Stat != StatDefence):
			p.Code, p.Detail = CodeAllocationBad, string(w.Stat)
		}
		if p.Code != "" {
			probs = append(probs, p)
			continue
		}
		total += n
		if w.Stat == StatAttack {
			if ws.AttackWounds+projAtt[w.Warrior]+n > maxAttack(w.Warrior.Kind()) {
				probs = append(probs, Problem{Code: CodeStatAlreadyZero, Warrior: w.Warrior, Detail: string(w.Stat)})
			}
			projAtt[w.Warrior] += n
		} else {
			if ws.DefenceWounds+projDef[w.Warrior]+n > Table[w.Warrior.Kind()].Defence {
				probs = append(probs, Problem{Code: CodeStatAlreadyZero, Warrior: w.Warrior, Detail: string(w.Stat)})
			}
			projDef[w.Warrior] += n
		}
		out = append(out, Wound{Warrior: w.Warrior, Stat: w.Stat, Count: n})
	}
	if owed > 0 && total > owed {
		probs = append(probs, Problem{Code: CodeAllocationTooMany, Count: total, Limit: owed})
	}
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	return []game.Event{&WoundsAllocated{At: in.At, Side: side, Author: in.Author, Private: in.Private,
		Wounds: out, Remaining: owed - total}}, nil
}

// NormaliseAnswer is how answers are compared: lower case, ё read as е, punctuation and quotes
// trimmed at both ends, inner spaces collapsed.
func NormaliseAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.ReplaceAll(s, "ё", "е")
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) })
	return strings.Join(strings.Fields(s), " ")
}

// decideAnswer judges an answer to today's question.
func (g *Game) decideAnswer(in game.Act, a *Answer) ([]game.Event, error) {
	st := g.st
	if st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	player, ok := g.roster.player(in.Author)
	if !ok {
		return nil, refuse(Problem{Code: CodeNotAPlayer, Detail: in.Author})
	}
	q := st.Question
	if q == nil {
		return nil, refuse(Problem{Code: CodeNoQuestion})
	}
	if _, done := q.Answers[player.Side]; done {
		return nil, refuse(Problem{Code: CodeAlreadyAnswered, Side: player.Side})
	}
	got := NormaliseAnswer(a.Text)
	correct := false
	if q.Index >= 0 && q.Index < len(g.settings.Questions) {
		for _, ans := range g.settings.Questions[q.Index].Answers {
			if got != "" && NormaliseAnswer(ans) == got {
				correct = true
			}
		}
	}
	if !correct {
		return nil, refuse(Problem{Code: CodeWrongAnswer, Detail: got})
	}
	return []game.Event{&AnswerAccepted{At: in.At, Side: player.Side, Author: in.Author, Text: a.Text,
		First: len(q.Answers) == 0}}, nil
}

// decideDeployment judges a side's private deployment; when both sides are in, the game starts.
func (g *Game) decideDeployment(in game.Act, d *Deployment) ([]game.Event, error) {
	st := g.st
	if st.Phase != PhaseDeploying {
		return nil, refuse(Problem{Code: CodeNotDeploying})
	}
	player, ok := g.roster.player(in.Author)
	if !ok {
		return nil, refuse(Problem{Code: CodeNotAPlayer, Detail: in.Author})
	}
	if !in.Private {
		return nil, refuse(Problem{Code: CodeDeploymentPublic})
	}
	side := player.Side
	var probs []Problem
	taken := map[Cell]WarriorID{}
	forest := 0
	for _, w := range sortedWarriors(d.Cells) {
		c := d.Cells[w]
		p := Problem{Warrior: w, Cell: cellPtr(c)}
		switch {
		case !w.Valid():
			p.Code = CodeUnknownWarrior
		case w.Side() != side:
			p.Code = CodeEnemyWarrior
		case !c.Valid():
			p.Code = CodeBadCell
		case (side == Saracens && c.Col > 4) || (side == Crusaders && c.Col < Size-3):
			p.Code = CodeDeployOutside
		case c == g.settings.SaracenFlag || c == g.settings.CrusaderFlag:
			p.Code, p.Other = CodeDeployCellTaken, flagMark
		case taken[c] != "":
			p.Code, p.Other = CodeDeployCellTaken, string(taken[c])
		}
		if p.Code != "" {
			probs = append(probs, p)
			continue
		}
		taken[c] = w
		if inForest(c) {
			forest++
		}
	}
	var missing []WarriorID
	for _, w := range allWarriors {
		if _, ok := d.Cells[w]; !ok && w.Side() == side {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		probs = append(probs, Problem{Code: CodeDeployMissing, Missing: missing, Count: len(missing)})
	}
	if forest > maxForest {
		probs = append(probs, Problem{Code: CodeForestFull, Count: forest, Limit: maxForest})
	}
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	cells := map[WarriorID]Cell{}
	for w, c := range d.Cells {
		cells[w] = c
	}
	evs := []game.Event{&DeploymentReceived{At: in.At, Side: side, Author: in.Author, Cells: cells}}
	if other, ok := st.Deployments[side.Other()]; ok {
		all := cloneMap(other)
		for w, c := range cells {
			all[w] = c
		}
		evs = append(evs, &GameStarted{At: in.At, Cells: all})
	}
	return evs, nil
}

// autoAllocate gives n unallocated wounds of side s by the published rule: one at a time, to
// the living warrior (commanders last) with the highest defence left after every wound already
// allocated, ties to the first in the fixed order (р а л с к ш в н, by number), taking defence;
// when every defence is 0, to the one with the highest sword left, taking attack.
func (g *Game) autoAllocate(s Side, n int, projAtt, projDef map[WarriorID]int) []Wound {
	var out []Wound
	for i := 0; i < n; i++ {
		var best WarriorID
		bestVal, stat := 0, StatDefence
		for _, pass := range []Stat{StatDefence, StatAttack} {
			for _, cmd := range []bool{false, true} {
				for _, w := range allWarriors {
					ws := g.st.Warriors[w]
					if w.Side() != s || !ws.InPlay || !ws.Alive || w.Commander() != cmd {
						continue
					}
					var v int
					if pass == StatDefence {
						v = Table[w.Kind()].Defence - ws.DefenceWounds - projDef[w]
					} else {
						v = Table[w.Kind()].Sword - ws.AttackWounds - projAtt[w]
					}
					if v > bestVal {
						best, bestVal, stat = w, v, pass
					}
				}
				if best != "" {
					break
				}
			}
			if best != "" {
				break
			}
		}
		if best == "" {
			break // nobody left to take it
		}
		if stat == StatDefence {
			projDef[best]++
		} else {
			projAtt[best]++
		}
		if k := len(out) - 1; k >= 0 && out[k].Warrior == best && out[k].Stat == stat {
			out[k].Count++
		} else {
			out = append(out, Wound{Warrior: best, Stat: stat, Count: 1})
		}
	}
	return out
}
