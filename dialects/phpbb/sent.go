package phpbb

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// The folders holding the bot's copies of its messages. phpBB puts the sender's copy in the
// Outbox (folder -2) and moves it to Sent messages (-1) only when a recipient's messages are
// sorted into folders (the recipient opens the private messages): a message just sent is usually
// in the Outbox.
const (
	sentboxPath    = "ucp.php?i=pm&folder=sentbox"
	outboxPath     = "ucp.php?i=pm&folder=outbox"
	maxFolderPages = 100
)

// sentCache keeps the bot's messages already read: they are read once per Forum.
type sentCache struct {
	mu    sync.Mutex // one Sent at a time
	posts map[string]forum.Post
}

// Sent lists the bot's sent private messages after the cursor (msg_id), oldest first, each read
// in full (ucp.php?i=pm&mode=view&f=FOLDER&p=ID, the list's own link) so that the daemon can find
// a message's marker there after a crash. They are taken from Sent messages and from the Outbox
// (where phpBB keeps a message until its recipient has received it); msg_id is the same in both
// and the same as the recipient's copy. Author is the bot, Subject the message's subject.
//
// Each folder is read newest first (phpBB's default order), further pages only while every
// message of a page is after the cursor. The Outbox is read only when the folder menu of the
// Sent messages page counts messages in it ("Outbox (1)"), so with an empty Outbox nothing new
// costs one request. Each message is read once per Forum. A lost session (the login box) is logged
// in again once.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.sent.mu.Lock()
	defer f.sent.mu.Unlock()
	if f.sent.posts == nil {
		f.sent.posts = map[string]forum.Post{}
	}
	var rows []folderRow
	err := f.relogin(ctx, func() error {
		rows = nil
		outbox, err := f.sentFolder(ctx, sentboxPath, after, &rows)
		if err != nil {
			return err
		}
		if outbox != 0 {
			_, err = f.sentFolder(ctx, outboxPath, after, &rows)
		}
		return err
	})
	if err != nil {
		return nil, after, err
	}
	sort.SliceStable(rows, func(i, j int) bool { return forum.IDLess(rows[i].ID, rows[j].ID) })
	var out []forum.Post
	cur := after
	for i, r := range rows {
		if i > 0 && rows[i-1].ID == r.ID {
			continue // moved from the Outbox to Sent messages between the two reads
		}
		p, ok := f.sent.posts[r.ID]
		if !ok {
			err := f.relogin(ctx, func() error {
				var err error
				p, err = f.readSent(ctx, r)
				return err
			})
			if err != nil {
				return out, cur, err
			}
			f.sent.posts[r.ID] = p
		}
		out = append(out, p)
		cur = forum.Cursor{PostID: r.ID}
	}
	return out, cur, nil
}

// sentFolder appends the rows of a folder after the cursor, reading pages from the first (newest)
// until one holds a message at or before the cursor, and returns the Outbox count of the folder
// menu (-1 without the menu).
func (f *Forum) sentFolder(ctx context.Context, path string, after forum.Cursor, rows *[]folderRow) (int, error) {
	next := f.url(path)
	outbox := -1
	for pages := 0; next != "" && pages < maxFolderPages; pages++ {
		p, doc, err := f.get(ctx, next)
		if err != nil {
			return outbox, err
		}
		if loginShown(doc) {
			return outbox, fmt.Errorf("phpbb: %s: %w", path, forum.ErrLoggedOut)
		}
		fl, err := parseFolder(doc)
		if err != nil {
			if msg := errorText(doc); msg != "" {
				return outbox, f.classify(msg)
			}
			return outbox, fmt.Errorf("phpbb: %s: %w", path, err)
		}
		if pages == 0 {
			outbox = fl.Outbox
		}
		older := false
		for _, r := range fl.Rows {
			if after.PostID != "" && !forum.IDLess(after.PostID, r.ID) {
				older = true
				continue
			}
			if r.Href == "" {
				continue // removed: nothing to read
			}
			u, err := p.URL.Parse(r.Href)
			if err != nil {
				return outbox, scrape.Markup("phpbb", "message link %q: %v", r.Href, err)
			}
			r.Href = u.String()
			*rows = append(*rows, r)
		}
		if older || fl.Next == "" {
			break
		}
		u, err := p.URL.Parse(fl.Next)
		if err != nil {
			return outbox, scrape.Markup("phpbb", "next page %q: %v", fl.Next, err)
		}
		next = u.String()
	}
	return outbox, nil
}

// readSent reads one of the bot's messages by its folder link.
func (f *Forum) readSent(ctx context.Context, r folderRow) (forum.Post, error) {
	mp, doc, err := f.get(ctx, r.Href)
	if err != nil {
		return forum.Post{}, err
	}
	if loginShown(doc) {
		return forum.Post{}, fmt.Errorf("phpbb: sent message %s: %w", r.ID, forum.ErrLoggedOut)
	}
	posts, err := Extract(mp.Body, "text/html; charset=utf-8", f.cfgAt(mp.URL))
	if err != nil {
		if msg := errorText(doc); msg != "" {
			return forum.Post{}, fmt.Errorf("phpbb: sent message %s: %w", r.ID, f.classify(msg))
		}
		return forum.Post{}, fmt.Errorf("phpbb: sent message %s: %w", r.ID, err)
	}
	for _, p := range posts {
		if p.ID == r.ID {
			if p.Subject == "" {
				p.Subject = r.Subject
			}
			return p, nil
		}
	}
	return forum.Post{}, scrape.Markup("phpbb", "sent message %s: the page shows another message", r.ID)
}
