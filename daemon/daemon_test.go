package daemon

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum/web"

	"forumgm/game"
	"forumgm/store"
)

var markerRe = regexp.MustCompile(`fgm-[A-Za-z0-9_-]+?-\d+-[0-9a-f]{12}(-p\d+)?`)

// markers lists the markers in the bot's posts in thread order, with their counts.
func markersIn(texts []string) ([]string, map[string]int) {
	var order []string
	count := map[string]int{}
	for _, t := range texts {
		for _, m := range markerRe.FindAllString(t, -1) {
			if count[m] == 0 {
				order = append(order, m)
			}
			count[m]++
		}
	}
	return order, count
}

func assertExactlyOnce(t *testing.T, r *rig) []string {
	t.Helper()
	order, count := markersIn(r.botTexts(t))
	for m, n := range count {
		if n != 1 {
			t.Errorf("marker %s appears %d times in the thread", m, n)
		}
	}
	pending, err := r.st.PendingOutbox(r.ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 0 {
		t.Errorf("%d outbox items still pending: %+v", len(pending), pending[0])
	}
	return order
}

func TestLoopJudgesPostsAndRepliesInOrder(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t) // start: the opening post
	r.clock.Advance(time.Minute)
	p1 := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	p2 := r.post(t, "snovaya", "плохой ход сарацина")
	r.clock.Advance(time.Minute)
	r.post(t, "Джелу", "просто болтовня")
	r.clock.Advance(time.Minute)
	p4 := r.post(t, "snovaya", "?? что-то")
	r.clock.Advance(time.Minute)
	r.cycle(t)

	texts := strings.Join(r.botTexts(t), "\n")
	for _, want := range []string{"Игра началась", "Ход 1 принят", "Ход отклонён", "Не понял ход"} {
		if !strings.Contains(texts, want) {
			t.Errorf("thread lacks %q:\n%s", want, texts)
		}
	}
	if strings.Index(texts, "Игра началась") > strings.Index(texts, "Ход 1 принят") || strings.Index(texts, "Ход 1 принят") > strings.Index(texts, "Ход отклонён") {
		t.Errorf("replies out of order:\n%s", texts)
	}
	order := assertExactlyOnce(t, r)
	if len(order) != 4 { // start, move, refusal, unreadable (the moderator's PM is not in the thread)
		t.Errorf("markers in thread: %v", order)
	}
	for id, want := range map[int]store.Verdict{p1: store.VerdictAccepted, p2: store.VerdictRefused, p4: store.VerdictFlagged} {
		rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(id))
		if err != nil || !ok || rec.Verdict != want {
			t.Errorf("post %d: %v %v %v, want %s", id, rec.Verdict, ok, err, want)
		}
	}
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	if len(flags) != 1 || flags[0].Kind != store.FlagUnreadable {
		t.Fatalf("flags: %+v", flags)
	}
	pms, err := r.board.PMs(r.ctx, "Moderator")
	if err != nil {
		t.Fatal(err)
	}
	if len(pms) == 0 || !strings.Contains(pms[0].Message, "непонятный ход") || !markerRe.MatchString(pms[0].Message) {
		t.Fatalf("moderator PM: %+v", pms)
	}

	// A private message is judged and confirmed privately.
	if err := r.board.SendPM(r.ctx, "Джелу", "gm-bot", "раны", "ранения: к1"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Minute)
	r.cycle(t)
	pms, _ = r.board.PMs(r.ctx, "Джелу")
	found := false
	for _, pm := range pms {
		if pm.From == "gm-bot" && strings.Contains(pm.Message, "Распределение принято") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no PM confirmation: %+v", pms)
	}

	// Nothing is judged or posted twice by a new daemon on the same store (a restart).
	before := r.botTexts(t)
	r.d = r.newDaemon(t, fakeFactory)
	r.cycle(t)
	r.cycle(t)
	if after := r.botTexts(t); strings.Join(after, "|") != strings.Join(before, "|") {
		t.Fatalf("restart changed the thread:\n%v\n%v", before, after)
	}
}

func TestTimersFireOnceInOrderAndCatchUp(t *testing.T) {
	start := time.Date(2026, 12, 1, 23, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	// A post at 23:30, seen only at 00:10: it is judged before the close fires.
	r.clock.Set(start.Add(30 * time.Minute))
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Set(start.Add(70 * time.Minute))
	r.cycle(t)
	texts := strings.Join(r.botTexts(t), "\n")
	if i, j := strings.Index(texts, "Ход 1 принят"), strings.Index(texts, "Итоги дня 2026-12-02: ходов 1"); i < 0 || j < 0 || i > j {
		t.Fatalf("want the move then the close:\n%s", texts)
	}
	// The daemon is down for three days: the closes catch up in order, once each.
	r.clock.Set(start.Add(3*24*time.Hour + 2*time.Hour))
	r.d = r.newDaemon(t, fakeFactory)
	r.cycle(t)
	r.cycle(t)
	texts = strings.Join(r.botTexts(t), "\n")
	last := -1
	for _, day := range []string{"2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"} {
		i := strings.Index(texts, "Итоги дня "+day)
		if i < 0 || i < last || strings.Count(texts, "Итоги дня "+day) != 1 {
			t.Fatalf("close of %s missing, repeated or out of order:\n%s", day, texts)
		}
		last = i
	}
	assertExactlyOnce(t, r)
}

func TestEditedAndVanishedMovePostsAreFlaggedOnce(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if err := r.board.EditPost(r.ctx, "Джелу", pid, "1-й ход крестоносца к1 на K15", "опечатка"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(2 * time.Minute) // past the rescan interval
	r.cycle(t)
	r.clock.Advance(2 * time.Minute)
	r.cycle(t) // a second rescan raises nothing new
	flags, _ := r.st.OpenFlags(r.ctx, "g1")
	if len(flags) != 1 || flags[0].Kind != store.FlagEdited || flags[0].PostID != strconv.Itoa(pid) {
		t.Fatalf("flags: %+v", flags)
	}
	rec, _, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid))
	if !strings.Contains(rec.Text, "K16") || rec.EditedHash == "" {
		t.Fatalf("the first-seen text must stand: %+v", rec)
	}
	pms, _ := r.board.PMs(r.ctx, "Moderator")
	n := 0
	number := fmt.Sprintf("флаг №%d", flags[0].ID)
	for _, pm := range pms {
		// The flag's own number, and what changed instead of the content hash.
		if pm.Folder == 1 && strings.Contains(pm.Message, "изменён после решения") && strings.Contains(pm.Subject, number) &&
			strings.Contains(pm.Message, "− 1-й ход крестоносца к1 на K16\n+ 1-й ход крестоносца к1 на K15") &&
			!strings.Contains(pm.Message, rec.EditedHash[:12]) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("moderator told %d times about the edit: %+v", n, pms)
	}
}

func TestPosterFindsMarkerInsteadOfPostingTwice(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	// Judge and commit, then "crash" right after the reply reached the forum, before MarkPosted.
	crashed := errors.New("crash")
	r.d.o.Hook = func(step string) {
		if step == "sent" {
			panic(crashed)
		}
	}
	func() {
		defer func() {
			if p := recover(); p != crashed {
				t.Fatalf("want the simulated crash, got %v", p)
			}
		}()
		r.clock.Advance(time.Minute)
		_, _ = r.d.Cycle(r.ctx)
	}()
	pending, _ := r.st.PendingOutbox(r.ctx, "g1")
	if len(pending) != 1 || pending[0].Attempts == 0 {
		t.Fatalf("want one pending item with an attempt: %+v", pending)
	}
	r.d = r.newDaemon(t, fakeFactory)
	r.cycle(t)
	order := assertExactlyOnce(t, r)
	if len(order) != 2 {
		t.Fatalf("markers: %v", order)
	}
	if !strings.Contains(r.log.String(), "already on the forum") {
		t.Fatalf("the poster should have found the marker:\n%s", r.log.String())
	}
}

func TestPauseStopsJudging(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	ref := r.d.Referee()
	out, _ := ref.Moderate(game.ModCommand{Action: game.ModPause, By: "Moderator", At: start})
	c := store.Commit{Game: "g1", At: start, Cause: store.ModeratorCause("Moderator"), Actor: "Moderator"}
	if err := c.Fill(out, nil, store.Notify{PM: r.fo.Capabilities().PrivateMessages}); err != nil {
		t.Fatal(err)
	}
	if err := r.st.Commit(r.ctx, c); err != nil {
		t.Fatal(err)
	}
	pid := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if _, ok, _ := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(pid)); ok {
		t.Fatal("a post was judged while the game was paused")
	}
}

func TestPollPolicy(t *testing.T) {
	p := PollPolicy{Floor: 30 * time.Second, Ceiling: 10 * time.Minute, BusyStart: 19 * time.Hour, BusyEnd: 24 * time.Hour,
		NightStart: time.Hour, NightEnd: 8 * time.Hour, Loc: msk}
	at := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, msk) }
	cases := []struct {
		now       time.Time
		idle      int
		expecting bool
		next      time.Time
		want      time.Duration
	}{
		{at(20, 0), 5, true, time.Time{}, 30 * time.Second},
		{at(20, 0), 3, false, time.Time{}, 4 * time.Minute},
		{at(3, 0), 0, true, time.Time{}, 10 * time.Minute},
		{at(12, 0), 0, true, time.Time{}, 30 * time.Second},
		{at(12, 0), 2, true, time.Time{}, 2 * time.Minute},
		{at(12, 0), 20, true, time.Time{}, 10 * time.Minute},
		{at(3, 0), 0, true, at(3, 2), 2 * time.Minute},
	}
	for i, c := range cases {
		if got := p.Interval(c.now, c.idle, c.expecting, c.next); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}

func TestSplitAndMarkers(t *testing.T) {
	body := strings.Repeat("строка текста\n", 50) + "[code]\n" + strings.Repeat("|__|__|\n", 20) + "[/code]\nконец"
	parts := web.Split(body, 300, web.Runes)
	if len(parts) < 3 {
		t.Fatalf("parts: %d", len(parts))
	}
	for _, p := range parts {
		if strings.Count(p, "[code]") != strings.Count(p, "[/code]") {
			t.Errorf("a code block was cut:\n%s", p)
		}
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"текст\nfgm-g-1-abcdef", true},
		{"текст\n fgm-g-1-abcdef \n", true},
		{"один\nfgm-g-1-abcdef\nдва\nfgm-g-1-123456", true}, // merged by the forum
		{"x fgm-g-1-abcdef\n", false},                       // inside other text: an echo
		{"Не понял строку «fgm-g-1-abcdef»", false},
		{"fgm-g-1-abcdef-p1", false}, // a part's marker
	} {
		if got := containsMarker(c.text, "fgm-g-1-abcdef"); got != c.want {
			t.Errorf("containsMarker(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	if got := Mark("текст\n", "fgm-g-1-abcdef"); !strings.HasSuffix(got, "fgm-g-1-abcdef[/color][/size]") {
		t.Errorf("Mark: %q", got)
	}
}

// The thread's history before the game starts (sign-ups, chatter, a move typed too early) is not
// judged; posts from the start on are.
func TestPostsBeforeTheStartAreNotJudged(t *testing.T) {
	r := newRig(t, time.Date(2026, 12, 1, 18, 0, 0, 0, msk), fakeFactory)
	early := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(5 * time.Minute)
	r.d = r.newDaemon(t, fakeFactory) // the game starts now, after the early post
	r.cycle(t)
	r.clock.Advance(time.Minute)
	late := r.post(t, "Джелу", "1-й ход крестоносца к1 на K16")
	r.clock.Advance(time.Minute)
	r.cycle(t)
	if _, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(early)); err != nil || ok {
		t.Fatalf("the post before the start was taken up: %v %v", ok, err)
	}
	rec, ok, err := r.st.SeenPost(r.ctx, "g1", store.SourceThread, strconv.Itoa(late))
	if err != nil || !ok || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("the post after the start: %+v %v %v", rec, ok, err)
	}
	if n := strings.Count(strings.Join(r.botTexts(t), "\n"), "Ход 1 принят"); n != 1 {
		t.Fatalf("want exactly one accepted move, got %d", n)
	}
}

func TestBeforeStart(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 5, 10, 0, msk)
	for _, c := range []struct {
		t    time.Time
		want bool
	}{
		{start.Add(-2 * time.Minute), true},
		{time.Date(2026, 12, 1, 19, 5, 0, 0, msk), false}, // shown to the minute: may be after the start
		{start.Add(time.Hour), false},
		{time.Time{}, false},
	} {
		if got := beforeStart(c.t, start); got != c.want {
			t.Errorf("beforeStart(%s) = %v", c.t, got)
		}
	}
	if beforeStart(start.Add(-time.Hour), time.Time{}) {
		t.Error("an unknown start has nothing before it")
	}
}
