package extract

import (
	"testing"

	"forumgm/forum"
)

func TestIDLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"9", "10", true}, {"10", "9", false}, {"7", "7", false}, {"x9", "x10", true}, {"ab", "b", false}, {"a", "b", true},
	} {
		if got := IDLess(c.a, c.b); got != c.want {
			t.Errorf("IDLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestKindOf(t *testing.T) {
	texts := []ErrorText{{Frag: "too long", Kind: forum.ErrTooLong}, {Frag: "нет прав", Kind: forum.ErrNoPermission}}
	if err := KindOf("The message is TOO LONG.", texts); err != forum.ErrTooLong {
		t.Errorf("too long: %v", err)
	}
	if err := KindOf("У вас НЕТ ПРАВ", texts); err != forum.ErrNoPermission {
		t.Errorf("нет прав: %v", err)
	}
	if err := KindOf("all fine", texts); err != nil {
		t.Errorf("all fine: %v", err)
	}
}
