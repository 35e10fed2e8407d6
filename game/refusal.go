package game

import "strings"

// Problem is one reason an engine refuses an input: its code (which a template explains to the
// player) and a short English account for logs and tests.
type Problem[C ~string] interface {
	ProblemCode() C
	String() string
}

// Refusal is an engine's typed error when an input is refused: every problem found, and nothing
// of the input applied. Each engine names its instance (type Refusal = game.Refusal[Code,
// Problem]) and builds it with its game's name.
type Refusal[C ~string, P Problem[C]] struct {
	Game     string `json:"-"`
	Problems []P    `json:"problems"`
}

func (r *Refusal[C, P]) Error() string {
	parts := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		parts[i] = p.String()
	}
	return r.Game + ": refused: " + strings.Join(parts, "; ")
}

// Codes lists the refusal's codes in order.
func (r *Refusal[C, P]) Codes() []C {
	out := make([]C, len(r.Problems))
	for i, p := range r.Problems {
		out[i] = p.ProblemCode()
	}
	return out
}

// Has reports whether the refusal carries code c.
func (r *Refusal[C, P]) Has(c C) bool {
	for _, p := range r.Problems {
		if p.ProblemCode() == c {
			return true
		}
	}
	return false
}
