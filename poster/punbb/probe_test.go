package punbbposter

import (
	"context"
	"strings"
	"testing"

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
