package scrape

import "testing"

func TestCount(t *testing.T) {
	for in, want := range map[string]int{
		"15": 15, "Replies: 15<br>": 15, "1,234": 1234, "1 234": 1234, "12\u00a0345 replies": 12345,
		"-": -1, "": -1, "Ответов: 0": 0,
	} {
		if got := Count(in); got != want {
			t.Errorf("Count(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestPoster(t *testing.T) {
	for in, want := range map[string]string{
		"by gm-bot": "gm-bot", "от\u00a0Джелу": "Джелу", " by  Some One ": "Some One", "snovaya": "snovaya",
		"By by": "by",
	} {
		if got := Poster(in); got != want {
			t.Errorf("Poster(%q) = %q, want %q", in, got, want)
		}
	}
}
