package mybb

import (
	"context"
	"fmt"
	"html"

	"forumgm/forum"
	scrape "forumgm/scraper/mybb"

	"github.com/PuerkitoBio/goquery"
)

// Folder listings of private.php (MyBB 1.8 numbers the folders 0 Inbox, 1 Unread — a filter
// of the inbox —, 2 Sent Items, 3 Drafts, 4 Trash Can; the inbox is private.php itself).
const (
	inboxFolderPath = "private.php"
	sentFolderPath  = "private.php?fid=2"
	maxFolderPages  = 50
)

// Inbox lists the private messages received after the cursor (pmid), oldest first, each read
// in full (reading marks it read on the board). When reading one fails, the messages read so
// far are returned with their cursor and the error.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.folder(ctx, inboxFolderPath, after, nil)
}

// Sent lists the bot's sent private messages (the Sent Items folder, private.php?fid=2: the
// copies MyBB keeps when options[savecopy] is set, which SendPM always sends) after the cursor
// (pmid), oldest first, each read in full so that its text can be searched (the daemon looks for
// a message's marker there after a crash). A message's Author is the sender (the bot) as the
// message page shows it; its Subject is the message's subject. The sender's copy has a pmid of
// its own, different from the recipient's copy.
//
// Sent copies never change, so each is fetched once per Forum: later calls read only the folder
// listing and the messages not seen before. When reading one fails, the messages read so far are
// returned with their cursor and the error.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sentCache == nil {
		f.sentCache = map[string]forum.Post{}
	}
	return f.folder(ctx, sentFolderPath, after, f.sentCache)
}

// folder lists a PM folder after the cursor and reads each new message (from cache when given).
func (f *Forum) folder(ctx context.Context, path string, after forum.Cursor, cache map[string]forum.Post) ([]forum.Post, forum.Cursor, error) {
	if err := f.ensureLogin(ctx); err != nil {
		return nil, after, err
	}
	var list []forum.Post
	err := f.relogin(ctx, func() error {
		var err error
		list, err = f.folderList(ctx, path, after.PostID)
		return err
	})
	if err != nil {
		return nil, after, err
	}
	scrape.SortByID(list)
	cur := after
	var out []forum.Post
	for _, item := range list {
		pm, ok := cache[item.ID]
		if !ok {
			var err error
			if pm, err = f.readPM(ctx, item); err != nil {
				return out, cur, err
			}
			if cache != nil {
				cache[item.ID] = pm
			}
		}
		out = append(out, pm)
		cur = forum.Cursor{PostID: item.ID}
	}
	return out, cur, nil
}

// readPM reads one message of a folder listing in full.
func (f *Forum) readPM(ctx context.Context, item forum.Post) (forum.Post, error) {
	var pm forum.Post
	err := f.relogin(ctx, func() error {
		_, doc, err := f.get(ctx, scrape.PMPath(item.ID))
		if err != nil {
			return err
		}
		markPMID(doc, item.ID)
		pg, err := scrape.ExtractPM(doc, f.opts)
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
	if doc.Find(scrape.Selectors.Post).Length() == 0 {
		return // an error page: let the extractor report it
	}
	if v, ok := doc.Find(scrape.Selectors.PMIDInput).First().Attr("value"); ok && v != "" && v != "0" {
		return
	}
	if doc.Find(scrape.Selectors.PMReplyBtn+", "+scrape.Selectors.PMDelete).Filter("[href*='pmid=']").Length() > 0 {
		return
	}
	doc.Find("body").AppendHtml(`<input type="hidden" name="pmid" value="` + html.EscapeString(pmid) + `" />`)
}

// folderList reads a folder listing from its first page (newest first) until a message at or
// before the cursor appears or the pages end.
func (f *Forum) folderList(ctx context.Context, path, afterID string) ([]forum.Post, error) {
	var out []forum.Post
	seen := map[string]bool{}
	for page := 1; page <= maxFolderPages; page++ {
		_, doc, err := f.get(ctx, path)
		if err != nil {
			return nil, err
		}
		pg, err := scrape.ExtractPMList(doc, f.opts)
		if err != nil {
			return nil, err
		}
		reached := false
		for _, m := range pg.Posts {
			switch {
			case seen[m.ID]:
			case scrape.CompareIDs(m.ID, afterID) > 0:
				seen[m.ID] = true
				out = append(out, m)
			default:
				reached = true
			}
		}
		if reached || pg.Page >= pg.LastPage {
			return out, nil
		}
		next, ok := doc.Find(scrape.Selectors.Pagination + " a.pagination_next").First().Attr("href")
		if !ok {
			return out, nil
		}
		path = next
	}
	return out, nil
}
