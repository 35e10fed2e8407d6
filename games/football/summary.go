package football

import (
	"fmt"
	"strings"

	"forumgm/game"
	"forumgm/games/football/rules"
)

var _ game.Summarizer = (*Rules)(nil)

// Columns of the final summary.
const (
	colGoals   = "голы"
	colAgainst = "пропущено"
	colYellow  = "жёлтые карточки"
	colRight   = "верных ответов"
	colAttacks = "атак"
)

// Tally folds one event into the summary: moves (advances and attacks) per player and team, the
// goals scored and let in, yellow cards, right answers; the best moment is the goal with the
// biggest margin.
func (r *Rules) Tally(s *game.Summary, ev game.Event) {
	switch e := ev.(type) {
	case *rules.Rolled:
		s.Player(e.Author, e.Team).Moves++
		s.Team(e.Team).Moves++
		if e.Yellow && !e.YellowRepeat {
			s.Add(s.Team(e.Team), colYellow, 1)
		}
	case *rules.AttackDeclared:
		p, t := s.Player(e.Author, e.Team), s.Team(e.Team)
		p.Moves++
		t.Moves++
		s.Add(p, colAttacks, 1)
	case *rules.AnswerJudged:
		if e.Correct {
			s.Add(s.Player(e.Author, e.Team), colRight, 1)
		}
	case *rules.TurnClosed:
		for _, a := range e.Results {
			if a.Outcome != rules.OutcomeGoal {
				continue
			}
			s.Add(s.Team(a.Attacker), colGoals, 1)
			s.Add(s.Team(a.Target), colAgainst, 1)
			s.Moment(a.Attack-a.Defence, fmt.Sprintf("%d-й ход: «%s» забивает «%s» (%d против %d)", e.Turn, a.Attacker, a.Target, a.Attack, a.Defence))
		}
	}
}

// Finish completes the summary from the final ranking: the result, the winners (the first
// place's players), the yellow cards as penalties.
func (r *Rules) Finish(s *game.Summary) {
	st := r.game.Snapshot()
	var top []string
	if st.Ended != nil && len(st.Ended.Ranking) > 0 {
		top = st.Ended.Ranking[0]
	}
	var places []string
	if st.Ended != nil {
		for _, p := range st.Ended.Standings {
			places = append(places, fmt.Sprintf("%d. %s (голы %d:%d, очки %d)", p.Place, p.Team, p.GoalsFor, p.GoalsAgainst, p.Points))
		}
	}
	switch len(top) {
	case 0:
		s.Result = "игра окончена"
	case 1:
		s.Result = fmt.Sprintf("первое место — «%s»", top[0])
	default:
		s.Result = fmt.Sprintf("первое место делят %s", strings.Join(quoted(top), ", "))
	}
	if len(places) > 0 {
		s.Result += "; " + strings.Join(places, "; ")
	}
	for _, t := range r.game.Teams() {
		for _, w := range top {
			if t.Name == w {
				s.Winners = append(s.Winners, append([]string{t.Captain}, t.Members...)...)
			}
		}
	}
	for _, t := range s.Teams {
		if n := t.Count[colYellow]; n > 0 {
			if s.Penalties == nil {
				s.Penalties = map[string]int{}
			}
			s.Penalties[t.Name] = n
		}
	}
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "«" + n + "»"
	}
	return out
}
