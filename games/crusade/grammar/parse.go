package grammar

import (
	"errors"
	"strings"

	cr "forumgm/games/crusade/rules"

	"forumgm/forum"
	"forumgm/russian"
)

// Class is what a post is, for the game.
type Class string

const (
	Chatter        Class = "chatter"    // no move, attack, wound or placement: ignored
	TurnPost       Class = "turn"       // moves and attacks (Result.Turn)
	AllocationPost Class = "allocation" // wound allocation (Result.Allocation)
	DeploymentPost Class = "deployment" // initial placement, for private messages (Result.Deployment)
	Unreadable     Class = "unreadable" // looks like a move but cannot be read (Result.Problems)
)

// Result is a post as the grammar read it.
type Result struct {
	Class Class
	// Turn: the moves and attacks of a TurnPost, and of an Unreadable post what could be read; its
	// Board is the quoted board (the last one found), nil when there is none.
	Turn       *cr.Turn
	Allocation *cr.Allocation // AllocationPost (and the readable part of an unreadable allocation)
	Deployment *cr.Deployment // DeploymentPost
	// Problems are the lines that look like moves, attacks, wounds or placements but cannot be
	// read, in the order of the post (Unreadable).
	Problems []*LineError
	// Board is the last board found in the post (quotes, code blocks, own text), whatever the
	// class; nil when none could be read.
	Board *cr.BoardText
	// BoardErr is set when the last board in the post is there but cannot be read (a
	// *crusade.BoardError naming the row and cell); Board is then nil. It does not change the
	// class: a malformed board is sloppiness, for the engine to count.
	BoardErr error
}

// srcLine is a line of the poster's own text or own code block.
type srcLine struct {
	no   int
	text string
	toks []token
}

// ownLines lists the lines that can hold the poster's moves: the own text and the own code blocks
// that are not already in it (never a quote's text), without the lines of a drawn board.
func ownLines(p forum.Post) []srcLine {
	var out []srcLine
	add := func(text string) {
		for i, l := range strings.Split(russian.CleanText(text), "\n") {
			if boardish(l) {
				continue
			}
			if t := strings.TrimSpace(l); t != "" {
				out = append(out, srcLine{no: i + 1, text: t, toks: tokenize(t)})
			}
		}
	}
	add(p.Text)
	for _, c := range p.Code {
		if !strings.Contains(p.Text, c) {
			add(c)
		}
	}
	return out
}

// boardish reports whether a line is part of a drawn board or table: three or more '|', or a
// line of underscores.
func boardish(l string) bool {
	t := strings.TrimSpace(l)
	return strings.Count(t, "|") >= 3 || (len(t) >= 10 && strings.Trim(t, "_") == "")
}

// Known is a board whose reading is known without parsing it: the last board the bot posted, as
// Render drew it (Text), and what stands in its cells (Cells, every token drawable, so that
// ParseBoard(Text) reads Cells back). A text holding Text on lines of its own, with no other board
// after it, is read as Cells at once; anything else is parsed. The zero Known knows nothing.
// The result's board then holds Cells itself, not a copy: the caller hands the map over.
type Known struct {
	Text  string
	Cells map[cr.Cell]string
}

// read reads text's last board as cr.ParseBoard does, cheaply when it is the known board.
func (k Known) read(text string) (*cr.BoardText, error) {
	if k.Text != "" {
		if i := strings.LastIndex(text, k.Text); i >= 0 && (i == 0 || text[i-1] == '\n') {
			rest := text[i+len(k.Text):]
			if rest == "" || rest[0] == '\n' || rest[0] == '\r' {
				// The board's top line ends any board before it and its footer ends it: the last
				// board is this one unless the rest holds another.
				if _, err := cr.ParseBoard(rest); errors.Is(err, cr.ErrNoBoard) {
					return &cr.BoardText{Cells: k.Cells}, nil
				}
			}
		}
	}
	return cr.ParseBoard(text)
}

// findBoard reads the last board of the post: the quotes' texts in order, then the own code
// blocks, then the own text (a board the player drew himself comes after the one he quoted).
func findBoard(p forum.Post, k Known) (board *cr.BoardText, own bool, err error) {
	try := func(text string, isOwn bool) {
		b, e := k.read(text)
		if errors.Is(e, cr.ErrNoBoard) {
			return
		}
		board, own, err = b, isOwn, e
	}
	for _, q := range p.Quotes {
		try(q.Text, false)
	}
	for _, c := range p.Code {
		if !strings.Contains(p.Text, c) {
			try(c, true)
		}
	}
	try(p.Text, true)
	return board, own, err
}

// Parse reads a post (its own text, quotes and code blocks as forum.Post separates them) and
// classifies it; see the package documentation for the grammar. Lines inside quotes are never
// read as the poster's moves; the last board found anywhere in the post is Turn.Board.
func Parse(p forum.Post) Result { return ParseKnown(p, Known{}) }

// ParseKnown is Parse with a board known without parsing (the last one the bot posted): a post
// quoting it unchanged, as most move posts do, is read without the tolerant board parser. The
// result is Parse's, whatever the post.
func ParseKnown(p forum.Post, k Known) Result {
	var res Result
	res.Board, _, res.BoardErr = findBoard(p, k)
	lines := ownLines(p)

	if alloc, probs, ok := readAllocation(lines); ok {
		res.Allocation = alloc
		res.Problems = probs
		res.Class = AllocationPost
		if len(probs) > 0 {
			res.Class = Unreadable
		}
		return res
	}
	if dep, probs, ok := readDeploymentHeader(lines); ok && (len(dep.Cells) > 0 || len(probs) > 0 || res.Board != nil) {
		if len(dep.Cells) == 0 && res.Board != nil {
			for c, tok := range res.Board.Cells {
				if w := cr.WarriorID(tok); w.Valid() {
					dep.Cells[w] = c
				}
			}
		}
		res.Deployment = dep
		res.Problems = probs
		res.Class = DeploymentPost
		if len(probs) > 0 {
			res.Class = Unreadable
		}
		return res
	}

	turn := &cr.Turn{}
	allBare := true
	for _, l := range lines {
		cs, err := readTokens(l.text, l.toks)
		for _, c := range cs {
			for _, m := range c.moves {
				m.Line = l.text
				turn.Moves = append(turn.Moves, m)
			}
			for _, a := range c.attacks {
				a.Line = l.text
				turn.Attacks = append(turn.Attacks, a)
			}
			allBare = allBare && c.bare
		}
		if err != nil {
			err.LineNo, err.Line = l.no, l.text
			res.Problems = append(res.Problems, err)
		}
	}
	n := len(turn.Moves) + len(turn.Attacks)
	switch {
	case len(res.Problems) > 0:
		res.Class = Unreadable
	case n >= minPlacements && allBare:
		// Lines "р1 J18" and nothing else: a placement.
		res.Class = DeploymentPost
		res.Deployment = &cr.Deployment{Cells: map[cr.WarriorID]cr.Cell{}}
		for _, m := range turn.Moves {
			res.Deployment.Cells[m.Warrior] = m.To
		}
		return res
	case n > 0:
		res.Class = TurnPost
	default:
		if d := boardDeployment(p); d != nil {
			res.Class = DeploymentPost
			res.Deployment = d
			return res
		}
		res.Class = Chatter
		return res
	}
	turn.Board = res.Board
	res.Turn = turn
	return res
}

// minPlacements is how many bare "р1 J18" lines make a post a placement rather than a turn.
const minPlacements = 5

// boardDeployment reads a placement from a board the poster drew himself (not quoted) holding the
// warriors of one side only.
func boardDeployment(p forum.Post) *cr.Deployment {
	if len(p.Quotes) > 0 {
		return nil
	}
	b, own, err := findBoard(p, Known{})
	if err != nil || b == nil || !own {
		return nil
	}
	d := &cr.Deployment{Cells: map[cr.WarriorID]cr.Cell{}}
	sides := map[cr.Side]bool{}
	for c, tok := range b.Cells {
		w := cr.WarriorID(tok)
		if w.Valid() {
			d.Cells[w] = c
			sides[w.Side()] = true
		}
	}
	if len(sides) != 1 {
		return nil
	}
	return d
}
