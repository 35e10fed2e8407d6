package referee

import "testing"

func TestHasWord(t *testing.T) {
	cases := []struct {
		text, word string
		want       bool
	}{
		{"#спор: ход был верный", "#спор", true},
		{"Это #СПОР", "#спор", true},
		{"#споры не нужны", "#спор", false},
		{"я оспариваю решение", "оспариваю", true},
		{"не оспариваю, всё честно", "оспариваю", false},
		{"Не оспариваю", "оспариваю", false},
		{"оспариваю", "оспариваю", true},
		{"переоспариваю", "оспариваю", false},
		{"спорно", "#спор", false},
		{"текст", "", false},
		{"#спор и ещё раз #спор", "#спор", true},
	}
	for _, tc := range cases {
		if got := HasWord(tc.text, tc.word); got != tc.want {
			t.Errorf("HasWord(%q, %q) = %v, want %v", tc.text, tc.word, got, tc.want)
		}
	}
}

func TestReplySubject(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "Крестовый поход"},
		{"раны", "RE: раны"},
		{"RE: раны", "RE: раны"},
		{"Re: раны", "Re: раны"},
		{"  приказы  ", "RE: приказы"},
	} {
		if got := replySubject(tc.in, "Крестовый поход"); got != tc.want {
			t.Errorf("replySubject(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
