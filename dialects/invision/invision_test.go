package invision

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
	"forumgm/internal/testkit"
)

var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func open(t *testing.T, f *fakeIPS, mod func(*forum.Config)) (*Forum, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(testNow)
	cfg := forum.Config{BaseURL: f.base(), Username: botName, Password: botPass, Location: time.UTC, Now: clock.Now}
	if mod != nil {
		mod(&cfg)
	}
	c := forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 1000, Sleep: clock.Sleep})
	x, err := New(cfg, withClient(c))
	if err != nil {
		t.Fatal(err)
	}
	return x, clock
}

func member(t *testing.T, f *fakeIPS, mod func(*forum.Config)) (*Forum, *testkit.Clock) {
	t.Helper()
	x, clock := open(t, f, mod)
	if err := x.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.resetLog()
	return x, clock
}

func (f *fakeIPS) resetLog() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = nil
	f.forms = map[string][]url.Values{}
}

func (f *fakeIPS) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

func (f *fakeIPS) posted(path string) []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.forms[path])
}

var topic = forum.Thread{ID: topicID}

func TestLogin(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := open(t, f, nil)
	if err := x.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	forms := f.posted("/forum/login/")
	if len(forms) != 1 {
		t.Fatalf("forms: %v", forms)
	}
	g := forms[0]
	if g.Get("auth") != botName || g.Get("password") != botPass || g.Get("remember_me") != "1" || g.Get("_processLogin") != "usernamepassword" || g.Get("csrfKey") == "" {
		t.Errorf("login form: %v", g)
	}
}

func TestLoginBad(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := open(t, f, func(c *forum.Config) { c.Password = "wrong" })
	if err := x.Login(context.Background()); !errors.Is(err, forum.ErrBadLogin) || !strings.Contains(err.Error(), "was incorrect") {
		t.Errorf("%v", err)
	}
}

// The real comments come back (the topic's short URL sent on to its full one first); an idle
// poll is one request (getLastComment on the full URL, a redirect).
func TestPostsAndIdle(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	posts, cur, err := x.Posts(ctx, topic, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 2 || posts[0].ID != "92583" || posts[0].Author != "fabiobassa" || posts[1].ID != "93235" || cur.PostID != "93235" || cur.Page != 1 {
		t.Fatalf("%+v %+v", posts, cur)
	}
	f.resetLog()
	posts, cur2, err := x.Posts(ctx, topic, cur)
	if err != nil || len(posts) != 0 || cur2.PostID != "93235" {
		t.Fatalf("idle: %v %+v %v", posts, cur2, err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0] != "GET "+slugPath+"?do=getLastComment" {
		t.Errorf("idle poll (the full URL remembered): %v", reqs)
	}
}

// A reply replays the comment form with the body in the editor's no-script field and learns
// the comment's id from the redirect; the next read finds it and a later comment, across pages.
func TestReply(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	_, cur, err := x.Posts(ctx, topic, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	body := "[b]Ход 3[/b]\nЕ2-Е4 <ход>"
	id, merged, err := x.Reply(ctx, topic, body)
	if err != nil || id != "93300" || merged {
		t.Fatalf("reply: %q %v %v", id, merged, err)
	}
	forms := f.posted(slugPath)
	if len(forms) != 1 {
		t.Fatalf("forms: %v", forms)
	}
	g := forms[0]
	if g.Get("topic_comment_34923_noscript") != "[b]Ход 3[/b]\nЕ2-Е4 &lt;ход&gt;" || g.Get("commentform_34923_submitted") != "1" || g.Get("_contentReply") != "1" ||
		g.Get("csrfKey") == "" || g.Get("plupload") == "" || g.Get("MAX_FILE_SIZE") == "" {
		t.Errorf("reply form: %v", g)
	}
	other := f.addComment("Игрок", "<p>Н7-Н5</p>")
	if _, _, err := x.Reply(ctx, topic, "ещё"); err != nil {
		t.Fatal(err)
	}
	posts, cur, err := x.Posts(ctx, topic, cur)
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 3 || posts[0].ID != "93300" || posts[0].Text != "Ход 3\nЕ2-Е4 <ход>" || posts[1].ID != strconv.Itoa(other) || posts[1].Author != "Игрок" ||
		posts[2].Text != "ещё" || cur.Page != 2 || cur.PostID != posts[2].ID {
		t.Errorf("after the replies: %+v cursor %+v", posts, cur)
	}
}

// Invision merged the reply into the bot's last comment: the redirect names that comment.
func TestReplyMerged(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	first, _, err := x.Reply(ctx, topic, "раз")
	if err != nil {
		t.Fatal(err)
	}
	f.merge = true
	id, merged, err := x.Reply(ctx, topic, "два")
	if err != nil || id != first || !merged {
		t.Errorf("merged: %q %v %v (first %q)", id, merged, err, first)
	}
}

// Flood control under the editor comes back with the board's wait (the daemon's next try after it
// goes through); a csrfKey the session no longer has, with the session gone: a fresh form, a
// login, the reply sent again.
func TestFloodAndSessionLost(t *testing.T) {
	f := newFakeIPS(t)
	x, clock := member(t, f, nil)
	ctx := context.Background()
	f.flood = []int{17}
	var id string
	waits, err := fixture.AfterFlood(func() (err error) { id, _, err = x.Reply(ctx, topic, "раз"); return err })
	if err != nil || id == "" {
		t.Fatalf("after flood: %q %v", id, err)
	}
	if !slices.Equal(waits, []time.Duration{17 * time.Second}) || len(clock.Sleeps()) != 0 {
		t.Errorf("waits %v, sleeps %v", waits, clock.Sleeps())
	}
	y, _ := member(t, f, nil)
	f.flood = []int{42}
	var fe *forum.FloodError
	if _, _, err := y.Reply(ctx, topic, "два"); !errors.As(err, &fe) || fe.Wait != 42*time.Second {
		t.Errorf("flood: %v", err)
	}

	f.mu.Lock()
	clear(f.sessions) // every session ends: the page shows a guest, the old csrfKey is refused
	f.mu.Unlock()
	f.resetLog()
	if id, _, err := x.Reply(ctx, topic, "три"); err != nil || id == "" {
		t.Fatalf("after the session ended: %q %v", id, err)
	}
	if n := len(f.posted("/forum/login/")); n != 1 {
		t.Errorf("logins: %d", n)
	}
}

// A csrfKey Invision does not take leaves the form unsubmitted, the page shown again without an
// error: a fresh form and the reply sent again, no login.
func TestStaleKey(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	f.stale = true
	if id, _, err := x.Reply(context.Background(), topic, "снова"); err != nil || id == "" {
		t.Fatalf("%q %v", id, err)
	}
	if n, l := len(f.posted(slugPath)), len(f.posted("/forum/login/")); n != 2 || l != 0 {
		t.Errorf("%d replies, %d logins", n, l)
	}
}

func TestReplyRefusals(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if _, _, err := x.Reply(ctx, topic, " "); !errors.Is(err, forum.ErrTooShort) {
		t.Errorf("empty: %v", err)
	}
	f.locked = true
	if _, _, err := x.Reply(ctx, topic, "нельзя"); !errors.Is(err, forum.ErrNoPermission) || !strings.Contains(err.Error(), "closed to further replies") {
		t.Errorf("no form: %v", err)
	}
	if _, _, err := x.Posts(ctx, forum.Thread{ID: "99"}, forum.Cursor{}); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("no topic: %v", err)
	}
	if _, _, err := x.Reply(ctx, forum.Thread{ID: "../1"}, "x"); err == nil {
		t.Error("a bad topic id was accepted")
	}
}

func TestRoutes(t *testing.T) {
	x, _ := New(forum.Config{BaseURL: "https://board.example/forums", Extra: map[string]string{"friendly_urls": "false"}})
	if got := x.route("topic/7/", url.Values{"do": {"getLastComment"}}); got != "https://board.example/forums/index.php?/topic/7/&do=getLastComment" {
		t.Errorf("%s", got)
	}
	y, _ := New(forum.Config{BaseURL: "https://board.example/"})
	if got := y.route("topic/7-t/", nil); got != "https://board.example/topic/7-t/" {
		t.Errorf("%s", got)
	}
}

// A message: the compose form with recipient, title and the body in the editor's no-script
// field; an unknown recipient and one who cannot receive messages are typed.
func TestSendPM(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if err := x.SendPM(ctx, "Игрок", "Ваш ход", "Ход 3: [b]ваша очередь[/b]"); err != nil {
		t.Fatal(err)
	}
	forms := f.posted("/forum/messenger/compose/")
	if len(forms) != 1 {
		t.Fatalf("forms: %v", forms)
	}
	if g := forms[0]; g.Get("messenger_to") != "Игрок" || g.Get("messenger_title") != "Ваш ход" || g.Get("messenger_content_noscript") != "Ход 3: [b]ваша очередь[/b]" ||
		g.Get("form_submitted") != "1" || g.Get("csrfKey") == "" {
		t.Errorf("compose form: %v", g)
	}
	if err := x.SendPM(ctx, "Никто", "t", "m"); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("unknown recipient: %v", err)
	}
	if err := x.SendPM(ctx, "Закрытый", "t", "m"); !errors.Is(err, forum.ErrRecipient) {
		t.Errorf("closed recipient: %v", err)
	}
	if !x.Capabilities().PrivateMessages {
		t.Error("no private messages in Capabilities")
	}
}

// The inbox: unread conversations are opened at their first unread message, the bot's own
// messages left out; an idle poll is the list alone; a new message is found by the unread mark.
func TestInbox(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if err := x.SendPM(ctx, "Игрок", "Ваш ход", "ходите"); err != nil {
		t.Fatal(err)
	}
	conv := f.convs[0].id
	_, m1 := f.receive(conv, "Игрок", "", "Е2-Е4")
	_, m2 := f.receive(0, "Судья", "Протест", "Ход был неверный")
	f.resetLog()
	msgs, cur, err := x.Inbox(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].ID != strconv.Itoa(m1) || msgs[0].Author != "Игрок" || msgs[0].Subject != "Ваш ход" || msgs[0].Text != "Е2-Е4" ||
		msgs[1].ID != strconv.Itoa(m2) || msgs[1].Subject != "Протест" || msgs[1].Time.IsZero() || cur.PostID != strconv.Itoa(m2) {
		t.Fatalf("inbox: %+v cursor %+v", msgs, cur)
	}
	f.resetLog()
	msgs, cur2, err := x.Inbox(ctx, cur)
	if err != nil || len(msgs) != 0 || cur2.PostID != cur.PostID {
		t.Fatalf("idle inbox: %v %+v %v", msgs, cur2, err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0] != "GET /forum/messenger/" {
		t.Errorf("idle inbox: %v", reqs)
	}
	_, m3 := f.receive(conv, "Игрок", "", "Ещё ход")
	msgs, cur3, err := x.Inbox(ctx, cur2)
	if err != nil || len(msgs) != 1 || msgs[0].ID != strconv.Itoa(m3) || cur3.PostID != strconv.Itoa(m3) {
		t.Fatalf("new message: %+v %+v %v", msgs, cur3, err)
	}
}

// Sent: each read conversation of the list is read once for the bot's messages (the daemon's
// marker lookup); unread ones are left for Inbox.
func TestSent(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if err := x.SendPM(ctx, "Игрок", "Ваш ход", "ходите\nfgm-g-1-abc"); err != nil {
		t.Fatal(err)
	}
	f.receive(0, "Судья", "Протест", "Ход был неверный")
	f.resetLog()
	sent, cur, err := x.Sent(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || sent[0].Author != botName || sent[0].Text != "ходите\nfgm-g-1-abc" || sent[0].Subject != "Ваш ход" || cur.PostID != sent[0].ID {
		t.Fatalf("sent: %+v %+v", sent, cur)
	}
	for _, r := range f.requests() {
		if strings.Contains(r, "/messenger/42/") {
			t.Errorf("the unread conversation was opened: %s", r)
		}
	}
	f.resetLog()
	if sent, _, err = x.Sent(ctx, forum.Cursor{}); err != nil || len(sent) != 1 {
		t.Fatalf("again: %v %v", sent, err)
	}
	if reqs := f.requests(); len(reqs) != 1 {
		t.Errorf("second look (cached): %v", reqs)
	}
}

func TestUserExists(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	for name, want := range map[string]bool{"игрок": true, "Игрок": true, "Игр": false, "Никто": false, "": false} {
		if got, err := x.UserExists(ctx, name); err != nil || got != want {
			t.Errorf("%q: %v %v", name, got, err)
		}
	}
	var _ forum.UserFinder = x
}

// UnreadPM follows the user bar's messenger count on the pages read; the inbox read clears it.
func TestUnreadPM(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	_, cur, err := x.Posts(ctx, topic, forum.Cursor{})
	if err != nil || x.UnreadPM() {
		t.Fatalf("no message yet: %v %v", x.UnreadPM(), err)
	}
	var _ forum.PMNotifier = x
	f.receive(0, "Игрок", "Вопрос", "когда ход?")
	f.addComment("Игрок", "<p>Н7-Н5</p>")
	if _, _, err = x.Posts(ctx, topic, cur); err != nil || !x.UnreadPM() {
		t.Fatalf("after a page showing one: %v %v", x.UnreadPM(), err)
	}
	if _, _, err = x.Inbox(ctx, forum.Cursor{}); err != nil || x.UnreadPM() {
		t.Fatalf("after the inbox: %v %v", x.UnreadPM(), err)
	}
}

// Every wording and status the README names is typed as it says (Invision 4.7's language file).
func TestClassify(t *testing.T) {
	x, _ := New(forum.Config{BaseURL: "https://board.example/"})
	for _, tc := range []struct {
		status int
		msg    string
		want   error
	}{
		{200, "New posts within a short time frame are limited. Please wait 17 seconds before submitting.", &forum.FloodError{Wait: 17 * time.Second}},
		{403, "You have reached your posting limits. Please wait 24 hours and try again.", &forum.FloodError{Wait: 24 * time.Hour}},
		{200, "This field is required.", forum.ErrTooShort},
		{200, "The value must be shorter than 50000 characters.", forum.ErrTooLong},
		{403, "The page you are trying to access is not available to guests, but may be available if you sign in.", forum.ErrLoggedOut},
		{403, "The page you are trying to access is not available for your account.", forum.ErrNoPermission},
		{404, "We could not locate the item you are trying to view.", forum.ErrNotFound},
	} {
		err := x.classify(tc.status, tc.msg)
		if want, flood := tc.want.(*forum.FloodError); flood {
			var fe *forum.FloodError
			if !errors.As(err, &fe) || fe.Wait != want.Wait {
				t.Errorf("%q: %v", tc.msg, err)
			}
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%d %q: %v, want %v", tc.status, tc.msg, err, tc.want)
		}
	}
}

// One Section call is one request of the forum's topic list (the first call by bare id follows
// Invision's redirect to the full URL, later ones go there at once); SectionOf knows a topic's
// forum from the breadcrumb of a page Posts read, with no request of its own.
func TestSection(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if got := x.SectionOf(forum.Thread{ID: topicID}); got != "" {
		t.Errorf("SectionOf before reading: %q", got)
	}
	heads, err := x.Section(ctx, "12-igry-po-perepiske")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.requests(); len(got) != 1 || got[0] != "GET "+forumPath {
		t.Errorf("Section by id-slug: requests %v, want one", got)
	}
	if len(heads) != 5 || heads[2].ID != "34923" || heads[2].Replies != 13 || heads[2].LastPoster != "snovaya" || !heads[0].Sticky || heads[2].Sticky {
		t.Errorf("heads %+v", heads)
	}
	f.resetLog()
	if _, err := x.Section(ctx, "12"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests(); len(got) != 2 {
		t.Errorf("first Section by id: requests %v, want the redirect and the list", got)
	}
	f.resetLog()
	if _, err := x.Section(ctx, "12"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests(); len(got) != 1 || got[0] != "GET "+forumPath {
		t.Errorf("later Section by id: requests %v, want the full URL alone", got)
	}
	if _, err := x.Section(ctx, "../admin"); err == nil {
		t.Error("a forum id that is no id was asked for")
	}
	if _, _, err := x.Posts(ctx, forum.Thread{ID: topicID}, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	f.resetLog()
	for _, id := range []string{topicID, "34923-csc-armbian-for-rk322x-tv-box-boards"} {
		if got := x.SectionOf(forum.Thread{ID: id}); got != "12" {
			t.Errorf("SectionOf(%s) after reading: %q, want 12", id, got)
		}
	}
	if got := f.requests(); len(got) != 0 {
		t.Errorf("SectionOf made requests %v", got)
	}
	// The list names the topic as the caller does (the fleet looks heads up by its thread id).
	long := "34923-csc-armbian-for-rk322x-tv-box-boards"
	if got := x.SectionOf(forum.Thread{ID: long}); got != "12" {
		t.Errorf("SectionOf(%s) = %q", long, got)
	}
	heads, err = x.Section(ctx, "12")
	if err != nil || len(heads) != 5 || heads[2].ID != long || heads[3].ID != "34800" {
		t.Errorf("heads after naming the topic by id-slug: %+v, %v", heads, err)
	}
}

// After a topic page was read, Section of its forum asks for the full URL the breadcrumb links
// at once (no SEO redirect from forum/<id>/).
func TestSectionFromBreadcrumb(t *testing.T) {
	f := newFakeIPS(t)
	x, _ := member(t, f, nil)
	ctx := context.Background()
	if _, _, err := x.Posts(ctx, topic, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	f.resetLog()
	heads, err := x.Section(ctx, x.SectionOf(topic))
	if err != nil || len(heads) == 0 {
		t.Fatalf("%d heads, %v", len(heads), err)
	}
	if got := f.requests(); len(got) != 1 || got[0] != "GET "+forumPath {
		t.Errorf("requests %v, want %s alone", got, forumPath)
	}
}
