package phpbb

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// The dialect satisfies forum.SentFolder (crash recovery of PMs).
var _ forum.SentFolder = (*Forum)(nil)

const (
	sentboxReq = "GET /ucp.php?i=pm&folder=sentbox"
	outboxReq  = "GET /ucp.php?i=pm&folder=outbox"
)

// hasMarker finds m in text as a whole token, the way the daemon does.
func hasMarker(text, m string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], m)
		if j < 0 {
			return false
		}
		end := i + j + len(m)
		if end == len(text) || !strings.ContainsRune("-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(text[end])) {
			return true
		}
		i += j + 1
	}
}

func (b *board) since(n int) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests[n:]...)
}

func (b *board) mark() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.requests)
}

// The bot's messages come from Sent messages (23, 25) and the Outbox (24, not yet received, which
// the sent box's folder menu counts: "Outbox (1)"), oldest first, each read once by its folder's
// own link (the stand-in refuses a message asked for in the wrong folder, as phpBB does), with
// the marker lines in the text. The result is pinned in testdata/golden/sent.json. Later calls
// read only the two folder lists; a cursor in the sent box stops there.
func TestSentFolders(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	m := b.mark()
	sent, cur, err := f.Sent(ctx, forum.Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids(sent), ",") != "23,24,25" || cur.PostID != "25" {
		t.Fatalf("sent %v, cursor %+v", ids(sent), cur)
	}
	want := []string{sentboxReq, outboxReq,
		"GET /ucp.php?i=pm&mode=view&f=-1&p=23&sid=5f1c0a9b2e4d4c7f8a1b2c3d4e5f6a7b",
		"GET /ucp.php?i=pm&mode=view&f=-2&p=24&sid=5f1c0a9b2e4d4c7f8a1b2c3d4e5f6a7b",
		"GET /ucp.php?i=pm&mode=view&f=-1&p=25&sid=5f1c0a9b2e4d4c7f8a1b2c3d4e5f6a7b"}
	if got := b.since(m); !equal(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	markers := []string{"fgm-crusade1-4-aa11bb", "fgm-crusade1-5-cc22dd", "fgm-crusade1-6-ee33ff"}
	for i, p := range sent {
		if p.Author != "gm-bot" || p.AuthorID != "3" || !hasMarker(p.Text, markers[i]) {
			t.Errorf("message %s: %+v, want marker %s", p.ID, p, markers[i])
		}
		for j, other := range markers {
			if j != i && hasMarker(p.Text, other) {
				t.Errorf("message %s holds %s too", p.ID, other)
			}
		}
	}
	if p := sent[2]; p.Subject != "Партия 1: ход принят" || len(p.Code) != 1 || !p.Time.Equal(time.Date(2026, 11, 30, 11, 40, 0, 0, time.UTC)) ||
		p.Text != "Ход принят.\n   A B C\n 1 . К .\n 2 . . С\nfgm-crusade1-6-ee33ff" {
		t.Errorf("message 25: %+v", p)
	}
	goldenSent := make([]forum.Post, len(sent))
	for i, p := range sent {
		p.Permalink = strings.Replace(p.Permalink, strings.TrimSuffix(f.cfg.BaseURL, "/"), "http://127.0.0.1:8081", 1)
		goldenSent[i] = p
	}
	fixture.Golden(t, "sent.json", goldenSent, *update)

	for _, c := range []struct {
		after, ids, cur string
	}{
		{"25", "", "25"},
		{"23", "24,25", "25"},
		{"", "23,24,25", "25"},
	} {
		m := b.mark()
		got, next, err := f.Sent(ctx, forum.Cursor{PostID: c.after})
		if err != nil || strings.Join(ids(got), ",") != c.ids || next.PostID != c.cur {
			t.Errorf("after %q: %v, cursor %+v, %v", c.after, ids(got), next, err)
		}
		if r := b.since(m); !equal(r, []string{sentboxReq, outboxReq}) {
			t.Errorf("after %q: requests %q, want the two folder lists only", c.after, r)
		}
	}
}

// With an empty Outbox (every recipient has received its message: the menu says just "Outbox")
// nothing new costs one request, and only Sent messages is read.
func TestSentEmptyOutbox(t *testing.T) {
	b, f := setup(t)
	b.edit = func(name, page string) string {
		return strings.ReplaceAll(page, "<strong>Outbox (1)</strong>", "Outbox")
	}
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	m := b.mark()
	sent, cur, err := f.Sent(ctx, forum.Cursor{})
	if err != nil || strings.Join(ids(sent), ",") != "23,25" || cur.PostID != "25" {
		t.Fatalf("sent %v, cursor %+v, %v", ids(sent), cur, err)
	}
	if r := b.since(m); slices.Contains(r, outboxReq) {
		t.Errorf("an outbox the folder menu shows empty was read: %q", r)
	}
	m = b.mark()
	none, cur2, err := f.Sent(ctx, cur)
	if err != nil || len(none) != 0 || cur2 != cur {
		t.Errorf("nothing new: %v %+v %v", ids(none), cur2, err)
	}
	if r := b.since(m); !equal(r, []string{sentboxReq}) {
		t.Errorf("nothing new: requests %q, want one", r)
	}
}

// A session the board dropped: the folder shows the login box; the dialect logs in once and
// reads the folders again.
func TestSentLoggedOut(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if err := f.Login(ctx); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	b.expire = true
	logins := b.logins
	b.mu.Unlock()
	m := b.mark()
	sent, _, err := f.Sent(ctx, forum.Cursor{PostID: "23"})
	if err != nil || strings.Join(ids(sent), ",") != "24,25" {
		t.Fatalf("sent %v, %v", ids(sent), err)
	}
	folders := 0
	for _, r := range b.since(m) {
		if r == sentboxReq {
			folders++
		}
	}
	if b.logins-logins != 1 || folders != 2 {
		t.Errorf("%d logins and %d sent-box reads, want 1 and 2: %q", b.logins-logins, folders, b.since(m))
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
