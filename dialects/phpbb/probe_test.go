package phpbb

import (
	"context"
	"strings"
	"testing"

	"forumgm/forum"
)

// The idle check is one page that opens at the cursor's post (start=13: the 14th post of 14):
// idle, it holds that post alone; new posts come on the same page; Include costs nothing more.
func TestIdleCheckCost(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	// The first read learns where post 15 sits (14 posts: the 13th counting from 0).
	before := b.meter.Read()
	if _, _, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "13"}); err != nil {
		t.Fatal(err)
	}
	full := b.meter.Since(before)
	t.Logf("last page: %d request, %d bytes in, %d bytes out", full.Requests, full.In, full.Out)
	window := "GET /viewtopic.php?t=2&start=13"
	for _, c := range []struct {
		name  string
		after forum.Cursor
		ids   string
		paths []string
	}{
		{"idle", forum.Cursor{PostID: "15"}, "", []string{window}},
		{"include", forum.Cursor{PostID: "15", Include: true}, "15", []string{window}},
	} {
		before := b.meter.Read()
		posts, next, err := f.Posts(ctx, forum.Thread{ID: "2"}, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := b.meter.Since(before)
		if strings.Join(ids(posts), " ") != c.ids || next.PostID != "15" || next.Include {
			t.Errorf("%s: posts %v cursor %+v", c.name, ids(posts), next)
		}
		if strings.Join(got.Paths, ",") != strings.Join(c.paths, ",") {
			t.Errorf("%s: requests %v, want %v", c.name, got.Paths, c.paths)
		}
		if got.Out >= full.Out*3/4 {
			t.Errorf("%s: %d bytes out, the last page was %d", c.name, got.Out, full.Out)
		}
		t.Logf("%s: %d request, %d bytes in, %d bytes out", c.name, got.Requests, got.In, got.Out)
	}
	// New posts: the cursor at post 13 (the 11th) opens a page with 13, 14 and 15.
	f.mu.Lock()
	f.pos["2"] = position{id: "13", k: 11}
	f.mu.Unlock()
	b.requests = nil
	before = b.meter.Read()
	posts, next, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "13"})
	if err != nil || strings.Join(ids(posts), " ") != "14 15" || next.PostID != "15" {
		t.Errorf("new posts: %v %+v %v", ids(posts), next, err)
	}
	got := b.meter.Since(before)
	t.Logf("new posts: %d request, %d bytes in, %d bytes out", got.Requests, got.In, got.Out)
	if strings.Join(b.requests, ",") != "GET /viewtopic.php?t=2&start=11" {
		t.Errorf("new posts: requests %v", b.requests)
	}
	// A place gone stale (posts before the cursor deleted: the page opens past it): the last page.
	f.mu.Lock()
	f.pos["2"] = position{id: "13", k: 12}
	f.mu.Unlock()
	b.requests = nil
	posts, _, err = f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "13"})
	if err != nil || strings.Join(ids(posts), " ") != "14 15" {
		t.Errorf("stale place: %v %v", ids(posts), err)
	}
	if strings.Join(b.requests, ",") != "GET /viewtopic.php?t=2&start=12,GET /viewtopic.php?t=2&start=999999" {
		t.Errorf("stale place: requests %v", b.requests)
	}
}

// One Section call is one request of the forum's topic list; SectionOf knows a topic's forum
// once a page of it was read.
func TestSection(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	if got := f.SectionOf(forum.Thread{ID: "2"}); got != "" {
		t.Errorf("SectionOf before reading: %q", got)
	}
	before := b.meter.Read()
	heads, err := f.Section(ctx, "2")
	if err != nil {
		t.Fatal(err)
	}
	got := b.meter.Since(before)
	if got.Requests != 1 || got.Paths[0] != "GET /viewforum.php?f=2" {
		t.Errorf("Section: requests %v, want one", got.Paths)
	}
	if len(heads) != 4 || heads[2].ID != "2" || heads[2].LastPostID != "15" || !heads[1].Sticky {
		t.Errorf("heads %+v", heads)
	}
	t.Logf("Section: %d request, %d bytes in, %d bytes out", got.Requests, got.In, got.Out)
	if _, _, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "14"}); err != nil {
		t.Fatal(err)
	}
	if got := f.SectionOf(forum.Thread{ID: "2"}); got != "2" {
		t.Errorf("SectionOf after reading: %q, want 2", got)
	}
}

// A cursor whose post is gone (16 here: the topic ends at 15) gets no place: every poll is the one
// last page, never a page opening at a place that cannot hold it followed by the last page.
func TestIdleCheckCursorGone(t *testing.T) {
	b, f := setup(t)
	ctx := context.Background()
	for range 2 {
		b.requests = nil
		posts, next, err := f.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "16"})
		if err != nil || len(posts) != 0 || next.PostID != "16" {
			t.Fatalf("posts %v cursor %+v err %v", ids(posts), next, err)
		}
		if strings.Join(b.requests, ",") != "GET /viewtopic.php?t=2&start=999999" {
			t.Errorf("requests %v, want the last page only", b.requests)
		}
	}
}
