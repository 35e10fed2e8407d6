package game

// Enroller is a Game whose roster can be formed in the thread (a sign-up phase, package signup)
// instead of being written in config.yaml: it declares the shape of its teams and turns a formed
// roster into its own keys. The sign-up code names no game: everything game-specific it needs
// comes from here.
type Enroller interface {
	// Shape is the game's team shape for spec (team names and sizes the game allows, the role a
	// team names, the pieces its players share). names are the team names the config gives
	// (signup.teams), none for the game's defaults; size is signup.team_size (0: the game's).
	Shape(spec Spec, names []string, size int) (Shape, error)
	// Enrol is spec with the formed roster written into the game's own keys and Start set to
	// when play begins; the game's Setup then builds it as if the config had listed the roster.
	Enrol(spec Spec, teams []Formed) (Spec, error)
}

// Shape is how a game's players form teams.
type Shape struct {
	// Teams are the teams in order (the first is the first in every list and draw).
	Teams []Slot
	// Equal: the teams are balanced to equal sizes (differing by at most one) at formation.
	Equal bool
	// Min is the fewest players a team may start with (1 when zero).
	Min int
	// PiecesList is the name and first line of the list a team sends to give out its pieces
	// («Игроки-воины»); needed when a slot has Pieces.
	PiecesList string
	// Departure says, in Russian, what happens to a player's place when nobody replaces him
	// (the seed's rule: «его воины снимаются с поля»).
	Departure string
}

// Slot is one team a player may join.
type Slot struct {
	// Key is the team in the game's own terms ("crusaders", or the team's name).
	Key string
	// Label is the team's Russian name as the bot writes it ("крестоносцы").
	Label string
	// Words are the forms players write after «за» or «в команду» ("крестоносцев", "сарацин");
	// matched case- and look-alike-folded; the Label always matches.
	Words []string
	// Size is the most players the team takes (0: no limit).
	Size int
	// Role is a role one player of the team holds, in Russian ("капитан"), "" none; the team
	// names its holder (RoleInThread: in the thread, else by private message); default: the
	// team's first player.
	Role         string
	RoleInThread bool
	// Pieces are what the team's players share, PerPlayer each (Crusade's warriors), announced
	// by one of the team by private message; default: in order, PerPlayer each.
	Pieces    []string
	PerPlayer int
}

// Formed is one formed team, as Enrol gets it.
type Formed struct {
	Key     string              `json:"key"`
	Players []string            `json:"players"`
	Role    string              `json:"role,omitempty"`   // the player holding the team's role
	Pieces  map[string][]string `json:"pieces,omitempty"` // player → pieces
}

// Replacer is Rules where a player can be replaced by a new one or removed from the game: each
// returns the intent for the game's engine, or a typed refusal when the rules forbid it
// (Dragonball: a swallowed player cannot be replaced).
type Replacer interface {
	Replace(old, new string) (any, error)
	Remove(name string) (any, error)
}
