package game

import (
	"errors"
	"fmt"
	"testing"
)

type code string

type problem struct{ Code code }

func (p problem) ProblemCode() code { return p.Code }
func (p problem) String() string    { return string(p.Code) }

func TestRefusal(t *testing.T) {
	var err error = &Refusal[code, problem]{Game: "g", Problems: []problem{{"too_far"}, {"occupied"}}}
	var r *Refusal[code, problem]
	if !errors.As(fmt.Errorf("post 7: %w", err), &r) {
		t.Fatal("a wrapped refusal is not found")
	}
	if err.Error() != "g: refused: too_far; occupied" {
		t.Fatalf("Error() = %q", err.Error())
	}
	if c := r.Codes(); len(c) != 2 || c[0] != "too_far" || c[1] != "occupied" || !r.Has("occupied") || r.Has("blocked") {
		t.Fatalf("codes %v", c)
	}
}
