package mybb

import (
	"context"
	"fmt"

	"forumgm/forum"
	scrape "forumgm/scraper/mybb"
)

// Section lists the threads on the first page of forum fid (forumdisplay.php?fid=N), in the
// board's order: sticky threads first, then by last post, newest first (forum.SectionReader).
// MyBB's list shows no post ids: a head carries the replies, the last post's minute and its
// poster. An auto-merged post changes none of them (scraper/mybb/README.md).
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

// FloodExempt reads the bot's reply form of thread t (newreply.php?tid=T, one request, nothing
// posted) and reports whether it shows the moderator options: MyBB shows them to a moderator of
// the thread's forum (and to super moderators and administrators), whom its flood check skips
// (forum.FloodExempter). A moderator whose close and stick permissions were both removed sees
// no options and is reported as not exempt.
func (f *Forum) FloodExempt(ctx context.Context, t forum.Thread) (bool, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.ensureLogin(ctx); err != nil {
		return false, "", err
	}
	var exempt bool
	err := f.relogin(ctx, func() error {
		_, doc, err := f.get(ctx, scrape.NewReplyPath(t.ID))
		if err != nil {
			return err
		}
		if doc.Find(scrape.Selectors.ReplyForm).Length() == 0 {
			if err := scrape.PageError(doc); err != nil {
				return err
			}
			return fmt.Errorf("mybb: no reply form (%s) on %s: %w", scrape.Selectors.ReplyForm, scrape.NewReplyPath(t.ID), forum.ErrMarkupChanged)
		}
		exempt = scrape.ModeratorOptions(doc)
		return nil
	})
	if err != nil {
		return false, "", fmt.Errorf("mybb: reply form of thread %s: %w", t.ID, err)
	}
	if exempt {
		return true, "the reply form shows the moderator options: the bot moderates this forum, and MyBB's flood check skips moderators", nil
	}
	return false, "the reply form shows no moderator options: the bot is not a moderator of this forum, so MyBB's flood check (postfloodsecs, 60 s by default) applies", nil
}
