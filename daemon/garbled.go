package daemon

import (
	"fmt"
	"time"

	"forumgm/forum"
	"forumgm/game"
)

// A post whose author or text did not decode cleanly (forum.ProblemEncoding: replacement
// characters or mojibake, a page read in a charset it is not in) is held: it is not judged, the
// cursor does not pass it (nor the inputs after it), it is logged at error (kind "encoding"),
// counted (forumgm_posts_held_total) and shown on /healthz; the next read that gives its real
// text judges it as usual, and as it really reads: the garbled text is never stored, so it never
// becomes the "first version" of an edit. A post still garbled after holdGarbled (a player who
// wrote mojibake or U+FFFD himself) is handed to the moderators as unreadable, so that no post
// can stop a game for good.

// holdGarbled is how long a garbled post is held before it goes to the moderators.
const holdGarbled = 10 * time.Minute

// heldPost is the post a read stopped at: its source and id, and since when.
type heldPost struct {
	key   string
	since time.Time
}

// hold reports whether the garbled input in (its problem pr) is held at now; false once it was
// held for holdGarbled (judgeOnce then flags it).
func (d *Daemon) hold(in input, pr forum.Problem, now time.Time) bool {
	key := string(in.src) + " " + in.post.ID
	if d.held.key != key {
		d.held = heldPost{key: key, since: now}
	}
	if now.Sub(d.held.since) >= holdGarbled {
		d.log.Error().Str("source", string(in.src)).Str("post", in.post.ID).Str("problem", pr.String()).
			Dur("held", now.Sub(d.held.since)).Msg("a post still garbled after being held: flagged for a moderator")
		d.held = heldPost{}
		return false
	}
	d.m.PostsHeld.WithLabelValues(d.o.Game, string(in.src)).Inc()
	d.fail("encoding", fmt.Errorf("daemon: %s post %s held, not judged: %s (a page read in a charset it is not in?); judged once a read gives its real text, flagged for a moderator after %s",
		in.src, in.post.ID, pr, holdGarbled))
	if d.o.Health != nil {
		d.o.Health.Hold(d.o.Game, fmt.Sprintf("%s post %s: %s", in.src, in.post.ID, pr))
	}
	return true
}

// released records that a read went through without holding a post.
func (d *Daemon) released() {
	d.held = heldPost{}
	if d.o.Health != nil {
		d.o.Health.Hold(d.o.Game, "")
	}
}

// garbledOutcome is the verdict on a post still garbled after holdGarbled: a person must read it.
func garbledOutcome(p forum.Post, pr forum.Problem) game.Outcome {
	return game.Outcome{Verdict: game.Flagged, Flags: []game.Flag{{Kind: game.FlagUnreadable, PostID: p.ID,
		Detail: fmt.Sprintf("the post did not read cleanly for %s (%s): read it on the forum", holdGarbled, pr)}}}
}
