package crusade

import (
	"fmt"
	"strings"

	"forumgm/game"
	"forumgm/games/crusade/rules"
)

var _ game.Summarizer = (*Rules)(nil)

// Columns of the final summary.
const (
	colKilled  = "убито врагов"
	colLost    = "потеряно воинов"
	colWounds  = "штрафных ранений"
	colIdle    = "дней без хода"
	colAnswers = "ответов на вопрос дня"
)

// Tally folds one event into the summary: turns per player and side, the enemies each turn
// killed, the penalty wounds each side got (sloppiness, time limits, the daily close), idle days,
// the question answered first; the best moment is the turn that killed most (the winning turn
// above all), named by its player and time (players count their moves per warrior, so the game's
// own turn numbers are not shown to them).
func (r *Rules) Tally(s *game.Summary, ev game.Event) {
	switch e := ev.(type) {
	case *rules.TurnPlayed:
		side := sideWord(e.Side, 0)
		p, t := s.Player(e.Author, side), s.Team(side)
		p.Moves++
		t.Moves++
		killed := 0
		var names []string
		for _, rm := range e.Removed {
			if rm.Warrior.Side() != e.Side {
				killed++
				names = append(names, string(rm.Warrior))
			}
		}
		if killed > 0 {
			s.Add(p, colKilled, killed)
			s.Add(t, colKilled, killed)
			s.Add(s.Team(sideWord(e.Side.Other(), 0)), colLost, killed)
		}
		if e.Wounds > 0 {
			s.Add(t, colWounds, e.Wounds)
		}
		switch {
		case e.Victory != nil:
			s.Moment(1000, fmt.Sprintf("%s, ход %s: %s", e.Author, e.At.In(r.game.Location()).Format("02.01 15:04"), victoryWords(e.Victory)))
		case killed > 0:
			s.Moment(killed, fmt.Sprintf("%s, ход %s: %s %s", e.Author, e.At.In(r.game.Location()).Format("02.01 15:04"), plural(killed, "убит", "убиты", "убиты"), strings.Join(names, ", ")))
		}
	case *rules.TimeLimitExceeded:
		s.Add(s.Team(sideWord(e.Side, 0)), colWounds, e.Wounds)
	case *rules.DayClosed:
		for _, side := range []rules.Side{rules.Crusaders, rules.Saracens} {
			if n := e.Penalties[side]; n > 0 {
				s.Add(s.Team(sideWord(side, 0)), colWounds, n)
			}
		}
		for _, d := range e.Died {
			s.Add(s.Team(sideWord(d.Warrior.Side(), 0)), colLost, 1)
			s.Add(s.Team(sideWord(d.Warrior.Side().Other(), 0)), colKilled, 1)
		}
		for _, p := range e.Idle {
			s.Add(s.Player(p.Name, sideWord(p.Side, 0)), colIdle, 1)
		}
		if e.Victory != nil {
			s.Moment(1000, fmt.Sprintf("закрытие дня %s: %s", e.Day, victoryWords(e.Victory)))
		}
	case *rules.AnswerAccepted:
		if e.First {
			s.Add(s.Player(e.Author, sideWord(e.Side, 0)), colAnswers, 1)
		}
	}
}

// Finish completes the summary: the result, the winners, the penalties by side.
func (r *Rules) Finish(s *game.Summary) {
	w := r.game.Winner()
	switch w {
	case rules.Crusaders, rules.Saracens:
		s.Result = "победа: " + sideWord(w, 0)
		if v := r.game.Victory(); v != nil {
			s.Result += " — " + victoryWords(v)
		}
		for _, p := range r.game.Roster().Players {
			if p.Side == w {
				s.Winners = append(s.Winners, p.Name)
			}
		}
	case rules.Draw:
		s.Result = "ничья"
	default:
		s.Result = "игра окончена без победителя"
	}
	for _, t := range s.Teams {
		if n := t.Count[colWounds]; n > 0 {
			if s.Penalties == nil {
				s.Penalties = map[string]int{}
			}
			s.Penalties[t.Name] = n
		}
	}
}

// victoryWords says how a victory was won.
func victoryWords(v *rules.Victory) string {
	switch v.Reason {
	case rules.VictoryFlag:
		return fmt.Sprintf("%s захватил вражеский флаг", v.Warrior)
	case rules.VictoryCommander:
		return fmt.Sprintf("убит командир %s", v.Warrior)
	case rules.VictoryKills:
		return "убито 14 вражеских воинов"
	}
	return "решение ведущего"
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
