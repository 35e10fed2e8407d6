package rules

// TeamFinal is one team in the replay's "final" object (the contract, `forumgm replay --json`).
type TeamFinal struct {
	Group        int `json:"group"`
	Cell         int `json:"cell"`
	Lap          int `json:"lap"`
	Points       int `json:"points"`
	GoalsFor     int `json:"goals_for"`
	GoalsAgainst int `json:"goals_against"`
	Result       int `json:"result"`
}

// Final is the replay's "final" object: the last turn opened, every team, the numbers named on
// the current mapping in order, the ranking (places from the first, ties sharing one) and whether
// the game has ended.
type Final struct {
	Turn     int                  `json:"turn"`
	Teams    map[string]TeamFinal `json:"teams"`
	Used     []int                `json:"used"`
	Ranking  [][]string           `json:"ranking"`
	Finished bool                 `json:"finished"`
}

// Final is the game in the contract's `replay --json` "final" shape. Before the end the ranking
// is by the formula; after it, the final table's.
func (g *Game) Final() Final {
	f := Final{Turn: g.st.Turn, Teams: map[string]TeamFinal{}, Used: g.Used(), Finished: g.st.Phase == PhaseOver}
	for _, t := range g.OnField() {
		s := Score{GoalsFor: t.GoalsFor, GoalsAgainst: t.GoalsAgainst, Points: t.Points}
		f.Teams[t.Name] = TeamFinal{Group: t.Group, Cell: t.Cell, Lap: t.Lap, Points: t.Points,
			GoalsFor: t.GoalsFor, GoalsAgainst: t.GoalsAgainst, Result: s.Result(g.settings.GoalPoints)}
	}
	_, f.Ranking = g.Standings()
	if f.Ranking == nil {
		f.Ranking = [][]string{}
	}
	return f
}
