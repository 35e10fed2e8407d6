package xenforo

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
)

// convItem is one conversation of the list (conversation_list_macros "item").
type convItem struct {
	id, title, href string
	starter         string // the list item's data-author
	unread          bool
	latest          time.Time
}

// conversations reads the first page of the bot's conversation list, newest activity first.
func (f *Forum) conversations(ctx context.Context) ([]convItem, error) {
	var items []convItem
	err := f.retry(ctx, true, func() error {
		items = nil
		rt, err := f.listRoute(ctx)
		if err != nil {
			return err
		}
		p, doc, err := f.board.Fetch(ctx, f.route(rt), nil, "", true)
		if err != nil {
			return err
		}
		if in, known := loggedIn(doc); !known {
			return fmt.Errorf("xenforo: %s has no html[data-logged-in]: %w", p.URL, forum.ErrMarkupChanged)
		} else if !in {
			return fmt.Errorf("xenforo: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		f.setToken(doc)
		var bad error
		doc.Find(".structItem--conversation").Each(func(_ int, s *goquery.Selection) {
			a := s.Find("a.structItem-title").First()
			href, _ := a.Attr("href")
			u, uerr := p.URL.Parse(href)
			id := f.convID(href)
			if uerr != nil || id == "" {
				bad = fmt.Errorf("xenforo: conversation link %q: %w", href, forum.ErrMarkupChanged)
				return
			}
			it := convItem{id: id, title: clean(a.Text()), href: u.String(), starter: s.AttrOr("data-author", ""), unread: s.HasClass("is-unread")}
			if n, err := strconv.ParseInt(s.Find(".structItem-latestDate").AttrOr("data-time", ""), 10, 64); err == nil {
				it.latest = time.Unix(n, 0)
			}
			items = append(items, it)
		})
		if bad != nil {
			return bad
		}
		if len(items) == 0 && doc.Find(".block-body, .blockMessage").Length() == 0 {
			return fmt.Errorf("xenforo: %s is no conversation list: %w", p.URL, forum.ErrMarkupChanged)
		}
		return nil
	})
	return items, err
}

// Inbox lists the conversation messages other members sent after the cursor, oldest first. An
// idle poll is one request (the conversation list); a conversation is opened (its unread link:
// XenForo goes to the first unread message's page, then the pages after it) only when the list
// marks it unread or shows newer activity than the dialect saw there last time.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	items, err := f.conversations(ctx)
	if err != nil {
		return nil, after, err
	}
	var out []forum.Post
	for _, it := range items {
		f.tok.Lock()
		seen, known := f.convSeen[it.id]
		f.tok.Unlock()
		if !it.unread && !(known && it.latest.After(seen)) {
			f.tok.Lock()
			f.convSeen[it.id] = it.latest
			f.tok.Unlock()
			continue
		}
		posts, err := f.conversation(ctx, it)
		if err != nil {
			return nil, after, err
		}
		for _, p := range posts {
			if strings.EqualFold(p.Author, f.cfg.Username) || after.PostID != "" && !forum.IDLess(after.PostID, p.ID) {
				continue
			}
			f.tok.Lock()
			dup := f.seenMsg[p.ID]
			f.seenMsg[p.ID] = true
			f.tok.Unlock()
			if !dup {
				out = append(out, p)
			}
		}
		f.tok.Lock()
		f.convSeen[it.id] = it.latest
		f.tok.Unlock()
	}
	f.tok.Lock()
	f.unreadPM = false // every unread conversation was read
	f.tok.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return forum.IDLess(out[i].ID, out[j].ID) })
	next := after
	next.Include = false
	if n := len(out); n > 0 && (next.PostID == "" || forum.IDLess(next.PostID, out[n-1].ID)) {
		next.PostID = out[n-1].ID
	}
	return out, next, nil
}

// conversation reads a conversation from its list link to its last page.
func (f *Forum) conversation(ctx context.Context, it convItem) ([]forum.Post, error) {
	var out []forum.Post
	next := it.href
	for n := 0; next != "" && n < maxPagesPerPoll; n++ {
		page, doc, err := f.readPage(ctx, next, xf2Conversation)
		if err != nil {
			return nil, err
		}
		title := clean(doc.Find("h1.p-title-value").First().Text())
		if title == "" {
			title = it.title
		}
		for _, p := range page.Posts {
			p.Subject = title
			out = append(out, p)
		}
		next = page.Next
	}
	return out, nil
}

// Sent lists the messages of the conversations the bot started that are on the first page of
// its conversation list, after the cursor, oldest first (the daemon looks for a message's marker
// there after a send whose outcome was unknown). A conversation is read once per Forum (the
// bot's message opens it and never changes); conversations the list marks unread are left for
// Inbox, since reading one marks it read.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	items, err := f.conversations(ctx)
	if err != nil {
		return nil, after, err
	}
	var out []forum.Post
	for _, it := range items {
		if it.unread || !strings.EqualFold(it.starter, f.cfg.Username) {
			continue
		}
		f.tok.Lock()
		posts, ok := f.sentConv[it.id]
		f.tok.Unlock()
		if !ok {
			href := strings.TrimSuffix(it.href, "unread")
			all, err := f.conversation(ctx, convItem{id: it.id, title: it.title, href: href})
			if err != nil {
				return nil, after, err
			}
			posts = nil
			for _, p := range all {
				if strings.EqualFold(p.Author, f.cfg.Username) {
					posts = append(posts, p)
				}
			}
			f.tok.Lock()
			f.sentConv[it.id] = posts
			f.tok.Unlock()
		}
		for _, p := range posts {
			if after.PostID == "" || forum.IDLess(after.PostID, p.ID) {
				out = append(out, p)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return forum.IDLess(out[i].ID, out[j].ID) })
	next := forum.Cursor{PostID: after.PostID, Page: after.Page}
	if n := len(out); n > 0 && (next.PostID == "" || forum.IDLess(next.PostID, out[n-1].ID)) {
		next.PostID = out[n-1].ID
	}
	return out, next, nil
}
