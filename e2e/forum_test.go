package e2e

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"forumgm/daemon"
	"forumgm/dialects"
	"forumgm/dialects/mybb"
	"forumgm/forum"
	"forumgm/sandbox"
)

// The dialect satisfies forum.SentFolder (crash recovery of PMs).
var _ forum.SentFolder = (*mybb.Forum)(nil)

// Logging in: the dialect is registered as "mybb" and logs in to the sandbox with the login form;
// the session it gets is a member's (reading the inbox needs no second login); a wrong password is
// forum.ErrBadLogin, without the password in the message, and nothing gets posted with it.
func TestLogin(t *testing.T) {
	b := newBoard(t, nil)
	tid, _ := b.thread("Крестовый поход", post{botName, "Партия начинается."})

	f, err := dialects.Registry(dialects.Options{}).Open("mybb", b.config(botName, botPass))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Login(b.ctx); err != nil {
		t.Fatalf("forum.Open(\"mybb\").Login: %v", err)
	}

	bot := b.dial(botName, botPass)
	if err := bot.Login(b.ctx); err != nil {
		t.Fatal(err)
	}
	if got := bot.rec.since(0); !slices.Equal(got, []string{"GET /member.php?action=login", "POST /member.php"}) {
		t.Errorf("login requests %q", got)
	}
	m := bot.rec.mark()
	if _, _, err := bot.Inbox(b.ctx, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	if n := bot.rec.count(m, "POST /member.php"); n != 0 {
		t.Errorf("%d logins reading the inbox right after logging in: the session did not hold", n)
	}

	bad := b.dial(botName, "not-the-password")
	err = bad.Login(b.ctx)
	if !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("wrong password: %v, want ErrBadLogin", err)
	}
	if strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("the password is in the error: %v", err)
	}
	if _, _, err := bad.Reply(b.ctx, forum.Thread{ID: itoa(tid)}, "Этого не должно быть на форуме."); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("reply with a wrong password: %v, want ErrBadLogin", err)
	}
	if n := len(b.stored(tid)); n != 1 {
		t.Errorf("%d posts after a refused login, want 1", n)
	}
}

// Reading a two-page thread from an empty cursor gives every post in order with its id, author,
// author id and time, quotes separated from the author's own text, code blocks verbatim. An idle
// poll is then exactly one request and returns nothing; a new post comes in the next poll; posts
// that open a third page come too.
func TestReadTwoPageThread(t *testing.T) {
	b := newBoard(t, noFloodNoMerge)
	const code = "    A  B  C\n 8 к1 .  .\n 7 .  в1 .\nfunc main() {\n    x := \"<b>\" // два  пробела\n}"
	posts := []post{
		{botName, "Партия начинается.\nПравила: [b]один ход[/b] за пост."},
		{p1Name, "1-й ход крестоносца в1 на C5"},
		{p2Name, "PLACEHOLDER quote of post 2"},
		{botName, "Доска:\n[code]" + code + "[/code]\nХод snovaya."},
		{p2Name, "сарацин н2 G5 → F4 :)"},
		{p1Name, "Вопрос: а [i]рокировка[/i] есть?"},
		{botName, "Нет, нельзя."},
		{p1Name, "Понял, ход в1 C5-D6"},
		{p2Name, "жду хода"},
		{botName, "Ход принят."},
	}
	// Post 3 quotes post 2 the way MyBB's reply form pre-fills a quote; it is written once the
	// quoted post's id is known.
	tid, pid1, err := b.sb.NewThread(b.ctx, posts[0].author, sandbox.DefaultFID, "Крестовый поход — партия 1", posts[0].text)
	if err != nil {
		t.Fatal(err)
	}
	pids := []int{pid1}
	times := []time.Time{start}
	for i, p := range posts[1:] {
		b.clock.Advance(time.Minute)
		text := p.text
		if i+1 == 2 {
			text = fmt.Sprintf("[quote=\"%s\" pid='%d' dateline='%d']\n%s\n[/quote]\n\nПротестую!", p1Name, pids[1], times[1].Unix(), posts[1].text)
			posts[2].text = text
		}
		pid, _, err := b.sb.Reply(b.ctx, p.author, tid, text)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
		times = append(times, b.clock.Now())
	}
	b.clock.Advance(90 * time.Minute) // every date on the page is "N hours ago" now

	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	got, cur, err := bot.Posts(b.ctx, th, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if reqs := bot.rec.since(0); len(reqs) != 2 || !strings.HasSuffix(reqs[1], "&page=2") {
		t.Errorf("requests for a two-page thread: %q", reqs)
	}
	if len(got) != len(posts) {
		t.Fatalf("%d posts, want %d", len(got), len(posts))
	}
	uid := map[string]string{botName: botUID, p1Name: p1UID, p2Name: "3"}
	for i, p := range got {
		if p.ID != itoa(pids[i]) || p.Author != posts[i].author || p.AuthorID != uid[posts[i].author] || !p.Time.Equal(times[i]) {
			t.Errorf("post %d: id %s author %s (%s) time %v; want %d %s (%s) %v", i, p.ID, p.Author, p.AuthorID, p.Time,
				pids[i], posts[i].author, uid[posts[i].author], times[i])
		}
		if !strings.Contains(p.Permalink, "pid="+itoa(pids[i])) {
			t.Errorf("post %d: permalink %q", i, p.Permalink)
		}
		if p.Edited {
			t.Errorf("post %d shows an edit mark", i)
		}
	}
	wantText := map[int]string{
		0: "Партия начинается.\nПравила: один ход за пост.",
		1: "1-й ход крестоносца в1 на C5",
		2: "Протестую!",
		4: "сарацин н2 G5 → F4 :)",
		5: "Вопрос: а рокировка есть?",
	}
	for i, want := range wantText {
		if got[i].Text != want {
			t.Errorf("post %d text %q, want %q", i, got[i].Text, want)
		}
	}
	if q := got[2].Quotes; len(q) != 1 || q[0].Author != p1Name || q[0].PostID != itoa(pids[1]) || q[0].Text != posts[1].text {
		t.Errorf("quote of post 3: %+v", q)
	}
	for i, p := range got {
		if i != 2 && len(p.Quotes) != 0 {
			t.Errorf("post %d has quotes %+v", i, p.Quotes)
		}
	}
	// MyBB trims the block's leading spaces (the first line's indentation), nothing else.
	wantCode := strings.TrimLeft(code, " ")
	if c := got[3].Code; len(c) != 1 || c[0] != wantCode {
		t.Errorf("code block:\n%q\nwant\n%q", c, wantCode)
	}
	if !strings.Contains(got[3].Text, wantCode) || !strings.HasPrefix(got[3].Text, "Доска:\n") || !strings.HasSuffix(got[3].Text, "\nХод snovaya.") {
		t.Errorf("text around the code block: %q", got[3].Text)
	}
	if cur.PostID != itoa(pids[9]) || cur.Page != 2 {
		t.Errorf("cursor %+v, want post %d on page 2", cur, pids[9])
	}

	// Idle: one request (the lastpost redirect, not followed), nothing new, the same cursor.
	m := bot.rec.mark()
	idle, cur2, err := bot.Posts(b.ctx, th, cur)
	if err != nil || len(idle) != 0 || cur2 != cur {
		t.Fatalf("idle poll: %d posts %+v %v", len(idle), cur2, err)
	}
	if reqs := bot.rec.since(m); len(reqs) != 1 || !strings.Contains(reqs[0], "action=lastpost") {
		t.Errorf("idle poll made %d requests %q, want the lastpost redirect only", len(reqs), reqs)
	}

	// A new post arrives on the last page.
	b.clock.Advance(time.Minute)
	pid, _, err := b.sb.Reply(b.ctx, p1Name, tid, "2-й ход: в1 D6-E7")
	if err != nil {
		t.Fatal(err)
	}
	m = bot.rec.mark()
	fresh, cur3, err := bot.Posts(b.ctx, th, cur2)
	if err != nil || len(fresh) != 1 || fresh[0].ID != itoa(pid) || fresh[0].Text != "2-й ход: в1 D6-E7" || fresh[0].Author != p1Name {
		t.Fatalf("after a new post: %+v %v", fresh, err)
	}
	// The redirect names a newer post, then the cursor's page is read.
	if cur3.PostID != itoa(pid) || cur3.Page != 2 || len(bot.rec.since(m)) != 2 {
		t.Errorf("cursor %+v after %q", cur3, bot.rec.since(m))
	}

	// Six more: page 2 fills up and page 3 opens; after the redirect both are read, nothing else.
	var more []string
	for i := range 6 {
		b.clock.Advance(time.Minute)
		pid, _, err := b.sb.Reply(b.ctx, []string{p2Name, p1Name}[i%2], tid, fmt.Sprintf("реплика %d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		more = append(more, itoa(pid))
	}
	m = bot.rec.mark()
	fresh, cur4, err := bot.Posts(b.ctx, th, cur3)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range fresh {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, more) || cur4.PostID != more[5] || cur4.Page != 3 {
		t.Errorf("posts %v cursor %+v, want %v on page 3", ids, cur4, more)
	}
	if reqs := bot.rec.since(m); len(reqs) != 3 {
		t.Errorf("requests %q, want the lastpost redirect, page 2 and page 3", reqs)
	}
}

// Posting a reply returns the new post's id; the board has that post with the bot as author and
// the exact text; reading the thread gives it back.
func TestReplyLearnsItsID(t *testing.T) {
	b := newBoard(t, nil)
	tid, pids := b.thread("Крестовый поход", post{p1Name, "Начинаем?"}, post{p2Name, "Да, начинаем."})
	b.clock.Advance(5 * time.Minute)

	bot := b.dial(botName, botPass)
	body := "Ход принят: [b]в1[/b] C5 → D6.\nСледующий ход: Джелу.\n\n[code]  A B\n1 . в1[/code]"
	id, merged, err := bot.Reply(b.ctx, forum.Thread{ID: itoa(tid)}, body)
	if err != nil || merged {
		t.Fatalf("reply: %q merged=%v %v", id, merged, err)
	}
	ps := b.stored(tid)
	last := ps[len(ps)-1]
	if len(ps) != 3 || itoa(last.PID) != id || last.Author != botName || last.Message != body || last.PID <= pids[1] {
		t.Fatalf("board has %d posts, last %+v; reply id %s", len(ps), last, id)
	}
	got, _, err := bot.Posts(b.ctx, forum.Thread{ID: itoa(tid)}, forum.Cursor{PostID: itoa(pids[1])})
	if err != nil || len(got) != 1 || got[0].ID != id || got[0].Author != botName ||
		got[0].Text != "Ход принят: в1 C5 → D6.\nСледующий ход: Джелу.\n\nA B\n1 . в1" || !got[0].Time.Equal(b.clock.Now()) {
		t.Fatalf("read back: %+v %v", got, err)
	}
}

// A player's post quoting the bot's post (as MyBB's reply form pre-fills the quote) comes back
// with the quote apart: the bot as its author, the bot's post id, the bot's text; the player's own
// text without it.
func TestQuoteOfTheBot(t *testing.T) {
	b := newBoard(t, nil)
	tid, _ := b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	b.clock.Advance(5 * time.Minute)
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	botText := "Ход принят: сарацин н2 G5 → F4.\nХод Джелу."
	id, _, err := bot.Reply(b.ctx, th, botText)
	if err != nil {
		t.Fatal(err)
	}
	_, cur, err := bot.Posts(b.ctx, th, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	b.clock.Advance(3 * time.Minute)
	var botPost sandbox.StoredPost
	for _, p := range b.stored(tid) {
		if itoa(p.PID) == id {
			botPost = p
		}
	}
	quoting := fmt.Sprintf("[quote=\"%s\" pid='%d' dateline='%d']\n%s\n[/quote]\n\nА почему не F3?", botName, botPost.PID, botPost.Time.Unix(), botPost.Message)
	pid, _, err := b.sb.Reply(b.ctx, p1Name, tid, quoting)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := bot.Posts(b.ctx, th, cur)
	if err != nil || len(got) != 1 || got[0].ID != itoa(pid) {
		t.Fatalf("%+v %v", got, err)
	}
	p := got[0]
	if p.Text != "А почему не F3?" || p.Author != p1Name {
		t.Errorf("own text %q by %s", p.Text, p.Author)
	}
	if len(p.Quotes) != 1 || p.Quotes[0].Author != botName || p.Quotes[0].PostID != id || p.Quotes[0].Text != botText {
		t.Errorf("quotes %+v, want the bot's post %s", p.Quotes, id)
	}
}

// Flood control: two bot replies in a row. The board refuses the second ("Please wait 61 more
// seconds": MyBB counts postfloodsecs - elapsed + 1); the flood error comes back, the message waits
// that out as the daemon's outbox does (the account advances the board's clock) and the reply is
// made once, at the time the wait ends.
// Merging is off here: with it on, MyBB merges instead and skips the flood check.
func TestFloodControlWaitAndRecover(t *testing.T) {
	b := newBoard(t, func(o *sandbox.Options) { o.MergeMinutes = -1 })
	tid, _ := b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	b.clock.Advance(5 * time.Minute)
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}
	first, _, err := bot.Reply(b.ctx, th, "Первый ответ бота.")
	if err != nil {
		t.Fatal(err)
	}
	posted := b.clock.Now()

	// What the board asks for, seen without acting on it.
	_, _, err = bot.ReplyOnce(b.ctx, th, "Второй ответ бота.")
	var fe *forum.FloodError
	if !errors.As(err, &fe) || fe.Wait != 61*time.Second {
		t.Fatalf("second reply at once: %v, want a flood error asking for 61s", err)
	}
	if n := len(b.stored(tid)); n != 2 {
		t.Fatalf("%d posts after a refused reply", n)
	}

	second, merged, err := bot.Reply(b.ctx, th, "Второй ответ бота.")
	if err != nil || merged || second == first {
		t.Fatalf("second reply: %q merged=%v %v", second, merged, err)
	}
	waits := bot.slept()
	// The daemon waits the board's 61 s plus its one-second safety margin (daemon.Drain); one wait,
	// no second refusal.
	if len(waits) != 1 || waits[0] != fe.Wait+time.Second {
		t.Fatalf("waits %v, want [%v] (the board's %v + 1s margin)", waits, fe.Wait+time.Second, fe.Wait)
	}
	ps := b.stored(tid)
	if len(ps) != 3 || itoa(ps[2].PID) != second || ps[2].Message != "Второй ответ бота." || !ps[2].Time.Equal(posted.Add(waits[0])) {
		t.Fatalf("board: %+v", ps)
	}
}

// Auto-merge: with merging on and flood control off, a second bot reply within the hour is
// appended to the first (same id, merged=true), and the thread shows one post holding both texts
// separated by [hr] and an edit mark. A fresh Forum (a restarted daemon that has read nothing)
// recognises a merge too; after an hour a reply is a new post again.
func TestAutoMergeRecognised(t *testing.T) {
	b := newBoard(t, func(o *sandbox.Options) { o.FloodSeconds, o.PMFloodSeconds = -1, -1 })
	tid, _ := b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	b.clock.Advance(5 * time.Minute)
	bot := b.dial(botName, botPass)
	th := forum.Thread{ID: itoa(tid)}

	first, merged, err := bot.Reply(b.ctx, th, "Ход принят.")
	if err != nil || merged {
		t.Fatalf("first: %q %v %v", first, merged, err)
	}
	b.clock.Advance(10 * time.Minute)
	second, merged, err := bot.Reply(b.ctx, th, "Позиция обновлена.")
	if err != nil || !merged || second != first {
		t.Fatalf("second: %q merged=%v %v; want %s merged", second, merged, err, first)
	}
	ps := b.stored(tid)
	if len(ps) != 2 || itoa(ps[1].PID) != first || ps[1].Message != "Ход принят.\n[hr]\nПозиция обновлена." {
		t.Fatalf("board: %+v", ps)
	}
	got, _, err := bot.Posts(b.ctx, th, forum.Cursor{})
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if p := got[1]; p.ID != first || p.Text != "Ход принят.\n\nПозиция обновлена." || !p.Edited {
		t.Errorf("merged post as read: %+v", p)
	}

	b.clock.Advance(10 * time.Minute)
	restarted := b.dial(botName, botPass)
	third, merged, err := restarted.Reply(b.ctx, th, "Третья часть.")
	if err != nil || !merged || third != first {
		t.Fatalf("after a restart: %q merged=%v %v; want %s merged", third, merged, err, first)
	}

	b.clock.Advance(61 * time.Minute)
	fourth, merged, err := restarted.Reply(b.ctx, th, "Через час: новый пост.")
	if err != nil || merged || fourth == first {
		t.Fatalf("an hour later: %q merged=%v %v", fourth, merged, err)
	}
	if n := len(b.stored(tid)); n != 3 {
		t.Errorf("%d posts, want 3", n)
	}
}

// Private messages both ways: the bot's message is in the player's inbox (read through the dialect
// logged in as the player) with its text; the players' messages to the bot are read with Inbox
// from a cursor, each once; a poll with nothing new is one request.
func TestPrivateMessages(t *testing.T) {
	b := newBoard(t, nil)
	bot := b.dial(botName, botPass)
	player := b.dial(p1Name, p1Pass)

	body := "Джелу, ваш ход.\n[code]  A B\n1 в1 .[/code]\nОтветьте до 21:00."
	if err := bot.SendPM(b.ctx, p1Name, "Партия 1: ваш ход", body); err != nil {
		t.Fatal(err)
	}
	got, cur, err := player.Inbox(b.ctx, forum.Cursor{})
	if err != nil || len(got) != 1 {
		t.Fatalf("player's inbox: %+v %v", got, err)
	}
	pm := got[0]
	if pm.Author != botName || pm.AuthorID != botUID || pm.Subject != "Партия 1: ваш ход" ||
		pm.Text != "Джелу, ваш ход.\nA B\n1 в1 .\nОтветьте до 21:00." || len(pm.Code) != 1 || !pm.Time.Equal(start) || cur.PostID != pm.ID {
		t.Errorf("PM as the player reads it: %+v cursor %+v", pm, cur)
	}

	// A second message from the bot at once meets PM flood control, waits and is sent.
	if err := bot.SendPM(b.ctx, p1Name, "Партия 1: напоминание", "Джелу, ход ждёт."); err != nil {
		t.Fatal(err)
	}
	if w := bot.slept(); len(w) != 1 || w[0] != 62*time.Second {
		t.Errorf("PM flood waits %v, want [62s] (the board's 61 s + 1 s margin)", w)
	}
	got, cur, err = player.Inbox(b.ctx, cur)
	if err != nil || len(got) != 1 || got[0].Text != "Джелу, ход ждёт." || !got[0].Time.Equal(start.Add(62*time.Second).Truncate(time.Minute)) {
		t.Fatalf("player's inbox after the cursor: %+v %v", got, err)
	}

	if err := player.SendPM(b.ctx, botName, "Вопрос", "Когда следующий ход?"); err != nil {
		t.Fatal(err)
	}
	in, bcur, err := bot.Inbox(b.ctx, forum.Cursor{})
	if err != nil || len(in) != 1 || in[0].Author != p1Name || in[0].Text != "Когда следующий ход?" || in[0].Subject != "Вопрос" {
		t.Fatalf("bot's inbox: %+v %v", in, err)
	}

	b.clock.Advance(2 * time.Minute) // past the PM flood interval
	if err := player.SendPM(b.ctx, botName, "Ход", "1-й ход крестоносца в1 на C5"); err != nil {
		t.Fatal(err)
	}
	in2, bcur2, err := bot.Inbox(b.ctx, bcur)
	if err != nil || len(in2) != 1 || in2[0].Text != "1-й ход крестоносца в1 на C5" || in2[0].ID == in[0].ID || bcur2.PostID != in2[0].ID {
		t.Fatalf("after the cursor: %+v %+v %v", in2, bcur2, err)
	}
	m := bot.rec.mark()
	none, bcur3, err := bot.Inbox(b.ctx, bcur2)
	if err != nil || len(none) != 0 || bcur3 != bcur2 {
		t.Fatalf("nothing new: %+v %+v %v", none, bcur3, err)
	}
	if reqs := bot.rec.since(m); len(reqs) != 1 {
		t.Errorf("an empty inbox poll made %q", reqs)
	}
	stored, err := b.sb.PMs(b.ctx, botName)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stored {
		if s.Folder == 1 && !s.Read {
			t.Errorf("PM %d not marked read after the bot read it", s.PMID)
		}
	}
}

// The bot's Sent Items: every message it sent, read in full (the daemon finds a PM's marker there
// after a crash), oldest first, from a cursor; the sender's copy has its own pmid.
func TestSentFolder(t *testing.T) {
	b := newBoard(t, nil)
	bot := b.dial(botName, botPass)
	marker1, marker2 := "fgm-crusade1-1-abc123", "fgm-crusade1-2-def456"
	if err := bot.SendPM(b.ctx, p1Name, "Партия 1: ваш ход", daemon.Mark("Джелу, ваш ход.", marker1)); err != nil {
		t.Fatal(err)
	}
	b.clock.Advance(2 * time.Minute)
	if err := bot.SendPM(b.ctx, p2Name, "Партия 1: ждите", daemon.Mark("snovaya, ждите.", marker2)); err != nil {
		t.Fatal(err)
	}
	sent, cur, err := bot.Sent(b.ctx, forum.Cursor{})
	if err != nil || len(sent) != 2 {
		t.Fatalf("%+v %v", sent, err)
	}
	// The marker line is searched the way the daemon does (a whole token in the text).
	hasMarker := func(text, m string) bool {
		i := strings.Index(text, m)
		return i >= 0 && (i+len(m) == len(text) || !strings.ContainsAny(text[i+len(m):i+len(m)+1], "-0123456789abcdefghijklmnopqrstuvwxyz"))
	}
	if !strings.HasPrefix(sent[0].Text, "Джелу, ваш ход.\n") || !hasMarker(sent[0].Text, marker1) || hasMarker(sent[0].Text, marker2) ||
		sent[0].Subject != "Партия 1: ваш ход" || sent[0].Author != botName || !sent[0].Time.Equal(start) ||
		!strings.HasPrefix(sent[1].Text, "snovaya, ждите.\n") || !hasMarker(sent[1].Text, marker2) ||
		!sent[1].Time.Equal(start.Add(2*time.Minute)) || cur.PostID != sent[1].ID {
		t.Errorf("sent: %+v cursor %+v", sent, cur)
	}
	// The recipient's copy is another message.
	inbox, _, err := b.dial(p1Name, p1Pass).Inbox(b.ctx, forum.Cursor{})
	if err != nil || len(inbox) != 1 || inbox[0].ID == sent[0].ID || inbox[0].Text != sent[0].Text {
		t.Errorf("recipient's copy %+v %v", inbox, err)
	}

	m := bot.rec.mark()
	none, cur2, err := bot.Sent(b.ctx, cur)
	if err != nil || len(none) != 0 || cur2 != cur || len(bot.rec.since(m)) != 1 {
		t.Errorf("nothing new: %+v %+v %v %q", none, cur2, err, bot.rec.since(m))
	}
	b.clock.Advance(2 * time.Minute)
	if err := bot.SendPM(b.ctx, p1Name, "Партия 1: итог", "Партия окончена."); err != nil {
		t.Fatal(err)
	}
	more, _, err := bot.Sent(b.ctx, cur)
	if err != nil || len(more) != 1 || more[0].Text != "Партия окончена." {
		t.Errorf("after the cursor: %+v %v", more, err)
	}
}

// A lost session (the board dropped it) is noticed and the dialect logs in again, once, for a
// reply, a reply whose form was read just before the session went, the inbox and a PM.
func TestSessionLostLoginAgain(t *testing.T) {
	b := newBoard(t, noFloodNoMerge)
	tid, _ := b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	th := forum.Thread{ID: itoa(tid)}
	bot := b.dial(botName, botPass)
	if err := bot.Login(b.ctx); err != nil {
		t.Fatal(err)
	}
	drop := func() {
		t.Helper()
		if err := b.sb.DropSessions(b.ctx, botName); err != nil {
			t.Fatal(err)
		}
	}
	loginsSince := func(m int) int { return bot.rec.count(m, "POST /member.php") }

	drop()
	m := bot.rec.mark()
	id1, _, err := bot.Reply(b.ctx, th, "Ответ после потери сессии.")
	if err != nil {
		t.Fatalf("reply after the session was dropped: %v", err)
	}
	if n := loginsSince(m); n != 1 {
		t.Errorf("%d logins, want 1: %q", n, bot.rec.since(m))
	}

	// The session goes between reading the form and sending it: the POST is refused (guest), the
	// dialect logs in and sends a fresh form.
	var once bool
	bot.rec.setHook(func(r *http.Request) {
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/newreply.php") && !once {
			once = true
			if err := b.sb.DropSessions(b.ctx, botName); err != nil {
				t.Error(err)
			}
		}
	})
	b.clock.Advance(time.Minute)
	m = bot.rec.mark()
	id2, _, err := bot.Reply(b.ctx, th, "Ответ, чья форма устарела.")
	bot.rec.setHook(nil)
	if err != nil || !once {
		t.Fatalf("reply with the session lost mid-way: %v (hook ran: %v)", err, once)
	}
	if n, posts := loginsSince(m), bot.rec.count(m, "POST /newreply.php"); n != 1 || posts != 2 {
		t.Errorf("%d logins and %d reply POSTs, want 1 and 2: %q", n, posts, bot.rec.since(m))
	}
	ps := b.stored(tid)
	if len(ps) != 3 || itoa(ps[1].PID) != id1 || itoa(ps[2].PID) != id2 || ps[2].Message != "Ответ, чья форма устарела." {
		t.Errorf("board: %+v", ps)
	}

	if err := b.sb.SendPM(b.ctx, p1Name, botName, "Вопрос", "Есть кто?"); err != nil {
		t.Fatal(err)
	}
	drop()
	m = bot.rec.mark()
	in, _, err := bot.Inbox(b.ctx, forum.Cursor{})
	if err != nil || len(in) != 1 || in[0].Text != "Есть кто?" || loginsSince(m) != 1 {
		t.Errorf("inbox after the session was dropped: %+v %v, %d logins", in, err, loginsSince(m))
	}

	drop()
	m = bot.rec.mark()
	if err := bot.SendPM(b.ctx, p1Name, "Ответ", "Есть, ведущий на месте."); err != nil || loginsSince(m) != 1 {
		t.Errorf("PM after the session was dropped: %v, %d logins", err, loginsSince(m))
	}
}

// A windows-1251 board: pages come in cp1251 (characters outside it as &#NNNN;), Cyrillic and
// "→", "♞" read back right; the bot's reply is sent in cp1251 and the board stores the Cyrillic
// exactly (and, as a real cp1251 MyBB does, the characters cp1251 lacks as &#NNNN;), which reads
// back as the characters themselves.
func TestWindows1251Board(t *testing.T) {
	b := newBoard(t, func(o *sandbox.Options) { o.Charset = "windows-1251" })
	text := "Ход: ферзь ♞ G5 → F4, «ёлка» Ё — ок"
	tid, pids := b.thread("Шахматы — партия", post{p1Name, text})
	th := forum.Thread{ID: itoa(tid)}

	resp, err := http.Get(b.base + "/showthread.php?tid=" + itoa(tid))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "windows-1251") || utf8.Valid(raw) || !strings.Contains(string(raw), "&#9822;") {
		t.Fatalf("the board does not serve cp1251 (Content-Type %q, valid UTF-8 %v)", ct, utf8.Valid(raw))
	}

	bot := b.dial(botName, botPass)
	got, cur, err := bot.Posts(b.ctx, th, forum.Cursor{})
	if err != nil || len(got) != 1 || got[0].Text != text || got[0].Author != p1Name || got[0].ID != itoa(pids[0]) {
		t.Fatalf("read: %+v %v", got, err)
	}

	b.clock.Advance(5 * time.Minute)
	reply := "Принято: ферзь ♞ G5 → F4. Щука, ёж, «Ё»."
	id, _, err := bot.Reply(b.ctx, th, reply)
	if err != nil {
		t.Fatal(err)
	}
	ps := b.stored(tid)
	if want := "Принято: ферзь &#9822; G5 &#8594; F4. Щука, ёж, «Ё»."; len(ps) != 2 || itoa(ps[1].PID) != id || ps[1].Message != want {
		t.Fatalf("stored %q, want %q", ps[len(ps)-1].Message, want)
	}
	back, _, err := bot.Posts(b.ctx, th, cur)
	if err != nil || len(back) != 1 || back[0].Text != reply {
		t.Fatalf("read back: %+v %v", back, err)
	}

	// A Cyrillic account logs in and writes through cp1251 forms (user name, recipient, subject and
	// text all encoded in cp1251), and the bot's PM to it is addressed by its Cyrillic name.
	player := b.dial(p1Name, p1Pass)
	if err := player.SendPM(b.ctx, botName, "Вопрос о ходе", "Можно ли ходить ферзём → назад?"); err != nil {
		t.Fatalf("PM from a Cyrillic account on a cp1251 board: %v", err)
	}
	in, _, err := bot.Inbox(b.ctx, forum.Cursor{})
	if err != nil || len(in) != 1 || in[0].Author != p1Name || in[0].Subject != "Вопрос о ходе" || in[0].Text != "Можно ли ходить ферзём → назад?" {
		t.Fatalf("bot's inbox: %+v %v", in, err)
	}
	if err := bot.SendPM(b.ctx, p1Name, "Ответ", "Нет, ферзь ходит вперёд."); err != nil {
		t.Fatalf("PM to a Cyrillic name on a cp1251 board: %v", err)
	}
	if pin, _, err := player.Inbox(b.ctx, forum.Cursor{}); err != nil || len(pin) != 1 || pin[0].Text != "Нет, ферзь ходит вперёд." {
		t.Fatalf("player's inbox: %+v %v", pin, err)
	}

	// The charset changes under a running Forum (the board was switched back to UTF-8).
	b.sb.SetCharset("UTF-8")
	b.clock.Advance(5 * time.Minute)
	pid, _, err := b.sb.Reply(b.ctx, p2Name, tid, "Снова UTF-8: ♞ → ♘")
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := bot.Posts(b.ctx, th, forum.Cursor{PostID: id})
	if err != nil || len(after) != 1 || after[0].ID != itoa(pid) || after[0].Text != "Снова UTF-8: ♞ → ♘" {
		t.Fatalf("after switching to UTF-8: %+v %v", after, err)
	}
}

// A message under the board's minimum length is forum.ErrTooShort, at once, and nothing is posted.
func TestTooShort(t *testing.T) {
	b := newBoard(t, nil)
	tid, _ := b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	bot := b.dial(botName, botPass)
	for _, body := range []string{"ok", "  ok  \n"} {
		id, merged, err := bot.Reply(b.ctx, forum.Thread{ID: itoa(tid)}, body)
		if !errors.Is(err, forum.ErrTooShort) || id != "" || merged {
			t.Errorf("%q: %q %v %v, want ErrTooShort", body, id, merged, err)
		}
	}
	if n := len(b.stored(tid)); n != 1 {
		t.Errorf("%d posts, want 1", n)
	}
	if w := bot.slept(); len(w) != 0 {
		t.Errorf("waited %v", w)
	}
	if n := bot.rec.count(0, "POST /newreply.php"); n != 2 {
		t.Errorf("%d reply POSTs, want one per attempt (no retries)", n)
	}
}

// The board's other refusals come back typed: a thread that does not exist (reading and
// replying) and a recipient who does not exist are forum.ErrNotFound, never an empty result.
func TestMissingThreadAndRecipient(t *testing.T) {
	b := newBoard(t, nil)
	b.thread("Крестовый поход", post{p1Name, "Начинаем?"})
	bot := b.dial(botName, botPass)
	missing := forum.Thread{ID: "999"}
	if posts, _, err := bot.Posts(b.ctx, missing, forum.Cursor{}); !errors.Is(err, forum.ErrNotFound) || len(posts) != 0 {
		t.Errorf("reading a missing thread: %d posts, %v", len(posts), err)
	}
	if _, _, err := bot.Reply(b.ctx, missing, "Ответ в никуда."); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("replying to a missing thread: %v", err)
	}
	if err := bot.SendPM(b.ctx, "никто", "Тема", "Текст письма."); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("PM to a missing user: %v", err)
	}
	if w := bot.slept(); len(w) != 0 {
		t.Errorf("waited %v", w)
	}
}
