package generic

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/internal/fixture"
)

// The reading part of the dialect conformance suite (forum/forumtest): the captured pages.
func TestConformancePages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cfg := forum.Config{Location: time.UTC, Now: func() time.Time { return now }}
	capture := fixture.Dir(t, "punbb")
	cfg.Extra = punbbExtra()
	forumtest.RunPages(t, forumtest.Pages{Merge: forumtest.Merge{None: "the generic engine splits a post only where its table names the engine's mark (merge_sep_re: the uCoz preset's, covered by dialects/ucoz's suite); this table (PunBB's) names none: PunBB merges no posts"},
		Dialect: Dialect(Options{}), Config: cfg,
		Threads:    []string{filepath.Join(capture, "10-thread-p1.guest.html"), filepath.Join(capture, "13-thread-p2.gm-bot.html")},
		NotThreads: []string{filepath.Join(capture, "16-viewforum-fid2.guest.html"), filepath.Join(capture, "01-login-form.guest.html")},
		ThreadIDs:  map[string]string{"10-thread-p1.guest.html": "2", "13-thread-p2.gm-bot.html": "2"}})
}

// Cursor.Include gives the cursor's own post back (the board may have merged a post into it) and
// the rest of the contract's cursor: without Include nothing after the last post. The captured
// board's thread 2 ends with post 17 on its page 2.
func TestConformanceCursorInclude(t *testing.T) {
	_, _, f := setup(t)
	ctx := context.Background()
	th := forum.Thread{ID: "2"}
	posts, _, err := f.Posts(ctx, th, forum.Cursor{PostID: "17", Include: true})
	if err != nil || len(posts) != 1 || posts[0].ID != "17" {
		t.Fatalf("Include: %d posts %v, want post 17 alone", len(posts), err)
	}
	posts, cur, err := f.Posts(ctx, th, forum.Cursor{PostID: "17"})
	if err != nil || len(posts) != 0 || cur.PostID != "17" || cur.Include {
		t.Fatalf("without Include: %d posts, cursor %+v, %v", len(posts), cur, err)
	}
	posts, _, err = f.Posts(ctx, th, forum.Cursor{PostID: "16", Include: true})
	if err != nil || len(posts) != 2 || posts[0].ID != "16" || posts[1].ID != "17" {
		t.Fatalf("Include from post 16: %d posts %v", len(posts), err)
	}
}

// A page of another thread is refused where the config names the page's own thread id
// (thread_id): the captured board answers thread 2's pages whatever thread is asked.
func TestConformanceWrongThread(t *testing.T) {
	_, _, f := setup(t)
	posts, _, err := f.Posts(context.Background(), forum.Thread{ID: "3"}, forum.Cursor{})
	var wt *forum.WrongThreadError
	if !errors.As(err, &wt) || wt.Asked != "3" || wt.Found != "2" || len(posts) != 0 {
		t.Fatalf("thread 2's pages read for thread 3: %d posts, %v; want a *forum.WrongThreadError", len(posts), err)
	}
}
