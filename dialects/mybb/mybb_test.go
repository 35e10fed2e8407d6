package mybb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

var ctx = context.Background()

func TestRegistered(t *testing.T) {
	fk := newFake(t)
	fm, err := Dialect().Open(forum.Config{BaseURL: fk.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	c := fm.Capabilities()
	if !c.PrivateMessages || c.MaxPostLength != 65535 {
		t.Errorf("capabilities %+v", c)
	}
	if _, err := New(forum.Config{}); err == nil {
		t.Error("no base URL accepted")
	}
}

func TestLoginSendsTheForm(t *testing.T) {
	fk := newFake(t)
	fm := fk.forum(t, nil)
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if len(fk.logins) != 1 {
		t.Fatalf("%d login POSTs", len(fk.logins))
	}
	got := fk.logins[0]
	for k, v := range map[string]string{"action": "do_login", "my_post_key": "4c7d7fde5b65eef36e067d79743ac45d",
		"username": "gm-bot", "password": "GmBotPass1", "remember": "yes", "url": "", "submit": "Login"} {
		if got.Get(k) != v || !got.Has(k) {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	if got.Has("quick_login") {
		t.Error("the header's quick-login form was sent instead of the login form")
	}
	if fk.requests[0] != "GET /member.php?action=login" || fk.requests[1] != "POST /member.php" {
		t.Errorf("requests %v", fk.requests)
	}
}

func TestLoginWrongPassword(t *testing.T) {
	fk := newFake(t)
	fk.password = "other"
	err := fk.forum(t, nil).Login(ctx)
	if !errors.Is(err, forum.ErrBadLogin) {
		t.Fatalf("%v", err)
	}
	if strings.Contains(err.Error(), "GmBotPass1") {
		t.Error("the password is in the error")
	}
}

// Reply: the full form's fields go back with the message; flood control comes back typed with the
// board's wait, and the next try (the daemon's, after the wait) is made; the next reply is merged
// by MyBB into the bot's post.
func TestReplyFloodThenSuccessThenMerged(t *testing.T) {
	fk := newFake(t)
	fk.lastPID = "15"
	fk.replies = []string{"28-reply-error-flood.snovaya.html", "22-reply-success.gm-bot.html", "23-reply-automerged.gm-bot.html"}
	fm := fk.forum(t, nil)

	var fe *forum.FloodError
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят: сарацин н2 G5 → F4."); !errors.As(err, &fe) || fe.Wait != 60*time.Second {
		t.Fatalf("flood: %v, want the board's 60 s", err)
	}
	id, merged, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят: сарацин н2 G5 → F4.")
	if err != nil || id != "16" || merged {
		t.Fatalf("first reply: %q merged=%v %v", id, merged, err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs, want 2 (flood, then success)", len(fk.posts))
	}
	for i, got := range fk.posts {
		for k, v := range map[string]string{"my_post_key": "f8405dfcf6435de0e756d5130990f6b8",
			"posthash": "269400a14267e4bf9ab5414811018eab", "tid": "1", "action": "do_newreply",
			"subject": "RE: Крестовый поход — партия 1", "message": "Ход принят: сарацин н2 G5 → F4.",
			"replyto": "0", "icon": "-1", "submit": "Post Reply", "quoted_ids": "", "attachmentaid": ""} {
			if !got.Has(k) || got.Get(k) != v {
				t.Errorf("POST %d: %s = %q, want %q", i, k, got.Get(k), v)
			}
		}
		if got.Has("previewpost") || got.Has("savedraft") {
			t.Errorf("POST %d pressed another button: %v", i, got)
		}
	}

	id, merged, err = fm.Reply(ctx, forum.Thread{ID: "1"}, "Повторная публикация позиции (проверка флуд-контроля).")
	if err != nil || id != "16" || !merged {
		t.Fatalf("second reply: %q merged=%v %v (want 16, merged)", id, merged, err)
	}
	if n := strings.Count(strings.Join(fk.requests, "\n"), "action=lastpost"); n != 1 {
		t.Errorf("%d lastpost probes, want 1 (then the thread's last pid is known)", n)
	}
}

// Without any knowledge of the thread, a reply whose pid is not above the thread's last post
// (probed with action=lastpost) is a merge.
func TestReplyMergedDetectedByProbe(t *testing.T) {
	fk := newFake(t)
	fk.lastPID = "16"
	fk.replies = []string{"23-reply-automerged.gm-bot.html"}
	id, merged, err := fk.forum(t, nil).Reply(ctx, forum.Thread{ID: "1"}, "ещё текст")
	if err != nil || id != "16" || !merged {
		t.Fatalf("%q merged=%v %v", id, merged, err)
	}
}

// A board with the Russian pack refuses for flood control in Russian (datahandler_post.lang.php
// postdata_post_flooding of github.com/kmitrakov/MyBB-Russian-Language-Pack, MyBB 1.8.39, commit
// d4c50deec4121e2d1327a07e58aadfd498d19329, in the captured error page): its wait is the flood
// error's.
func TestReplyFloodRussian(t *testing.T) {
	fk := newFake(t)
	fk.lastPID = "15"
	fk.russian = strings.NewReplacer("You are trying to post a message too quickly after posting a previous message. Please wait 60 more seconds.",
		"Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще 45 секунд(ы).")
	fk.replies = []string{"28-reply-error-flood.snovaya.html", "22-reply-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	var fe *forum.FloodError
	if _, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); !errors.As(err, &fe) || fe.Wait != 45*time.Second {
		t.Fatalf("flood: %v, want 45 s", err)
	}
	id, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят.")
	if err != nil || id != "16" {
		t.Fatalf("%q %v", id, err)
	}
}

// Logged out between calls: the reply form shows the no-permission page; the Forum logs in again
// and retries once.
func TestReplyReloginAfterLoggedOut(t *testing.T) {
	fk := newFake(t)
	fk.replies = []string{"22-reply-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	fk.expire()
	id, _, err := fm.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят.")
	if err != nil || id != "16" {
		t.Fatalf("%q %v", id, err)
	}
	if len(fk.logins) != 2 {
		t.Errorf("%d logins, want 2", len(fk.logins))
	}
	// Once only: a board that keeps logging the bot out is an error.
	fk2 := newFake(t)
	fm2 := fk2.forum(t, nil)
	fm2.loggedIn = true // believes it is logged in; the board has no session
	fk2.password = "changed"
	if _, _, err := fm2.Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); !errors.Is(err, forum.ErrLoggedOut) || !errors.Is(err, forum.ErrBadLogin) {
		t.Errorf("%v", err)
	}
}

func TestReplyBadKeyRetriesOnce(t *testing.T) {
	fk := newFake(t)
	fk.replies = []string{"27-reply-error-badkey.gm-bot.html", "22-reply-success.gm-bot.html"}
	if id, _, err := fk.forum(t, nil).Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); err != nil || id != "16" {
		t.Fatalf("%q %v", id, err)
	}
	fk = newFake(t)
	fk.replies = []string{"27-reply-error-badkey.gm-bot.html", "27-reply-error-badkey.gm-bot.html"}
	if _, _, err := fk.forum(t, nil).Reply(ctx, forum.Thread{ID: "1"}, "Ход принят."); !errors.Is(err, forum.ErrBadToken) {
		t.Fatalf("%v", err)
	}
}

func TestReplyTooShort(t *testing.T) {
	fk := newFake(t)
	fk.replies = []string{"25-reply-error-tooshort.gm-bot.html"}
	if _, _, err := fk.forum(t, nil).Reply(ctx, forum.Thread{ID: "1"}, "ок"); !errors.Is(err, forum.ErrTooShort) {
		t.Fatalf("%v", err)
	}
	if len(fk.posts) != 1 {
		t.Errorf("%d POSTs; a too-short message must not be retried", len(fk.posts))
	}
}

func TestPostsFromScratchThenIdle(t *testing.T) {
	fk := newFake(t)
	fm := fk.forum(t, nil)
	posts, cur, err := fm.Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(posts) != 16 || posts[0].ID != "1" || posts[15].ID != "16" || cur != (forum.Cursor{PostID: "16", Page: 2}) {
		t.Fatalf("%d posts, cursor %+v", len(posts), cur)
	}
	if fk.count() != 2 {
		t.Errorf("%d requests for a 2-page thread", fk.count())
	}
	before := fk.count()
	posts, cur2, err := fm.Posts(ctx, forum.Thread{ID: "1"}, cur)
	if err != nil || len(posts) != 0 || cur2 != cur {
		t.Fatalf("idle: %d posts, %+v, %v", len(posts), cur2, err)
	}
	if n := fk.count() - before; n != 1 {
		t.Errorf("idle poll made %d requests, want 1", n)
	}
}

// An idle poll with a stored cursor, on a fresh Forum, is exactly one request.
func TestIdlePollIsOneRequest(t *testing.T) {
	fk := newFake(t)
	posts, cur, err := fk.forum(t, nil).Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "16", Page: 2})
	if err != nil || len(posts) != 0 || cur.PostID != "16" || cur.Page != 2 {
		t.Fatalf("%d posts %+v %v", len(posts), cur, err)
	}
	if fk.count() != 1 || fk.requests[0] != "GET /showthread.php?tid=1&page=2" {
		t.Errorf("requests %v", fk.requests)
	}
}

func TestPostsCursorWithoutPageUsesPermalink(t *testing.T) {
	fk := newFake(t)
	posts, cur, err := fk.forum(t, nil).Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "12"})
	if err != nil || len(posts) != 4 || posts[0].ID != "13" || cur != (forum.Cursor{PostID: "16", Page: 2}) {
		t.Fatalf("%d posts %+v %v", len(posts), cur, err)
	}
	if fk.count() != 1 || !strings.Contains(fk.requests[0], "pid=12") {
		t.Errorf("requests %v", fk.requests)
	}
}

// A cursor whose page starts after its post (pages shifted) walks back only as far as needed.
func TestPostsWalksBackToTheCursor(t *testing.T) {
	fk := newFake(t)
	posts, cur, err := fk.forum(t, nil).Posts(ctx, forum.Thread{ID: "1"}, forum.Cursor{PostID: "5", Page: 2})
	if err != nil || len(posts) != 11 || posts[0].ID != "6" || posts[10].ID != "16" || cur.PostID != "16" {
		t.Fatalf("%d posts %+v %v", len(posts), cur, err)
	}
	if fk.count() != 2 {
		t.Errorf("requests %v", fk.requests)
	}
}

func TestSendPMFloodThenSuccess(t *testing.T) {
	fk := newFake(t)
	fk.pms = []string{"32-pm-send-error-flood.gm-bot.html", "31-pm-send-success.gm-bot.html"}
	fm := fk.forum(t, nil)
	var fe *forum.FloodError
	if err := fm.SendPM(ctx, "Джелу", "Партия 1: ваш 3-й ход", "Ваш ход."); !errors.As(err, &fe) || fe.Wait != 61*time.Second {
		t.Fatalf("flood: %v, want 61 s", err)
	}
	if err := fm.SendPM(ctx, "Джелу", "Партия 1: ваш 3-й ход", "Ваш ход."); err != nil {
		t.Fatal(err)
	}
	if len(fk.posts) != 2 {
		t.Fatalf("%d POSTs", len(fk.posts))
	}
	got := fk.posts[1]
	for k, v := range map[string]string{"my_post_key": "f8405dfcf6435de0e756d5130990f6b8", "action": "do_send",
		"to": "Джелу", "subject": "Партия 1: ваш 3-й ход", "message": "Ваш ход.", "options[savecopy]": "1",
		"pmid": "0", "do": "", "bcc": "", "submit": "Send Message"} {
		if !got.Has(k) || got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	if got.Has("options[readreceipt]") || got.Has("saveasdraft") || got.Has("preview") {
		t.Errorf("extra fields: %v", got)
	}
}

func TestInbox(t *testing.T) {
	fk := newFake(t)
	fm := fk.forum(t, nil)
	pms, cur, err := fm.Inbox(ctx, forum.Cursor{})
	if err != nil || len(pms) != 1 || cur.PostID != "1" {
		t.Fatalf("%d PMs %+v %v", len(pms), cur, err)
	}
	pm := pms[0]
	if pm.ID != "1" || pm.Author != "gm-bot" || pm.Subject != "Партия 1: ваш 3-й ход" || len(pm.Code) != 1 ||
		!strings.Contains(pm.Text, "Текущая позиция:") {
		t.Errorf("%+v", pm)
	}
	before := fk.count()
	pms, cur, err = fm.Inbox(ctx, cur)
	if err != nil || len(pms) != 0 || cur.PostID != "1" || fk.count()-before != 1 {
		t.Errorf("second poll: %d PMs %+v %v, %d requests", len(pms), cur, err, fk.count()-before)
	}
	// The daemon's rescan reads the inbox from its start again: the listing only, the message kept.
	before = fk.count()
	again, _, err := fm.Inbox(ctx, forum.Cursor{})
	if err != nil || len(again) != 1 || again[0].Text != pm.Text || fk.count()-before != 1 {
		t.Errorf("from scratch again: %d %v, %d requests (want the listing only)", len(again), err, fk.count()-before)
	}
}

func BenchmarkIdlePoll(b *testing.B) {
	fk := newFake(b)
	fm := fk.forum(b, nil)
	cur := forum.Cursor{PostID: "16", Page: 2}
	start := fk.count()
	for b.Loop() {
		posts, _, err := fm.Posts(ctx, forum.Thread{ID: "1"}, cur)
		if err != nil || len(posts) != 0 {
			b.Fatal(err, len(posts))
		}
	}
	b.ReportMetric(float64(fk.count()-start)/float64(b.N), "requests/op")
}
