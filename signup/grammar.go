package signup

import (
	"strings"
	"unicode"

	"forumgm/game"
)

// The intents of the sign-up phase (what the grammar reads, and the moderators' commands).
type (
	// Join: «записываюсь», «записываюсь за сарацин», «в команду Грифоны». Team is the team's
	// key ("" none chosen); Asked is what the player wrote after «за»/«в команду» when it names
	// no team.
	Join struct{ Team, Asked string }
	// Leave: «выхожу» before play begins.
	Leave struct{}
	// Depart: «выхожу из игры», or a moderator's remove (Player, By set).
	Depart struct{ Player, By, Reason string }
	// Takeover: «записываюсь на замену ИМЯ», or a moderator's replace (New, By set).
	Takeover struct{ Old, New, By, Reason string }
	// NameRole: «капитан: ИМЯ» (the team's role holder).
	NameRole struct{ Player string }
	// Early: a move, as the game reads it, before play began.
	Early struct{}
	// SendPieces: the game's pieces list (Shape.PiecesList, Crusade's «Игроки-воины») and one
	// line a player: «ИМЯ: p1, p2, p3».
	SendPieces struct {
		Lines []PieceLine
		Bad   []string // lines that read as neither
	}
)

// PieceLine is one line of a pieces list.
type PieceLine struct {
	Player string
	Pieces []string
}

// header is s as a pieces list's first line compares (folded, hyphens as spaces).
func header(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(fold(s), "-", " ")), " ")
}

// read is the sign-up grammar on one post; ok is false when the post holds none of it.
func (r *Rules) read(in game.Input) (game.Reading, bool) {
	lines := postLines(in.Post.Text)
	if len(lines) == 0 {
		return game.Reading{}, false
	}
	first := lines[0]
	words := strings.Fields(first)
	switch {
	case strings.HasPrefix(first, "записываюсь на замену") || strings.HasPrefix(first, "записываюсь в замену"):
		old := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(first, "записываюсь на замену"), "записываюсь в замену"))
		return game.Reading{Kind: game.Intent, Open: true, Intent: &Takeover{Old: r.player(old)}}, true
	case len(words) > 0 && strings.TrimRight(words[0], ",.!;:") == "записываюсь":
		rest := strings.TrimSpace(strings.TrimPrefix(first, words[0]))
		switch {
		case strings.HasPrefix(rest, "за "):
			rest = strings.TrimPrefix(rest, "за ")
		case strings.HasPrefix(rest, "в команду "):
			rest = strings.TrimPrefix(rest, "в команду ")
		case rest == "":
		default:
			rest = "" // «записываюсь!», «записываюсь, если можно»: no team named
		}
		return r.join(rest), true
	case strings.HasPrefix(first, "в команду ") || strings.HasPrefix(first, "хочу в команду "):
		return r.join(strings.TrimPrefix(strings.TrimPrefix(first, "хочу "), "в команду ")), true
	case strings.HasPrefix(first, "выхожу из игры"):
		return game.Reading{Kind: game.Intent, Open: true, Intent: &Depart{}}, true
	case first == "выхожу" || first == "я выхожу" || first == "выписываюсь":
		if r.phase == playing {
			return game.Reading{}, false // mid-game only «выхожу из игры» counts (a move may read «выхожу»)
		}
		return game.Reading{Kind: game.Intent, Open: true, Intent: &Leave{}}, true
	case r.p.shape.PiecesList != "" && header(first) == header(r.p.shape.PiecesList):
		if r.phase != organising {
			return game.Reading{}, false
		}
		return game.Reading{Kind: game.Intent, Intent: r.pieces(lines[1:])}, true
	}
	if r.phase == organising {
		if role := r.roleWord(); role != "" && strings.HasPrefix(first, role) {
			name := strings.TrimLeft(strings.TrimPrefix(first, role), " :—–-")
			if name != "" {
				return game.Reading{Kind: game.Intent, Intent: &NameRole{Player: r.player(name)}}, true
			}
		}
	}
	if r.phase != playing && (first == "помощь" || first == "справка" || strings.HasPrefix(first, "как записаться")) {
		return game.Reading{Kind: game.Help}, true
	}
	return game.Reading{}, false
}

// join reads the team a sign-up names ("" none).
func (r *Rules) join(asked string) game.Reading {
	asked = strings.TrimRight(asked, ".!")
	j := &Join{}
	if asked != "" {
		if i, ok := r.team(asked); ok {
			j.Team = r.p.shape.Teams[i].Key
		} else {
			j.Asked = asked
		}
	}
	return game.Reading{Kind: game.Intent, Open: true, Intent: j}
}

// team finds the team a player's words name (folded).
func (r *Rules) team(words string) (int, bool) {
	w := strings.Trim(fold(words), "«»\"' ")
	for i, t := range r.p.shape.Teams {
		if w == fold(t.Label) || w == fold(t.Key) {
			return i, true
		}
		for _, f := range t.Words {
			if w == fold(f) {
				return i, true
			}
		}
	}
	return 0, false
}

// roleWord is the role the teams name (folded), "" none.
func (r *Rules) roleWord() string {
	for _, t := range r.p.shape.Teams {
		if t.Role != "" {
			return fold(t.Role)
		}
	}
	return ""
}

// pieces reads the lines of a pieces list.
func (r *Rules) pieces(lines []string) *SendPieces {
	out := &SendPieces{}
	for _, l := range lines {
		name, list, ok := cutAny(l, ":—–-")
		if !ok {
			out.Bad = append(out.Bad, l)
			continue
		}
		pl := PieceLine{Player: r.player(strings.TrimSpace(name))}
		for _, p := range strings.FieldsFunc(list, func(c rune) bool { return c == ',' || c == ';' || unicode.IsSpace(c) }) {
			pl.Pieces = append(pl.Pieces, r.piece(p))
		}
		out.Lines = append(out.Lines, pl)
	}
	return out
}

// piece is a piece as the game spells it (p is folded: look-alike letters, case).
func (r *Rules) piece(p string) string {
	for _, t := range r.p.shape.Teams {
		for _, q := range t.Pieces {
			if fold(q) == p {
				return q
			}
		}
	}
	return p
}

// cutAny cuts s at the first of seps.
func cutAny(s, seps string) (before, after string, ok bool) {
	if i := strings.IndexAny(s, seps); i >= 0 {
		_, size := rune(s[i]), len(string([]rune(s[i:])[0]))
		return s[:i], s[i+size:], true
	}
	return s, "", false
}

// player is the forum name a player wrote, as the roster spells it when it is in the game's
// sign-ups or teams (folded comparison), else as written.
func (r *Rules) player(written string) string {
	w := fold(written)
	for _, n := range r.everyone() {
		if fold(n) == w {
			return n
		}
	}
	return strings.TrimSpace(written)
}

// postLines are a post's non-empty lines, folded, trailing punctuation of the first kept.
func postLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(fold(l), " .!")
		l = strings.Trim(l, "«»\"")
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
