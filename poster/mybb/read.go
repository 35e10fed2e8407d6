package mybb

import (
	"context"
	"errors"

	"forumgm/forum"
	scrape "forumgm/scraper/mybb"
)

// Posts lists the posts of thread t after the cursor, oldest first, and the new cursor
// (the newest post's id and the page it is on).
//
// Requests: with a cursor that names its page (every cursor Posts returns does), an idle poll is
// one GET of that page. New posts beyond it cost one GET per further page. When the cursor's
// page starts after the cursor's post (posts were deleted and pages shifted), earlier pages are
// read back only until the cursor's post is reached. A cursor without a page is located with its
// permalink (showthread.php?tid=T&pid=P, the page holding the post). An empty cursor reads the
// thread from page 1.
func (f *Forum) Posts(ctx context.Context, t forum.Thread, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var (
		posts []forum.Post
		cur   forum.Cursor
	)
	err := f.relogin(ctx, func() error {
		var err error
		posts, cur, err = f.posts(ctx, t.ID, after)
		return err
	})
	if err != nil {
		return nil, after, err
	}
	return posts, cur, nil
}

func (f *Forum) posts(ctx context.Context, tid string, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if tid == "" {
		return nil, after, errors.New("mybb: empty thread id")
	}
	st := f.state(tid)
	var first *scrape.Page
	var err error
	switch {
	case after.PostID == "":
		first, err = f.fetchThread(ctx, scrape.ThreadPath(tid, 1))
	case after.Page > 0:
		first, err = f.fetchThread(ctx, scrape.ThreadPath(tid, after.Page))
	case st.cursorPID == after.PostID && st.cursorPage > 0:
		first, err = f.fetchThread(ctx, scrape.ThreadPath(tid, st.cursorPage))
	default:
		first, err = f.fetchThread(ctx, scrape.PostPath(tid, after.PostID))
		if errors.Is(err, forum.ErrNotFound) {
			// The cursor's post is gone: start from the last page and walk back.
			first, err = f.fetchThread(ctx, scrape.LastPostPath(tid))
		}
	}
	if err != nil {
		return nil, after, err
	}
	pages := map[int]*scrape.Page{first.Page: first}

	// Walk back while the lowest page read starts after the cursor.
	lo := first
	for after.PostID != "" && lo.Page > 1 && len(lo.Posts) > 0 && scrape.CompareIDs(lo.Posts[0].ID, after.PostID) > 0 {
		prev, err := f.fetchThread(ctx, scrape.ThreadPath(tid, lo.Page-1))
		if err != nil {
			return nil, after, err
		}
		if prev.Page != lo.Page-1 || pages[prev.Page] != nil {
			break // the board answered another page: stop rather than loop
		}
		pages[prev.Page] = prev
		lo = prev
	}

	// Walk forward to the last page (the last page number may grow while reading).
	last := first.LastPage
	for p := first.Page + 1; p <= last; p++ {
		pg, err := f.fetchThread(ctx, scrape.ThreadPath(tid, p))
		if err != nil {
			return nil, after, err
		}
		if pg.Page != p {
			break
		}
		pages[p] = pg
		if pg.LastPage > last {
			last = pg.LastPage
		}
	}

	// Collect, oldest first, without duplicates (a post can shift across a page boundary).
	seen := map[string]bool{}
	var out []forum.Post
	cur := after
	curPage := 0
	for p := lo.Page; p <= last; p++ {
		pg := pages[p]
		if pg == nil {
			continue
		}
		for _, post := range pg.Posts {
			if post.ID == after.PostID {
				curPage = p
			}
			if seen[post.ID] || scrape.CompareIDs(post.ID, after.PostID) <= 0 {
				continue
			}
			seen[post.ID] = true
			out = append(out, post)
			if scrape.CompareIDs(post.ID, cur.PostID) > 0 {
				cur.PostID = post.ID
				curPage = p
			}
		}
		if scrape.CompareIDs(pg.LastPID, st.knownLast) > 0 {
			st.knownLast = pg.LastPID
		}
	}
	scrape.SortByID(out)
	if curPage == 0 {
		// The cursor's post was not seen (deleted): keep it, pointing at the last page read.
		curPage = first.Page
		for p := range pages {
			if p > curPage {
				curPage = p
			}
		}
	}
	cur.Page = curPage
	if scrape.CompareIDs(cur.PostID, st.knownLast) > 0 {
		st.knownLast = cur.PostID
	}
	for _, post := range out {
		if post.Author != "" && f.cfg.Username != "" && post.Author == f.cfg.Username {
			st.ownLast = post.ID
		}
	}
	st.cursorPID, st.cursorPage = cur.PostID, cur.Page
	return out, cur, nil
}
