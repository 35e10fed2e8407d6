package templates

import "testing"

func TestPlural(t *testing.T) {
	cases := map[int]string{0: "ранений", 1: "ранение", 2: "ранения", 4: "ранения", 5: "ранений", 11: "ранений",
		12: "ранений", 14: "ранений", 21: "ранение", 22: "ранения", 25: "ранений", 101: "ранение", 111: "ранений", -3: "ранения"}
	for n, want := range cases {
		if got := Plural(n, "ранение", "ранения", "ранений"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestEscapeStopsTags(t *testing.T) {
	for in, want := range map[string]string{
		"[b]Джелу[/b]": "[\u200bb]Джелу[\u200b/b]",
		"н2 на G5":     "н2 на G5",
		"[[":           "[\u200b[\u200b",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTidy(t *testing.T) {
	got := tidy("\n\n  line one  \n\n\n\nline two\t\n\n")
	if got != "line one\n\nline two" {
		t.Errorf("tidy: %q", got)
	}
}

func TestLoadAndRenderCrusade(t *testing.T) {
	s, err := Load("crusade", map[string]any{})
	if err == nil {
		// The crusade templates need the referee's functions: loading without them must fail
		// clearly rather than at render time.
		t.Fatalf("loading without the game's functions should fail, got a set %v", s)
	}
	if _, err := Load("chess", nil); err == nil {
		t.Fatal("a game with no templates must be an error")
	}
}

// The pictures' words need no functions of their own: they load alone, and a roster's place
// reads well on and off the field.
func TestLoadPicture(t *testing.T) {
	s, err := Load("picture", nil)
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
