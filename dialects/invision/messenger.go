package invision

import (
	"context"
	"errors"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/forum/scrape"
	"forumgm/forum/web"
)

var reConversation = regexp.MustCompile(`messenger/(\d+)`)

// SendPM starts a conversation through messenger/compose/ (the content item form "form":
// messenger_to, messenger_title, the editor's messenger_content_noscript) and checks that
// Invision redirected to the new conversation (messenger/<id>/).
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry(ctx, true, func() error {
		_, err := f.composeAttempt(ctx, to, subject, body)
		return err
	})
}

func (f *Forum) composeAttempt(ctx context.Context, to, subject, body string) (string, error) {
	page, doc, err := f.board.Fetch(ctx, f.route("messenger/compose/", nil), nil, "", true)
	if errors.Is(err, forum.ErrNoPermission) {
		return "", fmt.Errorf("invision: the bot may not use the messenger: %w: %w", forum.ErrNoPM, err)
	}
	if err != nil {
		return "", err
	}
	if in, known := signedIn(doc); known && !in {
		return "", fmt.Errorf("invision: %s shows a guest: %w", page.URL, forum.ErrLoggedOut)
	}
	fs := doc.Find("form:has(input[name='form_submitted'])").First()
	action, ok := web.Action(fs, page)
	if fs.Length() == 0 || !ok || fs.Find("[name='messenger_to']").Length() == 0 {
		return "", fmt.Errorf("invision: no compose form at %s: %w", page.URL, forum.ErrMarkupChanged)
	}
	vals := web.Replay{}.Values(fs)
	vals.Set("messenger_to", to)
	vals.Set("messenger_title", subject)
	vals.Set("messenger_content_noscript", html.EscapeString(body))
	p, d, err := f.board.Fetch(ctx, action, vals, web.Charset(fs, page), false)
	if err != nil {
		return "", err
	}
	if m := reConversation.FindStringSubmatch(p.URL.Path + "?" + p.URL.RawQuery); m != nil && d.Find("form:has(input[name='form_submitted'])").Length() == 0 {
		return m[1], nil
	}
	if cerr := f.checkPage(d, p.Status); cerr != nil {
		return "", cerr
	}
	if in, known := signedIn(d); known && !in {
		return "", fmt.Errorf("invision: compose answered a guest's page: %w", forum.ErrLoggedOut)
	}
	var msgs []string
	d.Find("li.ipsFieldRow_error .ipsType_warning, form .ipsMessage_error").Each(func(_ int, s *goquery.Selection) {
		if t := clean(s.Text()); t != "" {
			msgs = append(msgs, t)
		}
	})
	msg := strings.Join(msgs, " | ")
	switch {
	case reNoMember.MatchString(msg):
		return "", fmt.Errorf("invision: message to %q: %q: %w", to, msg, forum.ErrNotFound)
	case reCannotReceive.MatchString(msg):
		return "", fmt.Errorf("invision: message to %q: %q: %w", to, msg, forum.ErrRecipient)
	case msg != "":
		return "", f.classify(p.Status, msg)
	case d.Find("form:has(input[name='form_submitted'])").Length() > 0:
		return "", fmt.Errorf("invision: compose: the form came back without an error (csrfKey refused): %w", forum.ErrBadToken)
	}
	return "", fmt.Errorf("invision: compose went to %s, no conversation: %w", p.URL, forum.ErrMarkupChanged)
}

var (
	reNoMember      = regexp.MustCompile(`(?i)no member with that|не найден`)
	reCannotReceive = regexp.MustCompile(`(?i)cannot receive messages|не может получать`)
)

// convItem is one conversation of the messenger list (messageListRow).
type convItem struct {
	id, title, href string
	unread          bool
	latest          time.Time
}

func (f *Forum) conversations(ctx context.Context) ([]convItem, error) {
	var items []convItem
	err := f.retry(ctx, true, func() error {
		items = nil
		p, doc, err := f.board.Fetch(ctx, f.route("messenger/", nil), nil, "", true)
		if errors.Is(err, forum.ErrNoPermission) {
			return fmt.Errorf("invision: the bot may not use the messenger: %w: %w", forum.ErrNoPM, err)
		}
		if err != nil {
			return err
		}
		if in, known := signedIn(doc); !known {
			return fmt.Errorf("invision: %s has no user bar: %w", p.URL, forum.ErrMarkupChanged)
		} else if !in {
			return fmt.Errorf("invision: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
		}
		var bad error
		doc.Find("li.cMessage[data-messageid]").Each(func(_ int, s *goquery.Selection) {
			a := s.Find("a.cMessageTitle").First()
			href, _ := a.Attr("href")
			u, uerr := p.URL.Parse(href)
			if uerr != nil || href == "" {
				bad = fmt.Errorf("invision: conversation link %q: %w", href, forum.ErrMarkupChanged)
				return
			}
			it := convItem{id: s.AttrOr("data-messageid", ""), title: clean(a.Text()), href: u.String(), unread: s.HasClass("ipsDataItem_unread")}
			if t, err := time.Parse(time.RFC3339, s.Find("time").First().AttrOr("datetime", "")); err == nil {
				it.latest = t
			}
			items = append(items, it)
		})
		return bad
	})
	return items, err
}

// Inbox lists the messenger messages other members sent after the cursor, oldest first. An
// idle poll is one request (the messenger's conversation list); a conversation is opened (its
// list link, &latest=1: Invision goes to the first unread message's page, then the pages after
// it) only when the list marks it unread or shows newer activity than the dialect saw there.
func (f *Forum) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	items, err := f.conversations(ctx)
	if err != nil {
		return nil, after, err
	}
	var out []forum.Post
	for _, it := range items {
		f.state.Lock()
		seen, known := f.convSeen[it.id]
		f.state.Unlock()
		if it.unread || known && it.latest.After(seen) {
			posts, err := f.conversation(ctx, it)
			if err != nil {
				return nil, after, err
			}
			for _, p := range posts {
				if strings.EqualFold(p.Author, f.cfg.Username) || after.PostID != "" && !forum.IDLess(after.PostID, p.ID) {
					continue
				}
				f.state.Lock()
				dup := f.seenMsg[p.ID]
				f.seenMsg[p.ID] = true
				f.state.Unlock()
				if !dup {
					out = append(out, p)
				}
			}
		}
		f.state.Lock()
		f.convSeen[it.id] = it.latest
		f.state.Unlock()
	}
	f.state.Lock()
	f.unreadPM = false // every unread conversation was read
	f.state.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return forum.IDLess(out[i].ID, out[j].ID) })
	next := forum.Cursor{PostID: after.PostID, Page: after.Page}
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
		var page *scrape.Page
		var title string
		err := f.retry(ctx, true, func() error {
			p, doc, err := f.board.Fetch(ctx, next, nil, "", true)
			if err != nil {
				return err
			}
			if in, known := signedIn(doc); known && !in {
				return fmt.Errorf("invision: %s shows a guest: %w", p.URL, forum.ErrLoggedOut)
			}
			title = clean(doc.Find("h1.ipsType_pageTitle").First().Text())
			page, err = ReadPage(doc, ips4, f.cfg)
			return err
		})
		if err != nil {
			return nil, err
		}
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

// Sent lists the bot's messages in the conversations on the first page of its messenger list,
// after the cursor, oldest first (the daemon looks for a message's marker there after a send
// whose outcome was unknown). The list does not name who started a conversation, so each
// conversation is read once per Forum (the bot's message opens the conversations it starts and
// never changes) and the bot's messages kept; conversations the list marks unread are left for
// Inbox, since reading one marks it read. The first look after a start costs one request per
// conversation on the list's first page, later looks one request.
func (f *Forum) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	items, err := f.conversations(ctx)
	if err != nil {
		return nil, after, err
	}
	var out []forum.Post
	for _, it := range items {
		if it.unread {
			continue
		}
		f.state.Lock()
		posts, ok := f.sentConv[it.id]
		f.state.Unlock()
		if !ok {
			all, err := f.conversation(ctx, it)
			if err != nil {
				return nil, after, err
			}
			posts = nil
			for _, p := range all {
				if strings.EqualFold(p.Author, f.cfg.Username) {
					posts = append(posts, p)
				}
			}
			f.state.Lock()
			f.sentConv[it.id] = posts
			f.state.Unlock()
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
