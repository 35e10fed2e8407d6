// Package football owns the rules of the football dice quiz ("футбольная игра с кубиком"): the
// teams and their groups, the ring board (loaded from YAML), laps, question and yellow-card cells,
// attacks and defences with game points, the secret die table behind the numbers 1..100 with its
// commitment, turn windows, the early end and the ranking. It is a pure engine (see package
// engine): no I/O, no clock reads, deterministic; chance comes only from the *game.Rand the
// referee hands in, and every draw is recorded in the event that used it.
//
// The rules are games/football/docs/decisions.md (with the seed, the rulings and the contract beside it).
package rules

// Intent is one thing a player's post or private message asks for, as the parser read it: *Roll,
// *Attack, *Defence, *Points, *Answer. A post may hold several; the referee judges them in order.
type Intent interface{ intent() }

// Roll is an advance: "Бросаю 37", "кубик 37", "ход 37", or "37" alone on a line.
type Roll struct {
	Number int    `json:"number"`
	Line   string `json:"line,omitempty"`
}

// Attack is "Атакуем Команда 2, 58": the target team as written (or as the parser resolved it)
// and the number.
type Attack struct {
	Target string `json:"target"`
	Number int    `json:"number"`
	Line   string `json:"line,omitempty"`
}

// Defence is "Защищаемся 12".
type Defence struct {
	Number int    `json:"number"`
	Line   string `json:"line,omitempty"`
}

// Role says which roll points are added to.
type Role string

const (
	RoleAttack  Role = "attack"
	RoleDefence Role = "defence"
)

// Points is the captain's private "+3 к атаке" / "+2 к защите".
type Points struct {
	Role  Role   `json:"role"`
	Count int    `json:"count"`
	Line  string `json:"line,omitempty"`
}

// Answer is the captain's answer to the team's question: "Ответ: Пеле" (Explicit) or the bare
// message.
type Answer struct {
	Text     string `json:"text"`
	Explicit bool   `json:"explicit,omitempty"`
}

// Moves is a post holding several intents ("Бросаю 37" and "Защищаемся 12" on two lines): they
// are judged in order, each on the state the previous ones leave, and the post is accepted as a
// whole or refused as a whole (every problem of every intent listed).
type Moves struct {
	Intents []Intent `json:"intents"`
}

// EndGame is a moderator's command to end the game now (the caller checks that the author is a
// moderator); the ranking is by the formula.
type EndGame struct {
	Reason string `json:"reason,omitempty"`
}

func (*Roll) intent()    {}
func (*Attack) intent()  {}
func (*Defence) intent() {}
func (*Points) intent()  {}
func (*Answer) intent()  {}
