package game

import (
	"html/template"
	"time"
)

// Viewer is Rules that draw their state for people: the players' public game page (package
// public) and the moderators' web UI show it instead of the replay's JSON. It is the state as it
// stands, in Russian; what the rules keep secret until its time (orders before their deadline, a
// private deployment, warriors in an invisible forest) never appears in it.
type Viewer interface {
	// View draws the state as it stands at now (the game's clock: what is due next).
	View(now time.Time) (View, error)
}

// View is a game's state drawn for people. Its HTML parts are fragments the game renders with
// html/template from its own templates (player text escaped there); the page around them is
// shared and names no game.
type View struct {
	// Position is the board, the field or the ring (a grid, a list the thread shows).
	Position template.HTML
	// Standings are the counts: wounds and kills, score and balls, the table.
	Standings template.HTML
	// Next is what happens next, line by line: whose turn or window, who still owes orders
	// (never what they ordered).
	Next []string
	// Deadline is the next deadline (zero: none), with what happens at it; pages show it in the
	// game's zone (Zone) with a countdown.
	Deadline      time.Time
	DeadlineLabel string
	Zone          *time.Location
	// Pictures are drawings pages may show beside Position (Dragonball's field), in order.
	Pictures []Picture
	// Over is set once the game has ended.
	Over bool
}

// Picture is one drawing of a View: a PNG made on demand (drawing is slow; a page that is not
// asked for it never draws it).
type Picture struct {
	Name  string // a file name, unique in the view ("round-3.png")
	Title string // Russian, under the picture
	Draw  func() ([]byte, error)
}

// Styled is a game (the plug-in value) whose View fragments need style rules of their own: the
// pages that show a View (the public page, the moderators' UI) serve them as a stylesheet. The
// rules are scoped under the game's own class names, so several games' rules live side by side.
type Styled interface {
	ViewCSS() string
}
