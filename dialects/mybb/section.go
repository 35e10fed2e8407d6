package mybb

import (
	"context"
	"fmt"

	"forumgm/forum"
)

// Section lists the threads on the first page of forum fid (forumdisplay.php?fid=N), in the
// board's order: sticky threads first, then by last post, newest first (forum.SectionReader).
// MyBB's list shows no post ids: a head carries the replies, the last post's minute and its
// poster. An auto-merged post changes none of them (dialects/mybb/README.md).
func (f *Forum) Section(ctx context.Context, fid string) ([]forum.ThreadHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, err := f.rd.Section(ctx, fid)
	if err != nil {
		return nil, fmt.Errorf("mybb: forum %s: %w", fid, err)
	}
	return s.Threads, nil
}

// SectionOf is the forum thread t is in, from the breadcrumb of its last page read ("" before
// Posts read a page of it).
func (f *Forum) SectionOf(t forum.Thread) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rd.SectionOf(t.ID)
}

// FloodExempt reads the first page of thread t as the bot (showthread.php?tid=T, one request,
// nothing posted) and reports whether it shows the bot the moderation tools of the thread's
// forum (scrape.Moderates: the inline moderation MyBB draws for a moderator of the forum, a super
// moderator or an administrator, whom its flood check skips), forum.FloodExempter.
func (f *Forum) FloodExempt(ctx context.Context, t forum.Thread) (bool, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return false, "", err
	}
	var exempt bool
	err := f.relogin(ctx, func() error {
		_, doc, err := f.get(ctx, threadPath(t.ID, 1))
		if err != nil {
			return err
		}
		p, err := extractThread(doc, f.rd.Options)
		if err != nil {
			return err
		}
		if !p.LoggedIn {
			return fmt.Errorf("mybb: the thread page was drawn for a guest: %w", forum.ErrLoggedOut)
		}
		exempt = p.Moderator
		return nil
	})
	if err != nil {
		return false, "", fmt.Errorf("mybb: thread %s: %w", t.ID, err)
	}
	if exempt {
		return true, "the thread page shows the bot the moderation tools: it moderates this forum, and MyBB's flood check skips moderators", nil
	}
	return false, "the thread page shows the bot no moderation tools: it is not a moderator of this forum, so MyBB's flood check (postfloodsecs, 60 s by default) applies", nil
}

// Board reads the board index (index.php, one request): every forum's thread and post counts,
// forum.BoardReader. A section whose post count did not change since its list was read needs no
// new look at its list.
func (f *Forum) Board(ctx context.Context) ([]forum.SectionHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	heads, err := f.rd.Board(ctx)
	if err != nil {
		return nil, fmt.Errorf("mybb: board index: %w", err)
	}
	f.boardBytes = f.lastBytes
	return heads, nil
}
