package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/game"
)

func TestOutboxLifecycle(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	c := moveCommit("g", "1")
	c.Outbox = []OutboxItem{
		{Kind: OutboxReply, Body: "board"},
		{Kind: OutboxPM, Recipient: "Вася", Subject: "Ваш ход", Body: "secret"},
		{Kind: OutboxReply, Body: "next"},
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingOutbox(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 3 {
		t.Fatalf("%d pending, want 3", len(pending))
	}
	for i, o := range pending {
		if o.N != int64(i+1) || o.Marker != Marker(gameKey(t, s, "g"), "g", o.N) || o.State != OutboxPending || o.Body != c.Outbox[i].Body ||
			o.Kind != c.Outbox[i].Kind || o.Recipient != c.Outbox[i].Recipient || o.Subject != c.Outbox[i].Subject {
			t.Errorf("item %d = %+v", i, o)
		}
		if i > 0 && o.ID <= pending[i-1].ID {
			t.Errorf("not in id order: %d after %d", o.ID, pending[i-1].ID)
		}
	}
	first, pm, third := pending[0].ID, pending[1].ID, pending[2].ID
	postedAt := time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)

	steps := []struct {
		name        string
		do          func() error
		wantIs      error
		wantPending []int64
	}{
		{"attempt fails", func() error { return s.MarkAttempt(ctx, first, errors.New("flood control")) }, nil, []int64{first, pm, third}},
		{"attempt fails again", func() error { return s.MarkAttempt(ctx, first, errors.New("timeout")) }, nil, []int64{first, pm, third}},
		{"posted", func() error { return s.MarkPosted(ctx, first, "9001", postedAt) }, nil, []int64{pm, third}},
		{"posted again, same id: no-op", func() error { return s.MarkPosted(ctx, first, "9001", postedAt.Add(time.Hour)) }, nil, []int64{pm, third}},
		{"posted again, other id", func() error { return s.MarkPosted(ctx, first, "9002", postedAt) }, ErrOutboxState, []int64{pm, third}},
		{"attempt on a posted item", func() error { return s.MarkAttempt(ctx, first, errors.New("x")) }, ErrOutboxState, []int64{pm, third}},
		{"pm given up", func() error { return s.MarkFailed(ctx, pm, errors.New("forum: private messages not available")) }, nil, []int64{third}},
		{"unknown item", func() error { return s.MarkPosted(ctx, 999, "1", postedAt) }, ErrNotFound, []int64{third}},
		{"unknown item attempt", func() error { return s.MarkAttempt(ctx, 999, nil) }, ErrNotFound, []int64{third}},
		{"pm sent (no forum id)", func() error { return s.MarkPosted(ctx, third, "", postedAt) }, nil, nil},
	}
	for _, st := range steps {
		err := st.do()
		if st.wantIs == nil && err != nil || st.wantIs != nil && !errors.Is(err, st.wantIs) {
			t.Fatalf("%s: error %v, want %v", st.name, err, st.wantIs)
		}
		got, err := s.PendingOutbox(ctx, "g")
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, o := range got {
			ids = append(ids, o.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(st.wantPending) {
			t.Fatalf("%s: pending %v, want %v", st.name, ids, st.wantPending)
		}
	}
	o, err := s.Outbox(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if o.State != OutboxPosted || o.ForumPostID != "9001" || o.Attempts != 2 || o.LastError != "timeout" || !o.PostedAt.Equal(postedAt) {
		t.Errorf("first = %+v", o)
	}
	o, _ = s.Outbox(ctx, pm)
	if o.State != OutboxFailed || o.Attempts != 1 || !strings.Contains(o.LastError, "private messages") {
		t.Errorf("pm = %+v", o)
	}
}

func TestOutboxInvalidItems(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	for _, it := range []OutboxItem{
		{Kind: OutboxPM, Body: "no recipient"},
		{Kind: OutboxReply, Recipient: "x", Body: "reply with recipient"},
		{Kind: "tweet", Body: "x"},
		{Kind: OutboxReply},
		{Kind: OutboxReply, Body: "x", Attachments: []forum.Attachment{{Name: "", ContentType: "image/png", Data: []byte{1}}}},
		{Kind: OutboxReply, Body: "x", Attachments: []forum.Attachment{{Name: "../a.png", ContentType: "image/png", Data: []byte{1}}}},
		{Kind: OutboxReply, Body: "x", Attachments: []forum.Attachment{{Name: "a.png", Data: []byte{1}}}},
		{Kind: OutboxReply, Body: "x", Attachments: []forum.Attachment{{Name: "a.png", ContentType: "image/png"}}},
		{Kind: OutboxReply, Body: "x", Attachments: []forum.Attachment{{Name: "a.png", ContentType: "image/png", Data: make([]byte, MaxAttachmentSize+1)}}},
		{Kind: OutboxReply, Body: "x", Attachments: make([]forum.Attachment, MaxAttachments+1)},
	} {
		c := moveCommit("g", "1")
		c.Outbox = []OutboxItem{it}
		if err := s.Commit(ctx, c); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: error %v, want ErrInvalid", it, err)
		}
	}
}

// TestMarkersKeyed: markers are keyed with a secret of the game's, made once: the same game's
// commits give other markers in another database, every marker is the HMAC under the stored key,
// markers never repeat and none is a substring of another.
func TestMarkersKeyed(t *testing.T) {
	ctx := context.Background()
	markers := func(noise bool) ([]string, *Store) {
		s, _ := openTest(t)
		ensureGame(t, s, "g")
		ensureGame(t, s, "g-1")
		for i := range 25 {
			if noise {
				if err := s.Commit(ctx, moveCommit("g-1", fmt.Sprint(i))); err != nil {
					t.Fatal(err)
				}
			}
			c := moveCommit("g", fmt.Sprint(i))
			c.Outbox = append(c.Outbox, OutboxItem{Kind: OutboxPM, Recipient: "p", Body: "b"})
			if err := s.Commit(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		var out []string
		for _, game := range []string{"g", "g-1"} {
			pending, err := s.PendingOutbox(ctx, game)
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range pending {
				if want := Marker(gameKey(t, s, game), game, int64(i+1)); o.Marker != want {
					t.Errorf("%s item %d: marker %s, want %s", game, i+1, o.Marker, want)
				}
				out = append(out, o.Marker)
			}
		}
		return out, s
	}
	quiet, s1 := markers(false)
	noisy, s2 := markers(true)
	if len(quiet) != 50 || len(noisy) != 75 {
		t.Fatalf("%d and %d markers", len(quiet), len(noisy))
	}
	for i := range quiet {
		if quiet[i] == noisy[i] {
			t.Errorf("marker %s is the same in two databases (the key is not random)", quiet[i])
		}
	}
	for _, s := range []*Store{s1, s2} {
		var keys int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM marker_keys WHERE game_id = 'g'`).Scan(&keys); err != nil || keys != 1 {
			t.Errorf("game g has %d keys (%v), want 1", keys, err)
		}
	}
	for i, a := range noisy {
		for j, b := range noisy {
			if i != j && strings.Contains(b, a) {
				t.Errorf("marker %q found inside %q", a, b)
			}
		}
	}
	if got := Marker([]byte("k"), "g", 1); !regexp.MustCompile(`^fgm-g-1-[0-9a-f]{12}$`).MatchString(got) || got == Marker([]byte("k2"), "g", 1) {
		t.Errorf("Marker changed format or ignores the key: %s", got)
	}
}

// TestOutboxAttachments: an item's files come back with it, in order, from PendingOutbox and
// Outbox; identical bytes are stored once however many items carry them; an item without files
// has none; the largest allowed file is taken.
func TestOutboxAttachments(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	png := forum.Attachment{Name: "round-1.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nfield")}
	legend := forum.Attachment{Name: "legend.png", ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nlegend")}
	big := forum.Attachment{Name: "big.bin", ContentType: "application/octet-stream", Data: make([]byte, MaxAttachmentSize)}
	c := moveCommit("g", "1")
	c.Outbox = []OutboxItem{
		{Kind: OutboxReply, Body: "report", Attachments: []forum.Attachment{png, legend}},
		{Kind: OutboxReply, Body: "plain"},
		{Kind: OutboxPM, Recipient: "Вася", Body: "your copy", Attachments: []forum.Attachment{png}},
		{Kind: OutboxReply, Body: "big", Attachments: []forum.Attachment{big}},
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingOutbox(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 4 {
		t.Fatalf("%d pending, want 4", len(pending))
	}
	for i, o := range pending {
		want := c.Outbox[i].Attachments
		if len(o.Attachments) != len(want) {
			t.Fatalf("item %d: %d attachments, want %d", i+1, len(o.Attachments), len(want))
		}
		for j, a := range o.Attachments {
			if a.Name != want[j].Name || a.ContentType != want[j].ContentType || string(a.Data) != string(want[j].Data) {
				t.Errorf("item %d attachment %d = %s %s %d bytes, want %s", i+1, j, a.Name, a.ContentType, len(a.Data), want[j].Name)
			}
		}
		one, err := s.Outbox(ctx, o.ID)
		if err != nil || fmt.Sprint(one.Attachments) != fmt.Sprint(o.Attachments) {
			t.Errorf("Outbox(%d) attachments differ from PendingOutbox's (%v)", o.ID, err)
		}
	}
	if n := count(t, s, `SELECT count(*) FROM blobs`); n != 3 {
		t.Errorf("%d blobs stored, want 3 (the field picture once for two items)", n)
	}
	if n := count(t, s, `SELECT count(*) FROM outbox_attachments`); n != 4 {
		t.Errorf("%d attachment rows, want 4", n)
	}
}

// An item that starts a clock keeps its key; a commit that marks it posted writes the events its
// posting causes with it, both or neither (a commit refused because the log moved marks nothing).
func TestCommitPostedWithEvents(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	ensureGame(t, s, "h")
	c := moveCommit("g", "1")
	c.Outbox = []OutboxItem{{Kind: OutboxReply, Body: "board", Clock: "1:saracens"}, {Kind: OutboxReply, Body: "chat"}}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingOutbox(ctx, "g")
	if err != nil || len(pending) != 2 || pending[0].Clock != "1:saracens" || pending[1].Clock != "" {
		t.Fatalf("pending %+v %v", pending, err)
	}
	id := pending[0].ID
	seq, _ := s.LastSeq(ctx, "g")
	at := time.Date(2026, 12, 1, 16, 6, 0, 0, time.UTC)
	posted := func(gameID string, expect int64) Commit {
		return Commit{Game: gameID, At: at, Cause: "delivered", Events: []game.Record{rec("judge.delivered", `{}`)},
			Posted: &Posted{ID: id, ForumPostID: "77", At: at}, ExpectSeq: Expect(expect)}
	}
	if err := s.Commit(ctx, posted("g", seq+5)); !errors.Is(err, ErrLogMoved) {
		t.Fatalf("stale commit: %v", err)
	}
	if err := s.Commit(ctx, posted("h", 0)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("another game's item: %v", err)
	}
	if o, _ := s.Outbox(ctx, id); o.State != OutboxPending {
		t.Fatalf("a refused commit marked the item: %+v", o)
	}
	if err := s.Commit(ctx, posted("g", seq)); err != nil {
		t.Fatal(err)
	}
	o, _ := s.Outbox(ctx, id)
	if o.State != OutboxPosted || o.ForumPostID != "77" || !o.PostedAt.Equal(at) {
		t.Fatalf("item %+v", o)
	}
	if last, _ := s.LastSeq(ctx, "g"); last != seq+1 {
		t.Fatalf("events: last seq %d, want %d", last, seq+1)
	}
	// Posted again under another id: refused, nothing written.
	c2 := posted("g", seq+1)
	c2.Posted.ForumPostID = "78"
	if err := s.Commit(ctx, c2); !errors.Is(err, ErrOutboxState) {
		t.Fatalf("posted twice: %v", err)
	}
	if last, _ := s.LastSeq(ctx, "g"); last != seq+1 {
		t.Fatalf("a refused commit appended events: %d", last)
	}
}

// LastReply is the game's newest thread reply item in any state; Repoint corrects the forum id of
// a posted item only.
func TestLastReplyAndRepoint(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	ensureGame(t, s, "g")
	if _, ok, err := s.LastReply(ctx, "g"); err != nil || ok {
		t.Fatalf("a game without items: ok %v, err %v", ok, err)
	}
	c := moveCommit("g", "1")
	c.Outbox = []OutboxItem{
		{Kind: OutboxReply, Body: "board"},
		{Kind: OutboxReply, Body: "next"},
		{Kind: OutboxPM, Recipient: "Вася", Subject: "Ваш ход", Body: "secret"},
	}
	if err := s.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingOutbox(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	first, second := pending[0].ID, pending[1].ID
	for _, st := range []struct {
		name     string
		do       func() error
		wantIs   error
		wantLast int64
		wantPost string
	}{
		{"both pending", func() error { return nil }, nil, second, ""},
		{"the first posted", func() error { return s.MarkPosted(ctx, first, "10", time.Time{}) }, nil, second, ""},
		{"a pending item is not repointed", func() error { return s.Repoint(ctx, second, "12") }, ErrOutboxState, second, ""},
		{"the second posted", func() error { return s.MarkPosted(ctx, second, "11", time.Time{}) }, nil, second, "11"},
		{"repointed", func() error { return s.Repoint(ctx, second, "13") }, nil, second, "13"},
		{"an unknown item", func() error { return s.Repoint(ctx, 999, "1") }, ErrNotFound, second, "13"},
	} {
		if err := st.do(); st.wantIs == nil && err != nil || st.wantIs != nil && !errors.Is(err, st.wantIs) {
			t.Fatalf("%s: error %v, want %v", st.name, err, st.wantIs)
		}
		o, ok, err := s.LastReply(ctx, "g")
		if err != nil || !ok || o.ID != st.wantLast || o.ForumPostID != st.wantPost {
			t.Fatalf("%s: last reply %d (forum id %q), ok %v, err %v; want %d (%q)", st.name, o.ID, o.ForumPostID, ok, err, st.wantLast, st.wantPost)
		}
	}
}
