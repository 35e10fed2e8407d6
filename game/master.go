package game

import (
	"fmt"
	"strings"
	"time"
)

// The game master's work around the rules (issue 22): the moderator's powers over time, the
// reminders before a deadline, and the final summary. Each is an optional part of Rules; the
// shared code that uses them (referee, daemon) names no game.

// Lengthener is Rules whose length a moderator may change (Dragonball's rounds, football's
// turns): the game is extended or shortened by the moderator's command.
type Lengthener interface {
	// Length is the game's length now, in the game's unit, with the unit's Russian words for 1,
	// 2 and 5 of it ("раунд", "раунда", "раундов").
	Length() (n int, unit [3]string)
	// SetLength is the engine intent that makes the game n units long; an error (a typed
	// refusal) when n cannot be (shorter than what has been played).
	SetLength(n int) (any, error)
}

// Debt is what one player owes before a deadline: the reminders' subject.
type Debt struct {
	Player   string    // the forum user reminded
	Deadline time.Time // when it is due (game time: the rules' own timer)
	// Key names the deadline and the debt, stable for the game (a player is reminded at most
	// once per key): "round-3", "close-2026-12-02".
	Key string
	// What is the Russian words for what is owed ("приказы на раунд 3"); never a secret of
	// the rules (another team's orders, the die table).
	What string
	// Lead, when set and shorter than the configured lead time, is how long before Deadline
	// this debt is reminded (a short time limit: the configured hours would come before it
	// began).
	Lead time.Duration
}

// Debtor is Rules that can say who owes what before a deadline (Crusade: a move on a day that
// would cost an idle-day wound, wounds to allocate; Dragonball: orders for the round; football:
// the team's move in a closing window): the daemon reminds exactly those players, once per Debt
// key, a lead time before Deadline.
type Debtor interface {
	// Owed is every debt open at now (game time).
	Owed(now time.Time) []Debt
}

// Line is one row of a final summary's table: a player or a team with its numbers.
type Line struct {
	Name  string         `json:"name"`            // the player's forum name or the team's Russian name
	Team  string         `json:"team,omitempty"`  // the player's team or side (Russian); "" for a team's own line
	Moves int            `json:"moves"`           // moves or orders made
	Count map[string]int `json:"count,omitempty"` // the game's numbers by their Russian column name ("убито", "голы")
}

// Summary is the story of a finished game in numbers, folded from its events (Summarizer) and
// kept in its log when it ends: the final post shows it, `forumgm stats` sums it over games.
type Summary struct {
	Result  string   `json:"result"`            // the result in Russian ("победа крестоносцев: флаг взят")
	Columns []string `json:"columns,omitempty"` // the Count columns in the order shown
	// MovesWord is the Russian word for Moves in the table ("приказов"; default "ходов").
	MovesWord string `json:"moves_word,omitempty"`
	Players   []Line `json:"players"`         // one line per player, in the order first met
	Teams     []Line `json:"teams,omitempty"` // one line per team or side
	// Best is the best moment the events show, in Russian ("" none); BestScore ranks the
	// candidates (the game's own measure: the larger wins, the earlier on a tie).
	Best      string `json:"best,omitempty"`
	BestScore int    `json:"-"`
	// Winners are the forum names of the winning players (none: a draw or no winner).
	Winners []string `json:"winners,omitempty"`
	// Penalties by forum name or team (wounds, cards): `forumgm stats` sums them.
	Penalties map[string]int `json:"penalties,omitempty"`
}

// Player is the line of a player (added, with team, the first time).
func (s *Summary) Player(name, team string) *Line { return line(&s.Players, name, team) }

// Team is the line of a team or side.
func (s *Summary) Team(name string) *Line { return line(&s.Teams, name, "") }

// Moment offers a best moment: kept when it ranks above the one kept so far.
func (s *Summary) Moment(score int, words string) {
	if words != "" && (s.Best == "" || score > s.BestScore) {
		s.Best, s.BestScore = words, score
	}
}

// Add counts n more of column on l (the column is added to the summary's columns).
func (s *Summary) Add(l *Line, column string, n int) {
	if l.Count == nil {
		l.Count = map[string]int{}
	}
	l.Count[column] += n
	for _, c := range s.Columns {
		if c == column {
			return
		}
	}
	s.Columns = append(s.Columns, column)
}

func line(ls *[]Line, name, team string) *Line {
	for i := range *ls {
		if (*ls)[i].Name == name {
			return &(*ls)[i]
		}
	}
	*ls = append(*ls, Line{Name: name, Team: team})
	return &(*ls)[len(*ls)-1]
}

// Summarizer is Rules that tell a game's story in numbers: the referee folds every game event
// into a running Summary (Tally, after the event is applied, so the state is the one after it)
// and completes it when the game ends (Finish, on the final state), then posts it with the end
// and keeps it in the log.
type Summarizer interface {
	Tally(s *Summary, ev Event)
	Finish(s *Summary)
}

// ZoneName is how a time zone is named beside times: its abbreviation (MSK), or UTC±hh.
func ZoneName(loc *time.Location, at time.Time) string {
	name, off := at.In(loc).Zone()
	if name == "" || strings.HasPrefix(name, "+") || strings.HasPrefix(name, "-") {
		h, m := off/3600, off%3600/60
		if m < 0 {
			m = -m
		}
		if m != 0 {
			return fmt.Sprintf("UTC%+d:%02d", h, m)
		}
		return fmt.Sprintf("UTC%+d", h)
	}
	return name
}
