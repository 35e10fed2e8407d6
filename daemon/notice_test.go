package daemon

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

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
		if err := r.st.Commit(r.ctx, store.Commit{Game: "g1", Flags: []store.NewFlag{{Kind: store.FlagOther, Detail: "earlier"}}}); err != nil {
			t.Fatal(err)
		}
	}
	r.d.o.Settle = store.Settle{WebURL: "https://mod.example.org/"}
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
	// Russian only: no English words outside the commands (in [code]), links and the marker.
	rest := regexp.MustCompile(`\[code\][\s\S]*?\[/code\]|https?://\S+|\[/?quote\]|\[size=1\].*`).ReplaceAllString(pm.Message, "")
	if w := regexp.MustCompile(`[A-Za-z]{3,}`).FindString(rest); w != "" {
		t.Errorf("English word %q in the notice:\n%s", w, pm.Message)
	}
}
