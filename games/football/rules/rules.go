package rules

import (
	"fmt"
	"sort"
	"time"

	"forumgm/game"
)

// Decide judges one input: a *Roll, *Attack, *Defence, *Points, *Answer or *EndGame (values are
// accepted too). It never changes the state; a refusal is a *Refusal and then no number is used
// and the team's move is not spent. Rules that need chance (a question's pick, a new mapping when
// the last number is used) draw from in.Rand and record the draws in the event; without a Rand
// they fail with ErrNoRand.
func (g *Game) Decide(in game.Act) ([]game.Event, error) {
	var ev game.Event
	var err error
	switch b := in.Body.(type) {
	case *Roll:
		ev, err = g.decideRoll(in, b)
	case Roll:
		ev, err = g.decideRoll(in, &b)
	case *Attack:
		ev, err = g.decideAttack(in, b)
	case Attack:
		ev, err = g.decideAttack(in, &b)
	case *Defence:
		ev, err = g.decideDefence(in, b)
	case Defence:
		ev, err = g.decideDefence(in, &b)
	case *Points:
		ev, err = g.decidePoints(in, b)
	case Points:
		ev, err = g.decidePoints(in, &b)
	case *Answer:
		return g.answerAndEnd(in, b)
	case Answer:
		return g.answerAndEnd(in, &b)
	case *Moves:
		return g.decideMoves(in, b)
	case Moves:
		return g.decideMoves(in, &b)
	case *EndGame:
		ev, err = g.decideEnd(in, b)
	case EndGame:
		ev, err = g.decideEnd(in, &b)
	case *ReplacePlayer:
		return g.decideReplace(in, b)
	case *RemovePlayer:
		return g.decideRemove(in, b)
	default:
		return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: fmt.Sprintf("%T", in.Body)})
	}
	if err != nil {
		return nil, err
	}
	return []game.Event{ev}, nil
}

// player is the author's team while the game runs; otherwise the refusal saying why not.
// Answers are judged while the game is ending (the final table waits for them).
func (g *Game) player(in game.Act, answering bool) (*TeamState, Team, error) {
	switch g.st.Phase {
	case PhaseNew:
		return nil, Team{}, refuse(Problem{Code: CodeNotStarted})
	case PhaseOver:
		return nil, Team{}, refuse(Problem{Code: CodeGameOver})
	case PhaseEnding:
		if !answering {
			return nil, Team{}, refuse(Problem{Code: CodeGameOver})
		}
	}
	i, ok := g.member[normName(in.Author)]
	if !ok {
		return nil, Team{}, refuse(Problem{Code: CodeNotAPlayer, Detail: in.Author})
	}
	r := g.roster[i]
	return &g.st.Teams[g.team[TeamKey(r.Name)]], r, nil
}

// window checks that the current turn's window is open at `at`: open <= at < close. A post
// before the window or after it is refused with the next window's opening.
func (g *Game) window(at time.Time) error {
	st := g.st
	if st.Open {
		open, close := g.clk.open(st.Turn), g.clk.close(st.Turn)
		if !at.Before(open) && at.Before(close) {
			return nil
		}
		if at.Before(open) {
			return g.closed(st.Turn)
		}
		return g.closed(st.Turn + 1)
	}
	next := st.Turn + 1
	if next <= len(g.clk.opens) && !at.Before(g.clk.open(next)) && at.Before(g.clk.close(next)) {
		return fmt.Errorf("football: turn %d opens at %s but was not opened: call Tick first", next,
			g.clk.open(next).Format(time.RFC3339))
	}
	return g.closed(next)
}

func (g *Game) closed(next int) error {
	p := Problem{Code: CodeWindowClosed}
	if next <= len(g.clk.opens) && !(g.st.Checked && g.st.Decided) {
		t := g.clk.open(next)
		p.Next, p.Turn = &t, next
	}
	return refuse(p)
}

// numberProblems checks a named number: on the table, not used on the current mapping.
func (g *Game) numberProblems(n int, line string) []Problem {
	if n < 1 || n > Numbers {
		return []Problem{{Code: CodeNumberOutOfRange, Number: n, Line: line}}
	}
	if g.st.used[n] {
		return []Problem{{Code: CodeNumberUsed, Number: n, Count: Numbers - len(g.st.Used), Line: line}}
	}
	return nil
}

// faceOf is the face behind n and, when n is the last free number, the next mapping.
func (g *Game) faceOf(n int, rnd *game.Rand) (epoch, face int, redraw *Dice, err error) {
	st := g.st
	epoch, face = st.Dice.Epoch, st.Dice.Face(n)
	if len(st.Used)+1 == Numbers {
		if rnd == nil {
			return 0, 0, nil, ErrNoRand
		}
		redraw = drawDice(rnd, epoch+1, g.settings.DieFaces, nil, "")
	}
	return epoch, face, redraw, nil
}

func (g *Game) decideRoll(in game.Act, b *Roll) (game.Event, error) {
	t, team, err := g.player(in, false)
	if err != nil {
		return nil, err
	}
	if in.Private {
		return nil, refuse(Problem{Code: CodeMustBePublic, Team: t.Name, Line: b.Line})
	}
	if err := g.window(in.At); err != nil {
		return nil, err
	}
	var probs []Problem
	if t.Moved != "" {
		probs = append(probs, Problem{Code: CodeAlreadyMoved, Team: t.Name, Detail: t.Moved, Line: b.Line})
	}
	probs = append(probs, g.numberProblems(b.Number, b.Line)...)
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	st := g.st
	ev := &Rolled{At: in.At, Author: in.Author, Team: t.Name, Turn: st.Turn, Number: b.Number, From: t.Cell}
	ev.Epoch, ev.Face = st.Dice.Epoch, st.Dice.Face(b.Number)
	ev.To = g.board.Advance(t.Cell, ev.Face)
	ev.Laps = g.board.Laps(t.Cell, ev.Face, t.Start)
	ev.Lap = t.Lap + ev.Laps
	ev.Cell = g.board.Cell(ev.To)
	ev.Points = t.Points
	if ev.Cell.Question {
		if l, ok := t.QuestionLap[ev.To]; ok && l == ev.Lap {
			ev.QuestionRepeat = true
		} else if free := g.freeQuestions(); len(free) == 0 {
			ev.NoQuestions = true
		} else {
			if in.Rand == nil {
				return nil, ErrNoRand
			}
			idx := free[in.Rand.Intn(len(free))]
			q := g.settings.Questions[idx]
			ev.Question = &QuestionSent{Index: idx, Text: q.Text, Topic: q.Topic, Captain: team.Captain,
				Deadline: in.At.Add(g.clk.question)}
		}
	}
	if ev.Cell.Yellow {
		if l, ok := t.YellowLap[ev.To]; ok && l == ev.Lap {
			ev.YellowRepeat = true
		} else {
			ev.Yellow = true
			ev.Points = g.lose(t.Points, 1)
			ev.Lost = t.Points - ev.Points
		}
	}
	ev.Targets = g.targetsFrom(t, ev.To)
	if len(st.Used)+1 == Numbers {
		if in.Rand == nil {
			return nil, ErrNoRand
		}
		ev.Redraw = drawDice(in.Rand, st.Dice.Epoch+1, g.settings.DieFaces, nil, "")
	}
	if in.Rand != nil {
		ev.Draws = in.Rand.Take()
	}
	return ev, nil
}

// lose takes n points from a balance by a penalty: not below 0 when floor_points is on.
func (g *Game) lose(balance, n int) int {
	b := balance - n
	if g.settings.FloorPoints && b < 0 {
		b = 0
		if balance < 0 {
			b = balance
		}
	}
	return b
}

// freeQuestions lists the bank's questions not asked yet, in bank order.
func (g *Game) freeQuestions() []int {
	var out []int
	for i := range g.settings.Questions {
		if !g.st.asked[i] {
			out = append(out, i)
		}
	}
	return out
}

func (g *Game) decideAttack(in game.Act, b *Attack) (game.Event, error) {
	t, team, err := g.player(in, false)
	if err != nil {
		return nil, err
	}
	if in.Private {
		return nil, refuse(Problem{Code: CodeMustBePublic, Team: t.Name, Line: b.Line})
	}
	if err := g.window(in.At); err != nil {
		return nil, err
	}
	st := g.st
	var probs []Problem
	if t.Moved != "" {
		probs = append(probs, Problem{Code: CodeAlreadyMoved, Team: t.Name, Detail: t.Moved, Line: b.Line})
	}
	if !g.board.Cell(t.Cell).AttackFor(t.Group) {
		probs = append(probs, Problem{Code: CodeNotAttackCell, Team: t.Name, Cell: t.Cell,
			Cells: g.attackCells(t.Group), Group: t.Group, Line: b.Line})
	}
	var target *TeamState
	switch {
	case TeamKey(b.Target) == "":
		probs = append(probs, Problem{Code: CodeNoTarget, Team: t.Name, Line: b.Line})
	default:
		i, ok := g.team[TeamKey(b.Target)]
		if !ok {
			probs = append(probs, Problem{Code: CodeUnknownTeam, Team: t.Name, Target: b.Target, Line: b.Line})
			break
		}
		target = &st.Teams[i]
		switch {
		case target.Name == t.Name:
			probs = append(probs, Problem{Code: CodeOwnTeam, Team: t.Name, Line: b.Line})
		case target.Group != t.Group:
			probs = append(probs, Problem{Code: CodeTargetNotInGroup, Team: t.Name, Target: target.Name,
				Group: t.Group, Teams: g.groupRivals(t), Line: b.Line})
		default:
			if a := st.attackOn(target.Name); a != nil {
				probs = append(probs, Problem{Code: CodeTargetTaken, Team: t.Name, Target: target.Name,
					Other: a.Attacker, Line: b.Line})
			}
		}
	}
	probs = append(probs, g.numberProblems(b.Number, b.Line)...)
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	ev := &AttackDeclared{At: in.At, Author: in.Author, Team: t.Name, Target: target.Name, Turn: st.Turn,
		Number: b.Number, Captain: team.Captain, Points: t.Points, Close: g.clk.close(st.Turn)}
	ev.Epoch, ev.Face, ev.Redraw, err = g.faceOf(b.Number, in.Rand)
	if err != nil {
		return nil, err
	}
	if in.Rand != nil {
		ev.Draws = in.Rand.Take()
	}
	return ev, nil
}

func (g *Game) decideDefence(in game.Act, b *Defence) (game.Event, error) {
	t, team, err := g.player(in, false)
	if err != nil {
		return nil, err
	}
	if in.Private {
		return nil, refuse(Problem{Code: CodeMustBePublic, Team: t.Name, Line: b.Line})
	}
	if err := g.window(in.At); err != nil {
		return nil, err
	}
	a := g.st.attackOn(t.Name)
	var probs []Problem
	switch {
	case a == nil:
		probs = append(probs, Problem{Code: CodeNotAttacked, Team: t.Name, Line: b.Line})
	case a.Defended:
		probs = append(probs, Problem{Code: CodeAlreadyDefended, Team: t.Name, Number: a.DefenceNumber, Line: b.Line})
	}
	probs = append(probs, g.numberProblems(b.Number, b.Line)...)
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	ev := &DefenceRolled{At: in.At, Author: in.Author, Team: t.Name, Attacker: a.Attacker, Turn: g.st.Turn,
		Number: b.Number, Captain: team.Captain, Points: t.Points, Close: g.clk.close(g.st.Turn)}
	ev.Epoch, ev.Face, ev.Redraw, err = g.faceOf(b.Number, in.Rand)
	if err != nil {
		return nil, err
	}
	if in.Rand != nil {
		ev.Draws = in.Rand.Take()
	}
	return ev, nil
}

func (g *Game) decidePoints(in game.Act, b *Points) (game.Event, error) {
	t, team, err := g.player(in, false)
	if err != nil {
		return nil, err
	}
	if !in.Private {
		return nil, refuse(Problem{Code: CodeMustBePrivate, Team: t.Name, Line: b.Line})
	}
	if normName(team.Captain) != normName(in.Author) {
		return nil, refuse(Problem{Code: CodeNotCaptain, Team: t.Name, Other: team.Captain, Line: b.Line})
	}
	if err := g.window(in.At); err != nil {
		return nil, err
	}
	if b.Count < 1 {
		return nil, refuse(Problem{Code: CodeBadPoints, Team: t.Name, Count: b.Count, Line: b.Line})
	}
	var a *TurnAttack
	var added, face int
	switch b.Role {
	case RoleAttack:
		if a = g.st.attackBy(t.Name); a == nil {
			return nil, refuse(Problem{Code: CodeNoAttackRoll, Team: t.Name, Line: b.Line})
		}
		added, face = a.Points, a.Face
	case RoleDefence:
		if a = g.st.attackOn(t.Name); a == nil || !a.Defended {
			return nil, refuse(Problem{Code: CodeNoDefenceRoll, Team: t.Name, Line: b.Line})
		}
		added, face = a.DefencePoints, a.DefenceFace
	default:
		return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: "points role " + string(b.Role)})
	}
	if t.Points <= 0 {
		return nil, refuse(Problem{Code: CodeNoPoints, Team: t.Name, Line: b.Line})
	}
	spent := min(b.Count, t.Points)
	return &PointsSpent{At: in.At, Author: in.Author, Team: t.Name, Role: b.Role, Asked: b.Count, Spent: spent,
		Added: added + spent, Face: face, Balance: t.Points - spent, Close: g.clk.close(g.st.Turn)}, nil
}

func (g *Game) decideAnswer(in game.Act, b *Answer) (game.Event, error) {
	t, team, err := g.player(in, true)
	if err != nil {
		return nil, err
	}
	if !in.Private {
		return nil, refuse(Problem{Code: CodeMustBePrivate, Team: t.Name})
	}
	if normName(team.Captain) != normName(in.Author) {
		return nil, refuse(Problem{Code: CodeNotCaptain, Team: t.Name, Other: team.Captain})
	}
	if len(t.Questions) == 0 {
		if !t.LastDeadline.IsZero() && !in.At.Before(t.LastDeadline) {
			d := t.LastDeadline
			return nil, refuse(Problem{Code: CodeAnswerLate, Team: t.Name, Next: &d})
		}
		return nil, refuse(Problem{Code: CodeNoQuestion, Team: t.Name})
	}
	q := t.Questions[0]
	if !in.At.Before(q.Deadline) {
		d := q.Deadline
		return nil, refuse(Problem{Code: CodeAnswerLate, Team: t.Name, Next: &d})
	}
	bank := g.settings.Questions[q.Index]
	ev := &AnswerJudged{At: in.At, Author: in.Author, Team: t.Name, Index: q.Index, Question: q.Text,
		Answer: b.Text, Accepted: append([]string(nil), bank.Answers...), Balance: t.Points}
	if key := AnswerKey(b.Text); key != "" {
		for _, a := range bank.Answers {
			if AnswerKey(a) == key {
				ev.Correct = true
				break
			}
		}
	}
	if ev.Correct {
		ev.Gained = 1
		ev.Balance++
	}
	return ev, nil
}

// decideMoves judges a post's intents in order on a copy of the game: all accepted, or a refusal
// listing every problem (a refused intent is skipped, the later ones judged without it).
func (g *Game) decideMoves(in game.Act, b *Moves) ([]game.Event, error) {
	if len(b.Intents) == 1 {
		in.Body = b.Intents[0]
		return g.Decide(in)
	}
	w := g.clone()
	var evs []game.Event
	var probs []Problem
	for _, it := range b.Intents {
		if it == nil {
			return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: "nil intent in Moves"})
		}
		in.Body = it
		got, err := w.Decide(in)
		if err != nil {
			r, ok := AsRefusal(err)
			if !ok {
				return nil, err
			}
			probs = append(probs, r.Problems...)
			continue
		}
		for _, ev := range got {
			if err := w.Apply(ev); err != nil {
				return nil, err
			}
		}
		evs = append(evs, got...)
	}
	if len(probs) > 0 {
		return nil, refuse(probs...)
	}
	if len(evs) == 0 {
		return nil, refuse(Problem{Code: CodeUnsupportedBody, Detail: "no intents"})
	}
	return evs, nil
}

// answerAndEnd judges an answer; when the game is ending and this was the last open question,
// the final table follows at once.
func (g *Game) answerAndEnd(in game.Act, b *Answer) ([]game.Event, error) {
	ev, err := g.decideAnswer(in, b)
	if err != nil {
		return nil, err
	}
	if g.st.Phase != PhaseEnding || len(g.deadlines()) > 1 {
		return []game.Event{ev}, nil
	}
	w := g.clone()
	if err := w.Apply(ev); err != nil {
		return nil, err
	}
	reason := EndTurns
	if w.st.Decided {
		reason = EndEarly
	}
	return []game.Event{ev, w.end(in.At, reason)}, nil
}

func (g *Game) decideEnd(in game.Act, b *EndGame) (game.Event, error) {
	if g.st.Phase == PhaseOver {
		return nil, refuse(Problem{Code: CodeGameOver})
	}
	ev := g.end(in.At, EndModerator) // before the start's draws too: nobody posted, nothing was drawn
	ev.Author, ev.Detail = in.Author, b.Reason
	return ev, nil
}

// end is the final table at `at`: by goals after an early end, else by the formula; every
// mapping revealed.
func (g *Game) end(at time.Time, reason string) *GameEnded {
	by := RankFormula
	if reason == EndEarly {
		by = RankGoals
	}
	table, ranking := Rank(g.Scores(), by, g.settings.GoalPoints)
	return &GameEnded{At: at, Reason: reason, RankBy: by, Ranking: ranking, Standings: table,
		GoalPoints: g.settings.GoalPoints, Reveal: append([]Dice(nil), g.st.Epochs...)}
}

// closeTurn resolves the open turn's attacks in the order accepted, and checks the end.
func (g *Game) closeTurn(at time.Time) *TurnClosed {
	st := g.st
	ev := &TurnClosed{At: at, Turn: st.Turn}
	balance := map[string]int{}
	goals := map[string][2]int{}
	for _, t := range st.Teams {
		balance[t.Name] = t.Points
		goals[t.Name] = [2]int{t.GoalsFor, t.GoalsAgainst}
	}
	for _, a := range st.Attacks {
		r := AttackResult{Attacker: a.Attacker, Target: a.Target, AttackFace: a.Face, AttackPoints: a.Points,
			Attack: a.Face + a.Points, Defended: a.Defended}
		if a.Defended {
			r.DefenceFace, r.DefencePoints, r.Defence = a.DefenceFace, a.DefencePoints, a.DefenceFace+a.DefencePoints
		}
		switch {
		case r.Attack > r.Defence:
			r.Outcome = OutcomeGoal
			ga, gd := goals[a.Attacker], goals[a.Target]
			ga[0]++
			gd[1]++
			goals[a.Attacker], goals[a.Target] = ga, gd
		case r.Attack == r.Defence:
			r.Outcome = OutcomeNoGoal
		default:
			r.Outcome = OutcomeSaved
			nb := g.lose(balance[a.Attacker], 1)
			r.Penalty = balance[a.Attacker] - nb
			balance[a.Attacker] = nb
		}
		r.Balance = balance[a.Attacker]
		ev.Results = append(ev.Results, r)
	}
	scores := make([]Score, len(st.Teams))
	for i, t := range st.Teams {
		scores[i] = Score{Team: t.Name, GoalsFor: goals[t.Name][0], GoalsAgainst: goals[t.Name][1], Points: balance[t.Name]}
	}
	if st.Turn == g.settings.TurnsEarly && !st.Checked {
		ev.Checked = true
		ev.Decided = Decided(scores)
	}
	ev.Ending = ev.Decided || st.Turn >= len(g.clk.opens)
	by := RankFormula
	if ev.Decided {
		by = RankGoals
	}
	ev.Standings, _ = Rank(scores, by, g.settings.GoalPoints)
	return ev
}

// deadlines lists every open question's deadline, sorted.
func (g *Game) deadlines() []time.Time {
	var out []time.Time
	for _, t := range g.st.Teams {
		for _, q := range t.Questions {
			out = append(out, q.Deadline)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}
