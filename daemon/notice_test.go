package daemon

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/game"
	"forumgm/store"
)

// A moderator's notice is Russian, gives the flag's own number (the one `forumgm review show`
// takes), links the post, quotes its start, says what the game answered instead of the parser's
// English detail, and gives the flag's page in the web UI when review.public_url is set.
func TestModeratorNotice(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	// An earlier flag in the store, so a post id cannot pass for the flag's number.
	for i := 0; i < 3; i++ {
		if _, err := r.st.AddFlag(r.ctx, store.NewFlag{Game: "g1", Kind: store.FlagOther, Detail: "earlier"}); err != nil {
			t.Fatal(err)
		}
	}
	r.d.o.PublicURL = "https://mod.example.org/"
	r.cycle(t)
	pid := r.post(t, "Джелу", "?? к1 на К-шестнадцать\nвторая строка")
	r.clock.Advance(time.Minute)
	r.cycle(t)

	var flag store.Flag
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	for _, f := range flags {
		if f.PostID == strconv.Itoa(pid) {
			flag = f
		}
	}
	if flag.ID == 0 || flag.ID == int64(pid) {
		t.Fatalf("flags %+v (post %d)", flags, pid)
	}
	pms, err := r.board.PMs(r.ctx, "Moderator")
	if err != nil || len(pms) != 1 {
		t.Fatalf("moderator PMs %+v (%v)", pms, err)
	}
	pm := pms[0]
	n := fmt.Sprint(flag.ID)
	if pm.Subject != "forumgm: нужен модератор, флаг №"+n {
		t.Errorf("subject %q", pm.Subject)
	}
	for _, want := range []string{
		"флаг №" + n + ": непонятный ход",
		"Пост " + strconv.Itoa(pid) + " (автор: Джелу): " + r.url,
		"pid=" + strconv.Itoa(pid),
		"[quote]?? к1 на К-шестнадцать\nвторая строка\n[/quote]",
		"Ведущий ответил игроку:\n[quote]Не понял ход " + strconv.Itoa(pid) + "[/quote]",
		"— в браузере: https://mod.example.org/g/g1/flag/" + n,
		"forumgm review show " + n,
	} {
		if !strings.Contains(pm.Message, want) {
			t.Errorf("notice lacks %q:\n%s", want, pm.Message)
		}
	}
	// Russian only: no English words outside the commands, links and the marker.
	rest := regexp.MustCompile(`forumgm review [a-z|]+( \d+)?|--by|https?://\S+|\[/?quote\]|\[size=1\].*`).ReplaceAllString(pm.Message, "")
	if w := regexp.MustCompile(`[A-Za-z]{3,}`).FindString(rest); w != "" {
		t.Errorf("English word %q in the notice:\n%s", w, pm.Message)
	}
}

// Without review.public_url the notice names the CLI only; a failed referee is said in Russian.
func TestModeratorNoticeWithoutWebUI(t *testing.T) {
	in := &game.Input{PostID: "12", Author: "snovaya"}
	f := game.Flag{Kind: game.FlagUnreadable, PostID: "12", Detail: "ошибка судьи: judge: boom"}
	_, body, err := Notice(noticeView("g1", 4, f, store.FlagUnreadable, in, game.Outcome{}, ""))
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
		v := noticeView(tc.game, 12, game.Flag{PostID: "5"}, store.FlagDispute, in, game.Outcome{}, tc.public)
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
