package xenforo

import (
	"context"
	"slices"
	"strings"
	"testing"

	"forumgm/forum"
)

// XenForo 2.3 as the real pkodev.com page shows a member: html[data-csrf] empty, the token in
// XF.config and the forms; conversations are "direct messages" at direct-messages/, linked from
// the header. Login, a message, the inbox, UnreadPM and UserExists all go there.
func TestXF23DirectMessages(t *testing.T) {
	f := newFakeXF(t)
	f.useXF23()
	x, _ := open(t, f, nil)
	ctx := context.Background()
	if err := x.Login(ctx); err != nil {
		t.Fatal(err)
	}
	if x.currentToken() != f.token() {
		t.Errorf("token after login (from XF.config): %q, want %q", x.currentToken(), f.token())
	}
	if got := x.convRoute(); got != "direct-messages/" {
		t.Errorf("conversation list route learned from the header: %q", got)
	}
	f.resetLog()
	if err := x.SendPM(ctx, "Игрок", "Ваш ход", "ходите"); err != nil {
		t.Fatal(err)
	}
	if forms := f.posted("direct-messages/add"); len(forms) != 1 || forms[0].Get("message") != "ходите" || forms[0].Get("_xfToken") != f.token() {
		t.Errorf("direct message form: %v (requests %v)", forms, f.requests())
	}
	conv := f.convs[0].id
	_, m1 := f.receive(conv, "Игрок", "", "Е2-Е4")
	if _, _, err := x.Posts(ctx, forum.Thread{ID: "8276"}, forum.Cursor{}); err != nil || !x.UnreadPM() {
		t.Fatalf("the 2.3 header's badge: unread %v, %v", x.UnreadPM(), err)
	}
	f.resetLog()
	msgs, _, err := x.Inbox(ctx, forum.Cursor{})
	if err != nil || len(msgs) != 1 || msgs[0].ID != itoa(m1) || msgs[0].Subject != "Ваш ход" {
		t.Fatalf("inbox: %+v %v", msgs, err)
	}
	if reqs := f.requests(); len(reqs) == 0 || reqs[0] != "GET /community/direct-messages/" {
		t.Errorf("inbox requests: %v", reqs)
	}
	if ok, err := x.UserExists(ctx, "Игрок"); err != nil || !ok {
		t.Errorf("UserExists: %v %v", ok, err)
	}
}

// A Forum that has read no page yet (no login in this process) learns the list's route from the
// index first: one request, then the 2.3 route.
func TestXF23RouteFromIndex(t *testing.T) {
	f := newFakeXF(t)
	f.useXF23()
	x, _ := member(t, f, nil)
	y, _ := open(t, f, nil)
	y.board.Client = x.board.Client // the member's session, nothing read by y
	ctx := context.Background()
	if _, _, err := y.Inbox(ctx, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /community/", "GET /community/direct-messages/"}
	if reqs := f.requests(); !slices.Equal(reqs, want) {
		t.Errorf("requests %v, want %v", reqs, want)
	}
}

// FuzzRoutes: links and redirects of any shape never panic the route reading; a route read is
// under the base and ends in "/", a conversation id is digits.
func FuzzRoutes(f *testing.F) {
	for _, s := range []string{"https://pkodev.com/direct-messages/", "/community/conversations/", "index.php?conversations/&x=1",
		"https://pkodev.com/direct-messages/ваш-ход.501/", "conversations/a.b.12/unread", "//evil.example/conversations/", "%zz", ""} {
		f.Add(s)
	}
	x, _ := New(forum.Config{BaseURL: "https://pkodev.com/"})
	y, _ := New(forum.Config{BaseURL: "https://board.example/forum/", Extra: map[string]string{"friendly_urls": "false"}})
	f.Fuzz(func(t *testing.T, s string) {
		for _, z := range []*Forum{x, y} {
			if rt := z.routeOf(s); rt != "" && !strings.HasSuffix(rt, "/") {
				t.Errorf("routeOf(%q) = %q", s, rt)
			}
			if id := z.convID(s); strings.Trim(id, "0123456789") != "" {
				t.Errorf("convID(%q) = %q", s, id)
			}
		}
	})
}
