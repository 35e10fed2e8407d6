package rules

// Color names a ball by its Russian colour, as the contract writes it.
type Color string

// The five balls.
const (
	Black  Color = "чёрный"  // одурительный, 1 point: the dragon is confused
	Green  Color = "зелёный" // чихательный, 2 points: the mouth stays wide open
	Blue   Color = "голубой" // пламягасительный, 3 points: no more fire
	Red    Color = "красный" // перцовый, 5 points: swallowed players are spat out
	Yellow Color = "жёлтый"  // обездвиживающий, 10 points: the dragon is paralysed
)

// Colors are the balls from the cheapest to the most valuable.
var Colors = [5]Color{Black, Green, Blue, Red, Yellow}

// Value is the ball's points.
func (c Color) Value() int {
	switch c {
	case Black:
		return 1
	case Green:
		return 2
	case Blue:
		return 3
	case Red:
		return 5
	case Yellow:
		return 10
	}
	return 0
}

// Valid reports whether c is one of the five balls.
func (c Color) Valid() bool { return c.Value() > 0 }

func (c Color) index() int {
	for i, x := range Colors {
		if x == c {
			return i
		}
	}
	return -1
}

// PassRange is the longest pass of the ball (the yellow ball is heavier).
func (c Color) PassRange() int {
	if c == Yellow {
		return 3
	}
	return 4
}

// Status of a player.
type Status string

const (
	OnField   Status = "field"
	Hospital  Status = "hospital"
	Swallowed Status = "swallowed"
)

// BallStatus of a ball.
type BallStatus string

const (
	BallFree      BallStatus = "free"
	BallHeld      BallStatus = "held"
	BallSwallowed BallStatus = "swallowed"
)

// Effect is a swallowed ball's lasting effect on a dragon, by the contract's names.
type Effect string

const (
	Confused Effect = "confused" // black
	Wide     Effect = "wide"     // green
	NoFire   Effect = "nofire"   // blue
	Still    Effect = "still"    // yellow
)

// Spells are the three spell pairs of enchanted passes: the passer's half, then the catcher's.
var Spells = [3][2]string{
	{"Гуллис-дуллис", "Цап-царапс"},
	{"Труллис-запуллис", "Леос-зафиндилеос"},
	{"Фигус-зацапус", "Щупс-курощупс"},
}

// spellPair returns the pair a spell belongs to and whether it is the first (passer's) half.
func spellPair(s string) (pair int, first bool, ok bool) {
	for i, p := range Spells {
		if p[0] == s {
			return i, true, true
		}
		if p[1] == s {
			return i, false, true
		}
	}
	return 0, false, false
}

// Action is a player's ball action in a tact.
type Action string

const (
	NoAction Action = ""
	Catch    Action = "catch" // ловлю
	Pass     Action = "pass"  // пас
	Steal    Action = "steal" // отбираю
)

// DragonMove is a dragon's movement order.
type DragonMove string

const (
	MoveNone    DragonMove = ""
	MoveForward DragonMove = "forward" // вперёд
	MoveLeft    DragonMove = "left"    // налево: 60° counter-clockwise about the body
	MoveRight   DragonMove = "right"   // направо: 60° clockwise
	MoveStay    DragonMove = "stay"    // стоит
)

// Mouth is a mouth order.
type Mouth string

const (
	MouthAny    Mouth = ""
	MouthOpen   Mouth = "open"
	MouthClosed Mouth = "closed"
)

// Fire is a fire order or a breath.
type Fire string

const (
	FireNone   Fire = ""
	FireFlame  Fire = "flame"  // пламя: the short 8-cell flame
	FireVolley Fire = "volley" // залп: the 15-cell volley
)

// TactOrder is one player's order for one tact, as the parser read it. Cell and Height 0 keep
// the current ones.
type TactOrder struct {
	Tact   int    `yaml:"tact" json:"tact"`
	Line   string `yaml:"line" json:"line,omitempty"`
	Cell   Cell   `yaml:"cell" json:"cell,omitempty"`
	Height int    `yaml:"height" json:"height,omitempty"`
	// Dir moves to the neighbour in that direction (an English code, e..sw) instead of a Cell.
	Dir    string `yaml:"dir" json:"dir,omitempty"`
	Action Action `yaml:"action" json:"action,omitempty"`
	// Pass: the ball (may be empty), the target cell and height (0: the passer's height), the
	// spell's first half for an enchanted pass. Catch: Spell is the counter-spell.
	Ball     Color  `yaml:"ball" json:"ball,omitempty"`
	To       Cell   `yaml:"to" json:"to,omitempty"`
	ToHeight int    `yaml:"to_height" json:"to_height,omitempty"`
	Spell    string `yaml:"spell" json:"spell,omitempty"`
	// Steal: the named opponent (as written; empty: any in reach).
	Target string `yaml:"target" json:"target,omitempty"`
}

// DragonOrder is the handler's order for the team's dragon in one tact.
type DragonOrder struct {
	Tact   int        `yaml:"tact" json:"tact"`
	Line   string     `yaml:"line" json:"line,omitempty"`
	Move   DragonMove `yaml:"move" json:"move,omitempty"`
	Height int        `yaml:"height" json:"height,omitempty"` // absolute height asked for (0: none)
	Climb  int        `yaml:"climb" json:"climb,omitempty"`   // +1 выше, -1 ниже
	Mouth  Mouth      `yaml:"mouth" json:"mouth,omitempty"`
	Fire   Fire       `yaml:"fire" json:"fire,omitempty"`
}

// Orders is one message of orders (the Input.Body the parser produces): any tacts of the
// player's own orders, the dragon's (from the handler), a description, and the lines the parser
// could not read.
type Orders struct {
	Tacts          []TactOrder   `json:"tacts,omitempty"`
	Dragon         []DragonOrder `json:"dragon,omitempty"`
	Description    string        `json:"description,omitempty"`
	HasDescription bool          `json:"has_description,omitempty"`
	Unreadable     []Problem     `json:"unreadable,omitempty"`
}

// Empty reports whether the message holds nothing the game judges.
func (o *Orders) Empty() bool {
	return len(o.Tacts) == 0 && len(o.Dragon) == 0 && !o.HasDescription && len(o.Unreadable) == 0
}
