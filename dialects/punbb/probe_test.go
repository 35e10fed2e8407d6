package punbb

import (
	"context"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

// The idle check costs one request well under a kilobyte both ways (the action=last redirect,
// not followed); a page is read only for a post past the cursor, or for the cursor's own post
// when the cursor asks for it again (Include).
func TestIdleCheckCost(t *testing.T) {
	srv := newFakePunBB(t)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		after    forum.Cursor
		ids      string
		requests int64
	}{
		{"idle", forum.Cursor{PostID: "17"}, "", 1},
		{"include", forum.Cursor{PostID: "17", Include: true}, "17", 2},
		{"new post", forum.Cursor{PostID: "16"}, "17", 2},
	} {
		before := srv.meter.Read()
		posts, next, err := fm.Posts(ctx, forum.Thread{ID: "2"}, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := srv.meter.Since(before)
		var ids []string
		for _, p := range posts {
			ids = append(ids, p.ID)
		}
		if strings.Join(ids, " ") != c.ids || next.PostID != "17" {
			t.Errorf("%s: posts %v cursor %+v", c.name, ids, next)
		}
		if got.Requests != c.requests || got.Paths[0] != "GET /viewtopic.php?action=last&id=2" {
			t.Errorf("%s: %d requests %v, want %d", c.name, got.Requests, got.Paths, c.requests)
		}
		if c.name == "idle" && got.Bytes() >= 1024 {
			t.Errorf("idle check: %d bytes in, %d out; want under 1 KB", got.In, got.Out)
		}
		t.Logf("%s: %d requests, %d bytes in, %d bytes out", c.name, got.Requests, got.In, got.Out)
	}
}

// One Section call is one request of the forum's topic list; SectionOf knows a topic's forum
// once a page of it was read, with no request of its own.
func TestSectionProbe(t *testing.T) {
	srv := newFakePunBB(t)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	if got := fm.SectionOf(forum.Thread{ID: "2"}); got != "" {
		t.Errorf("SectionOf before reading: %q", got)
	}
	before := srv.meter.Read()
	heads, err := fm.Section(ctx, "2")
	if err != nil {
		t.Fatal(err)
	}
	got := srv.meter.Since(before)
	if got.Requests != 1 || got.Paths[0] != "GET /viewforum.php?id=2" {
		t.Errorf("Section: %d requests %v, want 1", got.Requests, got.Paths)
	}
	want := forum.ThreadHead{ID: "2", Title: "Крестовый поход — партия 1", LastPostID: "17", Replies: 15,
		LastAt: time.Date(2026, 11, 30, 3, 47, 15, 0, time.UTC), LastPoster: "gm-bot"}
	if len(heads) != 1 || heads[0] != want {
		t.Errorf("heads %+v, want [%+v]", heads, want)
	}
	t.Logf("Section: %d request, %d bytes in, %d bytes out", got.Requests, got.In, got.Out)
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "16"}); err != nil {
		t.Fatal(err)
	}
	before = srv.meter.Read()
	if got := fm.SectionOf(forum.Thread{ID: "2"}); got != "2" {
		t.Errorf("SectionOf after reading: %q, want 2", got)
	}
	if n := srv.meter.Since(before).Requests; n != 0 {
		t.Errorf("SectionOf made %d requests", n)
	}
	if _, err := fm.Section(ctx, "x"); err == nil {
		t.Error("a forum id that is not a number was taken")
	}
}
