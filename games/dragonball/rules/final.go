package rules

// Final is the contract's `final` object of `forumgm replay --json`.
type Final struct {
	Round    int                    `json:"round"`
	Score    map[string]int         `json:"score"`
	Players  map[string]FinalPlayer `json:"players"`
	Dragons  map[string]FinalDragon `json:"dragons"`
	Balls    map[string]FinalBall   `json:"balls"`
	Winner   string                 `json:"winner"`
	Warnings []Warning              `json:"warnings"`
}

// FinalPlayer is a player in Final.
type FinalPlayer struct {
	Team    string  `json:"team"`
	Cell    Cell    `json:"cell"`
	Height  int     `json:"height"`
	Balls   []Color `json:"balls"`
	Status  Status  `json:"status"`
	Returns int     `json:"returns"`
}

// FinalDragon is a dragon in Final.
type FinalDragon struct {
	Head      Cell     `json:"head"`
	Body      Cell     `json:"body"`
	Tail      Cell     `json:"tail"`
	Height    int      `json:"height"`
	Volleys   int      `json:"volleys"`
	Flames    int      `json:"flames"`
	Swallowed []Color  `json:"swallowed"`
	Effects   []Effect `json:"effects"`
}

// FinalBall is a ball in Final.
type FinalBall struct {
	Status  BallStatus `json:"status"`
	Cell    Cell       `json:"cell"`
	Height  int        `json:"height"`
	Holder  string     `json:"holder"`
	Visible bool       `json:"visible"`
}

// Final is the game's state in the contract's shape.
func (g *Game) Final() Final {
	st := g.st
	f := Final{Round: st.Round, Score: map[string]int{}, Players: map[string]FinalPlayer{},
		Dragons: map[string]FinalDragon{}, Balls: map[string]FinalBall{}, Winner: st.Winner,
		Warnings: append([]Warning{}, st.Warnings...)}
	for t, team := range g.teams {
		f.Score[team.Name] = st.Score[t]
	}
	for _, p := range st.Players {
		fp := FinalPlayer{Team: g.teams[p.Team].Name, Balls: append([]Color{}, p.Balls...), Status: p.Status, Returns: p.Returns}
		if p.Status == OnField {
			fp.Cell, fp.Height, fp.Returns = p.Cell, p.Height, 0
		}
		f.Players[p.Name] = fp
	}
	for t, d := range st.Dragons {
		if d == nil {
			continue
		}
		f.Dragons[g.teams[t].Name] = FinalDragon{Head: d.Head, Body: d.Body, Tail: d.Tail(), Height: d.Height,
			Volleys: d.Volleys, Flames: d.Flames, Swallowed: append([]Color{}, d.Swallowed...),
			Effects: append([]Effect{}, d.Effects...)}
	}
	for _, b := range st.Balls {
		fb := FinalBall{Status: b.Status, Visible: b.Visible}
		switch b.Status {
		case BallHeld:
			fb.Holder = b.Holder
			if p := st.player(b.Holder); p != nil {
				fb.Cell, fb.Height = p.Cell, p.Height
			}
		case BallFree:
			fb.Cell, fb.Height = b.Cell, b.Height
		}
		f.Balls[string(b.Color)] = fb
	}
	return f
}
