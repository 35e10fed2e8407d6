package game

import "testing"

type styledGame struct{ Game }

func (styledGame) ViewCSS() string { return "css" }

type wrapGame struct{ Game }

func (w wrapGame) Inner() Game { return w.Game }

// As finds an optional part through a wrapper, and says no when neither has it.
func TestAsThroughWrapper(t *testing.T) {
	inner := styledGame{}
	if st, ok := As[Styled](wrapGame{inner}); !ok || st.ViewCSS() != "css" {
		t.Fatalf("through a wrapper: %v %v", st, ok)
	}
	if _, ok := As[Styled](wrapGame{}); ok {
		t.Fatal("a wrapper of nothing has no style")
	}
}
