package crusade

import (
	"strings"
	"testing"
)

func TestAnswer(t *testing.T) {
	cases := []struct {
		in       string
		text     string
		explicit bool
	}{
		{"Ответ: Эдесса", "Эдесса", true},
		{"ответ - Саладин", "Саладин", true},
		{"ОТВЕТ — 1099", "1099", true},
		{"Эдесса", "Эдесса", false},
		{"ответственно заявляю: Эдесса", "ответственно заявляю: Эдесса", false},
		{strings.Repeat("очень длинное сообщение ", 10), "", false},
		{"строка 1\nстрока 2\nстрока 3", "", false},
	}
	for _, c := range cases {
		text, explicit := Answer(c.in)
		if text != c.text || explicit != c.explicit {
			t.Errorf("Answer(%q) = %q, %v; want %q, %v", c.in, text, explicit, c.text, c.explicit)
		}
	}
}

func TestIsHelp(t *testing.T) {
	for in, want := range map[string]bool{"помощь": true, "Справка!": true, "HELP": true, "как ходить?": true,
		"помощь нужна": false, "1-й ход н2 на G5": false, "": false} {
		if got := IsHelp(in); got != want {
			t.Errorf("IsHelp(%q) = %v", in, got)
		}
	}
}
