package discourse

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

var ctx = context.Background()

func cookedMove(i int) string { return fmt.Sprintf("<p>ход %d: e2-e4</p>", i) }

func TestOpenRegistered(t *testing.T) {
	f := newFake(t)
	d, err := Dialect().Open(forum.Config{BaseURL: f.srv.URL, Username: "gm-bot"})
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Capabilities(); !c.PrivateMessages || c.MaxPostLength != DefaultMaxPostLength || !c.Attachments || c.MaxAttachmentSize != DefaultMaxAttachmentSize {
		t.Errorf("capabilities %+v", c)
	}
	if _, ok := d.(forum.SectionReader); !ok {
		t.Error("not a SectionReader")
	}
	if _, ok := d.(forum.UserFinder); !ok {
		t.Error("not a UserFinder")
	}
	if _, err := New(forum.Config{BaseURL: f.srv.URL, Extra: map[string]string{"api_key": "k"}}); err == nil {
		t.Error("an API key without a user name was taken")
	}
}

// Reading: a whole topic across chunks, the posts after a cursor, the idle check.
func TestReadAcrossChunksAndIdle(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(45, cookedMove)
	d, _ := f.open(t, nil, nil)
	th := forum.Thread{ID: fmt.Sprint(topic)}

	m := f.mark()
	posts, cur, err := d.Posts(ctx, th, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	hits := f.requests(m)
	if len(posts) != 45 || posts[0].Text != "ход 1: e2-e4" || posts[44].Text != "ход 45: e2-e4" {
		t.Fatalf("%d posts, first %+v", len(posts), posts[0])
	}
	if posts[0].Author != "bob" || posts[1].Author != "alice" || posts[0].Time.IsZero() || posts[0].ID != f.postID(topic, 1) {
		t.Errorf("first posts %+v %+v", posts[0], posts[1])
	}
	if want := (forum.Cursor{PostID: f.postID(topic, 45), Page: 45}); cur != want {
		t.Errorf("cursor %+v, want %+v", cur, want)
	}
	// The topic JSON (posts 1-20 and the stream), then the other 25 twenty at a time.
	if got := uris(hits); len(got) != 3 || got[0] != "GET /t/"+th.ID+".json" || !strings.Contains(got[1], "post_ids[]="+f.postID(topic, 21)) || strings.Count(got[2], "post_ids[]=") != 5 {
		t.Errorf("requests %q", got)
	}
	if d.SectionOf(th) != "2" {
		t.Errorf("section of the topic %q", d.SectionOf(th))
	}
	t.Logf("whole read of 45 posts: %d requests, %d bytes", len(hits), bytesOf(hits))

	// Idle: one request, an empty answer.
	m = f.mark()
	posts, cur2, err := d.Posts(ctx, th, cur)
	if err != nil || len(posts) != 0 || cur2 != cur {
		t.Fatalf("idle: %d posts, cursor %+v, %v", len(posts), cur2, err)
	}
	hits = f.requests(m)
	if got := uris(hits); len(got) != 1 || got[0] != "GET /t/"+th.ID+"/posts.json?post_number=45&asc=true" {
		t.Errorf("idle requests %q", got)
	}
	t.Logf("idle check: %d request, %d bytes answered", len(hits), bytesOf(hits))

	// 25 new posts, one a small action (closing the topic): 24 posts in two requests.
	for i := 46; i <= 70; i++ {
		if i == 60 {
			f.addPost(topic, "gm-bot", "", 3)
			continue
		}
		f.addPost(topic, "alice", cookedMove(i), 1)
	}
	m = f.mark()
	posts, cur, err = d.Posts(ctx, th, cur)
	if err != nil {
		t.Fatal(err)
	}
	hits = f.requests(m)
	if len(posts) != 24 || posts[0].Text != "ход 46: e2-e4" || posts[23].Text != "ход 70: e2-e4" || len(hits) != 2 {
		t.Fatalf("%d posts in %d requests (%q)", len(posts), len(hits), uris(hits))
	}
	if cur.Page != 70 || cur.PostID != f.postID(topic, 70) {
		t.Errorf("cursor %+v", cur)
	}

	// A cursor without its post number (from before a restart) is located with /posts/<id>.json.
	d2, _ := f.open(t, nil, nil)
	m = f.mark()
	posts, cur2, err = d2.Posts(ctx, th, forum.Cursor{PostID: f.postID(topic, 68)})
	if err != nil || len(posts) != 2 || cur2 != cur {
		t.Fatalf("restart: %d posts, cursor %+v, %v", len(posts), cur2, err)
	}
	if got := uris(f.requests(m)); len(got) != 2 || got[0] != "GET /posts/"+f.postID(topic, 68)+".json" {
		t.Errorf("restart requests %q", got)
	}

	// Include: the cursor's own post too (edited since, say).
	posts, _, err = d.Posts(ctx, th, forum.Cursor{PostID: cur.PostID, Page: cur.Page, Include: true})
	if err != nil || len(posts) != 1 || posts[0].ID != cur.PostID {
		t.Fatalf("include: %+v, %v", posts, err)
	}
}

func TestQuotes(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(3, cookedMove)
	f.addPost(topic, "bob", `<aside class="quote no-group" data-username="alice" data-post="3" data-topic="`+fmt.Sprint(topic)+`">
<div class="title">
<div class="quote-controls"></div>
<img loading="lazy" alt="" width="24" height="24" src="/user_avatar/x/alice/48/1_2.png" class="avatar"> alice:</div>
<blockquote>
<p>ход 3: e2-e4</p>
</blockquote>
</aside>
<p>Протестую: <strong>e4</strong> занято.</p>`, 1)
	d, _ := f.open(t, nil, nil)
	posts, _, err := d.Posts(ctx, forum.Thread{ID: fmt.Sprint(topic)}, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	p := posts[3]
	want := []forum.Quote{{Author: "alice", PostID: f.postID(topic, 3), Text: "ход 3: e2-e4"}}
	if p.Text != "Протестую: e4 занято." || !slices.Equal(p.Quotes, want) {
		t.Errorf("post %q quotes %+v, want %+v", p.Text, p.Quotes, want)
	}
}

func TestLoginAndReply(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(2, cookedMove)
	d, _ := f.open(t, nil, nil)
	m := f.mark()
	if err := d.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /session/csrf", "POST /session"}) {
		t.Errorf("login requests %q", got)
	}
	id, merged, err := d.Reply(ctx, forum.Thread{ID: fmt.Sprint(topic)}, "Ход принят: e2-e4. Следующий — bob.")
	if err != nil || merged {
		t.Fatalf("reply: %v merged %v", err, merged)
	}
	if id != f.postID(topic, 3) {
		t.Errorf("reply id %q, want %q", id, f.postID(topic, 3))
	}
	if f.csrfPosts[0] == "" {
		t.Error("the reply carried no CSRF token")
	}
	posts, _, _ := d.Posts(ctx, forum.Thread{ID: fmt.Sprint(topic)}, forum.Cursor{PostID: f.postID(topic, 2), Page: 2})
	if len(posts) != 1 || posts[0].Author != "gm-bot" || posts[0].Text != "Ход принят: e2-e4. Следующий — bob." {
		t.Errorf("read back %+v", posts)
	}
}

func TestBadLogin(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, func(c *forum.Config) { c.Password = "wrong" })
	err := d.Login(ctx)
	if !errors.Is(err, forum.ErrBadLogin) || !strings.Contains(err.Error(), "Incorrect username") {
		t.Fatalf("login: %v", err)
	}
	_, _, err = d.Reply(ctx, forum.Thread{ID: "1"}, "Достаточно длинный текст хода.")
	if !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("reply without a login: %v", err)
	}
}

// A stale CSRF token is fetched again and the post sent again; a lost session is logged in again.
func TestBadCSRFAndExpiredSession(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(1, cookedMove)
	d, _ := f.open(t, nil, nil)
	th := forum.Thread{ID: fmt.Sprint(topic)}
	if _, _, err := d.Reply(ctx, th, "Первый ответ ведущего в партии."); err != nil {
		t.Fatal(err)
	}
	f.rotateCSRF()
	m := f.mark()
	if _, _, err := d.Reply(ctx, th, "Второй ответ ведущего в партии."); err != nil {
		t.Fatal(err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"POST /posts.json", "GET /session/csrf", "POST /posts.json"}) {
		t.Errorf("after a stale token %q", got)
	}
	f.expire()
	m = f.mark()
	if _, _, err := d.Reply(ctx, th, "Третий ответ ведущего в партии."); err != nil {
		t.Fatal(err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"POST /posts.json", "GET /session/csrf", "POST /session", "GET /session/csrf", "POST /posts.json"}) {
		t.Errorf("after the session ended %q", got)
	}
	if n := len(f.topics[topic].posts); n != 4 {
		t.Errorf("%d posts, want 4", n)
	}
}

func TestFlood(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(1, cookedMove)
	th := forum.Thread{ID: fmt.Sprint(topic)}
	f.rateLimit, f.wait = 1, 7

	d, clock := f.open(t, nil, nil)
	_, _, err := d.Reply(ctx, th, "Ответ ведущего, слишком быстро.")
	var fe *forum.FloodError
	if !errors.As(err, &fe) || fe.Wait != 7*time.Second || errors.Is(err, forum.ErrAmbiguous) {
		t.Fatalf("flood: %v", err)
	}

	// The daemon waits and sends again.
	id, _, err := d.Reply(ctx, th, "Ответ ведущего после ожидания.")
	if err != nil || id != f.postID(topic, 2) {
		t.Fatalf("reply after waiting: %q %v", id, err)
	}
	if got := clock.Sleeps(); slices.Contains(got, 7*time.Second) {
		t.Errorf("waits %v: the dialect never waits out a rate limit", got)
	}

	// A day's limit is not waited out.
	f.rateLimit, f.wait = 1, 86400
	d3, clock := f.open(t, nil, nil)
	_, _, err = d3.Reply(ctx, th, "Ответ ведущего, лимит на день.")
	if !errors.As(err, &fe) || fe.Wait != 24*time.Hour || len(clock.Sleeps()) != 0 {
		t.Fatalf("a day's limit: %v, waits %v", err, clock.Sleeps())
	}
}

func TestTooShortAndTooLong(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(1, cookedMove)
	th := forum.Thread{ID: fmt.Sprint(topic)}
	d, _ := f.open(t, nil, nil)
	if _, _, err := d.Reply(ctx, th, "ок"); !errors.Is(err, forum.ErrTooShort) || !strings.Contains(err.Error(), "Body is too short") {
		t.Fatalf("short: %v", err)
	}
	f.maxLen = 100
	long := strings.Repeat("Длинный отчёт ведущего. ", 6)
	if _, _, err := d.Reply(ctx, th, long); !errors.Is(err, forum.ErrTooLong) {
		t.Fatalf("long: %v", err)
	}
}

func TestPrivateMessages(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	if err := d.SendPM(ctx, "alice", "Ваша роль", "Вы — шериф. Ночью проверяете одного игрока."); err != nil {
		t.Fatal(err)
	}
	if err := d.SendPM(ctx, "nobody", "Ваша роль", "Вы — шериф. Ночью проверяете одного игрока."); !errors.Is(err, forum.ErrNotFound) {
		t.Fatalf("unknown recipient: %v", err)
	}
	pm := f.nextTopic
	f.addPost(pm, "alice", "<p>Проверяю bob.</p>", 1)

	m := f.mark()
	posts, cur, err := d.Inbox(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 1 || posts[0].Author != "alice" || posts[0].Text != "Проверяю bob." || posts[0].Subject != "Ваша роль" {
		t.Fatalf("inbox %+v", posts)
	}
	if cur.PostID != posts[0].ID {
		t.Errorf("cursor %+v", cur)
	}
	t.Logf("inbox, one new topic: %q", uris(f.requests(m)))

	// Idle: the list alone.
	m = f.mark()
	posts, cur2, err := d.Inbox(ctx, cur)
	if err != nil || len(posts) != 0 || cur2 != cur {
		t.Fatalf("idle inbox %+v %+v %v", posts, cur2, err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /topics/private-messages/gm-bot.json"}) {
		t.Errorf("idle inbox requests %q", got)
	}

	// A second message in the topic: only it is read.
	f.addPost(pm, "alice", "<p>И ещё: голосую против bob.</p>", 1)
	m = f.mark()
	posts, _, err = d.Inbox(ctx, cur)
	if err != nil || len(posts) != 1 || posts[0].Text != "И ещё: голосую против bob." {
		t.Fatalf("second message %+v %v", posts, err)
	}
	if got := uris(f.requests(m)); len(got) != 2 || !strings.Contains(got[1], "post_number=2&asc=true") {
		t.Errorf("second message requests %q", got)
	}
}

func TestSection(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	m := f.mark()
	heads, err := d.Section(ctx, "2")
	if err != nil {
		t.Fatal(err)
	}
	if len(heads) != 2 || heads[0].ID != "5" || !heads[0].Sticky || heads[1].ID != "4" || heads[1].Replies != 1 || heads[1].LastPoster != "fuzzy" {
		t.Fatalf("heads %+v", heads)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /c/2.json", "GET /c/games/2.json"}) {
		t.Errorf("first look %q", got)
	}
	m = f.mark()
	if _, err := d.Section(ctx, "2"); err != nil {
		t.Fatal(err)
	}
	hits := f.requests(m)
	if got := uris(hits); !slices.Equal(got, []string{"GET /c/games/2.json"}) {
		t.Errorf("second look %q", got)
	}
	t.Logf("section look: 1 request, %d bytes", bytesOf(hits))
	if _, err := d.Section(ctx, "9"); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("unknown category: %v", err)
	}
}

func TestAPIKey(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(1, cookedMove)
	d, _ := f.open(t, map[string]string{"api_key": "k3y", "api_username": "gm-bot"}, nil)
	m := f.mark()
	id, _, err := d.Reply(ctx, forum.Thread{ID: fmt.Sprint(topic)}, "Ответ ведущего через ключ API.")
	if err != nil || id != f.postID(topic, 2) {
		t.Fatalf("reply: %q %v", id, err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /session/current.json", "POST /posts.json"}) {
		t.Errorf("requests %q", got)
	}
	h := f.apiPosts[len(f.apiPosts)-1]
	if h.Get("Api-Key") != "k3y" || h.Get("Api-Username") != "gm-bot" || h.Get("X-Csrf-Token") != "" {
		t.Errorf("headers %v", h)
	}
	bad, _ := f.open(t, map[string]string{"api_key": "wrong", "api_username": "gm-bot"}, nil)
	if err := bad.Login(ctx); !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("bad key: %v", err)
	}
	// The key as the bot's password (from its environment variable), auth: api_key.
	env, _ := f.open(t, map[string]string{"auth": "api_key"}, func(c *forum.Config) { c.Password = "k3y" })
	m = f.mark()
	if err := env.Login(ctx); err != nil {
		t.Fatalf("auth api_key: %v", err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /session/current.json"}) {
		t.Errorf("auth api_key requests %q", got)
	}
	if _, err := New(forum.Config{BaseURL: f.srv.URL, Username: "gm-bot", Extra: map[string]string{"auth": "token"}}); err == nil {
		t.Error("an unknown auth was taken")
	}
}

func TestUserExists(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	for name, want := range map[string]bool{"alice": true, "nobody": false, "": false} {
		if got, err := d.UserExists(ctx, name); err != nil || got != want {
			t.Errorf("UserExists(%q) = %v, %v", name, got, err)
		}
	}
}

// A topic the bot may not see, and one that is gone.
func TestReadErrors(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	if _, _, err := d.Posts(ctx, forum.Thread{ID: "999"}, forum.Cursor{}); !errors.Is(err, forum.ErrNotFound) {
		t.Errorf("missing topic: %v", err)
	}
	if err := d.SendPM(ctx, "alice", "Тайна", "Только для alice, никому не говорите."); err != nil {
		t.Fatal(err)
	}
	// The bot reads its own message topic (a guest may not): it logs in for it.
	fresh, _ := f.open(t, nil, nil)
	m := f.mark()
	if posts, _, err := fresh.Posts(ctx, forum.Thread{ID: fmt.Sprint(f.nextTopic)}, forum.Cursor{}); err != nil || len(posts) != 1 {
		t.Errorf("own message topic: %+v %v", posts, err)
	}
	if got := uris(f.requests(m)); len(got) != 4 || got[1] != "GET /session/csrf" || got[2] != "POST /session" {
		t.Errorf("requests %q", got)
	}
	other, _ := f.open(t, map[string]string{"api_key": "k3y", "api_username": "bob"}, nil)
	if _, _, err := other.Posts(ctx, forum.Thread{ID: fmt.Sprint(f.nextTopic)}, forum.Cursor{}); !errors.Is(err, forum.ErrNoPermission) {
		t.Errorf("someone else's message: %v", err)
	}
}

// Sent finds the outbox marker of a message the bot sent (the daemon's check before sending a
// message again), reading each sent topic once.
func TestSent(t *testing.T) {
	f := newFake(t)
	d, _ := f.open(t, nil, nil)
	var _ interface {
		Sent(context.Context, forum.Cursor) ([]forum.Post, forum.Cursor, error)
	} = d
	body := "Вы — шериф. Ночью проверяете одного игрока.\n[size=1][color=#b0b0b0]fgm-mafia-7-0a1b[/color][/size]"
	if err := d.SendPM(ctx, "alice", "Ваша роль", body); err != nil {
		t.Fatal(err)
	}
	f.addPost(f.nextTopic, "alice", "<p>Спасибо, понял.</p>", 1)
	posts, cur, err := d.Sent(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 1 || posts[0].Author != "gm-bot" || posts[0].Subject != "Ваша роль" || cur.PostID != posts[0].ID {
		t.Fatalf("sent %+v, cursor %+v", posts, cur)
	}
	if lines := strings.Split(posts[0].Text, "\n"); lines[len(lines)-1] != "fgm-mafia-7-0a1b" {
		t.Errorf("the marker is not a line of its own: %q", posts[0].Text)
	}
	m := f.mark()
	if posts, _, err := d.Sent(ctx, forum.Cursor{}); err != nil || len(posts) != 1 {
		t.Fatalf("again: %+v %v", posts, err)
	}
	if got := uris(f.requests(m)); !slices.Equal(got, []string{"GET /topics/private-messages-sent/gm-bot.json"}) {
		t.Errorf("second look %q", got)
	}
}

// A forum whose posts.json takes no post_number: the topic is read through its stream instead,
// the posts after the cursor fetched by id.
func TestOldPostsEndpoint(t *testing.T) {
	f := newFake(t)
	f.oldPosts = true
	topic := f.addTopic(30, cookedMove)
	d, _ := f.open(t, nil, nil)
	th := forum.Thread{ID: fmt.Sprint(topic)}
	m := f.mark()
	posts, cur, err := d.Posts(ctx, th, forum.Cursor{PostID: f.postID(topic, 25), Page: 25})
	if err != nil || len(posts) != 5 || posts[0].Text != "ход 26: e2-e4" || cur.Page != 30 {
		t.Fatalf("%d posts, cursor %+v, %v", len(posts), cur, err)
	}
	got := uris(f.requests(m))
	if len(got) != 3 || !strings.Contains(got[0], "post_number=25") || got[1] != "GET /t/"+th.ID+".json" || strings.Count(got[2], "post_ids[]=") != 5 {
		t.Errorf("requests %q", got)
	}
}

func TestReplyWithAttachments(t *testing.T) {
	f := newFake(t)
	topic := f.addTopic(1, cookedMove)
	th := forum.Thread{ID: fmt.Sprint(topic)}
	d, _ := f.open(t, nil, nil)
	var _ forum.Attacher = d
	png := forum.Attachment{Name: "round-3.png", ContentType: "image/png", Data: []byte("\x89PNG fake")}
	if !d.Capabilities().Takes(png) || d.Capabilities().Takes(forum.Attachment{Name: "x.exe", Data: []byte{1}}) {
		t.Error("Takes")
	}
	id, _, err := d.ReplyWithAttachments(ctx, th, "Поле после хода 3:\n[attachment=round-3.png]\nХодит bob.", []forum.Attachment{png})
	if err != nil || id != f.postID(topic, 2) {
		t.Fatalf("reply: %q %v", id, err)
	}
	raw := f.raws[len(f.raws)-1]
	if !strings.Contains(raw, "Поле после хода 3:\n![round-3.png|360x360](upload://") || strings.Contains(raw, "[attachment=") {
		t.Errorf("raw %q", raw)
	}
	// A type the forum refuses: nothing posted.
	n := len(f.raws)
	_, _, err = d.ReplyWithAttachments(ctx, th, "Протокол партии во вложении.", []forum.Attachment{{Name: "log.exe", Data: []byte("MZ")}})
	if !errors.Is(err, forum.ErrAttachmentRefused) || len(f.raws) != n {
		t.Fatalf("refused type: %v, %d posts", err, len(f.raws)-n)
	}
	off, _ := f.open(t, map[string]string{"attachments": "off"}, nil)
	if off.Capabilities().Attachments {
		t.Error("attachments off still announced")
	}
	if _, _, err := off.ReplyWithAttachments(ctx, th, "Поле во вложении, смотрите.", []forum.Attachment{png}); !errors.Is(err, forum.ErrAttachmentRefused) {
		t.Errorf("attachments off: %v", err)
	}
}
