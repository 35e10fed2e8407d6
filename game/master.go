package game

import "time"

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
	Name  string         // the player's forum name or the team's Russian name
	Team  string         // the player's team or side (Russian); "" for a team's own line
	Moves int            // moves or orders made
	Count map[string]int // the game's numbers by their Russian column name ("убито", "голы")
}

// Summary is the story of a finished game in numbers.
type Summary struct {
	Result  string   // the result in Russian ("победа крестоносцев: флаг взят")
	Columns []string // the Count columns in the order shown
	Lines   []Line   // players and teams
	Best    string   // the best moment the events show, in Russian ("" none)
	// Winners are the forum names of the winning players (none: a draw or no winner).
	Winners []string
	// Penalties by forum name (wounds, cards): `forumgm stats` sums them.
	Penalties map[string]int
}

// Summarizer is Rules that can tell a finished game's story in numbers from its events: the
// referee posts it after the game ends, `forumgm stats` tabulates it over every game.
type Summarizer interface {
	// Summarize is the summary of the game over its whole log (the referee's events included:
	// skip what is not the game's).
	Summarize(evs []Event) Summary
}
