package smf

import (
	"context"
	"errors"
	"strings"
	"testing"

	"forumgm/forum"
)

// The idle check is one request of the board's feed (the captured 5-post feed): a page is read
// only when the feed lists a post of the topic past the cursor, cannot reach back to the cursor,
// or the cursor asks for its own post again; every feedRecheck-th check reads the page anyway.
func TestIdleCheckCost(t *testing.T) {
	srv := newFakeSMF(t)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	feed := "GET /index.php?action=.xml;type=rss;board=2;limit=5"
	last := "GET /index.php?topic=2.msg999999"
	// Before any page of the topic was read its board is unknown: the last page is read.
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "17"}); err != nil {
		t.Fatal(err)
	}
	if got := fm.SectionOf(forum.Thread{ID: "2"}); got != "2" {
		t.Fatalf("SectionOf after reading: %q", got)
	}
	for _, c := range []struct {
		name   string
		topic  string
		after  forum.Cursor
		posts  int
		paths  []string
		budget int64 // bytes both ways at most
	}{
		{"idle", "2", forum.Cursor{PostID: "17"}, 0, []string{feed}, 5500},
		{"new post", "2", forum.Cursor{PostID: "16"}, 1, []string{feed, last}, 0},
		{"include", "2", forum.Cursor{PostID: "17", Include: true}, 1, []string{last}, 0},
		// Topic 3 (same board) at msg 14: the feed lists every post after 14, none of topic 3.
		{"other topic idle", "3", forum.Cursor{PostID: "14"}, 0, []string{feed}, 5500},
	} {
		if c.topic == "3" {
			fm.learnSection("3", "2")
		}
		before := srv.meter.Read()
		posts, next, err := fm.Posts(ctx, forum.Thread{ID: c.topic}, c.after)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := srv.meter.Since(before)
		if len(posts) != c.posts || next.PostID != c.after.PostID && c.posts == 0 {
			t.Errorf("%s: %d posts, cursor %+v", c.name, len(posts), next)
		}
		if strings.Join(got.Paths, ",") != strings.Join(c.paths, ",") {
			t.Errorf("%s: requests %v, want %v", c.name, got.Paths, c.paths)
		}
		if c.budget > 0 && got.Bytes() > c.budget {
			t.Errorf("%s: %d bytes in, %d out; want at most %d both ways", c.name, got.In, got.Out, c.budget)
		}
		t.Logf("%s: %d requests, %d bytes in, %d bytes out", c.name, got.Requests, got.In, got.Out)
	}
	// Topic 3 at msg 12: the feed's oldest post (13) is past the cursor, so it cannot tell.
	before := srv.meter.Read()
	srv.pages["topic=3.msg999999"] = "11-thread-p2.guest.html"
	// The captured page is topic 2's: read for topic 3 it is refused, after the same requests.
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "3"}, forum.Cursor{PostID: "12"}); !errors.Is(err, forum.ErrWrongThread) {
		t.Fatal(err)
	}
	if got := srv.meter.Since(before).Paths; len(got) != 2 || got[0] != feed {
		t.Errorf("feed that cannot tell: requests %v", got)
	}
}

// Every feedRecheck-th idle check reads the page (a topic moved away goes quiet in the old feed).
func TestFeedRecheck(t *testing.T) {
	srv := newFakeSMF(t)
	fm, _ := newForum(t, srv, nil)
	ctx := context.Background()
	if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{}); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for range feedRecheck {
		before := srv.meter.Read()
		if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "17"}); err != nil {
			t.Fatal(err)
		}
		for _, p := range srv.meter.Since(before).Paths {
			if strings.Contains(p, "topic=2.msg999999") {
				pages++
			}
		}
	}
	if pages != 1 {
		t.Errorf("%d page reads in %d idle checks, want 1", pages, feedRecheck)
	}
}

// A board whose feeds are off answers the feed with an empty page (News.php: obExit(false) when
// xmlnews_enable is unset) or, behind some mod, with an HTML page: the feed is not asked again.
func TestFeedOff(t *testing.T) {
	for _, answer := range []string{"", "18-boardindex.guest.html"} {
		srv := newFakeSMF(t)
		feedQuery := "action=.xml;type=rss;board=2;limit=5"
		if answer == "" {
			srv.bodies = map[string]string{feedQuery: ""}
		} else {
			srv.pages[feedQuery] = answer
		}
		fm, _ := newForum(t, srv, nil)
		ctx := context.Background()
		if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{}); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, _, err := fm.Posts(ctx, forum.Thread{ID: "2"}, forum.Cursor{PostID: "17"}); err != nil {
				t.Fatal(err)
			}
		}
		feeds := 0
		for _, p := range srv.meter.Read().Paths {
			if strings.Contains(p, "action=.xml") {
				feeds++
			}
		}
		if feeds != 1 {
			t.Errorf("feed answered with %q: asked %d times, want 1", answer, feeds)
		}
	}
}

// One Section call is one request of the board's topic list.
func TestSectionProbe(t *testing.T) {
	srv := newFakeSMF(t)
	fm, _ := newForum(t, srv, nil)
	before := srv.meter.Read()
	heads, err := fm.Section(context.Background(), "2")
	if err != nil {
		t.Fatal(err)
	}
	got := srv.meter.Since(before)
	if got.Requests != 1 || got.Paths[0] != "GET /index.php?board=2.0" {
		t.Errorf("Section: requests %v, want one", got.Paths)
	}
	if len(heads) != 1 || heads[0].ID != "2" || heads[0].LastPostID != "17" || heads[0].Replies != 15 {
		t.Errorf("heads %+v", heads)
	}
	t.Logf("Section: %d request, %d bytes in, %d bytes out", got.Requests, got.In, got.Out)
}
