package forumtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

// Lack is a part of the contract a dialect does not offer.
type Lack string

// The parts a dialect may lack. The suite checks how a lacking dialect refuses instead.
const (
	// LackPM: no private messages. Capabilities().PrivateMessages is false, SendPM and Inbox
	// answer forum.ErrNoPM.
	LackPM Lack = "private messages"
	// LackSent: private messages but no sent folder: the Forum does not implement
	// forum.SentFolder (the daemon then sends a message again rather than lose it).
	LackSent Lack = "sent folder"
	// LackLinks: the Forum cannot address its thread's posts (it does not implement
	// forum.Linker): the players' pages link the thread alone.
	LackLinks Lack = "post links"
)

// Harness is what a dialect gives the suite (from its conformance_test.go): how to start a
// board it serves, and what it lacks, each with the reason.
type Harness struct {
	// Start serves a fresh board for one case; the board is closed by t.Cleanup.
	Start func(t *testing.T) *Board
	// Lacks are the parts of the contract the dialect does not offer, with why.
	Lacks map[Lack]string
}

// Board is one board a dialect serves for a case, the bot's Forum on it, and the hooks by which
// the suite acts on it as its players and its administrator would. Every hook is required
// unless the Harness declares the capability lacking (PM without private messages).
type Board struct {
	// Forum is the bot's, not logged in yet.
	Forum forum.Forum
	// Thread holds at least two posts of players; Post adds more.
	Thread forum.Thread
	// NotThread names a thread the board answers with a page that is not a thread page (its
	// index, an error page, a 404).
	NotThread forum.Thread
	// Player is a user name the bot may send private messages to.
	Player string
	// Post adds a player's post with text to Thread and returns its id.
	Post func(t testing.TB, text string) string
	// Grow makes post id (a player's) longer by text under the same id: the board merged the
	// player's next post into it, or the player edited it.
	Grow func(t testing.TB, id, text string)
	// LogOut makes the board forget the bot's session.
	LogOut func(t testing.TB)
	// Flood makes the board refuse the bot's next post with flood control and returns the
	// wait the board will name.
	Flood func(t testing.TB) time.Duration
	// TooLong returns a message the board refuses as too long (making the board's limit small
	// where the board allows).
	TooLong func(t testing.TB) string
	// PM sends the bot a private message from Player (nil with LackPM).
	PM func(t testing.TB, subject, text string)
	// Cut makes the board cut its next answer holding text in the middle of text (Front.Cut).
	Cut func(t testing.TB, text string)
	// WrongThread makes the board answer every request for Thread with the pages of another
	// thread (a moderator moved or merged threads, a caching front, a wrong redirect: Front.Swap,
	// Front.Relabel) and returns that thread.
	WrongThread func(t testing.TB) forum.Thread
}

// Run runs the conformance suite on the dialect h starts boards of.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.Start == nil {
		t.Fatal("forumtest: Harness.Start is nil")
	}
	cases := []struct {
		name string
		run  func(t *testing.T, h Harness, b *Board)
	}{
		{"read", testRead},
		{"cursor-include", testInclude},
		{"grown", testGrown},
		{"reply", testReply},
		{"logged-out", testLoggedOut},
		{"flood", testFlood},
		{"too-long", testTooLong},
		{"private-messages", testPM},
		{"sent-folder", testSent},
		{"truncated", testTruncated},
		{"not-a-thread", testNotThread},
		{"wrong-thread", testWrongThread},
		{"links", testLinks},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := h.Start(t)
			if b == nil || b.Forum == nil {
				t.Fatal("forumtest: Start gave no board or no Forum")
			}
			c.run(t, h, b)
		})
	}
}

var ctx = context.Background()

// need fails the case when the board lacks a hook the case needs.
func need(t *testing.T, name string, ok bool) {
	t.Helper()
	if !ok {
		t.Fatalf("forumtest: Board.%s is nil (every dialect's board must provide it)", name)
	}
}

func login(t *testing.T, b *Board) {
	t.Helper()
	if err := b.Forum.Login(ctx); err != nil {
		t.Fatalf("login: %v", err)
	}
}

// read reads b's thread after c and checks the posts it gives: ids ascending and listed by the
// cursor, every post whole or with a typed problem.
func read(t *testing.T, b *Board, c forum.Cursor) ([]forum.Post, forum.Cursor) {
	t.Helper()
	posts, next, err := b.Forum.Posts(ctx, b.Thread, c)
	if err != nil {
		t.Fatalf("Posts after %+v: %v", c, err)
	}
	checkPosts(t, posts)
	for _, p := range posts {
		if !c.Listed(p.ID) {
			t.Errorf("post %s is not after the cursor %+v", p.ID, c)
		}
	}
	if len(posts) > 0 && next.PostID != posts[len(posts)-1].ID {
		t.Errorf("cursor after the read names %q, the last post read is %q", next.PostID, posts[len(posts)-1].ID)
	}
	return posts, next
}

// checkPosts checks what the contract says of every list of posts: ids ascending (forum.IDLess)
// without repeats, every post with an id, and an author and a time or the problem of its kind.
// The text may be empty: a post of a picture alone has none (a body not found is ProblemText).
func checkPosts(t *testing.T, posts []forum.Post) {
	t.Helper()
	for i, p := range posts {
		if p.ID == "" {
			t.Errorf("post %d has no id", i)
		}
		if i > 0 && !forum.IDLess(posts[i-1].ID, p.ID) {
			t.Errorf("post ids out of order: %q then %q", posts[i-1].ID, p.ID)
		}
		has := func(k forum.ProblemKind) bool {
			for _, pr := range p.Problems {
				if pr.Kind == k {
					return true
				}
			}
			return false
		}
		if p.Author == "" && !has(forum.ProblemAuthor) {
			t.Errorf("post %s: no author and no author problem", p.ID)
		}
		if p.Time.IsZero() && !has(forum.ProblemTime) {
			t.Errorf("post %s: no time and no time problem", p.ID)
		}
	}
}

// find is the post with id.
func find(posts []forum.Post, id string) (forum.Post, bool) {
	for _, p := range posts {
		if p.ID == id {
			return p, true
		}
	}
	return forum.Post{}, false
}

// unique is a text of the case no other post holds (words only: every markup keeps them).
func unique(t *testing.T, what string) string {
	return fmt.Sprintf("Conformance %s %s words", what, strings.NewReplacer("/", " ", "-", " ").Replace(t.Name()))
}

// testRead: the whole thread, then only what comes after the cursor it gave.
func testRead(t *testing.T, _ Harness, b *Board) {
	need(t, "Post", b.Post != nil)
	login(t, b)
	posts, c := read(t, b, forum.Cursor{})
	if len(posts) < 2 {
		t.Fatalf("%d posts in the board's thread, want at least 2", len(posts))
	}
	again, c2 := read(t, b, c)
	if len(again) != 0 {
		t.Errorf("a read after the last cursor gave %d posts (%s…)", len(again), again[0].ID)
	}
	text := unique(t, "new post")
	id := b.Post(t, text)
	news, c3 := read(t, b, c2)
	if len(news) != 1 || news[0].ID != id || !strings.Contains(news[0].Text, text) {
		t.Fatalf("after the cursor: %s, want the one new post %s %q", ids(news), id, text)
	}
	if !forum.IDLess(posts[len(posts)-1].ID, id) {
		t.Errorf("the new post %s is not after the thread's last %s", id, posts[len(posts)-1].ID)
	}
	if c3.PostID != id {
		t.Errorf("cursor %+v, want post %s", c3, id)
	}
	// From a cursor in the middle: the posts after it, in order.
	mid := posts[len(posts)/2-1]
	rest, _ := read(t, b, forum.Cursor{PostID: mid.ID})
	var want []string
	for _, p := range append(posts, news...) {
		if forum.IDLess(mid.ID, p.ID) {
			want = append(want, p.ID)
		}
	}
	if ids(rest) != strings.Join(want, ",") {
		t.Errorf("after post %s: %s, want %s", mid.ID, ids(rest), strings.Join(want, ","))
	}
}

func ids(posts []forum.Post) string {
	s := make([]string, len(posts))
	for i, p := range posts {
		s[i] = p.ID
	}
	return strings.Join(s, ",")
}

// testInclude: Include gives the cursor's own post back, without it the post is not repeated.
func testInclude(t *testing.T, _ Harness, b *Board) {
	login(t, b)
	posts, c := read(t, b, forum.Cursor{})
	if len(posts) == 0 {
		t.Fatal("no posts")
	}
	last := posts[len(posts)-1]
	c.Include = true
	got, next := read(t, b, c)
	if len(got) != 1 || got[0].ID != last.ID {
		t.Fatalf("Include: %s, want the cursor's own post %s", ids(got), last.ID)
	}
	if got[0].Text != last.Text {
		t.Errorf("Include: the cursor's post reads %q, before %q", got[0].Text, last.Text)
	}
	next.Include = false
	if again, _ := read(t, b, next); len(again) != 0 {
		t.Errorf("without Include: %s, want nothing", ids(again))
	}
	// A cursor made of the post id alone (a cursor restored after a restart).
	if got, _ := read(t, b, forum.Cursor{PostID: last.ID, Include: true}); len(got) != 1 || got[0].ID != last.ID {
		t.Errorf("Include from a bare cursor: %s, want %s", ids(got), last.ID)
	}
	if got, _ := read(t, b, forum.Cursor{PostID: last.ID}); len(got) != 0 {
		t.Errorf("bare cursor without Include: %s, want nothing", ids(got))
	}
}

// testGrown: a post the board made longer under its id reads longer with Include.
func testGrown(t *testing.T, _ Harness, b *Board) {
	need(t, "Post", b.Post != nil)
	need(t, "Grow", b.Grow != nil)
	login(t, b)
	_, c := read(t, b, forum.Cursor{})
	first, more := unique(t, "first part"), unique(t, "second part")
	id := b.Post(t, first)
	got, c := read(t, b, c)
	if len(got) != 1 || got[0].ID != id {
		t.Fatalf("new post: %s, want %s", ids(got), id)
	}
	before := got[0].Text
	b.Grow(t, id, more)
	c.Include = true
	got, _ = read(t, b, c)
	p, ok := find(got, id)
	if !ok || len(got) != 1 {
		t.Fatalf("after the post grew: %s, want %s alone (same id)", ids(got), id)
	}
	if !strings.Contains(p.Text, first) || !strings.Contains(p.Text, more) || len(p.Text) <= len(before) {
		t.Errorf("grown post %s reads %q (before %q)", id, p.Text, before)
	}
}

// testReply: the bot's reply is read back under the id Reply gave, after every earlier post.
func testReply(t *testing.T, _ Harness, b *Board) {
	login(t, b)
	posts, c := read(t, b, forum.Cursor{})
	text := unique(t, "reply")
	id, merged, err := b.Forum.Reply(ctx, b.Thread, text)
	if err != nil {
		t.Fatalf("Reply: %v", err)
	}
	if merged {
		t.Errorf("the bot's first reply was reported merged (id %s)", id)
	}
	if len(posts) > 0 && !forum.IDLess(posts[len(posts)-1].ID, id) {
		t.Errorf("reply id %s is not after the thread's last post %s", id, posts[len(posts)-1].ID)
	}
	got, _ := read(t, b, c)
	p, ok := find(got, id)
	if !ok || len(got) != 1 {
		t.Fatalf("after the reply: %s, want %s", ids(got), id)
	}
	if !strings.Contains(p.Text, text) {
		t.Errorf("reply %s reads %q, want %q", id, p.Text, text)
	}
}

// again runs op; when it reports forum.ErrLoggedOut, logs in (as the daemon does) and runs it
// once more. Any other error fails the case.
func again(t *testing.T, b *Board, what string, op func() error) {
	t.Helper()
	err := op()
	if errors.Is(err, forum.ErrLoggedOut) {
		if err := b.Forum.Login(ctx); err != nil {
			t.Fatalf("%s: login after ErrLoggedOut: %v", what, err)
		}
		err = op()
	}
	if err != nil {
		t.Fatalf("%s after the session was lost: %v (want success, or forum.ErrLoggedOut and success after Login)", what, err)
	}
}

// testLoggedOut: after the board forgot the session, a read and a write succeed, by a login of
// the dialect's own or after forum.ErrLoggedOut and the caller's Login; the write is posted once.
func testLoggedOut(t *testing.T, _ Harness, b *Board) {
	need(t, "LogOut", b.LogOut != nil)
	need(t, "Post", b.Post != nil)
	login(t, b)
	_, c := read(t, b, forum.Cursor{})
	text := unique(t, "seen after logout")
	id := b.Post(t, text)
	b.LogOut(t)
	var got []forum.Post
	again(t, b, "Posts", func() (err error) {
		got, c, err = b.Forum.Posts(ctx, b.Thread, c)
		return err
	})
	if len(got) != 1 || got[0].ID != id {
		t.Fatalf("read after logout: %s, want %s", ids(got), id)
	}
	b.LogOut(t)
	reply := unique(t, "reply after logout")
	var rid string
	again(t, b, "Reply", func() (err error) {
		rid, _, err = b.Forum.Reply(ctx, b.Thread, reply)
		return err
	})
	got, _ = read(t, b, c)
	n := 0
	for _, p := range got {
		if strings.Contains(p.Text, reply) {
			n++
			if p.ID != rid {
				t.Errorf("the reply reads as post %s, Reply said %s", p.ID, rid)
			}
		}
	}
	if n != 1 {
		t.Errorf("the reply is in the thread %d times, want once (%s)", n, ids(got))
	}
}

// testFlood: flood control comes back at once as *forum.FloodError with the board's wait, and
// nothing is posted.
func testFlood(t *testing.T, _ Harness, b *Board) {
	need(t, "Flood", b.Flood != nil)
	login(t, b)
	_, c := read(t, b, forum.Cursor{})
	wait := b.Flood(t)
	_, c = read(t, b, c) // whatever the board's set-up posted
	_, _, err := b.Forum.Reply(ctx, b.Thread, unique(t, "flooded"))
	var fe *forum.FloodError
	if !errors.As(err, &fe) {
		t.Fatalf("Reply under flood control: %v, want *forum.FloodError", err)
	}
	if fe.Wait != wait {
		t.Errorf("flood wait %s, the board said %s", fe.Wait, wait)
	}
	if got, _ := read(t, b, c); len(got) != 0 {
		t.Errorf("posted under flood control: %s", ids(got))
	}
}

// testTooLong: a message the board finds too long is forum.ErrTooLong, not split, not posted.
func testTooLong(t *testing.T, _ Harness, b *Board) {
	need(t, "TooLong", b.TooLong != nil)
	login(t, b)
	_, c := read(t, b, forum.Cursor{})
	body := b.TooLong(t)
	if _, _, err := b.Forum.Reply(ctx, b.Thread, body); !errors.Is(err, forum.ErrTooLong) {
		t.Fatalf("Reply of %d characters: %v, want forum.ErrTooLong", len([]rune(body)), err)
	}
	if got, _ := read(t, b, c); len(got) != 0 {
		t.Errorf("posted (in part?) although too long: %s", ids(got))
	}
}

// testPM: the inbox after a cursor lists only the messages that came after it; without private
// messages, the refusal is forum.ErrNoPM.
func testPM(t *testing.T, h Harness, b *Board) {
	if why, ok := h.Lacks[LackPM]; ok {
		t.Logf("no private messages: %s; checking the refusal", why)
		if b.Forum.Capabilities().PrivateMessages {
			t.Error("Capabilities().PrivateMessages is true for a dialect lacking them")
		}
		if err := b.Forum.SendPM(ctx, "someone", "subject", "text"); !errors.Is(err, forum.ErrNoPM) {
			t.Errorf("SendPM: %v, want forum.ErrNoPM", err)
		}
		if _, _, err := b.Forum.Inbox(ctx, forum.Cursor{}); !errors.Is(err, forum.ErrNoPM) {
			t.Errorf("Inbox: %v, want forum.ErrNoPM", err)
		}
		return
	}
	need(t, "PM", b.PM != nil)
	if !b.Forum.Capabilities().PrivateMessages {
		t.Error("Capabilities().PrivateMessages is false; declare LackPM or say true")
	}
	login(t, b)
	inbox := func(c forum.Cursor) ([]forum.Post, forum.Cursor) {
		t.Helper()
		pms, next, err := b.Forum.Inbox(ctx, c)
		if err != nil {
			t.Fatalf("Inbox after %+v: %v", c, err)
		}
		checkPosts(t, pms)
		return pms, next
	}
	old, c := inbox(forum.Cursor{})
	subject, text := "Conformance one", unique(t, "first message")
	b.PM(t, subject, text)
	got, c := inbox(c)
	if len(got) != 1 || !strings.Contains(got[0].Text, text) {
		t.Fatalf("inbox after the cursor: %d messages (%s), want the new one %q", len(got), ids(got), text)
	}
	if len(old) > 0 && !forum.IDLess(old[len(old)-1].ID, got[0].ID) {
		t.Errorf("the new message %s is not after %s", got[0].ID, old[len(old)-1].ID)
	}
	if again, _ := inbox(c); len(again) != 0 {
		t.Errorf("nothing new, yet the inbox gave %s", ids(again))
	}
	text2 := unique(t, "second message")
	b.PM(t, "Conformance two", text2)
	got, _ = inbox(c)
	if len(got) != 1 || !strings.Contains(got[0].Text, text2) {
		t.Errorf("inbox after the cursor: %s, want the second message alone", ids(got))
	}
}

// testSent: what the bot sent is in its sent folder, after the cursor taken before.
func testSent(t *testing.T, h Harness, b *Board) {
	sf, ok := forum.As[forum.SentFolder](b.Forum)
	why, lacks := h.Lacks[LackSent]
	if whyPM, noPM := h.Lacks[LackPM]; noPM {
		why, lacks = whyPM, true
	}
	switch {
	case lacks && ok:
		t.Fatalf("the harness says the dialect lacks a sent folder (%s), yet its Forum is a forum.SentFolder", why)
	case lacks:
		t.Logf("no sent folder: %s; the Forum is not a forum.SentFolder (checked)", why)
		return
	case !ok:
		t.Fatal("the Forum is not a forum.SentFolder: declare LackSent with the reason")
	}
	if b.Player == "" {
		t.Fatal("forumtest: Board.Player is empty")
	}
	login(t, b)
	sent := func(c forum.Cursor) ([]forum.Post, forum.Cursor) {
		t.Helper()
		pms, next, err := sf.Sent(ctx, c)
		if err != nil {
			t.Fatalf("Sent after %+v: %v", c, err)
		}
		checkPosts(t, pms)
		return pms, next
	}
	_, c := sent(forum.Cursor{})
	text := unique(t, "sent message")
	if err := b.Forum.SendPM(ctx, b.Player, "Conformance sent", text); err != nil {
		t.Fatalf("SendPM: %v", err)
	}
	got, c := sent(c)
	if len(got) != 1 || !strings.Contains(got[0].Text, text) {
		t.Fatalf("sent folder after the cursor: %s, want the message sent %q", ids(got), text)
	}
	if again, _ := sent(c); len(again) != 0 {
		t.Errorf("nothing sent since, yet the folder gave %s", ids(again))
	}
}

// testTruncated: a thread page cut in the middle of a post is an error or posts with problems,
// never a thread silently shorter; the next read is whole again.
func testTruncated(t *testing.T, _ Harness, b *Board) {
	need(t, "Post", b.Post != nil)
	need(t, "Cut", b.Cut != nil)
	login(t, b)
	text := unique(t, "a post the page is cut in the middle of")
	id := b.Post(t, text)
	b.Cut(t, text)
	posts, _, err := b.Forum.Posts(ctx, b.Thread, forum.Cursor{})
	if err == nil {
		p, ok := find(posts, id)
		problems := false
		for _, q := range posts {
			problems = problems || len(q.Problems) > 0
		}
		if !problems && (!ok || p.Text != text) {
			t.Fatalf("a page cut short read as %s without an error or a problem", ids(posts))
		}
	} else {
		t.Logf("cut page: %v", err)
	}
	whole, _ := read(t, b, forum.Cursor{})
	if p, ok := find(whole, id); !ok || !strings.Contains(p.Text, text) {
		t.Errorf("the next read lacks post %s whole: %s", id, ids(whole))
	}
}

// testNotThread: a page that is not a thread is a typed error, never an empty thread.
func testNotThread(t *testing.T, _ Harness, b *Board) {
	if b.NotThread.ID == "" {
		t.Fatal("forumtest: Board.NotThread is empty")
	}
	login(t, b)
	posts, _, err := b.Forum.Posts(ctx, b.NotThread, forum.Cursor{})
	if err == nil {
		t.Fatalf("not a thread: %d posts, no error", len(posts))
	}
	if !Typed(err) {
		t.Errorf("not a thread: %v, want a typed error (%v)", err, typedErrors)
	}
}

// testWrongThread: another thread's page served for the board's thread is forum.ErrWrongThread
// naming both threads, from any cursor (the thread's start, its last post with Include, its
// middle), with no posts: nothing of the other thread is read as the board's. From the last post
// without Include an idle check that reads no page of the thread (a feed, a redirect naming the
// newest post alone) may instead find nothing new.
func testWrongThread(t *testing.T, _ Harness, b *Board) {
	need(t, "WrongThread", b.WrongThread != nil)
	login(t, b)
	posts, c := read(t, b, forum.Cursor{})
	if len(posts) == 0 {
		t.Fatal("no posts")
	}
	other := b.WrongThread(t)
	if other.ID == "" || other.ID == b.Thread.ID {
		t.Fatalf("forumtest: WrongThread gave thread %q, want another than %q", other.ID, b.Thread.ID)
	}
	for _, from := range []forum.Cursor{{}, c, {PostID: c.PostID, Include: true}, {PostID: posts[0].ID}} {
		got, _, err := b.Forum.Posts(ctx, b.Thread, from)
		var wt *forum.WrongThreadError
		switch {
		case from == c && err == nil && len(got) == 0:
			t.Logf("after %+v: nothing new, no page read (the idle check)", from)
		case !errors.Is(err, forum.ErrWrongThread) || !errors.As(err, &wt):
			t.Errorf("after %+v, thread %s's pages served for thread %s: %d posts (%s), %v; want a *forum.WrongThreadError",
				from, other.ID, b.Thread.ID, len(got), ids(got), err)
		case wt.Asked != b.Thread.ID || wt.Found != other.ID:
			t.Errorf("after %+v: %v, want thread %s asked and %s found", from, err, b.Thread.ID, other.ID)
		case len(got) > 0:
			t.Errorf("after %+v: %v with %d posts (%s), want none", from, err, len(got), ids(got))
		}
	}
}

// typedErrors are the errors a read of a page that is not a thread may be.
var typedErrors = []error{forum.ErrNotFound, forum.ErrMarkupChanged, forum.ErrNoPermission, forum.ErrLoggedOut}

// Typed reports whether err is one of the errors a page that is not a thread may be:
// forum.ErrNotFound, forum.ErrMarkupChanged, forum.ErrNoPermission, or forum.ErrLoggedOut (the
// board's no-permission page for a guest).
func Typed(err error) bool {
	for _, e := range typedErrors {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
