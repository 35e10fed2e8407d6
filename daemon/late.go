package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

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
//
// A private message can be late the same two ways. Its id can be before the inbox's cursor (a
// lagging replica listed the inbox without it, later ones with it): each rescan reads the inbox
// again from the last message first seen before Recent ago (the whole inbox every RescanAll) and
// judges such a message as late. Or it can come in its id's turn but after a timed rule it
// was written before has fired (the window it was meant for closed: Dragonball's orders, football
// points read after the deadline passed): judging it now would apply it to a game that has moved
// on, so it too is judged as late (pmAfterItsTimer). Each game's decisions document rules on it.

// judgeLate judges the posts (src: the thread's or the inbox's) of a rescan's read that
// appeared late: before the source's cursor and never seen.
func (d *Daemon) judgeLate(ctx context.Context, src store.Source, posts []forum.Post) error {
	cur, _, err := d.o.Store.Cursor(ctx, d.o.Game, src)
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
		if src == store.SourcePM && d.o.SharedInbox && !ref.Plays(p.Author) && !d.moderator(p.Author) {
			continue // another game's player writing to the shared bot account
		}
		if _, garbled := p.Encoding(); garbled {
			continue // judged from a clean read (garbled.go)
		}
		_, seen, err := d.o.Store.SeenPost(ctx, d.o.Game, src, p.ID)
		if err != nil {
			return err
		}
		if seen {
			continue
		}
		what := "a post appeared late (first seen after later posts were judged: a moderation queue, a lagging replica): judged as a late post"
		if src == store.SourcePM {
			what = "a private message appeared late in the inbox (first seen after later ones were judged: a lagging replica): judged as a late message"
		}
		d.log.Warn().Str("source", string(src)).Str("post", p.ID).Str("author", p.Author).Time("posted", p.Time).Str("cursor", cur.PostID).Msg(what)
		d.m.LatePosts.WithLabelValues(d.o.Game, string(src)).Inc()
		for _, in := range inputs(src, p, 0) {
			in.late, in.behind = true, true
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

// rescanInbox reads the inbox again from the last private message first seen before Recent ago
// (all: the whole inbox) and judges the messages before its cursor never seen as late. A message
// shown late reached the forum after that one (ids grow), so the read lists it.
func (d *Daemon) rescanInbox(ctx context.Context, all bool, now time.Time) error {
	if !d.o.Forum.Capabilities().PrivateMessages {
		return nil
	}
	cur, _, err := d.o.Store.Cursor(ctx, d.o.Game, store.SourcePM)
	if err != nil || cur.PostID == "" {
		return err
	}
	from := forum.Cursor{}
	if !all {
		if from.PostID, err = d.o.Store.LastSeenBefore(ctx, d.o.Game, store.SourcePM, now.Add(-d.o.Recent)); err != nil {
			return err
		}
	}
	posts, _, err := d.o.Forum.Inbox(ctx, from)
	if err != nil {
		return fmt.Errorf("daemon: rescan of the inbox: %w", err)
	}
	forum.CheckEncoding(posts)
	return d.judgeLate(ctx, store.SourcePM, posts)
}

// pmAfterItsTimer reports whether in, a private message read in its turn, was written before the
// last timed rule that has fired (the window it was meant for has closed since): it is judged as
// a late message. The stamp is given startSlack: forums often show times to the minute only.
func (d *Daemon) pmAfterItsTimer(in input) bool {
	if in.src != store.SourcePM || in.post.Time.IsZero() {
		return false
	}
	d.mu.Lock()
	fired, has := d.clock, d.hasClock
	d.mu.Unlock()
	if !has || !in.post.Time.Add(startSlack).Before(fired) {
		return false
	}
	d.log.Warn().Str("post", in.post.ID).Str("author", in.post.Author).Time("posted", in.post.Time).Time("fired", fired).
		Msg("a private message written before a timed rule that has fired was read only now (the inbox showed it late): judged as a late message")
	d.m.LatePosts.WithLabelValues(d.o.Game, string(in.src)).Inc()
	return true
}
