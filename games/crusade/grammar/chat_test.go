package grammar

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

func TestReadAnswer(t *testing.T) {
	for _, c := range []struct {
		in   string
		text string
		form AnswerForm
	}{
		{"Ответ: Эдесса", "Эдесса", ExplicitAnswer},
		{"Эдесса", "Эдесса", BareAnswer},
		{"Антиохия!", "Антиохия", BareAnswer},
		{"Кажется, Эдесса", "Эдесса", BareAnswer},
		{"Эдесса, наверное", "Эдесса", BareAnswer},
		{"мне кажется, графство Эдесса", "графство Эдесса", BareAnswer},
		{"хм, сложно", "хм, сложно", MaybeAnswer},
		{"жду хода", "жду хода", MaybeAnswer},
		{"Эдесса?", "Эдесса?", MaybeAnswer},
		{"кто-нибудь знает, когда следующий ход будет", "кто-нибудь знает, когда следующий ход будет", MaybeAnswer},
		{strings.Repeat("очень длинное сообщение ", 10), "", NotAnswer},
	} {
		text, form := ReadAnswer(c.in)
		if text != c.text || form != c.form {
			t.Errorf("ReadAnswer(%q) = %q, %d; want %q, %d", c.in, text, form, c.text, c.form)
		}
	}
}
