package mybb

import (
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// Folder listings of private.php (MyBB 1.8 numbers the folders 0 Inbox, 1 Unread — a filter
// of the inbox —, 2 Sent Items, 3 Drafts, 4 Trash Can; the inbox is private.php itself).
const (
	inboxFolderPath = "private.php"
	sentFolderPath  = "private.php?fid=2"
	maxFolderPages  = 50
)

// reader reads a board through a session it does not own (the writer's, forumgm/dialects/mybb,
// with its cookies and login): the posts of a thread from a cursor, with as few requests as the
// engine allows, and the private messages of a folder. It remembers per thread where its last
// cursor was and the newest posts it saw (threadState), and is not safe for concurrent use.
type reader struct {
	// Get fetches a board page by path (relative to the board root) and parses it.
	Get func(ctx context.Context, path string) (*goquery.Document, error)
	// Relogin runs op, logging in again and running it once more when it reports
	// forum.ErrLoggedOut. Nil: op runs once.
	Relogin func(ctx context.Context, op func() error) error
	// Probe fetches path without following a redirect and gives the Location it redirects to
	// ("" when it does not redirect): the idle check, showthread.php?tid=T&action=lastpost,
	// whose 302 names the thread's newest post and has no body. Nil: no probe, pages are read.
	Probe    func(ctx context.Context, path string) (location string, err error)
	Options  options
	Username string // the bot's account: its newest post per thread is threadState.OwnLast
	// Seen, if set, is shown each page of a thread read for a member (after its thread was
	// checked): the writer keeps its quick reply form (quick.go).
	Seen func(tid, path string, doc *goquery.Document)

	// Now is the clock the PM signal's time is read from (nil: the signal has no time).
	Now func() time.Time

	threads map[string]*threadState
	// unreadPM: the last logged-in page read showed an unread private message; pmAt: when that
	// page (or the inbox, which leaves nothing unread) was read.
	unreadPM bool
	pmAt     time.Time
}

// UnreadPM reports whether the last thread page read showed the bot an unread private message
// (MyBB's new-PM notice or the header's counter). An idle check that read no page keeps the
// answer of the last page read.
func (r *reader) UnreadPM() bool { return r.unreadPM }

// PMSeen is when the PM signal was last read (zero: never).
func (r *reader) PMSeen() time.Time { return r.pmAt }

// notePM records the PM signal of a logged-in page just read.
func (r *reader) notePM(unread bool) {
	r.unreadPM = unread
	if r.Now != nil {
		r.pmAt = r.Now()
	}
}

// threadState is what a reader remembers about a thread between calls; the writer keeps KnownLast
// and OwnLast up to date with its own posts, to tell MyBB's auto-merge from a new post.
type threadState struct {
	CursorPID  string // the last cursor handed out
	CursorPage int    // the page that cursor's post is on
	KnownLast  string // the newest pid seen in the thread
	OwnLast    string // the bot's newest post (what MyBB would merge a reply into)
	Section    string // the forum the thread is in (the breadcrumb of its last page read)
}

// Thread is the state of thread tid (created empty on first use).
func (r *reader) Thread(tid string) *threadState {
	if r.threads == nil {
		r.threads = map[string]*threadState{}
	}
	st, ok := r.threads[tid]
	if !ok {
		st = &threadState{}
		r.threads[tid] = st
	}
	return st
}

func (r *reader) relogin(ctx context.Context, op func() error) error {
	if r.Relogin == nil {
		return op()
	}
	return r.Relogin(ctx, op)
}

// page reads a page of thread tid at path; a page of another thread is a *forum.WrongThreadError.
func (r *reader) page(ctx context.Context, tid, path string) (*Page, error) {
	doc, err := r.Get(ctx, path)
	if err != nil {
		return nil, err
	}
	p, err := extractThread(doc, r.Options)
	if err == nil {
		if err := forum.CheckThread(tid, p.ThreadID); err != nil {
			return nil, fmt.Errorf("mybb: %s: %w", path, err)
		}
	}
	if err == nil && p.LoggedIn {
		r.notePM(p.UnreadPM)
		if r.Seen != nil {
			r.Seen(tid, path, doc)
		}
	}
	if err == nil && p.ThreadID != "" && p.ForumID != "" {
		r.Thread(p.ThreadID).Section = p.ForumID
	}
	return p, err
}

// Posts lists the posts of thread tid after the cursor, oldest first, and the new cursor (the
// newest post's id and the page it is on).
//
// Requests: with a cursor that names its page (every cursor Posts returns does), an idle poll is
// one GET of that page. New posts beyond it cost one GET per further page. When the cursor's
// page starts after the cursor's post (posts were deleted and pages shifted), earlier pages are
// read back only until the cursor's post is reached. A cursor without a page is located with its
// permalink (showthread.php?tid=T&pid=P, the page holding the post). An empty cursor reads the
// thread from page 1.
//
// The idle check: when the cursor is the one the last call handed out and does not ask for its
// own post again (forum.Cursor.Include), the thread's lastpost redirect is asked first (Probe: one
// request, a 302 without a body, about half a kilobyte both ways) and no page is read when it
// names the cursor's post. With Include the cursor's page is read (one page): MyBB merges a
// post into the previous one without a new id, and the redirect cannot tell a post that grew.
func (r *reader) Posts(ctx context.Context, tid string, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	var (
		posts []forum.Post
		cur   forum.Cursor
	)
	err := r.relogin(ctx, func() error {
		var err error
		posts, cur, err = r.posts(ctx, tid, after)
		return err
	})
	if err != nil {
		return nil, after, err
	}
	return posts, cur, nil
}

func (r *reader) posts(ctx context.Context, tid string, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if tid == "" {
		return nil, after, errors.New("mybb: empty thread id")
	}
	st := r.Thread(tid)
	if r.Probe != nil && after.PostID != "" && !forum.HardInclude(ctx, after) && after.PostID == st.CursorPID {
		loc, err := r.Probe(ctx, lastPostPath(tid))
		if err == nil {
			if err := forum.CheckThread(tid, firstMatch(reTID, queryOf(strings.ReplaceAll(loc, "&amp;", "&")))); err != nil {
				return nil, after, fmt.Errorf("mybb: the thread's last post redirect to %s: %w", loc, err)
			}
		}
		if err == nil && loc != "" && pidFromURL(loc) == after.PostID {
			return nil, forum.Cursor{PostID: after.PostID, Page: cmpPage(after.Page, st.CursorPage)}, nil
		}
		// Anything else (a newer post, a redirect elsewhere, an error): read the pages, on the
		// reply path when the redirect names a newer post.
		if err == nil && loc != "" {
			ctx = forum.Urgent(ctx, forum.ClassReply)
		}
	}
	var first *Page
	var err error
	switch {
	case after.PostID == "":
		first, err = r.page(ctx, tid, threadPath(tid, 1))
	case after.Page > 0:
		first, err = r.page(ctx, tid, threadPath(tid, after.Page))
	case st.CursorPID == after.PostID && st.CursorPage > 0:
		first, err = r.page(ctx, tid, threadPath(tid, st.CursorPage))
	default:
		first, err = r.page(ctx, tid, postPath(tid, after.PostID))
		if errors.Is(err, forum.ErrNotFound) {
			// The cursor's post is gone: start from the last page and walk back.
			first, err = r.page(ctx, tid, lastPostPath(tid))
		}
	}
	if err != nil {
		return nil, after, err
	}
	pages := map[int]*Page{first.Page: first}

	// Walk back while the lowest page read starts after the cursor.
	lo := first
	for after.PostID != "" && lo.Page > 1 && len(lo.Posts) > 0 && forum.CompareIDs(lo.Posts[0].ID, after.PostID) > 0 {
		prev, err := r.page(ctx, tid, threadPath(tid, lo.Page-1))
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
		pg, err := r.page(ctx, tid, threadPath(tid, p))
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
		forum.ReportProgress(ctx, p-first.Page+1, last-first.Page+1)
	}

	// Collect, oldest first, without duplicates (a post can shift across a page boundary).
	seen := map[string]bool{}
	var out []forum.Post
	cur := forum.Cursor{PostID: after.PostID, Page: after.Page}
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
			if seen[post.ID] || !after.Listed(post.ID) {
				continue
			}
			seen[post.ID] = true
			out = append(out, post)
			if forum.CompareIDs(post.ID, cur.PostID) > 0 {
				cur.PostID = post.ID
				curPage = p
			}
		}
		if forum.CompareIDs(pg.LastPID, st.KnownLast) > 0 {
			st.KnownLast = pg.LastPID
		}
	}
	forum.SortPosts(out)
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
	if forum.CompareIDs(cur.PostID, st.KnownLast) > 0 {
		st.KnownLast = cur.PostID
	}
	for _, post := range out {
		if post.Author != "" && r.Username != "" && post.Author == r.Username {
			st.OwnLast = post.ID
		}
	}
	st.CursorPID, st.CursorPage = cur.PostID, cur.Page
	return out, cur, nil
}

// cmpPage is the cursor's page: its own, else the one the reader remembers.
func cmpPage(own, kept int) int {
	if own > 0 {
		return own
	}
	return kept
}

// Folder lists the PM folder at path (inboxFolderPath, sentFolderPath) after the cursor (pmid),
// oldest first, each message read in full (reading an inbox message marks it read on the board);
// cache, when not nil, holds messages already read by pmid and gets the new ones. When reading
// one fails, the messages read so far are returned with their cursor and the error.
func (r *reader) Folder(ctx context.Context, path string, after forum.Cursor, cache map[string]forum.Post) ([]forum.Post, forum.Cursor, error) {
	var list []forum.Post
	err := r.relogin(ctx, func() error {
		var err error
		list, err = r.folderList(ctx, path, after.PostID)
		return err
	})
	if err != nil {
		return nil, after, err
	}
	forum.SortPosts(list)
	if path == inboxFolderPath {
		r.notePM(false) // every message listed is read below
	}
	cur := after
	var out []forum.Post
	for _, item := range list {
		pm, ok := cache[item.ID]
		if !ok {
			var err error
			if pm, err = r.readPM(ctx, item); err != nil {
				return out, cur, err
			}
			if cache != nil && clean(pm) {
				cache[item.ID] = pm
			}
		}
		out = append(out, pm)
		cur = forum.Cursor{PostID: item.ID}
	}
	return out, cur, nil
}

// readPM reads one message of a folder listing in full.
func (r *reader) readPM(ctx context.Context, item forum.Post) (forum.Post, error) {
	var pm forum.Post
	err := r.relogin(ctx, func() error {
		doc, err := r.Get(ctx, pmPath(item.ID))
		if err != nil {
			return err
		}
		markPMID(doc, item.ID)
		pg, err := extractPM(doc, r.Options)
		if err != nil {
			return fmt.Errorf("mybb: PM %s: %w", item.ID, err)
		}
		pm = pg.Posts[0]
		return nil
	})
	if err != nil {
		return forum.Post{}, err
	}
	if pm.Subject == "" {
		pm.Subject = item.Subject
	}
	return pm, nil
}

// markPMID gives a message page that does not name its pmid (no quick-reply form, no
// reply/delete buttons: a theme that hides them, or a sent copy on a board that shows none) the
// pmid it was requested by, so that the extractor can name the message.
func markPMID(doc *goquery.Document, pmid string) {
	if doc.Find(selectors.Post).Length() == 0 {
		return // an error page: let the extractor report it
	}
	if v, ok := doc.Find(selectors.PMIDInput).First().Attr("value"); ok && v != "" && v != "0" {
		return
	}
	if doc.Find(selectors.PMReplyBtn+", "+selectors.PMDelete).Filter("[href*='pmid=']").Length() > 0 {
		return
	}
	doc.Find("body").AppendHtml(`<input type="hidden" name="pmid" value="` + html.EscapeString(pmid) + `" />`)
}

// folderList reads a folder listing from its first page (newest first) until a message at or
// before the cursor appears or the pages end.
func (r *reader) folderList(ctx context.Context, path, afterID string) ([]forum.Post, error) {
	var out []forum.Post
	seen := map[string]bool{}
	for page := 1; page <= maxFolderPages; page++ {
		doc, err := r.Get(ctx, path)
		if err != nil {
			return nil, err
		}
		pg, err := extractPMList(doc, r.Options)
		if err != nil {
			return nil, err
		}
		reached := false
		for _, m := range pg.Posts {
			switch {
			case seen[m.ID]:
			case forum.CompareIDs(m.ID, afterID) > 0:
				seen[m.ID] = true
				out = append(out, m)
			default:
				reached = true
			}
		}
		if reached || pg.Page >= pg.LastPage {
			return out, nil
		}
		next, ok := doc.Find(selectors.Pagination + " a.pagination_next").First().Attr("href")
		if !ok {
			return out, nil
		}
		path = next
	}
	return out, nil
}

// clean reports whether a message was read whole and decoded cleanly, so that it may be kept:
// one read with a problem (a charset lie, mojibake) is read again next time.
func clean(pm forum.Post) bool {
	c := []forum.Post{pm}
	c[0].Problems = slices.Clone(pm.Problems)
	forum.CheckEncoding(c)
	return len(c[0].Problems) == 0
}
