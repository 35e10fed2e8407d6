package daemon

import (
	"context"
	"errors"

	"forumgm/forum"
	"forumgm/store"
)

// A post can appear in the thread late: missing from the read that moved the cursor past its id
// and shown afterwards (MyBB's moderation queue approves a new member's post later, keeping its
// pid and time; a lagging replica served a page without it). The reads after the cursor never
// list it again, so each rescan, which reads the thread from before the oldest recent move post,
// looks for a post id before the cursor that the store has never seen, and hands it to the
// referee as a late post (Referee.JudgeLate: judged now, or flagged for a moderator with the player told,
// where the order of play makes judging it unfair). Its verdict is recorded like any post's; the
// cursor stays where it is. No post id, once seen, is skipped without a verdict or a flag.

// judgeLate judges the posts of a rescan's read that appeared late.
func (d *Daemon) judgeLate(ctx context.Context, posts []forum.Post) error {
	cur, _, err := d.o.Store.Cursor(ctx, d.o.Game, store.SourceThread)
	if err != nil || cur.PostID == "" {
		return err
	}
	ref, _, err := d.referee(ctx)
	if err != nil || ref.Paused() {
		return err // a paused game judges nothing; the next rescan finds the post again
	}
	for _, p := range posts {
		if !forum.IDLess(p.ID, cur.PostID) {
			continue // after the cursor: the next read's
		}
		if d.isBot(p.Author) || beforeStart(p.Time, d.o.Start) {
			continue // never judged, late or not
		}
		if _, garbled := p.Encoding(); garbled {
			continue // judged from a clean read (garbled.go)
		}
		_, seen, err := d.o.Store.SeenPost(ctx, d.o.Game, store.SourceThread, p.ID)
		if err != nil {
			return err
		}
		if seen {
			continue
		}
		d.log.Warn().Str("post", p.ID).Str("author", p.Author).Time("posted", p.Time).Str("cursor", cur.PostID).
			Msg("a post appeared late (first seen after later posts were judged: a moderation queue, a lagging replica): judged as a late post")
		for _, in := range inputs(store.SourceThread, p, 0) {
			in.late = true
			if err := d.judgeOne(ctx, in); err != nil {
				if errors.Is(err, errPaused) {
					return nil
				}
				return err
			}
		}
	}
	return nil
}
