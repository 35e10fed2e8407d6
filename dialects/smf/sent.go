package smf

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"forumgm/forum"
)

// sentFolderQuery is the first page of the Sent Items folder, newest first whatever the member's
// "newest first" option says (SMF's default order is oldest first, opening on the last page).
const sentFolderQuery = "action=pm;f=sent;sort=date;desc;start=0"

// sentCache keeps the bot's sent messages already read: a sent PM never changes.
type sentCache struct {
	mu    sync.Mutex // one Sent at a time
	posts map[string]forum.Post
}

// Sent lists the bot's sent private messages (the Sent Items folder, index.php?action=pm;f=sent)
// after the cursor (id_pm), oldest first, each with its full text, so that the daemon can find a
// message's marker there after a crash. SMF keeps one row per PM: a sent message has the id the
// recipient sees. Author is the bot, Subject the message's subject, Permalink the sent copy
// (action=pm;f=sent;pmsg=N).
//
// The folder is read newest first from its first page, and further pages only while every message
// on a page is after the cursor: nothing new costs one request. Messages the folder page shows
// in full (SMF's default "all at once" display) cost nothing more; the others ("one at a time",
// conversations) are read once each with action=pm;f=sent;pmsg=N and kept for the life of the
// Forum. A lost session is logged in again once.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	f.sent.mu.Lock()
	defer f.sent.mu.Unlock()
	if f.sent.posts == nil {
		f.sent.posts = map[string]forum.Post{}
	}
	isNew := func(id string) bool { return after.PostID == "" || forum.IDLess(after.PostID, id) }
	page, err := f.read(ctx, f.u(sentFolderQuery), kindPM)
	if err != nil {
		return nil, after, fmt.Errorf("smf: sent folder: %w", err)
	}
	var wanted []string
	listed := map[string]bool{}
	for n := 0; n < maxPagesPerPoll; n++ {
		f.keepSent(page)
		older := false
		for _, r := range page.PMList {
			if listed[r.ID] {
				continue
			}
			listed[r.ID] = true
			if isNew(r.ID) {
				wanted = append(wanted, r.ID)
			} else {
				older = true
			}
		}
		next := page.PageLinks[page.Current+1]
		if older || next == "" || len(page.PMList) == 0 {
			break
		}
		if page, err = f.read(ctx, next, kindPM); err != nil {
			return nil, after, fmt.Errorf("smf: sent folder: %w", err)
		}
	}
	sort.SliceStable(wanted, func(i, j int) bool { return forum.IDLess(wanted[i], wanted[j]) })
	out := make([]forum.Post, 0, len(wanted))
	for _, id := range wanted {
		p, ok := f.sent.posts[id]
		if !ok {
			pp, err := f.read(ctx, f.u("action=pm;f=sent;pmsg="+id), kindPM)
			if err != nil {
				return out, cursorOf(out, after), fmt.Errorf("smf: sent PM %s: %w", id, err)
			}
			f.keepSent(pp)
			if p, ok = f.sent.posts[id]; !ok {
				return out, cursorOf(out, after), fmt.Errorf("smf: sent PM %s listed but not shown: %w", id, forum.ErrMarkupChanged)
			}
		}
		out = append(out, p)
	}
	return out, cursorOf(out, after), nil
}

// keepSent caches the bot's messages shown on a sent-folder page (a conversation view also shows
// the messages answered, written by others: those are left out), with the sent copy's permalink.
func (f *Forum) keepSent(page *Page) {
	me := ""
	if page.MemberID > 0 {
		me = strconv.Itoa(page.MemberID)
	}
	for _, p := range page.Posts {
		if me != "" && p.AuthorID != "" {
			if p.AuthorID != me {
				continue
			}
		} else if !strings.EqualFold(strings.TrimSpace(p.Author), strings.TrimSpace(f.cfg.Username)) {
			continue
		}
		p.Permalink = f.u("action=pm;f=sent;pmsg=" + p.ID + "#msg" + p.ID)
		f.sent.posts[p.ID] = p
	}
}

func cursorOf(out []forum.Post, after forum.Cursor) forum.Cursor {
	if len(out) == 0 {
		return after
	}
	return forum.Cursor{PostID: out[len(out)-1].ID}
}
