package daemon

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"forumgm/forum"
	"forumgm/store"
)

// A store can be behind the thread: an older backup put back, or the store deleted and made anew.
// Each message the daemon posts carries its marker (store.Marker, keyed by the store's secret), so
// the thread itself says what was posted:
//
//   - Before the first message of a kind after a start (a thread reply, a private message), the
//     daemon looks for the game's markers where that message could already be: the thread from
//     the post of the last reply the store knows as posted (a later reply may have been merged
//     into it), or the sent folder. The markers found, and those in every page of the thread
//     read later, are kept (marks): an item whose marker is among them is not posted again but
//     marked posted at the forum's time, so a store restored from a backup catches up from the
//     thread, and a deadline counts from the real post.
//   - A store that has not started the game yet reads the whole thread first: a post of the bot
//     holding a marker of this game under another key is another store's game, and a second game
//     is refused (ErrSecondGame) rather than opened in the same thread.
//   - The store's file deleted or replaced under the daemon (store.ErrFileGone) stops the game.

// ErrSecondGame: the game's thread already holds the bot's posts of this game id made by another
// store (the store was deleted, or another one runs the game): the game is not started a second
// time (see SecondGameError).
var ErrSecondGame = errors.New("daemon: the thread already holds this game's posts from another store")

// SecondGameError names the post that shows the game was started by another store.
type SecondGameError struct {
	Game, Thread string
	Post         forum.Post // the opening post when it is there, else the oldest such post
	Marker       string
}

func (e *SecondGameError) Error() string {
	what := "a post"
	if _, n, _ := store.MarkerOf(e.Marker); n == 1 {
		what = "the opening post"
	}
	at := ""
	if !e.Post.Time.IsZero() {
		at = " of " + e.Post.Time.Format("2006-01-02 15:04 MST")
	}
	return fmt.Sprintf("daemon: game %s: thread %s already holds %s of this game from another store (post %s%s, marker %s): "+
		"a second game is not started in the same thread; put that game's store (or its latest backup) back, "+
		"or give this game a new id: %v", e.Game, e.Thread, what, e.Post.ID, at, e.Marker, ErrSecondGame)
}

// Is makes errors.Is(err, ErrSecondGame) true.
func (e *SecondGameError) Is(target error) bool { return target == ErrSecondGame }

// stopsGame reports whether err ends the game's loop for good: the store's file is gone or the
// thread holds another store's game. Retrying could only lose commits or post a second game.
//
// A lease lost (store.ErrLeaseLost: another daemon sharing the database took the game) ends the
// loop too, quietly: the game goes on there.
func stopsGame(err error) bool {
	return errors.Is(err, store.ErrFileGone) || errors.Is(err, ErrSecondGame) || errors.Is(err, store.ErrLeaseLost)
}

// stop ends the game loop loudly: an error-level line, the errors counter, /healthz.
func (d *Daemon) stop(err error) error {
	if errors.Is(err, store.ErrLeaseLost) {
		d.log.Warn().Err(err).Str("kind", "lease").Msg("the game's lease is another daemon's now: this daemon stops running it")
		return fmt.Errorf("daemon: game %s: %w", d.o.Game, err)
	}
	d.m.Errors.WithLabelValues(d.o.Game, "stopped").Inc()
	if d.o.Health != nil {
		d.o.Health.Error(err)
		d.o.Health.Stop(d.o.Game, err.Error())
	}
	d.log.Error().Err(err).Str("kind", "stopped").Msg("the game stops: a person must look (see docs/operations.md, Backup)")
	return fmt.Errorf("daemon: game %s stopped: %w", d.o.Game, err)
}

// marks are the game's markers found in the bot's posts (and sent messages) read since the
// daemon started, and which kinds of message have been looked for since then.
type marks struct {
	mu     sync.Mutex
	posts  map[string]forum.Post // by marker (a part's marker for a part)
	looked map[store.OutboxKind]bool
	// from is the post the first reply's marker look reads from (lookAlong), known once
	// fromSet; it stands until replies are looked for (no reply goes out before).
	from    string
	fromSet bool
}

// noteMarkers keeps the game's markers found in the bot's posts among posts.
func (d *Daemon) noteMarkers(posts []forum.Post) {
	d.marks.mu.Lock()
	defer d.marks.mu.Unlock()
	for _, p := range posts {
		// Only the bot's own posts count: a player who posts a marker suppresses nothing. (The
		// sent folder's messages are the bot's; their author is the bot too.)
		if !d.isBot(p.Author) {
			continue
		}
		for m := range markerLines(p.Text) {
			if g, _, ok := store.MarkerOf(m); !ok || g != d.o.Game {
				continue
			}
			if d.marks.posts == nil {
				d.marks.posts = map[string]forum.Post{}
			}
			if _, ok := d.marks.posts[m]; !ok {
				// The first post holding it (a merged post's time is its first part's); its id,
				// author and time are what is kept (the index lives as long as the daemon), each
				// a copy: the marker is a line of the post's text, and would keep the whole text.
				d.marks.posts[strings.Clone(m)] = forum.Post{ID: strings.Clone(p.ID), Author: strings.Clone(p.Author), Time: p.Time}
			}
		}
	}
}

// lookAlong is the post the first reply after a start would look for its marker from (checkFrom
// of the reply to come: the post of the game's last reply; "" for the whole thread); look is
// false once replies were looked for.
//
// The reply path's read of the thread takes the look along: a read that returns that post, or
// everything after a cursor before it, or the whole thread, has seen every post the reply's
// marker could be in (covers). A store behind the thread (an older backup) has its cursor behind
// everything posted after it was taken, and a reply merged into an earlier post went into the
// bot's last post then. The cursor at the bot's last reply itself asks for that post along
// (forum.WithIncludeIfRead), at no cost: its page is the one read.
func (d *Daemon) lookAlong(ctx context.Context) (last string, look bool, err error) {
	if d.lookedFor(store.OutboxReply) {
		return "", false, nil
	}
	d.marks.mu.Lock()
	last, set := d.marks.from, d.marks.fromSet
	d.marks.mu.Unlock()
	if set {
		return last, true, nil
	}
	it, ok, err := d.o.Store.LastReply(ctx, d.o.Game)
	if err != nil {
		d.fail("store", err)
		return "", false, err
	}
	if ok && it.State == store.OutboxPosted {
		last = it.ForumPostID
	}
	d.marks.mu.Lock()
	d.marks.from, d.marks.fromSet = last, true
	d.marks.mu.Unlock()
	return last, true, nil
}

// covers reports whether a read after cur that returned posts saw every post a marker look from
// last (lookAlong) would.
func covers(cur forum.Cursor, last string, posts []forum.Post) bool {
	switch {
	case len(posts) == 0:
		return false // nothing read (the idle look showed the thread as it was)
	case cur.PostID == "":
		return true // the whole thread
	case last == "":
		return false
	case forum.IDLess(cur.PostID, last):
		return true
	case cur.PostID == last && cur.Include:
		return posts[0].ID == last
	}
	return false
}

// knownMarkers returns the post holding each of markers found so far.
func (d *Daemon) knownMarkers(markers []string) map[string]forum.Post {
	d.marks.mu.Lock()
	defer d.marks.mu.Unlock()
	found := map[string]forum.Post{}
	for _, m := range markers {
		if p, ok := d.marks.posts[m]; ok {
			found[m] = p
		}
	}
	return found
}

// lookedFor reports whether messages of kind have been looked for since the daemon started.
func (d *Daemon) lookedFor(kind store.OutboxKind) bool {
	d.marks.mu.Lock()
	defer d.marks.mu.Unlock()
	return d.marks.looked[kind]
}

func (d *Daemon) setLookedFor(kind store.OutboxKind) {
	d.marks.mu.Lock()
	defer d.marks.mu.Unlock()
	if d.marks.looked == nil {
		d.marks.looked = map[store.OutboxKind]bool{}
	}
	d.marks.looked[kind] = true
}

// checkNewStore reads the whole thread before the game's first start in this store: the game's
// markers found there are kept (so the opening post goes out without another read), and one of
// them under another store's key refuses the start with a *SecondGameError. Done once per daemon.
func (d *Daemon) checkNewStore(ctx context.Context) error {
	if d.lookedFor(store.OutboxReply) {
		return nil
	}
	posts, _, err := d.o.Forum.Posts(ctx, d.o.Thread, forum.Cursor{})
	if err != nil {
		return d.forumErr(ctx, fmt.Errorf("daemon: read the thread before the start: %w", err))
	}
	d.noteMarkers(posts)
	d.marks.mu.Lock()
	found := make(map[string]forum.Post, len(d.marks.posts))
	for m, p := range d.marks.posts {
		found[m] = p
	}
	d.marks.mu.Unlock()
	var foreign []*SecondGameError
	for m, p := range found {
		own, err := d.o.Store.OwnMarker(ctx, d.o.Game, m)
		if err != nil {
			d.fail("store", err)
			return err
		}
		if !own {
			foreign = append(foreign, &SecondGameError{Game: d.o.Game, Thread: d.o.Thread.ID, Post: p, Marker: m})
		}
	}
	if len(foreign) > 0 {
		// Name the opening post when it is there, else the oldest post found.
		sort.Slice(foreign, func(i, j int) bool {
			a, b := foreign[i], foreign[j]
			if oa, ob := isOpening(a.Marker), isOpening(b.Marker); oa != ob {
				return oa
			}
			if a.Post.ID != b.Post.ID {
				return forum.IDLess(a.Post.ID, b.Post.ID)
			}
			return a.Marker < b.Marker
		})
		return foreign[0]
	}
	d.setLookedFor(store.OutboxReply)
	return nil
}

// isOpening reports whether marker is the game's first item's (its opening post).
func isOpening(marker string) bool {
	_, n, _ := store.MarkerOf(marker)
	return n == 1
}
