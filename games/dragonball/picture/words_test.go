package picture

import (
	"testing"

	"forumgm/templates"
)

// The pictures' words need no functions of their own: they load alone, and a roster's place
// reads well on and off the field.
func TestLoadPicture(t *testing.T) {
	s, err := templates.Load(wordsFile, "picture", nil)
	if err != nil {
		t.Fatal(err)
	}
	type where struct {
		Cell, Height int
		Off          string
	}
	for data, want := range map[where]string{{57, 2, ""}: "57, в2", {0, 0, ""}: "вне поля",
		{0, 0, "hospital"}: "в больнице", {0, 0, "swallowed"}: "в драконе"} {
		if got, err := s.Render("dragonball_where", data); err != nil || got != want {
			t.Errorf("dragonball_where %v = %q, %v; want %q", data, got, err, want)
		}
	}
}
