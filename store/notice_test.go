package store

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"forumgm/forum"
	"forumgm/game"
)

// What a player wrote reaches a post only as valid UTF-8 without NUL, opening no tag and holding
// no marker: in a moderator's notice (and in any body the poster marks: daemon's test).
func TestEchoedPlayerTextSanitised(t *testing.T) {
	in := &game.Input{PostID: "7", Author: "Дже\x00лу\xc3", Post: forum.Post{Text: "ход\xff\xfe к1\x00 [b]fgm-g1-3-0123456789ab"}}
	f := game.Flag{Kind: game.FlagEdited, PostID: "7", Was: "ход к2"}
	_, notice, err := Notice(noticeView("g1", 3, f, FlagEdited, in, game.Outcome{}, Settle{}))
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(notice) || strings.ContainsRune(notice, 0) || strings.Contains(notice, "[b]") || strings.Contains(notice, "fgm-") {
		t.Errorf("notice: %q", notice)
	}
	if !strings.Contains(notice, "Джелу") || !strings.Contains(notice, "ход к1") {
		t.Errorf("the readable text is lost: %q", notice)
	}
}

// Without review.public_url the notice names the CLI only; a failed referee is said in Russian.
func TestModeratorNoticeWithoutWebUI(t *testing.T) {
	in := &game.Input{PostID: "12", Author: "snovaya"}
	f := game.Flag{Kind: game.FlagUnreadable, PostID: "12", Detail: "ошибка судьи: judge: boom"}
	_, body, err := Notice(noticeView("g1", 4, f, FlagUnreadable, in, game.Outcome{}, Settle{}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, "в браузере") || strings.Contains(body, "boom") || !strings.Contains(body, "не смог разобрать") ||
		!strings.Contains(body, "forumgm review show 4") {
		t.Errorf("notice:\n%s", body)
	}
}

// An edit is shown as the lines it changed, removed before added.
func TestLineDiff(t *testing.T) {
	cases := []struct {
		was, now string
		want     string
	}{
		{"к1 на K16", "к1 на K15", "-к1 на K16|+к1 на K15"},
		{"привет\nк1 на K16\nпока", "привет\nк1 на K15\nпока", "-к1 на K16|+к1 на K15"},
		{"a\nb", "a\nb\nc", "+c"},
		{"a\nb\nc", "a\nc", "-b"},
		{"x", "x", ""},
		{"[b]x[/b]", "y", "-[\u200bb]x[\u200b/b]|+y"},
	}
	for _, tc := range cases {
		d, more := lineDiff(tc.was, tc.now)
		var got []string
		for _, l := range d {
			sign := "-"
			if l.Added {
				sign = "+"
			}
			got = append(got, sign+l.Text)
		}
		if strings.Join(got, "|") != tc.want || more != 0 {
			t.Errorf("lineDiff(%q, %q) = %q (+%d), want %q", tc.was, tc.now, got, more, tc.want)
		}
	}
	var long []string
	for i := 0; i < 30; i++ {
		long = append(long, fmt.Sprint("line ", i))
	}
	if d, more := lineDiff("", strings.Join(long, "\n")); len(d) != noticeDiff || more != 31-noticeDiff {
		t.Errorf("long diff: %d lines, %d more", len(d), more)
	}
}

// With several games the notice links to the flag under its own game's path in the web UI, the
// one the UI serves it at (/g/ID/flag/N), whatever the public URL's trailing slash.
func TestNoticeLinksUnderTheGame(t *testing.T) {
	in := &game.Input{PostID: "5", Author: "Петя"}
	for _, tc := range []struct{ game, public, want string }{
		{"crusade-1", "https://mod.example.org/", "https://mod.example.org/g/crusade-1/flag/12"},
		{"football-1", "https://mod.example.org", "https://mod.example.org/g/football-1/flag/12"},
		{"g1", "", ""},
	} {
		v := noticeView(tc.game, 12, game.Flag{PostID: "5"}, FlagDispute, in, game.Outcome{}, Settle{WebURL: tc.public})
		if v.WebURL != tc.want {
			t.Errorf("%s at %q: %q, want %q", tc.game, tc.public, v.WebURL, tc.want)
		}
		_, body, err := Notice(v)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want != "" && !strings.Contains(body, tc.want) {
			t.Errorf("%s: the notice lacks its link:\n%s", tc.game, body)
		}
	}
}

// A flag's warning (a name that looks like a player's) is in the moderators' notice (issue 19).
func TestNoticeShowsWarning(t *testing.T) {
	in := &game.Input{PostID: "5", Author: "Джeлу", Post: forum.Post{Text: "1-й ход"}}
	f := game.Flag{PostID: "5", Kind: game.FlagNotInRoster, Detail: "Осторожно: «Джeлу» как «Джелу». 1-й ход", Warning: "Осторожно: «Джeлу» как «Джелу»."}
	_, body, err := Notice(noticeView("g1", 4, f, FlagNotInRoster, in, game.Outcome{}, Settle{}))
	if err != nil || !strings.Contains(body, "Подробности: Осторожно: «Джeлу» как «Джелу».\n") {
		t.Errorf("%v\n%s", err, body)
	}
}

// The notice's commands are shell words as written: the config's path and the recipient's name
// quoted when they need it, --game for a game of a games: list, and the command that starts the
// web UI when the config has one without an address (issue 21, item 2).
func TestNoticeCommandsQuoted(t *testing.T) {
	in := &game.Input{PostID: "5", Author: "Петя"}
	review := `forumgm review --config '/srv/игры клуба/it'\''s.yaml' --game crusade-b`
	for _, tc := range []struct {
		kind FlagKind
		want []string // a dispute is settled by uphold, overturn or settle; other flags by accept, reject or close
	}{
		{FlagEdited, []string{" accept 7 --by 'Судья Дредд'\n", ` reject 7 --by 'Судья Дредд' --reason "причина"` + "\n",
			` close 7 --by 'Судья Дредд' --reason "причина"` + "\n"}},
		{FlagDispute, []string{` uphold 7 --by 'Судья Дредд' --reason "причина"` + "\n", ` overturn 7 --by 'Судья Дредд' --reason "причина"` + "\n",
			` settle 7 --by 'Судья Дредд' --reason "причина"` + "\n"}},
	} {
		v := noticeView("crusade-b", 7, game.Flag{PostID: "5"}, tc.kind, in, game.Outcome{}, Settle{Config: "/srv/игры клуба/it's.yaml", Game: "crusade-b", Serve: true})
		v.By = shellQuote("Судья Дредд")
		_, body, err := Notice(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range append([]string{"[code]" + review + " serve\n" + review + " show 7\n"}, tc.want...) {
			if !strings.Contains(body, want) {
				t.Errorf("%s: notice lacks %q:\n%s", tc.kind, want, body)
			}
		}
		if !strings.HasSuffix(body, "[/code]") {
			t.Errorf("%s: the notice does not end with its commands:\n%q", tc.kind, body)
		}
	}
	for _, tc := range []struct{ in, want string }{{"Moderator", "Moderator"}, {"Джелу", "Джелу"}, {"a b", "'a b'"}, {"", "''"}, {"$x", "'$x'"}} {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A late move's flag is a kind of its own: the notice names it in Russian and carries the
// referee's warning (issue 19).
func TestNoticeLate(t *testing.T) {
	in := &game.Input{PostID: "7", Author: "snovaya", Post: forum.Post{Text: "1-й ход сарацина н1 на N1"}}
	warn := "Пост появился в теме с опозданием: его не было при чтении темы."
	f := game.Flag{PostID: "7", Kind: game.FlagLate, Detail: warn + " the post appeared late", Warning: warn}
	subject, body, err := Notice(noticeView("g1", 5, f, FlagLate, in, game.Outcome{}, Settle{}))
	if err != nil || !strings.Contains(subject, "флаг №5") || !strings.Contains(body, "флаг №5: ход пришёл с опозданием.") ||
		!strings.Contains(body, "Подробности: "+warn) || !strings.Contains(body, "1-й ход сарацина н1 на N1") {
		t.Errorf("%v\n%s\n%s", err, subject, body)
	}
}
