package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"forumgm/forum"
	"forumgm/game"
	"forumgm/store"
	"forumgm/templates"
)

// Forums merge a user's consecutive posts: MyBB (postmergemins, 60 minutes by default) appends
// a new post to the user's previous one when that is the thread's last post, with "[hr]" between
// the parts, and no new post id. A move sent that way would never be read as a new post. So the
// daemon reads the thread's last post again whenever it is a player's and young enough to merge
// into (forum.Cursor.Include, forum.Merger), and
// a post that grew by an appended part has the new part judged as an input of its own, with its
// own reply: the part's id is the post's id with "~2", "~3", ... appended.

// partSep separates a post's id from the number of an appended part.
const partSep = "~"

// partID is the id of the k-th part (k >= 2) of post id.
func partID(id string, k int) string { return id + partSep + strconv.Itoa(k) }

// includeCursor asks the read to return the cursor's post again when it is a player's post the
// daemon recorded, no reply of the bot's followed it (only a thread's last post can grow by a
// merge) and it is young enough for the forum to merge into (forum.Merger; the forum's clock may
// be off by up to the allowed skew).
func (d *Daemon) includeCursor(ctx context.Context, cur forum.Cursor) (forum.Cursor, error) {
	if cur.PostID == "" {
		return cur, nil
	}
	rec, ok, err := d.o.Store.SeenPost(ctx, d.o.Game, store.SourceThread, cur.PostID)
	if err != nil {
		return cur, err
	}
	// A post the bot's reply followed is no longer the thread's last: nothing merges into it
	// (a forum merges a post only into the thread's last one), and the thread is read again only
	// when it shows something new.
	if !ok || !rec.Judged() || d.isBot(rec.Author) {
		return cur, nil
	}
	// Past the forum's merge window nothing is appended to it either (a 2,000-post game with a
	// player's chatter last read its last page on every poll all day long: issue 23).
	if m, ok := forum.As[forum.Merger](d.o.Forum); ok && !rec.PostedAt.IsZero() &&
		d.o.Clock.Now().Sub(rec.PostedAt) > m.MergeWindow()+d.maxSkew() {
		return cur, nil
	}
	own, err := d.lastOwn(ctx)
	if err != nil {
		return cur, err
	}
	cur.Include = own == "" || !forum.IDLess(cur.PostID, own)
	return cur, nil
}

// lastOwn is the post of the bot's newest reply in the thread: posted by this daemon, or at the
// start the store's last reply posted (so that a restarted daemon does not read every thread
// whose cursor is at a player's post the bot answered: issue 23, item 4).
func (d *Daemon) lastOwn(ctx context.Context) (string, error) {
	if !d.ownLastSet {
		it, ok, err := d.o.Store.LastReply(ctx, d.o.Game)
		if err != nil {
			d.fail("store", err)
			return "", err
		}
		if ok && it.State == store.OutboxPosted && (d.ownLast == "" || forum.IDLess(d.ownLast, it.ForumPostID)) {
			d.ownLast = it.ForumPostID
		}
		d.ownLastSet = true
	}
	return d.ownLast, nil
}

// grown checks the recorded post p was read again: an appended part is returned as a new input
// to judge (ok true); a post changed in another way is flagged as edited, once, when it was a
// move or now holds something for the game (the first-seen post stands).
func (d *Daemon) grown(ctx context.Context, p forum.Post, now time.Time) (in input, ok bool, err error) {
	rec, seen, err := d.o.Store.SeenPost(ctx, d.o.Game, store.SourceThread, p.ID)
	if err != nil || !seen || !rec.Judged() {
		return input{}, false, err
	}
	h := rec.HashOf(p)
	last := rec.TextHash
	if rec.EditedHash != "" {
		last = rec.EditedHash
	}
	if h == last {
		return input{}, false, nil
	}
	first := rec.Post
	if !rec.Whole {
		first.Text = rec.Text
	}
	// The parts judged so far, in order.
	var parts []store.PostRecord
	for k := 2; ; k++ {
		pr, ok, err := d.o.Store.SeenPost(ctx, d.o.Game, store.SourceThread, partID(p.ID, k))
		if err != nil {
			return input{}, false, err
		}
		if !ok {
			break
		}
		parts = append(parts, pr)
	}
	rest, appended := strings.CutPrefix(trimEnd(p.Text), trimEnd(first.Text))
	if appended {
		for _, pr := range parts {
			if rest, appended = strings.CutPrefix(strings.TrimLeft(rest, " \t\r\n"), trimEnd(pr.Post.Text)); !appended {
				break
			}
		}
	}
	rest = strings.TrimSpace(rest)
	if !appended {
		return input{}, false, d.flagEdited(ctx, rec, p, h)
	}
	if rest == "" && (len(p.Quotes) == len(first.Quotes) || len(newQuotes(p.Quotes, first.Quotes, parts)) == 0) {
		// Nothing new to read (a part judged before a crash): the post as it is now is known.
		_, err := d.o.Store.MarkPostEdited(ctx, d.o.Game, store.SourceThread, p.ID, h, nil)
		return input{}, false, err
	}
	part := forum.Post{ID: partID(p.ID, len(parts)+2), Permalink: p.Permalink, Author: p.Author, AuthorID: p.AuthorID,
		Time: now, Text: rest, Quotes: newQuotes(p.Quotes, first.Quotes, parts)}
	d.log.Info().Str("post", p.ID).Str("part", part.ID).Msg("a post grew by an appended part (the forum merged a new post into it): judged as a new input")
	return input{src: store.SourceThread, post: part, cursorID: p.ID, hash: h}, true, nil
}

// newQuotes are the quotes of the post now that neither its first version nor an earlier part had.
func newQuotes(now, first []forum.Quote, parts []store.PostRecord) []forum.Quote {
	known := map[string]int{}
	for _, q := range first {
		known[q.Text]++
	}
	for _, pr := range parts {
		for _, q := range pr.Post.Quotes {
			known[q.Text]++
		}
	}
	var out []forum.Quote
	for _, q := range now {
		if known[q.Text] > 0 {
			known[q.Text]--
			continue
		}
		out = append(out, q)
	}
	return out
}

// flagEdited flags a post changed other than by an appended part (once: MarkPostEdited reports a
// change only the first time a hash is seen), when it was a move or now holds something for the
// game; an ignored chatter post edited into other chatter is not a moderator's business.
func (d *Daemon) flagEdited(ctx context.Context, rec store.PostRecord, p forum.Post, h string) error {
	move := rec.Verdict == store.VerdictAccepted || rec.Verdict == store.VerdictRefused || rec.Verdict == store.VerdictFlagged
	if !move {
		ref, _, err := d.referee(ctx)
		if err != nil {
			return err
		}
		if !ref.ForGame(game.Input{Source: game.Thread, PostID: p.ID, Author: p.Author, At: p.Time, Post: p}) {
			_, err := d.o.Store.MarkPostEdited(ctx, d.o.Game, store.SourceThread, p.ID, h, nil)
			return err
		}
	}
	open, err := d.o.Store.OpenFlags(ctx, d.o.Game)
	if err != nil {
		return err
	}
	detail := fmt.Sprintf("the post was edited after the decision (%s); the first version stands", firstLine(p.Text))
	return d.flagPost(ctx, open, rec, store.FlagEdited, detail, h[:12], p, func(cctx context.Context) error {
		_, err := d.o.Store.MarkPostEdited(cctx, d.o.Game, rec.Source, rec.ID, h, nil)
		return err
	})
}

func trimEnd(s string) string { return strings.TrimRight(s, " \t\r\n") }

// The bot's own posts merge too: a reply the bot posts while the thread's last post is its own,
// within the board's merge window, is appended to that post (after "[hr]") with no new post and
// no notice, and an announcement there (a moderator's decision, the day's question) is easily
// missed. The dialect reports such a merge; the poster then edits the post (forum.Editor) to start
// the merged part with a visible header line (templates/poster "merged"). A dialect that cannot
// edit leaves the part as it is (logged; docs/operations.md says to exempt the bot from merging).

// headMerged marks the top of a reply the forum merged into the bot's post id: sent is the text
// posted (its marker on its last line), at when it was posted.
func (d *Daemon) headMerged(ctx context.Context, id, sent string, at time.Time) {
	ed, ok := forum.As[forum.Editor](d.o.Forum)
	if !ok {
		d.log.Warn().Str("post", id).Msg("the forum merged the reply into the bot's previous post and this forum cannot be edited by the bot: the merged part is not marked (exempt the bot from auto-merge: docs/operations.md)")
		return
	}
	set, err := posterTemplates()
	if err == nil {
		var h string
		if h, err = set.Render("merged", struct{ At time.Time }{at.In(d.loc())}); err == nil {
			err = ed.EditPost(ctx, d.o.Thread, id, func(text string) (string, error) { return withHeader(text, sent, h) })
		}
	}
	if err != nil {
		d.fail(kindOf(err), fmt.Errorf("daemon: mark the merged reply in post %s: %w", id, err))
		return
	}
	d.log.Info().Str("post", id).Msg("the forum merged the reply into the bot's previous post: its part now starts with a visible header")
}

// withHeader puts header on a line of its own at the top of the part sent within a merged post's
// text: before the last occurrence of sent's first line that comes before sent's marker. A text
// whose part starts with the header already is returned as it is.
func withHeader(text, sent, header string) (string, error) {
	lines := strings.Split(strings.TrimSpace(sent), "\n")
	first := strings.TrimSpace(lines[0])
	marker := strings.TrimSpace(lines[len(lines)-1])
	end := strings.LastIndex(text, marker)
	if first == "" || end < 0 {
		return "", errors.New("the reply is not in the post")
	}
	start := strings.LastIndex(text[:end+len(marker)], first)
	if start < 0 {
		return "", errors.New("the reply's first line is not in the post")
	}
	if strings.HasSuffix(strings.TrimRight(text[:start], " \t\r\n"), header) {
		return text, nil
	}
	return text[:start] + header + "\n" + text[start:], nil
}

// loc is the game's time zone for the times players read (the poll policy's; UTC if none).
func (d *Daemon) loc() *time.Location {
	if d.o.Poll.Loc != nil {
		return d.o.Poll.Loc
	}
	return time.UTC
}

var posterTemplates = sync.OnceValues(func() (*templates.Set, error) { return templates.LoadShared("poster") })
