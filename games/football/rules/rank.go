package rules

import "sort"

// RankBy is what the ranking orders teams by.
type RankBy string

const (
	// RankGoals: goals scored (the early end after turns_early).
	RankGoals RankBy = "goals"
	// RankFormula: goal_points × goals for − goal_points × goals against + points (the end after
	// turns_max, and the ranking while the game runs).
	RankFormula RankBy = "formula"
)

// Standing is one team's line of the table. Place is shared by ties: 1 + the number of teams
// strictly ahead (so two teams sharing 2nd place are followed by 4th).
type Standing struct {
	Place        int    `json:"place"`
	Team         string `json:"team"`
	GoalsFor     int    `json:"goals_for"`
	GoalsAgainst int    `json:"goals_against"`
	Points       int    `json:"points"`
	Result       int    `json:"result"` // the formula, whatever RankBy
}

// Score is one team's numbers for ranking.
type Score struct {
	Team         string
	GoalsFor     int
	GoalsAgainst int
	Points       int
}

// Result is goalPoints × goals for − goalPoints × goals against + points.
func (s Score) Result(goalPoints int) int {
	return goalPoints*s.GoalsFor - goalPoints*s.GoalsAgainst + s.Points
}

// Rank orders the teams (given in roster order) best first by goals scored or by the formula;
// teams with equal keys share a place and keep roster order among themselves. It returns the
// table and the contract's ranking (places from the first, each a list of the teams sharing it).
func Rank(scores []Score, by RankBy, goalPoints int) ([]Standing, [][]string) {
	key := func(s Score) int {
		if by == RankGoals {
			return s.GoalsFor
		}
		return s.Result(goalPoints)
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(scores[idx[a]]) > key(scores[idx[b]]) })
	table := make([]Standing, 0, len(scores))
	ranking := [][]string{}
	for i, k := range idx {
		s := scores[k]
		place := i + 1
		if i > 0 && key(scores[idx[i-1]]) == key(s) {
			place = table[i-1].Place
			ranking[len(ranking)-1] = append(ranking[len(ranking)-1], s.Team)
		} else {
			ranking = append(ranking, []string{s.Team})
		}
		table = append(table, Standing{Place: place, Team: s.Team, GoalsFor: s.GoalsFor,
			GoalsAgainst: s.GoalsAgainst, Points: s.Points, Result: s.Result(goalPoints)})
	}
	return table, ranking
}

// Decided reports whether places 1, 2 and 3 by goals scored are decided (the contract): the
// three teams with the most goals have different counts and the third has strictly more than the
// fourth (a missing fourth counts as lower). With fewer than three teams it is never decided.
func Decided(scores []Score) bool {
	if len(scores) < 3 {
		return false
	}
	g := make([]int, len(scores))
	for i, s := range scores {
		g[i] = s.GoalsFor
	}
	sort.Sort(sort.Reverse(sort.IntSlice(g)))
	if !(g[0] > g[1] && g[1] > g[2]) {
		return false
	}
	return len(g) == 3 || g[2] > g[3]
}
