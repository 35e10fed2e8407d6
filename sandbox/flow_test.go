package sandbox

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html/charset"

	"forumgm/forum"
	"forumgm/internal/testkit"
)

var start = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func mustContain(t *testing.T, what, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("%s: missing %q", what, s)
		}
	}
}

func TestLogin(t *testing.T) {
	_, base := newBoard(t, true, testkit.NewClock(captureTime), nil)
	c := newClient(t, base)
	body, ok := c.login("gm-bot", "wrong")
	if ok {
		t.Fatal("logged in with a wrong password")
	}
	mustContain(t, "bad login", body, "Please correct the following errors before continuing:",
		"You have entered an invalid username/password combination.", `<input type="hidden" name="action" value="do_login" />`)

	body, ok = c.login("GM-BOT", "GmBotPass1") // names match case-insensitively
	if !ok {
		t.Fatalf("login failed:\n%s", body)
	}
	mustContain(t, "login", body, `<meta http-equiv="refresh" content="2;URL=`+base+`/showthread.php?tid=1" />`)
	u, _ := url.Parse(base)
	names := map[string]bool{}
	for _, ck := range c.hc.Jar.Cookies(u) {
		names[ck.Name] = true
	}
	if !names["sid"] || !names["mybbuser"] {
		t.Fatalf("cookies %v", names)
	}
	_, page := c.get("index.php")
	mustContain(t, "index", page, "Welcome back, ", ">gm-bot</a>", "member.php?action=logout&amp;logoutkey=")

	// Cyrillic user names log in too (also folded: "джелу").
	if _, ok := newClient(t, base).login("джелу", "DzheluPass1"); !ok {
		t.Fatal("Cyrillic login failed")
	}

	// A login form posted with another session's key is refused.
	c2 := newClient(t, base)
	_, body = c2.postForm("member.php", url.Values{"action": {"do_login"}, "my_post_key": {"0123"}, "username": {"gm-bot"}, "password": {"GmBotPass1"}})
	mustContain(t, "login bad key", body, "Authorization code mismatch.")

	// Logging out needs the logout key.
	d := doc(t, page)
	href, _ := d.Find("a.logout").Attr("href")
	_, body = c.get(strings.TrimPrefix(href, base+"/"))
	mustContain(t, "logout", body, "You have successfully been logged out.")
	_, page = c.get("index.php")
	mustContain(t, "after logout", page, "Hello There, Guest!")
}

func TestReplyFlow(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, true, clock, nil)
	c := newClient(t, base)
	if _, ok := c.login("Джелу", "DzheluPass1"); !ok {
		t.Fatal("login")
	}

	// Success: the redirect page carries the new pid (18: 17 posts are seeded).
	pid, body := c.reply(1, "4-й ход крестоносца в3 на N5")
	if pid != 18 {
		t.Fatalf("reply pid %d:\n%s", pid, body)
	}
	mustContain(t, "success", body, "Thank you, your reply has been posted.",
		`<meta http-equiv="refresh" content="2;URL=showthread.php?tid=1&amp;pid=18#pid18" />`,
		`<a href="showthread.php?tid=1&amp;pid=18#pid18"><span class="smalltext">Click here if you don't want to wait any longer.</span></a>`)
	resp, page := c.get("showthread.php?tid=1&pid=18")
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	d := doc(t, page)
	if got := strings.TrimSpace(d.Find("div.post_body#pid_18").Text()); got != "4-й ход крестоносца в3 на N5" {
		t.Errorf("post 18 body %q", got)
	}
	if got := d.Find("input#lastpid").AttrOr("value", ""); got != "18" {
		t.Errorf("lastpid %q", got)
	}
	if got := d.Find("span.pagination_current").First().Text(); got != "3" {
		t.Errorf("pid 18 is on page %q, want 3", got)
	}

	// Flood: posting in another thread 1 s later (no merge there) is refused with the seconds.
	clock.Advance(time.Second)
	_, body = c.reply(2, "Записываюсь в партию 2.")
	mustContain(t, "flood", body, "You are trying to post a message too quickly after posting a previous message. Please wait 60 more seconds.")
	if strings.Contains(body, "Thank you") {
		t.Fatal("flooded post accepted")
	}
	clock.Advance(59 * time.Second) // 60 s after the post: still refused (MyBB checks <= 60)
	_, body = c.reply(2, "Записываюсь в партию 2.")
	mustContain(t, "flood at 60 s", body, "Please wait 1 more second.")
	clock.Advance(time.Second)
	pid, body = c.reply(2, "Записываюсь в партию 2.")
	if pid != 19 {
		t.Fatalf("after the flood window: pid %d\n%s", pid, body)
	}

	// Auto-merge: the same user's next post within 60 min, while theirs is the last post, is
	// appended to it ("[hr]"), with the same pid and a "last modified" mark; no flood check.
	clock.Advance(10 * time.Second)
	pid, body = c.reply(2, "И ещё: играю за крестоносцев.")
	if pid != 19 {
		t.Fatalf("merge: pid %d\n%s", pid, body)
	}
	mustContain(t, "merge", body, "Thank you, your reply has been posted.", "pid=19#pid19")
	posts, _ := s.Posts(t.Context(), 2)
	if len(posts) != 2 || posts[1].Message != "Записываюсь в партию 2.\n[hr]\nИ ещё: играю за крестоносцев." || posts[1].EditedBy != "Джелу" {
		t.Fatalf("merged post %+v", posts)
	}
	_, page = c.get("showthread.php?tid=2")
	d = doc(t, page)
	body19, _ := d.Find("div.post_body#pid_19").Html()
	mustContain(t, "merged body", body19, "Записываюсь в партию 2.<br/>\n<hr class=\"mycode_hr\"/>\nИ ещё")
	mustContain(t, "edit mark", squash(d.Find("span.post_edit#edited_by_19").Text()), "(This post was last modified: Less than 1 minute ago by Джелу.)")

	// After 60 minutes a new post is made again.
	clock.Advance(61 * time.Minute)
	if pid, body = c.reply(2, "Через час: новый пост."); pid != 20 {
		t.Fatalf("after merge window pid %d\n%s", pid, body)
	}

	// Too short, empty.
	clock.Advance(2 * time.Minute)
	_, body = c.reply(1, "ок")
	mustContain(t, "too short", body, "The message is too short. Please enter a message longer than 5 characters.", ">ок</textarea>")
	_, body = c.reply(1, "  ")
	mustContain(t, "empty", body, "The message is missing. Please enter a message.")

	// Bad key.
	_, page = c.get("newreply.php?tid=1")
	mustContain(t, "reply form", page, `name="my_post_key"`)
	_, body = c.postForm("newreply.php?tid=1&processed=1", url.Values{"my_post_key": {strings.Repeat("0", 32)},
		"action": {"do_newreply"}, "message": {"5-й ход крестоносца в3 на N6"}, "tid": {"1"}})
	mustContain(t, "bad key", body, `<td class="trow1">Authorization code mismatch. Are you accessing this function correctly? Please go back and try again.</td>`)

	// The quick reply form on the thread page posts too.
	_, page = c.get("showthread.php?tid=1")
	d = doc(t, page)
	v := url.Values{}
	d.Find("#quick_reply_form input[type=hidden]").Each(func(_ int, sel *goquery.Selection) {
		v.Set(sel.AttrOr("name", ""), sel.AttrOr("value", ""))
	})
	v.Set("message", "5-й ход крестоносца в3 на N6")
	_, body = c.postForm("newreply.php?tid=1&processed=1", v)
	mustContain(t, "quick reply", body, "pid=21#pid21")

	// Quote button → newreply with replyto pre-fills the quote.
	_, page = c.get("newreply.php?tid=1&replyto=18")
	mustContain(t, "quote", page, `[quote=&quot;Джелу&quot; pid='18' dateline='`, `<input type="hidden" name="replyto" value="18" />`)
}

func TestGuestAndLostSession(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, true, clock, nil)
	guest := newClient(t, base)
	_, body := guest.get("newreply.php?tid=1")
	mustContain(t, "guest newreply", body, "You are either not logged in or do not have permission to view this page.")
	_, body = guest.postForm("newreply.php?tid=1&processed=1", url.Values{"message": {"гостевой пост"}, "my_post_key": {"x"}})
	mustContain(t, "guest post", body, "You are either not logged in or do not have permission to view this page.")
	_, body = guest.get("private.php")
	mustContain(t, "guest pm", body, "You are either not logged in or do not have permission to view this page.")
	_, page := guest.get("showthread.php?tid=1")
	if doc(t, page).Find("#quick_reply_form").Length() != 0 {
		t.Error("guest sees the quick reply form")
	}

	bot := newClient(t, base)
	if _, ok := bot.login("gm-bot", "GmBotPass1"); !ok {
		t.Fatal("login")
	}
	_, form := bot.get("newreply.php?tid=1")
	oldKey := key(t, form)
	if err := s.DropSessions(t.Context(), "gm-bot"); err != nil {
		t.Fatal(err)
	}
	_, body = bot.get("newreply.php?tid=1")
	mustContain(t, "lost session", body, "You are either not logged in or do not have permission to view this page.")
	_, body = bot.postForm("newreply.php?tid=1&processed=1", url.Values{"my_post_key": {oldKey}, "action": {"do_newreply"}, "message": {"Ход принят, доска ниже."}})
	mustContain(t, "lost session post", body, "You are either not logged in or do not have permission to view this page.")
	_, page = bot.get("showthread.php?tid=1")
	mustContain(t, "lost session thread", page, "Hello There, Guest!")
	// Logging in again works, with a new key.
	if _, ok := bot.login("gm-bot", "GmBotPass1"); !ok {
		t.Fatal("re-login")
	}
	_, form = bot.get("newreply.php?tid=1")
	if key(t, form) == oldKey {
		t.Error("my_post_key unchanged after the session was dropped")
	}
	if err := s.DropAllSessions(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, body = bot.get("newreply.php?tid=1")
	mustContain(t, "all dropped", body, "You are either not logged in")
}

func TestPMFlow(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, true, clock, nil)
	bot := newClient(t, base)
	bot.login("gm-bot", "GmBotPass1")
	_, form := bot.get("private.php?action=send")
	d := doc(t, form)
	k := d.Find(`form[action="private.php"] input[name=my_post_key]`).AttrOr("value", "")
	send := func(to, subject, message string) string {
		_, body := bot.postForm("private.php", url.Values{"my_post_key": {k}, "to": {to}, "bcc": {""}, "subject": {subject},
			"icon": {"0"}, "message": {message}, "options[savecopy]": {"1"}, "action": {"do_send"}, "pmid": {"0"}, "do": {""}, "submit": {"Send Message"}})
		return body
	}
	body := send("Джелу", "Партия 1: ваш 3-й ход", "Джелу, ваш ход.\n[code]\n    A  B\n10|__|__|\n[/code]")
	mustContain(t, "pm sent", body, "Thank you, your private message has successfully been sent.", `content="2;URL=private.php"`)
	body = send("Джелу", "Ещё", "Второе сообщение")
	mustContain(t, "pm flood", body, "You are trying to send a message too quickly after sending a previous message. Please wait 61 more seconds.")
	clock.Advance(30 * time.Second)
	body = send("Джелу", "Ещё", "Второе сообщение")
	mustContain(t, "pm flood 30s", body, "Please wait 31 more seconds.")
	clock.Advance(30 * time.Second)
	body = send("Джелу", "Ещё", "Второе сообщение")
	mustContain(t, "pm after flood", body, "Thank you, your private message has successfully been sent.")
	clock.Advance(time.Minute)
	body = send("nobody", "x", "y")
	mustContain(t, "pm unknown", body, "One or more of the recipients you entered are not registered users: nobody")

	dz := newClient(t, base)
	dz.login("Джелу", "DzheluPass1")
	_, page := dz.get("index.php")
	mustContain(t, "pm notice", page, `<div class="pm_alert" id="pm_notice">`, "Ещё")
	_, inbox := dz.get("private.php")
	d = doc(t, inbox)
	links := d.Find(`a.new_pm[href^="private.php?action=read&pmid="]`)
	if links.Length() != 2 || links.First().Text() != "Ещё" {
		t.Fatalf("inbox: %d new, first %q", links.Length(), links.First().Text())
	}
	href := links.Last().AttrOr("href", "")
	_, read := dz.get(href)
	rd := doc(t, read)
	if got := rd.Find(".author_information span.largetext a").Text(); got != "gm-bot" {
		t.Errorf("pm author %q", got)
	}
	code, _ := rd.Find("div.post_body#pid_0 code").Html()
	if code != "A\u00a0\u00a0B<br/>\n10|__|__|" {
		t.Errorf("pm code %q", code)
	}
	if rd.Find("div.post_body#pid_0").Length() != 1 || !strings.Contains(rd.Find("textarea#message").Text(), "[quote=\"gm-bot\"]") {
		t.Error("pm read page structure")
	}
	_, inbox = dz.get("private.php")
	if n := doc(t, inbox).Find("a.old_pm").Length(); n != 1 {
		t.Errorf("old_pm after read: %d", n)
	}
	_, sent := bot.get("private.php?fid=2")
	if n := doc(t, sent).Find(`a[href^="private.php?action=read&pmid="]`).Length(); n != 2 {
		t.Errorf("sent items: %d", n)
	}
	// Go API view.
	pms, err := s.PMs(t.Context(), "Джелу")
	if err != nil || len(pms) != 2 || !pms[0].Read && !pms[1].Read {
		t.Errorf("PMs %+v %v", pms, err)
	}
}

func TestEditPost(t *testing.T) {
	clock := testkit.NewClock(start)
	_, base := newBoard(t, true, clock, nil)
	c := newClient(t, base)
	c.login("Джелу", "DzheluPass1")
	_, form := c.get("editpost.php?pid=10")
	d := doc(t, form)
	if got := d.Find("textarea#message").Text(); got != "2-й ход крестоносца в1 на Z9" {
		t.Fatalf("edit form text %q", got)
	}
	clock.Advance(time.Minute)
	v := url.Values{"my_post_key": {d.Find("form#editpost input[name=my_post_key]").AttrOr("value", "")},
		"subject": {d.Find("input[name=subject]").AttrOr("value", "")}, "message": {"2-й ход крестоносца в1 на B9"},
		"editreason": {"опечатка"}, "action": {"do_editpost"}, "submitbutton": {"Update Post"}}
	_, body := c.postForm("editpost.php?pid=10&processed=1", v)
	mustContain(t, "edit", body, "Thank you, this post has been edited.", `content="2;URL=showthread.php?tid=1&amp;pid=10#pid10"`)
	clock.Advance(90 * time.Second)
	_, page := c.get("showthread.php?pid=10")
	d = doc(t, page)
	if got := squash(d.Find("#edited_by_10").Text()); got != "(This post was last modified: 1 minute ago by Джелу. Edit Reason: опечатка )" {
		t.Errorf("edit mark %q", got)
	}
	if got := strings.TrimSpace(d.Find("#pid_10").Text()); got != "2-й ход крестоносца в1 на B9" {
		t.Errorf("edited body %q", got)
	}
	// Someone else's post: no permission.
	_, body = c.get("editpost.php?pid=1")
	mustContain(t, "edit other", body, "You are either not logged in")
}

func TestWindows1251(t *testing.T) {
	s, base := newBoard(t, true, testkit.NewClock(captureTime), func(o *Options) { o.Charset = "windows-1251" })
	c := newClient(t, base)
	resp, raw := c.get("showthread.php?tid=1")
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=windows-1251" {
		t.Fatalf("content type %q", ct)
	}
	if strings.Contains(raw, "Джелу") {
		t.Fatal("page is not cp1251-encoded")
	}
	r, err := charset.NewReader(strings.NewReader(raw), resp.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := io.Copy(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	mustContain(t, "decoded", page, `charset=windows-1251`, ">Джелу</a>", "Крестовый поход — партия 1") // "—" is in cp1251
	// "×" and "→" are not in cp1251: they are sent as character references.
	mustContain(t, "ncr", raw, " G8 &#8594; G5.", "20&#215;10")
	// A form posted from a cp1251 page is decoded.
	// (the browser sends the login form in cp1251 too)
	if _, ok := c.login(string(encodeCP1251("Джелу")), "DzheluPass1"); !ok {
		t.Fatal("cp1251 login")
	}
	_, form := c.get("newreply.php?tid=1")
	dd := doc(t, form)
	v := url.Values{"my_post_key": {dd.Find("form[name=input] input[name=my_post_key]").AttrOr("value", "")}, "action": {"do_newreply"}}
	v.Set("message", string(encodeCP1251("Ход в1 на C5 — проверка")))
	_, body := c.postForm("newreply.php?tid=1&processed=1", v)
	if !strings.Contains(body, "pid=18#pid18") {
		t.Fatalf("cp1251 post: %s", body)
	}
	posts, _ := s.Posts(t.Context(), 1)
	if got := posts[len(posts)-1].Message; got != "Ход в1 на C5 — проверка" {
		t.Errorf("stored %q", got)
	}
	s.SetCharset("UTF-8")
	resp, _ = c.get("showthread.php?tid=1")
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=UTF-8" {
		t.Errorf("after SetCharset: %q", ct)
	}
}

func TestGoAPI(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, false, clock, func(o *Options) { o.Users = append(o.Users, User{"Игрок", "pw12345"}) })
	tid, pid, err := s.NewThread(t.Context(), "gm-bot", DefaultFID, "Крестовый поход — партия 3", "Партия начинается.\n[code]\n    A  B\n 1|__|__|\n[/code]")
	if err != nil || tid != 1 || pid != 1 {
		t.Fatalf("NewThread %d %d %v", tid, pid, err)
	}
	// The bot's next post within the hour merges into its opening post.
	clock.Advance(5 * time.Second)
	pid, merged, err := s.Reply(t.Context(), "gm-bot", tid, "Первыми ходят сарацины.")
	if err != nil || pid != 1 || !merged {
		t.Fatalf("bot reply %d %v %v", pid, merged, err)
	}
	pid, merged, err = s.Reply(t.Context(), "Игрок", tid, "ок")
	if !errors.Is(err, forum.ErrTooShort) || pid != 0 || merged {
		t.Fatalf("too short: %v", err)
	}
	if pid, _, err = s.Reply(t.Context(), "Игрок", tid, "1-й ход сарацина н2 на G5"); err != nil || pid != 2 {
		t.Fatalf("player reply %d %v", pid, err)
	}
	_, _, err = s.NewThread(t.Context(), "Игрок", DefaultFID, "Флуд", "Новая тема сразу после поста")
	var fe *forum.FloodError
	if !errors.As(err, &fe) || fe.Wait != 61*time.Second {
		t.Fatalf("flood: %v", err)
	}
	if _, _, err := s.Reply(t.Context(), "Игрок", 99, "нет такой темы"); !errors.Is(err, forum.ErrNotFound) {
		t.Fatalf("missing thread: %v", err)
	}
	if err := s.EditPost(t.Context(), "Игрок", 1, "чужой пост", ""); !errors.Is(err, forum.ErrNoPermission) {
		t.Fatalf("edit other: %v", err)
	}
	// The page shows the merged opening post with its code block intact.
	_, page := newClient(t, base).get("showthread.php?tid=1")
	d := doc(t, page)
	code, _ := d.Find("#pid_1 code").Html()
	if code != "A\u00a0\u00a0B<br/>\n 1|__|__|" {
		t.Errorf("code %q", code)
	}
	if d.Find("#pid_1 hr.mycode_hr").Length() != 1 || d.Find("#edited_by_1 .edited_post").Length() != 1 {
		t.Error("merge not shown")
	}

	// Reopening the same database keeps everything; seeding is not repeated.
	path := s.opts.DBPath
	s2, err := New(t.Context(), Options{DBPath: path, Now: clock.Now, Users: fixtureUsers, Threads: fixtureThreads(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	posts, err := s2.Posts(t.Context(), 1)
	if err != nil || len(posts) != 2 {
		t.Fatalf("reopened: %d posts %v", len(posts), err)
	}
	if _, err := s2.Posts(t.Context(), 2); err == nil {
		if ps, _ := s2.Posts(t.Context(), 2); len(ps) != 0 {
			t.Errorf("fixture threads were seeded into an existing board")
		}
	}
}

// TestConcurrentPosting hammers the board from several clients (for -race and SQLite locking).
func TestConcurrentPosting(t *testing.T) {
	clock := testkit.NewClock(start)
	s, base := newBoard(t, true, clock, func(o *Options) { o.FloodSeconds = -1; o.MergeMinutes = -1 })
	var wg sync.WaitGroup
	for i, u := range fixtureUsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(t, base)
			if _, ok := c.login(u.Name, u.Password); !ok {
				t.Errorf("login %s", u.Name)
				return
			}
			for j := 0; j < 5; j++ {
				if pid, body := c.reply(1, "сообщение номер "+strconv.Itoa(i*10+j)); pid == 0 {
					t.Errorf("%s reply: %s", u.Name, body)
				}
				c.get("showthread.php?tid=1&action=lastpost")
			}
		}()
	}
	wg.Wait()
	posts, _ := s.Posts(t.Context(), 1)
	if len(posts) != 16+25 {
		t.Errorf("%d posts", len(posts))
	}
}

// The board serves loopback only: its accounts' passwords are printed for anyone to read.
func TestStartRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		s, err := New(context.Background(), Options{DBPath: t.TempDir() + "/b.db"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Start(context.Background(), addr); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
			t.Errorf("Start(%q): %v", addr, err)
		}
		s.Close()
	}
}

// An account in MergeExempt (the bot, as the operations guide advises a real board to set) never
// has its consecutive posts merged; the others still do (issue 21, item 8).
func TestMergeExempt(t *testing.T) {
	clock := testkit.NewClock(start)
	s, _ := newBoard(t, false, clock, func(o *Options) { o.MergeExempt = []string{"gm-bot"} })
	tid, first, err := s.NewThread(t.Context(), "gm-bot", DefaultFID, "Партия", "Партия начинается.")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(61 * time.Second) // past flood control, within the merge's hour
	pid, merged, err := s.Reply(t.Context(), "gm-bot", tid, "Первый отчёт раунда.")
	if err != nil || merged || pid == first {
		t.Fatalf("the exempt bot's reply: %d (first %d) merged %v, %v", pid, first, merged, err)
	}
	clock.Advance(5 * time.Second)
	own, merged, err := s.Reply(t.Context(), "Джелу", tid, "Записываюсь в партию.")
	if err != nil || merged {
		t.Fatalf("a player's first reply: %d %v %v", own, merged, err)
	}
	clock.Advance(5 * time.Second)
	pid, merged, err = s.Reply(t.Context(), "Джелу", tid, "И ещё одно слово.")
	if err != nil || !merged || pid != own {
		t.Fatalf("a player's second reply is merged as before: %d (want %d) merged %v, %v", pid, own, merged, err)
	}
}
