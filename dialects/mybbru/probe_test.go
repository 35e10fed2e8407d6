package mybbru

import (
	"context"
	"strings"
	"testing"

	"forumgm/forum"
)

// The idle check is one request under a kilobyte both ways: action=last, not followed. A page is
// read only for a post past the cursor, or for the cursor's own post when the cursor asks for it
// again (Include: MyBB.ru glues a post onto the previous one).
func TestIdleCheckCost(t *testing.T) {
	b, _, f := setup(t)
	ctx := context.Background()
	probe := "GET /viewtopic.php?id=2&action=last"
	for _, c := range []struct {
		name  string
		after forum.Cursor
		ids   string
		paths []string
	}{
		{"idle", forum.Cursor{PostID: "12"}, "", []string{probe}},
		{"include", forum.Cursor{PostID: "12", Include: true}, "12", []string{probe, "GET /viewtopic.php?pid=12"}},
		{"new post", forum.Cursor{PostID: "11"}, "12", []string{probe, "GET /viewtopic.php?pid=12"}},
	} {
		before := b.meter.Read()
		posts, next, err := f.Posts(ctx, forum.Thread{ID: "2"}, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := b.meter.Since(before)
		var ids []string
		for _, p := range posts {
			ids = append(ids, p.ID)
		}
		if strings.Join(ids, " ") != c.ids || next.PostID != "12" {
			t.Errorf("%s: posts %v cursor %+v", c.name, ids, next)
		}
		if strings.Join(got.Paths, ",") != strings.Join(c.paths, ",") {
			t.Errorf("%s: requests %v, want %v", c.name, got.Paths, c.paths)
		}
		if c.name == "idle" && got.Bytes() >= 1024 {
			t.Errorf("idle check: %d bytes in, %d out; want under 1 KB", got.In, got.Out)
		}
		t.Logf("%s: %d requests, %d bytes in, %d bytes out", c.name, got.Requests, got.In, got.Out)
	}
	if got := f.SectionOf(forum.Thread{ID: "2"}); got != "2" {
		t.Errorf("SectionOf after reading: %q, want 2", got)
	}
}

// One Section call is one request of the forum's topic list.
func TestSectionProbe(t *testing.T) {
	b, _, f := setup(t)
	if got := f.SectionOf(forum.Thread{ID: "2"}); got != "" {
		t.Errorf("SectionOf before reading: %q", got)
	}
	before := b.meter.Read()
	heads, err := f.Section(context.Background(), "2")
	if err != nil {
		t.Fatal(err)
	}
	got := b.meter.Since(before)
	if got.Requests != 1 || got.Paths[0] != "GET /viewforum.php?id=2" {
		t.Errorf("Section: requests %v, want one", got.Paths)
	}
	if len(heads) != 4 || heads[1].ID != "2" || heads[1].LastPostID != "12" || heads[1].Replies != 11 || !heads[0].Sticky {
		t.Errorf("heads %+v", heads)
	}
	t.Logf("Section: %d request, %d bytes in, %d bytes out", got.Requests, got.In, got.Out)
}
