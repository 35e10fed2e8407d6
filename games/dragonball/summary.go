package dragonball

import (
	"fmt"
	"slices"

	"forumgm/game"
	"forumgm/games/dragonball/rules"
)

var _ game.Summarizer = (*Rules)(nil)

// Columns of the final summary.
const (
	colPoints  = "очки"
	colCaught  = "поймано мячей"
	colStolen  = "отобрано мячей"
	colFalls   = "падений"
	colEaten   = "проглочен драконом"
	colWarning = "предупреждений"
)

// ballWords are the balls' names in the accusative ("чёрный мяч").
func ballWord(c rules.Color) string { return string(c) + " мяч" }

// Tally folds one event into the summary: orders per player, the catches, steals and falls of
// each round, the points each swallowed ball gave (the best moment: the costliest swallow).
func (r *Rules) Tally(s *game.Summary, ev game.Event) {
	switch e := ev.(type) {
	case *rules.OrdersAccepted:
		if e.Orders != nil || len(e.Accepted) > 0 || len(e.AcceptedDragon) > 0 {
			s.Player(e.Author, r.teamOf(e.Author)).Moves++
		}
	case *rules.RoundResolved:
		var all []rules.Happening
		for _, t := range e.Tacts {
			all = append(all, t...)
		}
		all = append(all, e.After...)
		for _, h := range all {
			switch h.What {
			case rules.WCaught:
				s.Add(s.Player(h.Player, r.teamOf(h.Player)), colCaught, 1)
			case rules.WStolen:
				s.Add(s.Player(h.Player, r.teamOf(h.Player)), colStolen, 1)
			case rules.WFell:
				s.Add(s.Player(h.Player, r.teamOf(h.Player)), colFalls, 1)
			case rules.WPlayerEaten:
				s.Add(s.Player(h.Player, r.teamOf(h.Player)), colEaten, 1)
			case rules.WWarning:
				if h.Team != "" {
					s.Add(s.Team(h.Team), colWarning, 1)
				}
			case rules.WBallSwallowed:
				if h.Other != "" && h.Count > 0 {
					s.Moment(h.Count, fmt.Sprintf("раунд %d: дракон команды «%s» проглотил %s — %d %s команде «%s»",
						e.Round, h.Team, ballWord(h.Ball), h.Count, plural(h.Count, "очко", "очка", "очков"), h.Other))
				}
			}
		}
	}
}

// Finish completes the summary from the final state: the score, the result, the winners.
func (r *Rules) Finish(s *game.Summary) {
	st := r.game.State()
	teams := r.game.Teams()
	s.MovesWord = "приказов"
	for i, t := range teams {
		l := s.Team(t.Name)
		for _, p := range s.Players {
			if p.Team == t.Name {
				l.Moves += p.Moves
			}
		}
		s.Add(l, colPoints, 0)
		l.Count[colPoints] = st.Score[i]
	}
	// The points column first.
	s.Columns = append([]string{colPoints}, slices.DeleteFunc(s.Columns, func(c string) bool { return c == colPoints })...)
	score := fmt.Sprintf("%s %d — %s %d", teams[0].Name, st.Score[0], teams[1].Name, st.Score[1])
	switch st.Winner {
	case "draw", "":
		s.Result = "ничья, " + score
	default:
		s.Result = fmt.Sprintf("победа команды «%s», %s", st.Winner, score)
		for _, t := range teams {
			if t.Name == st.Winner {
				s.Winners = append(s.Winners, t.Players...)
			}
		}
	}
	for _, t := range s.Teams {
		if n := t.Count[colWarning]; n > 0 {
			if s.Penalties == nil {
				s.Penalties = map[string]int{}
			}
			s.Penalties[t.Name] += n
		}
	}
}

// teamOf is a player's team name ("" when not in the roster).
func (r *Rules) teamOf(name string) string {
	for _, t := range r.game.Teams() {
		if contains(t.Players, name) {
			return t.Name
		}
	}
	return ""
}

// plural is the Russian form of a word for n.
func plural(n int, one, few, many string) string {
	switch {
	case n%10 == 1 && n%100 != 11:
		return one
	case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
		return few
	}
	return many
}

var _ game.Lengthener = (*Rules)(nil)

// Length is the game's length in rounds.
func (r *Rules) Length() (int, [3]string) {
	return r.game.Settings().Rounds, [3]string{"раунд", "раунда", "раундов"}
}

// SetLength is the intent making the game n rounds long.
func (r *Rules) SetLength(n int) (any, error) { return &rules.SetRounds{N: n}, nil }
