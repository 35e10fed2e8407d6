package daemon

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/testkit"
	"forumgm/store"
)

// A player's chatter, then a move within the hour: the forum (MyBB's auto-merge, as the sandbox
// does it) appends the move to the chatter post, which keeps its id. The move is judged as a new
// input with its own reply, once; the post is not flagged as edited.
func TestMergedMoveIsJudged(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t) // the opening post
	r.clock.Set(start.Add(65 * time.Minute))
	pid := r.post(t, "Джелу", "Всем привет, начинаем!")
	r.cycle(t)
	before := len(r.botTexts(t))
	r.clock.Set(start.Add(70 * time.Minute))
	pid2, merged, err := r.board.Reply(r.ctx, "Джелу", 1, "1-й ход крестоносца к1 на K16")
	if err != nil || !merged || pid2 != pid {
		t.Fatalf("the sandbox must merge the move into the chatter post: pid %d/%d merged %v %v", pid2, pid, merged, err)
	}
	r.cycle(t)
	texts := r.botTexts(t)
	if len(texts) != before+1 || !strings.Contains(texts[len(texts)-1], "Ход принят") || !strings.Contains(texts[len(texts)-1], "K16") {
		t.Fatalf("the appended move got no reply of its own: %q", texts[before:])
	}
	// Read again: nothing new, no second reply, no flag.
	r.clock.Set(start.Add(75 * time.Minute))
	r.cycle(t)
	r.clock.Set(start.Add(90 * time.Minute))
	r.cycle(t) // a rescan too
	if got := len(r.botTexts(t)); got != before+1 {
		t.Fatalf("replies after re-reading: %d, want %d", got, before+1)
	}
	flags, _ := r.st.OpenFlags(context.Background(), "g1")
	if len(flags) != 0 {
		t.Fatalf("a merged post is not an edit: %+v", flags)
	}
	rec, ok, err := r.st.SeenPost(context.Background(), "g1", store.SourceThread, partID(strconv.Itoa(pid), 2))
	if err != nil || !ok || rec.Verdict != store.VerdictAccepted {
		t.Fatalf("the part is recorded as accepted: %+v %v %v", rec, ok, err)
	}
}

// A player's post last in the thread is read again on every poll while the forum could still
// append the player's next post to it (MyBB's postmergemins, 60 minutes by default, and the
// allowed clock skew), and not after: the probe alone then stands for the thread.
func TestPlayersLastPostReadAgainOnlyWhileItCanMerge(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	var clock *testkit.Clock
	reads := &threadReads{base: http.DefaultTransport, tid: 1}
	r := newRigWith(t, start, fakeFactory, rigOptions{transport: reads}) // no timed rules: no posts of the bot's meanwhile
	clock = r.clock
	reads.clock = clock
	pages := func(since time.Time) int {
		reads.mu.Lock()
		defer reads.mu.Unlock()
		n := 0
		for _, rd := range reads.reads {
			if !rd.at.Before(since) && !rd.probe {
				n++
			}
		}
		return n
	}
	r.cycle(t) // the opening post
	clock.Set(start.Add(65 * time.Minute))
	r.post(t, "Джелу", "Всем привет, начинаем скоро!")
	posted := clock.Now()
	r.cycle(t)
	for _, after := range []time.Duration{10 * time.Minute, 40 * time.Minute, time.Hour + forum.DefaultMaxSkew - time.Minute} {
		clock.Set(posted.Add(after))
		at := clock.Now()
		r.cycle(t)
		if n := pages(at); n != 1 {
			t.Errorf("%s after the player's post: %d page reads, want 1 (it can still grow by a merge)", after, n)
		}
	}
	for _, after := range []time.Duration{time.Hour + forum.DefaultMaxSkew + time.Minute, 3 * time.Hour} {
		clock.Set(posted.Add(after))
		at := clock.Now()
		r.cycle(t)
		if n := pages(at); n != 0 {
			t.Errorf("%s after the player's post: %d page reads, want none (past the merge window): %+v", after, n, reads.reads[len(reads.reads)-n:])
		}
	}
	// A new post is still read.
	r.post(t, "snovaya", "1-й ход сарацина н2 на G5")
	at := clock.Now()
	r.cycle(t)
	if n := pages(at); n != 1 {
		t.Errorf("a new post: %d page reads, want 1", n)
	}
}

// A judged move post edited in another way (not an appended part) is flagged once, and the
// first-seen move stands; an ignored chatter post edited into other chatter is not flagged.
func TestEditedPostsFlaggedOnlyWhenForTheGame(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
	r := newRig(t, start, crusadeFactory(t, start))
	r.cycle(t)
	r.clock.Set(start.Add(65 * time.Minute))
	chat := r.post(t, "snovaya", "Удачи всем!")
	r.cycle(t)
	if err := r.board.EditPost(r.ctx, "snovaya", chat, "Удачи всем! И хорошего вечера.", ""); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(start.Add(66 * time.Minute))
	r.cycle(t)
	if flags, _ := r.st.OpenFlags(context.Background(), "g1"); len(flags) != 0 {
		t.Fatalf("chatter edited into chatter was flagged: %+v", flags)
	}
	if err := r.board.EditPost(r.ctx, "snovaya", chat, "1-й ход сарацина н2 на N3", ""); err != nil {
		t.Fatal(err)
	}
	r.clock.Set(start.Add(67 * time.Minute))
	r.cycle(t)
	r.clock.Set(start.Add(68 * time.Minute))
	r.cycle(t)
	flags, _ := r.st.OpenFlags(context.Background(), "g1")
	if len(flags) != 1 || flags[0].Kind != store.FlagEdited {
		t.Fatalf("chatter edited into a move must be flagged once: %+v", flags)
	}
	for _, b := range r.botTexts(t) {
		if strings.Contains(b, "н2: O2") {
			t.Fatalf("an edited post is not judged as a move: %s", b)
		}
	}
}

// MarkerCount tells a merged bot post (two messages, two marker lines) from a single one; an
// echoed marker inside a line is not counted.
func TestMarkerCount(t *testing.T) {
	// As the dialect reads a post: the marker's [size]/[color] tags rendered away.
	one := "Ход принят.\nfgm-g1-3-0123456789ab"
	two := one + "\n\nИтоги дня.\n fgm-g1-4-0123456789ab-p2 "
	for text, want := range map[string]int{one: 1, two: 2, "Вы писали: fgm-g1-5-0123456789ab": 0, "": 0} {
		if got := MarkerCount(text); got != want {
			t.Errorf("MarkerCount(%q) = %d, want %d", text, got, want)
		}
	}
}

// A post the page showed without its author or its text is for a person, not the referee; a
// missing date alone is not.
func TestMissingParts(t *testing.T) {
	for _, tc := range []struct {
		problems []forum.Problem
		want     string
	}{
		{nil, ""},
		{[]forum.Problem{{Kind: forum.ProblemTime, Detail: "no date"}}, ""},
		{[]forum.Problem{forum.NotFound(forum.ProblemAuthor, ".author")}, "author"},
		{[]forum.Problem{forum.NotFound(forum.ProblemAuthor, "x"), forum.NotFound(forum.ProblemText, "y")}, "author and text"},
	} {
		if got := missingParts(forum.Post{Problems: tc.problems}); got != tc.want {
			t.Errorf("missingParts(%v) = %q, want %q", tc.problems, got, tc.want)
		}
	}
}

// A bot account shared by several games: a private message from someone who neither plays this
// game nor moderates it is left to the other games (not answered as one this game cannot use);
// this game's players are still answered. Without sharing, the stranger is answered.
func TestSharedInbox(t *testing.T) {
	for _, shared := range []bool{false, true} {
		start := time.Date(2026, 12, 1, 18, 0, 0, 0, msk)
		r := newRig(t, start, crusadeFactory(t, start))
		r.d = r.newDaemon(t, crusadeFactory(t, start), func(o *Options) { o.SharedInbox = shared })
		r.cycle(t)
		r.clock.Set(start.Add(65 * time.Minute))
		if err := r.board.SendPM(r.ctx, "Вася", "gm-bot", "приказы", "Такт 1: 57 в2 ловлю"); err != nil {
			t.Fatal(err)
		}
		if err := r.board.SendPM(r.ctx, "Джелу", "gm-bot", "вопрос", "Привет! Как дела?"); err != nil {
			t.Fatal(err)
		}
		r.cycle(t)
		to := map[string]int{}
		for _, name := range []string{"Вася", "Джелу"} {
			pms, err := r.board.PMs(r.ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, pm := range pms {
				if pm.From == "gm-bot" && pm.Folder == 1 {
					to[name]++
				}
			}
		}
		if to["Джелу"] != 1 {
			t.Errorf("shared %v: the game's own player got %d answers", shared, to["Джелу"])
		}
		if want := map[bool]int{false: 1, true: 0}[shared]; to["Вася"] != want {
			t.Errorf("shared %v: another game's player got %d answers, want %d", shared, to["Вася"], want)
		}
	}
}

// A moderator's announcement posted while the thread's last post is the bot's own, within the
// hour: the board (MyBB's auto-merge, as the sandbox does it) appends it to that post; the poster
// edits the post so the merged part starts with a visible header, once, and the post's markers
// stay where the poster looks for them (nothing is posted twice).
func TestMergedAnnouncementIsMarked(t *testing.T) {
	start := time.Date(2026, 12, 1, 19, 0, 0, 0, msk)
	r := newRig(t, start, fakeFactory)
	r.cycle(t)
	r.clock.Set(start.Add(10 * time.Minute))
	r.post(t, "Джелу", "мой ход: к1 на K16")
	r.cycle(t) // the bot's reply: a new post (the player's post is the last one)
	posts := len(r.botTexts(t))
	r.clock.Set(start.Add(20 * time.Minute))
	c := store.Commit{Game: "g1", Outbox: []store.OutboxItem{{Kind: store.OutboxReply, Body: "[b]Объявление модератора:[/b] завтра играем с 20:00."}}}
	if err := r.st.Commit(r.ctx, c); err != nil {
		t.Fatal(err)
	}
	r.cycle(t)
	texts := r.botTexts(t)
	if len(texts) != posts {
		t.Fatalf("the sandbox must merge the announcement into the bot's reply: %d posts, want %d", len(texts), posts)
	}
	got := texts[len(texts)-1]
	want := "[hr]\n[b]Новое сообщение бота · 19:20[/b]\n[b]Объявление модератора:[/b]"
	if !strings.Contains(got, want) || strings.Count(got, "Новое сообщение бота") != 1 {
		t.Fatalf("the merged announcement is not marked at its top:\n%s", got)
	}
	if strings.Count(got, "fgm-g1-") != 2 || !strings.HasPrefix(got, "Ход 1 принят") {
		t.Fatalf("the merged post:\n%s", got)
	}
	r.clock.Set(start.Add(25 * time.Minute))
	r.cycle(t)
	assertExactlyOnce(t, r)
}

// withHeader puts the header at the top of the part sent, once, and refuses a text that does not
// hold the part.
func TestWithHeader(t *testing.T) {
	sent := "Объявление.\nВторая строка.\n[size=1][color=#b0b0b0]fgm-g1-4-0123456789ab[/color][/size]"
	old := "Ход 1.\nОбъявление.\n[size=1][color=#b0b0b0]fgm-g1-3-0123456789ab[/color][/size]\n[hr]\n"
	text := old + sent
	got, err := withHeader(text, sent, "[b]Н[/b]")
	if err != nil || got != old+"[b]Н[/b]\n"+sent {
		t.Fatalf("got %q %v", got, err)
	}
	if again, err := withHeader(got, sent, "[b]Н[/b]"); err != nil || again != got {
		t.Fatalf("twice: %q %v", again, err)
	}
	if _, err := withHeader(old, sent, "[b]Н[/b]"); err == nil {
		t.Fatal("a text without the part")
	}
}
