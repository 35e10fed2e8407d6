package xenforo

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"forumgm/forum"
)

// Reply posts body (BBCode) to the thread through threads/<id>/add-reply and returns the new
// post's id, read from the redirect XenForo answers with (posts/<id>/). The body goes in
// "message", which XenForo takes as BBCode as it is (XF\ControllerPlugin\Editor::fromInput reads
// "message" before the rich editor's "message_html"). merged is true when the id is not newer
// than the newest post the dialect saw in the thread (XenForo itself never merges; add-ons do).
func (f *Forum) Reply(ctx context.Context, t forum.Thread, body string) (string, bool, error) {
	rt, err := threadRoute(t)
	if err != nil {
		return "", false, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var id string
	var merged bool
	err = f.retry(ctx, true, func() error {
		var e error
		id, merged, e = f.replyAttempt(ctx, t, rt, body)
		return e
	})
	return id, merged, err
}

// errPending: XenForo took the reply but holds it for a moderator (its redirect goes to the
// thread with pending_approval=1); the post has no id a reader can see yet.
var errPending = errors.New("xenforo: the post awaits a moderator's approval")

func (f *Forum) replyAttempt(ctx context.Context, t forum.Thread, rt, body string) (string, bool, error) {
	if err := f.ensureToken(ctx, rt); err != nil {
		return "", false, err
	}
	a, err := f.postJSON(ctx, rt+"add-reply", url.Values{"message": {body}})
	if err != nil {
		return "", false, err
	}
	if rePending.MatchString(a.Redirect) {
		return "", false, fmt.Errorf("xenforo: reply to %s: %w", t.ID, errPending)
	}
	m := rePostID.FindStringSubmatch(a.Redirect)
	if m == nil {
		return "", false, fmt.Errorf("xenforo: reply to %s went through, but its redirect %q names no post: %w", t.ID, a.Redirect, forum.ErrMarkupChanged)
	}
	id := m[1]
	f.tok.Lock()
	newest := f.newest[t.ID]
	if newest == "" || forum.IDLess(newest, id) {
		f.newest[t.ID] = id
	}
	f.tok.Unlock()
	return id, newest != "" && !forum.IDLess(newest, id), nil
}

// SendPM starts a conversation with one recipient through <list route>add (recipients, title,
// message): conversations/add, or direct-messages/add where the header links the list there
// (XenForo 2.3).
func (f *Forum) SendPM(ctx context.Context, to, subject, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry(ctx, true, func() error {
		rt, err := f.listRoute(ctx)
		if err != nil {
			return err
		}
		if err := f.ensureToken(ctx, rt); err != nil {
			return err
		}
		a, err := f.postJSON(ctx, rt+"add", url.Values{"recipients": {to}, "title": {subject}, "message": {body}})
		if errors.Is(err, forum.ErrNoPermission) {
			return fmt.Errorf("xenforo: the bot may not start conversations: %w: %w", forum.ErrNoPM, err)
		}
		if err != nil {
			return err
		}
		if f.convID(a.Redirect) == "" {
			return fmt.Errorf("xenforo: conversation with %s went through, but its redirect %q names none: %w", to, a.Redirect, forum.ErrMarkupChanged)
		}
		return nil
	})
}
