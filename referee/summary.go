package referee

import (
	"fmt"
	"strings"
	"time"

	"forumgm/game"
)

// The final summary (issue 22): the referee folds every game event into a running summary
// through the game's Summarizer; when the game ends it completes it, keeps it in the log
// (SummaryEvent: `forumgm stats` reads it from the store, no config needed) and posts it right
// after the game's closing post (the result and the seed; forumgm verify finds the seed in the
// bot's last post that reveals it).

// KindSummary is the event kind of a finished game's summary.
const KindSummary = "judge.summary"

// SummaryEvent is a finished game's story in numbers.
type SummaryEvent struct {
	At      time.Time    `json:"at"`
	Game    string       `json:"game"` // the game's Russian title
	Summary game.Summary `json:"summary"`
}

func (*SummaryEvent) EventKind() string { return KindSummary }

// tallyEvent folds one game event into the running summary.
func (r *Referee) tallyEvent(ev game.Event) {
	if sm, ok := game.As[game.Summarizer](r.rules); ok {
		sm.Tally(&r.tally, ev)
	}
}

// retally folds the running summary again from the log (after an undo), skipping undone events.
func (r *Referee) retally() {
	r.tally = game.Summary{}
	for i, e := range r.log {
		if !r.undone[i] && !refereeEvent(e) {
			r.tallyEvent(e)
		}
	}
}

// summary is the finished game's summary event, or nil when the game has no Summarizer.
func (r *Referee) summary(at time.Time) *SummaryEvent {
	sm, ok := game.As[game.Summarizer](r.rules)
	if !ok {
		return nil
	}
	s := r.tally
	s.Players = append([]game.Line(nil), s.Players...)
	s.Teams = append([]game.Line(nil), s.Teams...)
	s.Columns = append([]string(nil), s.Columns...)
	sm.Finish(&s)
	return &SummaryEvent{At: at, Game: r.rules.Title(), Summary: s}
}

// Summary is the running summary of the game so far (completed when the game is over).
func (r *Referee) Summary() game.Summary {
	if e := r.summary(time.Time{}); e != nil {
		return e.Summary
	}
	return game.Summary{}
}

// SummaryText renders a summary as the thread shows it.
func SummaryText(title string, s game.Summary) (string, error) {
	word := s.MovesWord
	if word == "" {
		word = "ходов"
	}
	row := func(l game.Line) string {
		parts := []string{fmt.Sprintf("%s %d", word, l.Moves)}
		for _, c := range s.Columns {
			if n := l.Count[c]; n != 0 {
				parts = append(parts, fmt.Sprintf("%s %d", c, n))
			}
		}
		return strings.Join(parts, ", ")
	}
	type line struct{ Name, Team, Numbers string }
	var players, teams []line
	for _, l := range s.Players {
		players = append(players, line{l.Name, l.Team, row(l)})
	}
	for _, l := range s.Teams {
		teams = append(teams, line{l.Name, "", row(l)})
	}
	return Say("summary", map[string]any{"Title": title, "Result": s.Result, "Players": players, "Teams": teams, "Best": s.Best})
}
