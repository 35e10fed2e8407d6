package scrape

import (
	"testing"

	"forumgm/forum"
)

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
