package phpbb

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// position is where a post sits in its topic: k posts come before it.
type position struct {
	id string
	k  int
}

// Posts lists the posts of thread t after the cursor, oldest first, and the new cursor.
//
// The idle check: phpBB shows a topic page from any start it is given within the topic (its
// pagination's validate_start clamps only a start past the end), so once the reader knows where
// the cursor's post sits (k: the topic's post count, shown on its last page, less one), it asks
// for viewtopic.php?t=T&start=k — a page that opens with the cursor's post. Idle, that page
// holds that one post (the cursor's own, so Include costs nothing more); new posts follow it on
// the same page, and later pages are followed by their next links. When the page does not open at
// the cursor (posts before it were deleted), or the place is not known yet, the last page
// (start=999999, clamped by phpBB) is read and earlier pages while they may hold posts after the
// cursor.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	var out []forum.Post
	var cur forum.Cursor
	err := f.relogin(ctx, func() error {
		var err error
		out, cur, err = f.posts(ctx, t, after)
		return err
	})
	return out, cur, err
}

func (f *Forum) posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	o, err := scrape.OptionsFromConfig(f.cfg)
	if err != nil {
		return nil, after, err
	}
	if after.PostID != "" {
		f.mu.Lock()
		p, ok := f.pos[t.ID]
		f.mu.Unlock()
		if ok && p.id == after.PostID {
			out, cur, found, err := f.fromCursor(ctx, t, after, p.k, o)
			if err != nil || found {
				return out, cur, err
			}
		}
	}
	return f.fromLastPage(ctx, t, after, o)
}

func (f *Forum) topicURL(t forum.Thread, start int) string {
	return f.url("viewtopic.php?t=" + url.QueryEscape(t.ID) + "&start=" + strconv.Itoa(start))
}

// topicPage reads one page of topic t.
func (f *Forum) topicPage(ctx context.Context, t forum.Thread, rawURL string, o scrape.Options) (*scrape.Page, *goquery.Document, error) {
	p, err := f.c.Get(ctx, rawURL)
	if err == nil {
		err = forum.CheckWhole(p) // a page cut short is never read
	}
	if err != nil {
		return nil, nil, typed404(err)
	}
	doc, err := p.Doc()
	if err != nil {
		return nil, nil, err
	}
	table := ThreadTable(doc)
	if doc.Find(table.Post).Length() == 0 && loginShown(doc) {
		return nil, nil, fmt.Errorf("phpbb: thread %s: %w", t.ID, forum.ErrLoggedOut)
	}
	o.Base = p.URL
	pg, err := scrape.Extract(doc, table, o)
	if err != nil {
		return nil, nil, err
	}
	if err := forum.CheckThread(t.ID, pageThread(doc)); err != nil {
		return nil, nil, fmt.Errorf("phpbb: %w", err)
	}
	fillPages(doc, pg, p.URL) // phpBB 3.0 prosilver numbers its pages without prev/next links
	if s := sectionOf(doc); s != "" {
		f.mu.Lock()
		f.sections[t.ID] = s
		f.mu.Unlock()
	}
	return pg, doc, nil
}

// fromCursor reads from the page that opens at the cursor's post (start=k) to the topic's end.
// found is false when that page does not hold the cursor's post after all: nothing is returned
// and the caller reads from the last page.
func (f *Forum) fromCursor(ctx context.Context, t forum.Thread, after forum.Cursor, k int, o scrape.Options) ([]forum.Post, forum.Cursor, bool, error) {
	next := f.topicURL(t, k)
	var out []forum.Post
	cur := after
	// The page at start=k need not begin a page of phpBB's pagination, whose links go to starts
	// at multiples of posts_per_page: the next page may repeat posts of this one.
	seen := map[string]bool{}
	for pages := 0; next != "" && pages < 10000; pages++ {
		pg, doc, err := f.topicPage(ctx, t, next, o)
		if err != nil {
			return nil, after, false, err
		}
		if pages == 0 && !holds(pg.Posts, after.PostID) {
			return nil, after, false, nil
		}
		for _, post := range pg.Posts {
			if after.Listed(post.ID) && !seen[post.ID] {
				seen[post.ID] = true
				out = append(out, post)
			}
		}
		cur.Page = pg.Current
		next = pg.Next
		if next == "" {
			f.remember(t, out, after, pg.Posts, totalPosts(doc))
		}
	}
	forum.SortPosts(out)
	return out, f.advance(t, cur, out), true, nil
}

// fromLastPage reads the last page (start=999999 is clamped to it) and walks back page by page
// only while the oldest post on the page is still newer than the cursor.
func (f *Forum) fromLastPage(ctx context.Context, t forum.Thread, after forum.Cursor, o scrape.Options) ([]forum.Post, forum.Cursor, error) {
	next := f.topicURL(t, 999999)
	var out []forum.Post
	cur := after
	total := -1
	var last []forum.Post // the posts of the topic's last page
	for pages := 0; next != "" && pages < 10000; pages++ {
		pg, doc, err := f.topicPage(ctx, t, next, o)
		if err != nil {
			return nil, after, err
		}
		if pages == 0 {
			cur.Page = pg.Current
			total, last = totalPosts(doc), pg.Posts
		}
		older := false
		for _, post := range pg.Posts {
			if after.PostID != "" && !forum.IDLess(after.PostID, post.ID) {
				older = true
			}
			if after.Listed(post.ID) {
				out = append(out, post)
			}
		}
		if older {
			break
		}
		next = pg.Prev
	}
	forum.SortPosts(out)
	f.remember(t, out, after, last, total)
	return out, f.advance(t, cur, out), nil
}

// remember notes where the newest post read sits when it closes the topic's last page (last: that
// page's posts, total: the topic's post count it shows): the last of total. A cursor whose post is
// gone is not remembered (a page opening at its place would never hold it).
func (f *Forum) remember(t forum.Thread, out []forum.Post, after forum.Cursor, last []forum.Post, total int) {
	newest := after.PostID
	for _, p := range out {
		if newest == "" || forum.IDLess(newest, p.ID) {
			newest = p.ID
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if total > 0 && len(last) > 0 && last[len(last)-1].ID == newest {
		f.pos[t.ID] = position{id: newest, k: total - 1}
	} else {
		delete(f.pos, t.ID)
	}
}

// advance is the cursor past the newest post of out.
func (f *Forum) advance(t forum.Thread, cur forum.Cursor, out []forum.Post) forum.Cursor {
	cur.Include = false
	if len(out) > 0 && (cur.PostID == "" || forum.IDLess(cur.PostID, out[len(out)-1].ID)) {
		cur.PostID = out[len(out)-1].ID
		f.mu.Lock()
		f.lastSeen[t.ID] = cur.PostID
		f.mu.Unlock()
	}
	return cur
}

func holds(posts []forum.Post, id string) bool {
	for _, p := range posts {
		if p.ID == id {
			return true
		}
	}
	return false
}

// Section lists the topics on the first page of forum section (viewforum.php?f=N): one request.
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if _, err := strconv.Atoi(section); err != nil {
		return nil, fmt.Errorf("phpbb: forum id %q is not a number", section)
	}
	var heads []forum.ThreadHead
	err := f.relogin(ctx, func() error {
		_, doc, err := f.get(ctx, "viewforum.php?f="+section)
		if err != nil {
			return err
		}
		heads, err = readSection(doc)
		if err != nil && loginShown(doc) {
			return fmt.Errorf("phpbb: forum %s: %w", section, forum.ErrLoggedOut)
		}
		return err
	})
	return heads, err
}

// SectionOf names the forum of topic t as the breadcrumb of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sections[t.ID]
}

var _ forum.SectionReader = (*Forum)(nil)

// pageThread is the id of the topic doc is a page of: its canonical link (3.1 and later), the
// topic title's link, the quick-reply form or subsilver2's display options form, the reply
// button, the "search this topic" form's t.
func pageThread(doc *goquery.Document) string {
	id := forum.ThreadIDFrom(threadURLRe)
	return scrape.PageThread(doc, append(scrape.Canonical(id),
		scrape.ThreadSource{Sel: `h2.topic-title a[href*="viewtopic.php"], h2 > a[href*="viewtopic.php"], a.titles[href*="viewtopic.php"]`, Attr: "href", ID: id},
		scrape.ThreadSource{Sel: `form#qr_postform, form[name="viewtopic"]`, Attr: "action", ID: id},
		scrape.ThreadSource{Sel: `a[href*="posting.php?mode=reply"]`, Attr: "href", ID: id},
		scrape.ThreadSource{Sel: `input[type="hidden"][name="t"]`, Attr: "value"})...)
}
