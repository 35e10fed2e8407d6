package mybb

import (
	"regexp"
	"strings"
	"testing"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// Boards with SEO URLs and themes (the real MyBB 1.8.37 captures testdata/forums/mybb-*): a
// thread is read from scratch over its two pages, and the idle poll is still the one lastpost
// probe although its Location is thread-T-post-P.html#pidP (MyBB's SEO URLs) or
// Thread-Name?pid=P#pidP (Google SEO); a probe naming a newer post reads the page.
func TestThemedBoardsReadAndIdle(t *testing.T) {
	for _, c := range []struct{ dir, tid, first, last string }{
		{"mybb-cerise", "1", "1", "13"},
		{"mybb-multicolors", "2", "14", "26"},
		{"mybb-simplerealistic", "3", "27", "39"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			h := string(fixture.Read(t, c.dir, "14-thread-lastpost.guest.html.headers.txt"))
			m := regexp.MustCompile(`(?m)^Location: (\S+)`).FindStringSubmatch(h)
			if m == nil {
				t.Fatal("no Location in the capture")
			}
			fk := newFake(t)
			fk.themeDir, fk.location = c.dir, m[1]
			fm := fk.forum(t, nil)
			posts, cur, err := fm.Posts(ctx, forum.Thread{ID: c.tid}, forum.Cursor{})
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) != 13 || posts[0].ID != c.first || posts[12].ID != c.last || cur != (forum.Cursor{PostID: c.last, Page: 2}) {
				t.Fatalf("%d posts, cursor %+v", len(posts), cur)
			}
			for _, p := range posts {
				if p.AuthorID == "" || p.Author == "" || p.Time.IsZero() {
					t.Errorf("post %s: %q/%q %v", p.ID, p.Author, p.AuthorID, p.Time)
				}
			}
			before := fk.count()
			posts, cur2, err := fm.Posts(ctx, forum.Thread{ID: c.tid}, cur)
			if err != nil || len(posts) != 0 || cur2 != cur {
				t.Fatalf("idle: %d posts, %+v, %v", len(posts), cur2, err)
			}
			if got := fk.requests[before:]; len(got) != 1 || !strings.Contains(got[0], "action=lastpost") {
				t.Errorf("idle poll requests %v, want the one lastpost probe", got)
			}
			// The probe names another post: the cursor's page is read.
			fk.location = strings.ReplaceAll(m[1], c.last, "99")
			before = fk.count()
			if _, _, err := fm.Posts(ctx, forum.Thread{ID: c.tid}, cur); err != nil {
				t.Fatal(err)
			}
			if got := fk.requests[before:]; len(got) != 2 || !strings.Contains(got[1], "page=2") {
				t.Errorf("after a newer post: requests %v", got)
			}
		})
	}
}
